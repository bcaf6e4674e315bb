/**
 * Only the demo says it replays recordings (lib/local/demo-recording.ts): not the service behind another
 * upstream, even with a demo upstream running in the same process, nor `npm start` with a key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ReplayUpstream, startReplayUpstream } from '../../lib/local/replay-upstream.js';
import { useService } from '../support/service.js';

const ctx = useService();
let replay: ReplayUpstream;

beforeAll(async () => {
  replay = await startReplayUpstream();
});
afterAll(async () => {
  await replay?.close();
});

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill();
});

describe('the service behind the tests’ fake upstream', () => {
  it.each([
    ['/v1/web-search/alpha', { q: 'coffee' }],
    ['/v1/alpha/news', { q: 'electric cars', page: 1 }],
    ['/v1/alpha/trends', { queries: ['bitcoin'] }],
    ['/v1/alpha/scholar/author', { author_id: 'abc', page: 1 }],
    ['/v1/usage', {}],
  ])('answers %s with no word of a demo', async (path, body) => {
    const reply = await ctx.service.post(path, body);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('x-demo-recording')).toBeNull();
    expect(reply.json.message).not.toContain('demo');
  });
});

/** Starts `npm start`'s entry point with this environment on a free port; resolves its URL once it listens. */
function startEntryPoint(env: Record<string, string>): Promise<string> {
  const childEnv: Record<string, string | undefined> = { ...process.env, PORT: '0', ...env };
  for (const name of ['CLIENT_KEYS_SECRET_ID', 'SERPAPI_SECRET_ID', 'CROSSREF_BASE_URL', 'ANSWER_CACHE_TTL_SECONDS']) {
    delete childEnv[name];
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/local/main.ts'], { env: childEnv, stdio: 'pipe' });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const read = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && out.includes('Try it:')) resolve(url);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
}

describe('npm start with a key', () => {
  it('answers with no word of a demo', async () => {
    const url = await startEntryPoint({
      SERPAPI_API_KEY: 'a'.repeat(64),
      SERPAPI_BASE_URL: ctx.upstream.url,
      API_KEYS: 'own-key-0123456789',
    });
    const response = await fetch(`${url}/v1/alpha/news`, {
      method: 'POST',
      headers: { Authorization: 'Bearer own-key-0123456789', 'Content-Type': 'application/json' },
      body: JSON.stringify({ q: 'electric cars' }),
    });
    const json = (await response.json()) as { message: string };
    expect(response.status, JSON.stringify(json)).toBe(200);
    expect(response.headers.get('x-demo-recording')).toBeNull();
    expect(json.message).not.toContain('demo');
    expect(ctx.upstream.calls('google')).toBe(1);
  }, 60_000);
});
