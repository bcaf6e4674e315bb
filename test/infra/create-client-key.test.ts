/**
 * The client key script: what it prints and merges, and that a key it creates is accepted by a deployed
 * handler (client key digests read from Secrets Manager through the real SDK) while nothing else is.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientKey, mergeEntry } from '../../infra/create-client-key.js';
import { type FakeSecretsManager, startFakeSecretsManager } from '../support/fake-secrets-manager.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';

const run = promisify(execFile);
const SCRIPT = new URL('../../infra/create-client-key.ts', import.meta.url).pathname;

describe('createClientKey', () => {
  it('makes a fresh 256-bit key each time, with the SHA-256 hex digest of exactly that key', async () => {
    const a = createClientKey('team-a');
    const b = createClientKey('team-a');
    expect(a.key).toMatch(/^sca_[A-Za-z0-9_-]{43}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.entry).toEqual({ name: 'team-a', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(a.entry.sha256).not.toBe(b.entry.sha256);
  });

  it.each(['', 'has space', '-leading-dash', 'x'.repeat(65), 'quote"'])('refuses the name %j', (name) => {
    expect(() => createClientKey(name)).toThrow(/^name: /);
  });
});

describe('mergeEntry', () => {
  const entry = { name: 'team-b', sha256: 'b'.repeat(64) };

  it('appends the entry and keeps the others', () => {
    const current = JSON.stringify({ keys: [{ name: 'team-a', sha256: 'a'.repeat(64) }] });
    expect(JSON.parse(mergeEntry(current, entry))).toEqual({ keys: [{ name: 'team-a', sha256: 'a'.repeat(64) }, entry] });
  });

  it('starts a list from an empty secret value', () => {
    expect(JSON.parse(mergeEntry('\n', entry))).toEqual({ keys: [entry] });
  });

  it('refuses a name already in use, a value without "keys" and a value that is not JSON', () => {
    expect(() => mergeEntry(JSON.stringify({ keys: [entry] }), entry)).toThrow(/already exists/);
    expect(() => mergeEntry('{"serpapi_api_key":"x"}', entry)).toThrow(/no "keys" array/);
    expect(() => mergeEntry('keys', entry)).toThrow(/not JSON/);
  });
});

describe('npx tsx infra/create-client-key.ts', () => {
  it('prints the key and the entry to add, and never the key inside the entry', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', SCRIPT, 'team-c']);
    const key = stdout.match(/sca_[A-Za-z0-9_-]{43}/)?.[0];
    const entry = JSON.parse(stdout.match(/\{"name".*\}/)?.[0] ?? 'null');
    expect(key).toBeDefined();
    expect(entry).toEqual({ name: 'team-c', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(entry)).not.toContain(key);
  });

  it('with --merge, writes the new secret value to stdout and the key to stderr only', async () => {
    const child = run(process.execPath, ['--import', 'tsx', SCRIPT, 'team-d', '--merge']);
    child.child.stdin?.end(JSON.stringify({ keys: [{ name: 'team-a', sha256: 'a'.repeat(64) }] }));
    const { stdout, stderr } = await child;
    const key = stderr.match(/sca_[A-Za-z0-9_-]{43}/)?.[0] ?? 'missing';
    expect(stdout).not.toContain(key);
    expect(JSON.parse(stdout).keys.map((k: { name: string }) => k.name)).toEqual(['team-a', 'team-d']);
  });

  it('exits non-zero with the usage when no name is given', async () => {
    await expect(run(process.execPath, ['--import', 'tsx', SCRIPT])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('usage:'),
    });
  });
});

describe('a created key, deployed', () => {
  const created = createClientKey('team-e');
  let secrets: FakeSecretsManager;
  let upstream: FakeSerpApi;
  let handler: (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string }>;

  beforeAll(async () => {
    secrets = await startFakeSecretsManager({
      'client-keys': mergeEntry('{"keys":[]}', created.entry),
      'upstream-key': JSON.stringify({ serpapi_api_key: 'deployed-upstream-key' }),
    });
    upstream = await startFakeSerpApi();
    // The environment the stack gives a function, with the SDK pointed at the local Secrets Manager.
    Object.assign(process.env, {
      CLIENT_KEYS_SECRET_ID: 'client-keys',
      SERPAPI_SECRET_ID: 'upstream-key',
      SERPAPI_BASE_URL: upstream.url,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
    });
    delete process.env.API_KEYS;
    delete process.env.SERPAPI_API_KEY;
    ({ handler } = await import('../../functions/web-search-alpha.js'));
  });
  afterAll(async () => {
    await secrets.close();
    await upstream.close();
  });

  const call = (key: string) =>
    handler(
      {
        resource: '/v1/web-search/alpha',
        path: '/v1/web-search/alpha',
        httpMethod: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        multiValueHeaders: {},
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        pathParameters: null,
        stageVariables: null,
        requestContext: { requestId: 'create-client-key-test' } as APIGatewayProxyEvent['requestContext'],
        body: '{"q":"coffee"}',
        isBase64Encoded: false,
      },
      { awsRequestId: 'create-client-key-test', getRemainingTimeInMillis: () => 28_000 } as Context,
    );

  it('is accepted by the function that reads the digests from the secret', async () => {
    expect((await call(created.key)).statusCode).toBe(200);
  });

  it('is the only key accepted: its digest, a near miss or another new key are not', async () => {
    expect((await call(created.entry.sha256)).statusCode).toBe(401);
    expect((await call(`${created.key.slice(0, -1)}x`)).statusCode).toBe(401);
    expect((await call(createClientKey('team-f').key)).statusCode).toBe(401);
  });
});
