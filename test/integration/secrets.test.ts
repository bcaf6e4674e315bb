/**
 * Deployed-mode credentials: client key digests and the upstream key come from Secrets Manager through
 * the real AWS SDK, pointed at a local endpoint speaking its protocol.
 */

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { capturedLogLines } from '../support/capture-logs.js';
import { type FakeSecretsManager, startFakeSecretsManager } from '../support/fake-secrets-manager.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type Service, startService, TEST_CLIENT_KEY } from '../support/service.js';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.js';
import { watchTimerLag } from '../support/timer-lag.js';

const CLIENT_KEY = 'deployed-client-key-abcdef';
const UPSTREAM_KEY = 'deployed-upstream-key-123456';
const KEYS_SECRET = 'search-api/client-keys';
const UPSTREAM_SECRET = 'search-api/serpapi';

// Hashed here, not with lib/credentials/client-keys.ts: importing the service before startService would read its config too early.
const digest = createHash('sha256').update(CLIENT_KEY).digest('hex');
const keysSecret = JSON.stringify({ keys: [{ name: 'team-a', sha256: digest }] });
const upstreamSecret = JSON.stringify({ serpapi_api_key: UPSTREAM_KEY });

// The deadline is what the tests of a silent store wait for, so it is short; but every request that must
// succeed has to finish within it too, so it is far above what a warm request takes (a few milliseconds
// of work on loopback). The cold costs that once took a first request past a 1.5 s deadline on a busy
// machine (loading the handler and the AWS SDK) are paid in `beforeAll`, under the hook's own generous
// limit, not inside any request's deadline.
const DEADLINE_MS = 4_000;
const SECRETS_TIMEOUT_MS = 6_000;
// Loopback and the envelope written after the deadline. Upper bounds also add the time this process was
// not run (`watchTimerLag`): the service runs in it, so a busy machine delays its deadline timer as much.
const SLACK_MS = 400;
// Tests that wait for the deadline or the read's bound: room for that wait several times over.
const WAITS_FOR_BOUNDS = { timeout: 4 * (DEADLINE_MS + SECRETS_TIMEOUT_MS) };

let secrets: FakeSecretsManager;
let upstream: FakeSerpApi;
let service: Service;

beforeAll(async () => {
  secrets = await startFakeSecretsManager({ [KEYS_SECRET]: keysSecret, [UPSTREAM_SECRET]: upstreamSecret });
  upstream = await startFakeSerpApi();
  service = await startService({
    SERPAPI_BASE_URL: upstream.url,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
    API_KEYS: undefined,
    SERPAPI_API_KEY: undefined,
    CLIENT_KEYS_SECRET_ID: KEYS_SECRET,
    SERPAPI_SECRET_ID: UPSTREAM_SECRET,
    // Long enough that only a failure, never expiry, makes the service read a secret again in this file.
    SECRETS_TTL_SECONDS: '300',
    // A request gives up on a silent Secrets Manager at its deadline, before the shared read's own bound.
    REQUEST_DEADLINE_MS: String(DEADLINE_MS),
    SECRETS_TIMEOUT_MS: String(SECRETS_TIMEOUT_MS),
  });
  // Warm-up, outside every request's deadline: the SDK the service imports on its first secret read (the
  // same module instance: both imports resolve to Node's cache), and the handler's code, loaded by a
  // request without a key, which is refused before any secret is read.
  await import('@aws-sdk/client-secrets-manager');
  const warmUp = await service.post('/v1/web-search/charlie', { q: 'coffee' }, { headers: { Authorization: '' } });
  expect(warmUp.status).toBe(401);
  expect(secrets.calls).toBe(0);
});
afterAll(async () => {
  await service.close();
  await upstream.close();
  await secrets.close();
});
beforeEach(() => {
  upstream.reset();
  secrets.down = false;
  secrets.hang = false;
  secrets.secrets.set(KEYS_SECRET, keysSecret);
  secrets.secrets.set(UPSTREAM_SECRET, upstreamSecret);
});

const search = (key = CLIENT_KEY) =>
  service.post('/v1/web-search/charlie', { q: 'coffee' }, { headers: { Authorization: `Bearer ${key}` } });

describe('keys from Secrets Manager', () => {
  it('accepts a key whose digest is in the secret, sends the upstream key from its secret, and caches both', async () => {
    const first = await search();
    expect(first.status).toBe(200);
    expect(upstream.requests[0]?.get('api_key')).toBe(UPSTREAM_KEY);
    const callsAfterFirst = secrets.calls;
    expect(callsAfterFirst).toBe(2);
    for (let i = 0; i < 5; i++) expect((await search()).status).toBe(200);
    expect(secrets.calls).toBe(callsAfterFirst);
  });

  it('reads the upstream key secret again after the upstream rejects the key, so a rotated key takes effect', async () => {
    expect((await search()).status).toBe(200);
    const before = secrets.calls;
    upstream.queue('invalidKey');
    expect((await search()).json.error.code).toBe('SERVICE_MISCONFIGURED');
    expect((await search()).status).toBe(200);
    expect(secrets.calls).toBe(before + 1);
  });

  it('says once which sources the credentials come from, on the first invocation, whatever its order in the file', async () => {
    await search();
    await search('some-other-key-0123456789');
    const lines = logLines().filter((line) => line.message === 'credential sources');
    expect(lines).toEqual([
      expect.objectContaining({ clientKeys: `secret ${KEYS_SECRET}`, upstreamKey: `secret ${UPSTREAM_SECRET}` }),
    ]);
  });

  it('rejects a key whose digest is not in the secret', async () => {
    const reply = await search('some-other-key-0123456789');
    expect(reply.status).toBe(401);
    expect(reply.json.error.code).toBe('UNAUTHORIZED');
  });
});

describe('a broken secret store is SERVICE_MISCONFIGURED, or SERVICE_UNAVAILABLE when it does not answer, and is not cached', () => {
  // Each case breaks the store after the values are cached, so it forces a fresh read first.
  async function expireCache() {
    const { invalidateSecret } = await import('../../lib/credentials/secrets.js');
    invalidateSecret(KEYS_SECRET);
  }

  it('when Secrets Manager answers with its own error: 503 SERVICE_UNAVAILABLE with Retry-After, then recovers', async () => {
    await expireCache();
    secrets.down = true;
    const broken = await search();
    expect(broken.status).toBe(503);
    expect(broken.json).toMatchObject({ success: false, data: null, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(broken.headers.get('retry-after')).toBe(String(SECRETS_TIMEOUT_MS / 1000));
    expect(broken.text).not.toContain(KEYS_SECRET);
    expect(upstream.calls()).toBe(0);
    secrets.down = false;
    expect((await search()).status).toBe(200);
  });

  it.each([
    [
      'the secret is missing',
      () => {
        secrets.secrets.delete(KEYS_SECRET);
      },
    ],
    [
      'the secret is not JSON',
      () => {
        secrets.secrets.set(KEYS_SECRET, 'keys=abc');
      },
    ],
    [
      'the secret has no keys array',
      () => {
        secrets.secrets.set(KEYS_SECRET, '{"key":"abc"}');
      },
    ],
  ])('when %s, then recovers on the next request once fixed', async (_name, breakIt) => {
    await expireCache();
    breakIt();
    const broken = await search();
    expect(broken.status).toBe(500);
    expect(broken.json).toMatchObject({ success: false, data: null, error: { code: 'SERVICE_MISCONFIGURED' } });
    expect(broken.text).not.toContain(KEYS_SECRET);
    expect(upstream.calls()).toBe(0);

    secrets.down = false;
    secrets.secrets.set(KEYS_SECRET, keysSecret);
    const fixed = await search();
    expect(fixed.status).toBe(200);
  });

  it('answers SERVICE_MISCONFIGURED when the upstream key secret lacks serpapi_api_key', async () => {
    const { invalidateSecret } = await import('../../lib/credentials/secrets.js');
    invalidateSecret(UPSTREAM_SECRET);
    secrets.secrets.set(UPSTREAM_SECRET, '{"api_key":"x"}');
    const reply = await search();
    expect(reply.status).toBe(500);
    expect(reply.json.error.code).toBe('SERVICE_MISCONFIGURED');
    secrets.secrets.set(UPSTREAM_SECRET, upstreamSecret);
    expect((await search()).status).toBe(200);
  });
});

/** Forces the next request to read the client key secret again, as an expired cache would. */
async function expireKeys(): Promise<void> {
  const { invalidateSecret } = await import('../../lib/credentials/secrets.js');
  invalidateSecret(KEYS_SECRET);
}

function logLines(): { message?: string; secretId?: string; error?: string }[] {
  return capturedLogLines.map((line) => JSON.parse(line));
}

describe('a Secrets Manager that never answers', WAITS_FOR_BOUNDS, () => {
  it('answers every waiting request 503 SERVICE_UNAVAILABLE with Retry-After by its deadline, sharing one read', async () => {
    await expireKeys();
    secrets.hang = true;
    const callsBefore = secrets.calls;
    const lag = watchTimerLag();
    const started = performance.now();
    const replies = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const reply = await search();
        return { reply, ms: performance.now() - started };
      }),
    );
    const notRun = lag.stop().total;
    for (const { reply, ms } of replies) {
      expect(reply.status).toBe(503);
      expect(reply.json).toMatchObject({ success: false, data: null, error: { code: 'SERVICE_UNAVAILABLE' } });
      expect(reply.headers.get('retry-after')).toBe(String(SECRETS_TIMEOUT_MS / 1000));
      expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS + notRun);
    }
    // One read for all eight: its first attempt, and at most its retry.
    expect(secrets.calls - callsBefore).toBeGreaterThanOrEqual(1);
    expect(secrets.calls - callsBefore).toBeLessThanOrEqual(2);
    expect(upstream.calls()).toBe(0);
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        message: 'secret unreadable',
        secretId: KEYS_SECRET,
        error: 'SecretTimeoutError: the request deadline passed first',
      }),
    );
  });

  it('abandons the shared read after SECRETS_TIMEOUT_MS, so the service recovers once the store answers again', async () => {
    await untilNoReadHangs(SECRETS_TIMEOUT_MS + SLACK_MS);
    await expireKeys();
    secrets.hang = true;
    const lag = watchTimerLag();
    const started = performance.now();
    expect((await search()).json.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS + SLACK_MS + lag.peek().total);
    secrets.hang = false;
    // The stuck read is given up, its connection closed, at its own bound: not left open for good.
    await untilNoReadHangs(SECRETS_TIMEOUT_MS + SLACK_MS - (performance.now() - started), lag);
    expect(performance.now() - started).toBeGreaterThanOrEqual(SECRETS_TIMEOUT_MS - 50);
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        message: 'secret unreadable',
        secretId: KEYS_SECRET,
        error: `SecretTimeoutError: no answer within SECRETS_TIMEOUT_MS (${SECRETS_TIMEOUT_MS} ms)`,
      }),
    );
    expect((await search()).status).toBe(200);
  });
});

/**
 * Waits until the fake holds no unanswered call, failing after `ms` plus the time this process was not run
 * (`lag`, when the caller's clock started earlier): the service's own bound is a timer in this process.
 */
async function untilNoReadHangs(ms: number, lag = watchTimerLag()): Promise<void> {
  const until = performance.now() + ms;
  try {
    while (secrets.hanging > 0) {
      expect(performance.now(), 'a read the service should have given up is still open').toBeLessThan(until + lag.peek().total);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    lag.stop();
  }
}

describe('callers while the client key secret is unreadable', WAITS_FOR_BOUNDS, () => {
  const post = (headers: Record<string, string>) => service.post('/v1/web-search/charlie', { q: 'coffee' }, { headers });

  it.each([
    ['no Authorization header', { Authorization: '' }],
    ['another scheme', { Authorization: `Basic ${Buffer.from(`u:${CLIENT_KEY}`).toString('base64')}` }],
    ['an empty bearer token', { Authorization: 'Bearer ' }],
    ['a token too short to be a key', { Authorization: 'Bearer admin' }],
    ['a token with characters no key has', { Authorization: 'Bearer {"keys":[]} or 1=1 --' }],
  ])('%s: 401 UNAUTHORIZED at once, without reading the secret', async (_name, headers) => {
    for (const broken of ['down', 'hang'] as const) {
      await expireKeys();
      secrets[broken] = true;
      const callsBefore = secrets.calls;
      const lag = watchTimerLag();
      const started = performance.now();
      const reply = await post(headers);
      expect(reply.status).toBe(401);
      expect(reply.json.error.code).toBe('UNAUTHORIZED');
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
      // Before the deadline a hanging read would take (plus the time this process was not run): it was not
      // waited for. That no read was made at all is the check below, which no clock can affect.
      expect(performance.now() - started).toBeLessThan(DEADLINE_MS + lag.stop().total);
      expect(secrets.calls).toBe(callsBefore);
      secrets[broken] = false;
    }
  });

  it('a token shaped like a key gets 503 SERVICE_UNAVAILABLE while the store does not answer (a good key cannot be told from it), 401 once it answers', async () => {
    await expireKeys();
    secrets.down = true;
    const reply = await search('a-stranger-guessing-0123456789');
    expect(reply.status).toBe(503);
    expect(reply.json.error.code).toBe('SERVICE_UNAVAILABLE');
    secrets.down = false;
    expect((await search('a-stranger-guessing-0123456789')).status).toBe(401);
  });

  it('never answers 401 to a valid key this container has not seen, while the store hangs: 503 with Retry-After', async () => {
    // A key added to the secret after this container's last read: valid, and new to it (as every key is to a
    // fresh container).
    const newKey = 'newly-issued-client-key-0123456789';
    const withNewKey = JSON.stringify({
      keys: [
        { name: 'team-a', sha256: digest },
        { name: 'team-b', sha256: createHash('sha256').update(newKey).digest('hex') },
      ],
    });
    await expireKeys();
    secrets.secrets.set(KEYS_SECRET, withNewKey);
    secrets.hang = true;
    const reply = await search(newKey);
    expect(reply.status).toBe(503);
    expect(reply.json.error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      details: `The service could not read its credentials in time (its secret store did not answer); retry in ${SECRETS_TIMEOUT_MS / 1000} s`,
    });
    expect(reply.headers.get('retry-after')).toBe(String(SECRETS_TIMEOUT_MS / 1000));
    secrets.hang = false;
    await untilNoReadHangs(SECRETS_TIMEOUT_MS + SLACK_MS);
    expect((await search(newKey)).status).toBe(200);
  });

  it('every token shaped like a key gets 500 SERVICE_MISCONFIGURED when the secret is gone, saying nothing more: a good key cannot be told from a guess', async () => {
    expect((await search()).status).toBe(200);
    await expireKeys();
    secrets.secrets.delete(KEYS_SECRET);
    for (const key of [CLIENT_KEY, 'a-stranger-guessing-0123456789']) {
      const reply = await search(key);
      expect(reply.status).toBe(500);
      expect(reply.json.error).toEqual({
        code: 'SERVICE_MISCONFIGURED',
        details: 'The service could not read its credentials; its operator must check the deployment',
      });
      expect(reply.text).not.toContain('search-api/');
    }
  });
});

describe('a container that has never read the client key secret', () => {
  // A secret of its own, so that the service of this file (which has read its secret) is not touched.
  const COLD_SECRET = 'search-api/client-keys-of-a-fresh-container';
  const coldDigest = createHash('sha256').update(TEST_CLIENT_KEY).digest('hex');
  let cold: ServiceProcess | undefined;
  afterAll(async () => {
    await cold?.stop();
    secrets.denied.clear();
    secrets.secrets.delete(COLD_SECRET);
  });

  it('answers a valid key 500 SERVICE_MISCONFIGURED from its first request while the secret is missing, denied or not JSON, never 401; then 200 once it is right', async () => {
    secrets.secrets.delete(COLD_SECRET);
    cold = await startServiceProcess({
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
      SERPAPI_BASE_URL: upstream.url,
      API_KEYS: undefined,
      CLIENT_KEYS_SECRET_ID: COLD_SECRET,
      SECRETS_TTL_SECONDS: '300',
    });
    const container = cold;
    const answers = async () => {
      const replies = [];
      // The key of this process's requests (TEST_CLIENT_KEY), twice, and a stranger's token of the same shape.
      for (const headers of [undefined, undefined, { Authorization: 'Bearer a-stranger-guessing-0123456789' }]) {
        const reply = await container.post('/v1/web-search/charlie', { q: 'coffee' }, headers ? { headers } : undefined);
        replies.push(`${reply.status} ${reply.json.error?.code}`);
      }
      return replies;
    };
    const misconfigured = Array(3).fill('500 SERVICE_MISCONFIGURED');
    // Missing.
    expect(await answers()).toEqual(misconfigured);
    // There, but this function's role may not read it.
    secrets.secrets.set(COLD_SECRET, JSON.stringify({ keys: [{ name: 'team-a', sha256: coldDigest }] }));
    secrets.denied.add(COLD_SECRET);
    expect(await answers()).toEqual(misconfigured);
    // Readable, but not JSON (the digest alone, a common slip).
    secrets.denied.delete(COLD_SECRET);
    secrets.secrets.set(COLD_SECRET, coldDigest);
    expect(await answers()).toEqual(misconfigured);
    // Right: the key was a client's all along, the stranger's token is not.
    secrets.secrets.set(COLD_SECRET, JSON.stringify({ keys: [{ name: 'team-a', sha256: coldDigest }] }));
    expect(await answers()).toEqual(['200 undefined', '200 undefined', '401 UNAUTHORIZED']);
    // A caller without a key is 401 whatever the secret, and reads nothing.
    expect((await container.post('/v1/web-search/charlie', { q: 'coffee' }, { headers: { Authorization: '' } })).status).toBe(
      401,
    );
  }, 120_000);
});

describe('a secret of the wrong shape', () => {
  it('logs why, never the value', async () => {
    await expireKeys();
    const plainKey = 'sca_plain-key-put-in-the-secret-by-mistake-0001';
    secrets.secrets.set(KEYS_SECRET, JSON.stringify({ keys: [{ name: 'team-b', sha256: plainKey }] }));
    expect((await search()).json.error.code).toBe('SERVICE_MISCONFIGURED');
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        message: 'secret has the wrong shape',
        secretId: KEYS_SECRET,
        error: 'SecretShapeError: keys[0] has a "sha256" that is not 64 hex digits',
      }),
    );
    for (const line of capturedLogLines) expect(line).not.toContain(plainKey.slice(4, 20));
  });
});

describe('the start-up line', () => {
  const run = promisify(execFile);

  it('says which source each credential comes from, and that the real, paid SerpApi is called when no base URL is set', async () => {
    // Logged when the first invocation asks for it (lib/middleware/request-id.ts), never at import.
    const script =
      "const m = await import('./lib/credentials/secrets.ts'); console.log(JSON.stringify({ message: 'imported' })); m.logCredentialSources();";
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { PATH: process.env.PATH, CLIENT_KEYS_SECRET_ID: KEYS_SECRET, SERPAPI_SECRET_ID: UPSTREAM_SECRET },
    });
    const entries = stdout
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text));
    expect(entries.map((entry) => entry.message)).toEqual(['imported', 'credential sources']);
    const line = entries.find((entry) => entry.message === 'credential sources');
    expect(line).toMatchObject({
      level: 'INFO',
      clientKeys: `secret ${KEYS_SECRET}`,
      upstreamKey: `secret ${UPSTREAM_SECRET}`,
      upstream: "https://serpapi.com: the real SerpApi, every search is paid for by the key's account",
    });
  });

  it('refuses to start with a plain key beside its secret', async () => {
    const failure = run(process.execPath, ['--import', 'tsx', '-e', "await import('./lib/credentials/secrets.ts')"], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { PATH: process.env.PATH, CLIENT_KEYS_SECRET_ID: KEYS_SECRET, API_KEYS: 'plain', SERPAPI_API_KEY: 'plain' },
    });
    await expect(failure).rejects.toMatchObject({ stderr: expect.stringContaining('set only one of API_KEYS') });
  });
});
