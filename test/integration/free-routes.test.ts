/**
 * The free routes as deployed (lib/routes.ts: `needs.upstreamKey` false for /v1/cite/styles and
 * /v1/cite/resolve): their functions get NO_UPSTREAM_KEY instead of the SerpApi key's secret id
 * (infra/api-function.ts; test/infra/least-privilege.test.ts checks the template), and their roles cannot
 * read that secret. Here the real handlers run with that environment, reading client keys from a local
 * Secrets Manager that also holds the SerpApi key: they must answer without ever asking for it, not at
 * start and not for SerpApi's free Account API.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { capturedLogLines } from '../support/capture-logs.js';
import { type FakeCrossref, startFakeCrossref } from '../support/fake-crossref.js';
import { type FakeSecretsManager, startFakeSecretsManager } from '../support/fake-secrets-manager.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type Service, startService, TEST_CLIENT_KEY } from '../support/service.js';

const KEYS_SECRET = 'search-api/client-keys';
const UPSTREAM_SECRET = 'search-api/serpapi';

let secrets: FakeSecretsManager;
let upstream: FakeSerpApi;
let crossref: FakeCrossref;
let service: Service;
/** Every secret id read, in order, from the very start of the process's service (its cold start included). */
const reads: string[] = [];

beforeAll(async () => {
  secrets = await startFakeSecretsManager({
    [KEYS_SECRET]: JSON.stringify({
      keys: [{ name: 'team-a', sha256: createHash('sha256').update(TEST_CLIENT_KEY).digest('hex') }],
    }),
    [UPSTREAM_SECRET]: JSON.stringify({ serpapi_api_key: 'the-key-no-free-route-may-read' }),
  });
  secrets.afterCall = (operation, secretId) => {
    if (operation === 'GetSecretValue') reads.push(secretId ?? '(no id)');
  };
  upstream = await startFakeSerpApi();
  crossref = await startFakeCrossref();
  service = await startService({
    API_KEYS: undefined,
    SERPAPI_API_KEY: undefined,
    CLIENT_KEYS_SECRET_ID: KEYS_SECRET,
    NO_UPSTREAM_KEY: 'true',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
    SERPAPI_BASE_URL: upstream.url,
    CROSSREF_BASE_URL: crossref.url,
    // On, as deployed: a function that held the key would read the plan's numbers at start and after requests.
    ACCOUNT_API_TTL_SECONDS: '600',
  });
});
afterAll(async () => {
  await service.close();
  await crossref.close();
  await upstream.close();
  await secrets.close();
});
beforeEach(() => upstream.reset());

describe('a free route as deployed', () => {
  it('answers /v1/cite/styles and /v1/cite/resolve, reading the client keys and never the SerpApi key', async () => {
    const styles = await service.post('/v1/cite/styles', { query: 'nature' });
    expect(styles.status, styles.text).toBe(200);
    const resolved = await service.post('/v1/cite/resolve', { references: ['10.1000/nothing-at-crossref'] });
    expect(resolved.status, resolved.text).toBe(200);
    expect(crossref.requests.length).toBeGreaterThan(0);
    // Cold start, both requests and what runs after them: the client keys, once.
    expect(reads).toEqual([KEYS_SECRET]);
    expect(upstream.accountReads).toBe(0);
    expect(upstream.calls()).toBe(0);
  });

  it('does not even try: no line says the plan’s numbers could not be read', () => {
    const lines = capturedLogLines.map((line) => JSON.parse(line) as { message?: string; upstreamKey?: string });
    expect(lines.filter((line) => String(line.message).startsWith('account API not read'))).toEqual([]);
    expect(lines.find((line) => line.message === 'credential sources')?.upstreamKey).toBe(
      'none: this function makes no paid call',
    );
  });

  it('refuses a paid call, were one ever made here, before any secret read: 500 SERVICE_MISCONFIGURED', async () => {
    const before = reads.length;
    const reply = await service.post('/v1/web-search/alpha', { q: 'coffee' });
    expect(reply.status).toBe(500);
    expect(reply.json.error.code).toBe('SERVICE_MISCONFIGURED');
    // The client keys are still cached: no read of any secret at all.
    expect(reads.slice(before)).toEqual([]);
    expect(upstream.calls()).toBe(0);
  });
});
