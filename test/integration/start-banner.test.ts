import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { maskKey } from '../../lib/local/mask-key.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill();
});

/** Runs `npm start`'s entry point on a free port with this environment and returns its banner. */
function banner(env: Record<string, string | undefined>): Promise<string> {
  const childEnv: Record<string, string | undefined> = { ...process.env, PORT: '0', ...env };
  for (const name of ['API_KEYS', 'CLIENT_KEYS_SECRET_ID', 'SERPAPI_API_KEY', 'SERPAPI_SECRET_ID', 'SERPAPI_BASE_URL']) {
    if (!(name in env)) delete childEnv[name];
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/local/main.ts'], { env: childEnv, stdio: 'pipe' });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('Try it:') && /curl[^\n]*\n/.test(out.slice(out.indexOf('Try it:')))) resolve(out);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code} before its banner:\n${out}`)));
  });
}

describe('npm start banner', () => {
  it('shows the demo key in full when no key is configured', async () => {
    const text = await banner({});
    expect(text).toMatch(/API key: +demo-key\n/);
    expect(text).toContain("'Authorization: Bearer demo-key'");
  });

  it('shows the hourly budget in force: the default, or SEARCHES_PER_HOUR', async () => {
    expect(await banner({})).toMatch(/Budget: +250 paid searches an hour, counted in this process/);
    expect(await banner({ SEARCHES_PER_HOUR: '5' })).toMatch(/Budget: +5 paid searches an hour/);
  });

  it('shows a key from API_KEYS only masked, anywhere in the banner', async () => {
    const text = await banner({ API_KEYS: 'opsk-9f8e7d6c5b4a,second-key-0000000' });
    expect(text).toMatch(/API key: +opsk…\n/);
    expect(text).not.toContain('9f8e7d6c5b4a');
    expect(text).not.toContain('second-key-0000000');
    expect(text).toContain("'Authorization: Bearer <your key>'");
  });
});

describe('maskKey', () => {
  it('keeps the first 4 characters of a key and hides the rest', () => {
    expect(maskKey('abcd-secret-tail')).toBe('abcd…');
  });

  it('hides a short key entirely rather than show most of it', () => {
    expect(maskKey('abcdefgh')).toBe('…');
    expect(maskKey('ab')).toBe('…');
  });
});
