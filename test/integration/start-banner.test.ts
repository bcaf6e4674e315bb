import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { maskKey } from '../../lib/local/mask-key.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill();
});

/**
 * Runs `npm start`'s entry point on a free port with this environment and returns its banner, and what it
 * printed in the `afterMs` that followed.
 */
function banner(env: Record<string, string | undefined>, afterMs = 0): Promise<string> {
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
      if (out.includes('Try it:') && /curl[^\n]*\n/.test(out.slice(out.indexOf('Try it:')))) {
        setTimeout(() => resolve(out), afterMs);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code} before its banner:\n${out}`)));
  });
}

/** Runs `npm start`'s entry point expecting it to stop: its exit code and everything it printed. */
function failedStart(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  for (const name of ['API_KEYS', 'CLIENT_KEYS_SECRET_ID', 'SERPAPI_API_KEY', 'SERPAPI_SECRET_ID', 'SERPAPI_BASE_URL']) {
    if (!(name in env)) delete childEnv[name];
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/local/main.ts'], { env: childEnv, stdio: 'pipe' });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('npm start on a bad setup', () => {
  it('says in one line that the port is taken and what to do, and exits 1 without a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { code, output } = await failedStart({ PORT: String(port) });
      expect(code).toBe(1);
      // One line and nothing else: no stack trace, no log line (the demo's Account API read is quiet).
      expect(output.trim()).toBe(
        `Port ${port} is in use on 127.0.0.1: stop what listens there or set PORT to a free port (PORT=${port + 1} npm start)`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('says in one line which variable is wrong, and exits 1 without a stack trace', async () => {
    const { code, output } = await failedStart({ PORT: '0', SERPAPI_API_KEY: 'foo', SERPAPI_BASE_URL: 'https://serpapi.com' });
    expect(code).toBe(1);
    expect(output.trim()).toMatch(
      /^Invalid configuration: SERPAPI_API_KEY: must be a SerpApi API key, 64 hexadecimal characters/,
    );
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).not.toContain('foo');
  });
});

describe('npm start banner', () => {
  it('shows the demo key in full when no key is configured', async () => {
    const text = await banner({});
    expect(text).toMatch(/API key: +demo-key\n/);
    expect(text).toContain("'Authorization: Bearer demo-key'");
  });

  it('prints no log line in the demo, before the banner or after: its upstream has no Account API, as expected', async () => {
    // The Account API is read in the background at start: give its answer (a 404 from the demo) time to come.
    const text = await banner({}, 1_500);
    expect(text.trimStart().startsWith('Search and Citation API listening on')).toBe(true);
    expect(text).not.toContain('account API not read');
    expect(text.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
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
