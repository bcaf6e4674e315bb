/**
 * The demo says what it replays (lib/local/demo-recording.ts): every answer of the service behind the
 * demo upstream names the query its recording answers, in the `X-Demo-Recording` header and at the end of
 * the envelope's message, and a page the demo holds no recording of says so and never claims to be the
 * last one; the budget's counts, which are of replays, say so.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USAGE_NOTE } from '../../lib/local/demo-recording.js';
import { type ReplayCrossref, startReplayCrossref } from '../../lib/local/replay-crossref.js';
import { type ReplayUpstream, startReplayUpstream } from '../../lib/local/replay-upstream.js';
import { type Reply, type Service, startService } from '../support/service.js';

let replay: ReplayUpstream;
let crossref: ReplayCrossref;
let service: Service;

beforeAll(async () => {
  [replay, crossref] = await Promise.all([startReplayUpstream(), startReplayCrossref()]);
  service = await startService({ SERPAPI_BASE_URL: replay.url, CROSSREF_BASE_URL: crossref.url });
  // The first citation search of a process builds the citation styles: seconds of CPU on a busy machine.
  await (await import('../../lib/citations/render/render.js')).citationRenderer();
}, 180_000);

afterAll(async () => {
  await service?.close();
  await Promise.all([replay?.close(), crossref?.close()]);
});

async function post(path: string, body: Record<string, unknown>): Promise<Reply> {
  const reply = await service.post(path, body);
  expect(reply.status, reply.text).toBe(200);
  return reply;
}

describe('a demo answer names the recording it replays', () => {
  it.each([
    ['a web search', '/v1/web-search/alpha', { q: 'coffee' }, 'Coffee', '(demo: recorded answer for "Coffee")'],
    ['news for other terms', '/v1/alpha/news', { q: 'electric cars' }, 'coffee', '(demo: recorded answer for "coffee")'],
    [
      'trends for other terms',
      '/v1/alpha/trends',
      { queries: ['bitcoin'], geo: 'DE', timeframe: 'today 5-y' },
      'vpn,antivirus,ad blocker,password manager; coffee',
      '(demo: recorded answers for "vpn,antivirus,ad blocker,password manager" and "coffee")',
    ],
    ['a citation search', '/v1/cite/search', { query: 'bananas' }, 'bananas', '(demo: recorded answer for "bananas")'],
  ])('%s', async (_, path, body, recording, note) => {
    const reply = await post(path, body);
    expect(reply.headers.get('x-demo-recording')).toBe(recording);
    expect(reply.json.message).toMatch(/^\S.* \(demo: /);
    expect(reply.json.message.endsWith(note)).toBe(true);
  });

  it('answers terms it holds a recording for with that recording, and names it', async () => {
    const reply = await post('/v1/cite/search', { query: 'Boettiger ecology', results: 3 });
    expect(reply.headers.get('x-demo-recording')).toBe('ecology, author Carl Boettiger (Crossref)');
    expect(reply.json.data.papers[0].citations_source).toBe('crossref');
  });

  it('names each answer its own recordings when requests overlap', async () => {
    const asked = [
      ['/v1/alpha/news', { q: 'a' }, 'coffee'],
      ['/v1/web-search/delta', { q: 'b' }, 'ospp'],
      ['/v1/alpha/scholar/author', { author_id: 'abc' }, 'author_id=LSsXyncAAAAJ'],
      ['/v1/web-search/charlie', { q: 'c' }, 'Coffee'],
    ] as const;
    const replies = await Promise.all([...asked, ...asked].map(([path, body]) => post(path, body)));
    expect(replies.map((reply) => reply.headers.get('x-demo-recording'))).toEqual(
      [...asked, ...asked].map(([, , recording]) => recording),
    );
  });

  it('adds nothing to an answer no recording made: a refused request', async () => {
    const reply = await service.post('/v1/web-search/alpha', { q: '' });
    expect(reply.status).toBe(400);
    expect(reply.headers.get('x-demo-recording')).toBeNull();
    expect(reply.json.message).not.toContain('demo');
  });
});

describe('the budget in the demo', () => {
  it('counts every replayed search, and /v1/usage says that they are replays, none paid for', async () => {
    await post('/v1/web-search/alpha', { q: 'coffee', no_cache: true });
    const usage = await post('/v1/usage', {});
    expect(usage.json.data.hour.used).toBeGreaterThanOrEqual(1);
    expect(usage.json.message).toMatch(/^\d+ searches left this hour \(demo: /);
    expect(usage.json.message.endsWith(DEMO_USAGE_NOTE)).toBe(true);
    // It replays nothing itself: no recording to name.
    expect(usage.headers.get('x-demo-recording')).toBeNull();
  });

  it('says nothing of replays on a refused usage request', async () => {
    const reply = await service.post('/v1/usage', { extra: 1 });
    expect(reply.status).toBe(400);
    expect(reply.json.message).not.toContain('demo');
  });
});

describe('paging the demo is honest', () => {
  const unrecorded = /\(demo: .*no recording of this page/;

  it('a later page of a web search says the demo holds no recording of it, and that more may follow', async () => {
    const first = await post('/v1/alpha/news', { q: 'electric cars' });
    expect(first.json.message).not.toMatch(unrecorded);
    const reply = await post('/v1/alpha/news', { q: 'electric cars', page: 1 });
    expect(reply.headers.get('x-demo-recording')).toBe('coffee');
    expect(reply.json.message).toMatch(unrecorded);
    expect(reply.json.data.pagination).toMatchObject({ current_page: 1, has_more: true, next_page: 2 });
  });

  it.each([
    ['/v1/web-search/alpha', { q: 'x', page: 1 }],
    ['/v1/web-search/bravo', { q: 'x', page: 1 }],
    ['/v1/web-search/charlie', { q: 'x', page: 1 }],
    ['/v1/web-search/delta', { q: 'x', page: 1 }],
    ['/v1/alpha/scholar/author', { author_id: 'abc', page: 1 }],
  ])('page 1 of %s says so, and that more may follow', async (path, body) => {
    const reply = await post(path, body);
    expect(reply.json.message).toMatch(unrecorded);
    expect(reply.json.data.pagination).toMatchObject({ current_page: 1, has_more: true, next_page: 2 });
  });

  it('page 1 of a citation search says so and is not "the last page"', async () => {
    const reply = await post('/v1/cite/search', { query: 'bananas', page: 1 });
    expect(reply.json.message).toMatch(unrecorded);
    expect(reply.json.data.has_more).toBe(true);
    expect(reply.json.data.note).not.toContain('This is the last page');
  });

  it('the page built from the Crossref recording is not "the last page" either, on any page', async () => {
    for (const page of [0, 1]) {
      const reply = await post('/v1/cite/search', { query: 'Boettiger ecology', results: 3, page });
      expect(reply.json.data.has_more, `page ${page}`).toBe(true);
      expect(reply.json.data.note).not.toContain('This is the last page');
      expect(unrecorded.test(reply.json.message), `page ${page}: ${reply.json.message}`).toBe(page > 0);
    }
  });
});

describe('npm start in the demo', () => {
  const started: ChildProcess[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill();
  });

  /** `npm start`'s entry point with no key, on a free port: its URL once it listens. */
  function startDemo(): Promise<string> {
    const env: Record<string, string | undefined> = { ...process.env, PORT: '0' };
    for (const name of ['API_KEYS', 'CLIENT_KEYS_SECRET_ID', 'SERPAPI_API_KEY', 'SERPAPI_SECRET_ID', 'SERPAPI_BASE_URL']) {
      delete env[name];
    }
    for (const name of ['CROSSREF_BASE_URL', 'ANSWER_CACHE_TTL_SECONDS']) delete env[name];
    const child = spawn(process.execPath, ['--import', 'tsx', 'lib/local/main.ts'], { env, stdio: 'pipe' });
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

  it('names the recording on every answer, the same request asked again too', async () => {
    const url = await startDemo();
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${url}/v1/web-search/alpha`, {
        method: 'POST',
        headers: { Authorization: 'Bearer demo-key', 'Content-Type': 'application/json' },
        body: JSON.stringify({ q: 'electric cars' }),
      });
      const json = (await response.json()) as { message: string };
      expect(response.status, JSON.stringify(json)).toBe(200);
      expect(response.headers.get('x-demo-recording'), `request ${i + 1}`).toBe('Coffee');
      expect(json.message).toMatch(/\(demo: recorded answer for "Coffee"\)$/);
    }
  }, 60_000);
});
