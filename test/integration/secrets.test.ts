/**
 * Deployed-mode credentials: client key digests and the upstream key come from Secrets Manager through
 * the real AWS SDK, pointed at a local endpoint speaking its protocol.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSecretsManager, startFakeSecretsManager } from '../support/fake-secrets-manager.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type Service, startService } from '../support/service.js';

const CLIENT_KEY = 'deployed-client-key-abcdef';
const UPSTREAM_KEY = 'deployed-upstream-key-123456';
const KEYS_SECRET = 'search-api/client-keys';
const UPSTREAM_SECRET = 'search-api/serpapi';

// Hashed here, not with lib/client-keys.ts: importing the service before startService would read its config too early.
const digest = createHash('sha256').update(CLIENT_KEY).digest('hex');
const keysSecret = JSON.stringify({ keys: [{ name: 'team-a', sha256: digest }] });
const upstreamSecret = JSON.stringify({ serpapi_api_key: UPSTREAM_KEY });

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
  });
});
afterAll(async () => {
  await service.close();
  await upstream.close();
  await secrets.close();
});
beforeEach(() => {
  upstream.reset();
  secrets.down = false;
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

  it('rejects a key whose digest is not in the secret', async () => {
    const reply = await search('some-other-key');
    expect(reply.status).toBe(401);
    expect(reply.json.error.code).toBe('UNAUTHORIZED');
  });
});

describe('a broken secret store is SERVICE_MISCONFIGURED, and is not cached', () => {
  // Each case breaks the store after the values are cached, so it forces a fresh read first.
  async function expireCache() {
    const { invalidateSecret } = await import('../../lib/secrets.js');
    invalidateSecret(KEYS_SECRET);
  }

  it.each([
    [
      'Secrets Manager is down',
      () => {
        secrets.down = true;
      },
    ],
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
    const { invalidateSecret } = await import('../../lib/secrets.js');
    invalidateSecret(UPSTREAM_SECRET);
    secrets.secrets.set(UPSTREAM_SECRET, '{"api_key":"x"}');
    const reply = await search();
    expect(reply.status).toBe(500);
    expect(reply.json.error.code).toBe('SERVICE_MISCONFIGURED');
    secrets.secrets.set(UPSTREAM_SECRET, upstreamSecret);
    expect((await search()).status).toBe(200);
  });
});
