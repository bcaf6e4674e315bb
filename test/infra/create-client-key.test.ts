/**
 * The client key script: what it prints and merges, that it adds a key to the secret itself without ever
 * losing another (a local Secrets Manager, through the real SDK), and that a key it creates is accepted by
 * a deployed handler (client key digests read from Secrets Manager) while nothing else is.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClientKey, mergeEntry, readEntries } from '../../infra/create-client-key.js';
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

  it('starts a list from a secret value with no keys yet', () => {
    expect(JSON.parse(mergeEntry('{"keys":[]}', entry))).toEqual({ keys: [entry] });
  });

  // An empty value is what a failed `get-secret-value` upstream of a pipe gives: never "no keys".
  it.each(['', '\n', '  \t'])('refuses the empty value %j', (current) => {
    expect(() => mergeEntry(current, entry)).toThrow('the current secret value is empty');
    expect(() => readEntries(current)).toThrow('the current secret value is empty');
  });

  it('keeps the other fields of the value', () => {
    const current = JSON.stringify({ keys: [], note: 'rotated 2026-01' });
    expect(JSON.parse(mergeEntry(current, entry))).toEqual({ keys: [entry], note: 'rotated 2026-01' });
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
    // The gateway knows clients by name: the next step is said, or the key would meet a 500 there.
    expect(stdout).toContain(`The gateway serves it once "team-c" is in the stack's clients setting`);
  });

  it('with --merge, writes the new secret value to stdout and the key to stderr only', async () => {
    const child = run(process.execPath, ['--import', 'tsx', SCRIPT, 'team-d', '--merge']);
    child.child.stdin?.end(JSON.stringify({ keys: [{ name: 'team-a', sha256: 'a'.repeat(64) }] }));
    const { stdout, stderr } = await child;
    const key = stderr.match(/sca_[A-Za-z0-9_-]{43}/)?.[0] ?? 'missing';
    expect(stdout).not.toContain(key);
    expect(JSON.parse(stdout).keys.map((k: { name: string }) => k.name)).toEqual(['team-a', 'team-d']);
  });

  it.each(['', '\n'])('with --merge, refuses the empty input %j: exits non-zero and writes nothing to stdout', async (input) => {
    const child = run(process.execPath, ['--import', 'tsx', SCRIPT, 'team-d', '--merge']);
    child.child.stdin?.end(input);
    await expect(child).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('the current secret value is empty'),
    });
  });

  it('with --daily N and --hourly N (or none), gives the entry its own limits; refuses one that is not a whole number', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', SCRIPT, 'team-h', '--daily', '50', '--hourly', 'none']);
    expect(JSON.parse(stdout.match(/\{"name".*\}/)?.[0] ?? 'null')).toEqual({
      name: 'team-h',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      hourlySearches: null,
      dailySearches: 50,
    });
    for (const option of ['--daily', '--hourly']) {
      await expect(run(process.execPath, ['--import', 'tsx', SCRIPT, 'team-h', option, 'lots'])).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`${option}: must be a whole number of searches, or none`),
      });
    }
  });

  it('exits non-zero with the usage when no name is given', async () => {
    await expect(run(process.execPath, ['--import', 'tsx', SCRIPT])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('usage:'),
    });
  });
});

describe('npm run create-key -- <name> --secret-id <id>, against Secrets Manager', () => {
  const SECRET = 'team/client-keys';
  const existing = [
    { name: 'team-a', sha256: 'a'.repeat(64) },
    { name: 'team-b', sha256: 'b'.repeat(64) },
  ];
  const initial = JSON.stringify({ keys: existing, note: 'kept as is' });
  let secrets: FakeSecretsManager;

  beforeAll(async () => {
    secrets = await startFakeSecretsManager();
  });
  afterAll(async () => {
    await secrets.close();
  });
  beforeEach(() => {
    secrets.secrets.clear();
    secrets.secrets.set(SECRET, initial);
    secrets.failing.clear();
    secrets.puts.length = 0;
    secrets.afterCall = undefined;
  });

  /** The script in a process of its own, with only the environment an operator's shell would give it. */
  function createKey(args: string[], env: Record<string, string | undefined> = {}) {
    return run(process.execPath, ['--import', 'tsx', SCRIPT, ...args], {
      env: {
        PATH: process.env.PATH,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
        AWS_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'operator',
        AWS_SECRET_ACCESS_KEY: 'operator',
        AWS_CONFIG_FILE: '/nonexistent',
        AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
        ...env,
      },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code?: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      }),
    );
  }

  const entriesNow = () => JSON.parse(secrets.secrets.get(SECRET) ?? 'null').keys as { name: string; sha256: string }[];

  it('adds the entry, keeps every other entry and field, and prints the key whose digest it stored', async () => {
    const { code, stdout } = await createKey(['team-c', '--secret-id', SECRET]);
    expect(code).toBe(0);
    const key = stdout.match(/sca_[A-Za-z0-9_-]{43}/)?.[0] ?? 'missing';
    expect(secrets.puts).toHaveLength(1);
    expect(JSON.parse(secrets.secrets.get(SECRET) ?? '')).toEqual({
      keys: [...existing, { name: 'team-c', sha256: createHash('sha256').update(key).digest('hex') }],
      note: 'kept as is',
    });
    expect(secrets.secrets.get(SECRET)).not.toContain(key);
    expect(stdout).toContain(`${SECRET} (3 keys)`);
  });

  it.each([
    ["GetSecretValue fails (HTTP 500, after the SDK's retries)", { fail: true }, 'could not read the secret team/client-keys'],
    ['the secret does not exist', { id: 'team/no-such-secret' }, 'could not read the secret team/no-such-secret'],
    ['no region is configured', { env: { AWS_REGION: undefined } }, 'could not read the secret team/client-keys'],
    ['the value is not JSON', { value: `${'a'.repeat(64)} team-a` }, 'the current secret value is not JSON'],
    ['the value has no "keys" array', { value: '{"serpapi_api_key":"x"}' }, 'the current secret value has no "keys" array'],
    ['the name is taken', { name: 'team-b' }, 'a key named "team-b" already exists'],
  ] as const)('when %s: exits non-zero, writes nothing, loses no key, prints no key', async (_case, fault, reason) => {
    const options = fault as { fail?: boolean; id?: string; env?: Record<string, undefined>; value?: string; name?: string };
    if (options.value !== undefined) secrets.secrets.set(SECRET, options.value);
    if (options.fail) secrets.failing.add('GetSecretValue');
    const before = secrets.secrets.get(SECRET);
    const { code, stdout, stderr } = await createKey(
      [options.name ?? 'team-c', '--secret-id', options.id ?? SECRET],
      options.env,
    );
    expect(code).toBe(1);
    expect(stderr).toContain(reason);
    expect(stderr).toContain('Nothing was written; the secret is as it was.');
    expect(secrets.puts).toEqual([]);
    expect(secrets.secrets.get(SECRET)).toBe(before);
    expect(`${stdout}${stderr}`).not.toMatch(/sca_/);
  });

  it('when the write fails: exits non-zero, prints no key, and the secret keeps every key', async () => {
    secrets.failing.add('PutSecretValue');
    const { code, stdout, stderr } = await createKey(['team-c', '--secret-id', SECRET]);
    expect(code).toBe(1);
    expect(stderr).toContain('could not write the secret team/client-keys');
    expect(stderr).toContain('The key was not stored.');
    expect(`${stdout}${stderr}`).not.toMatch(/sca_/);
    expect(secrets.secrets.get(SECRET)).toBe(initial);
  });

  it('when another writer replaces the value right after the write: exits non-zero and hands out no key', async () => {
    const theirs = JSON.stringify({ keys: [...existing, { name: 'team-x', sha256: 'c'.repeat(64) }] });
    secrets.afterCall = (operation) => {
      if (operation === 'PutSecretValue') secrets.secrets.set(SECRET, theirs);
    };
    const { code, stdout, stderr } = await createKey(['team-c', '--secret-id', SECRET]);
    expect(code).toBe(1);
    expect(stderr).toContain('does not hold the new entry after the write');
    expect(stderr).toContain('The key was not handed out');
    expect(`${stdout}${stderr}`).not.toMatch(/sca_/);
    expect(entriesNow().map((k) => k.name)).toEqual(['team-a', 'team-b', 'team-x']);
  });

  it('when another writer adds its own entry on top of the new one: succeeds, as the entry is held', async () => {
    secrets.afterCall = (operation) => {
      if (operation !== 'PutSecretValue') return;
      secrets.secrets.set(SECRET, mergeEntry(secrets.secrets.get(SECRET) ?? '', { name: 'team-y', sha256: 'd'.repeat(64) }));
    };
    const { code, stdout } = await createKey(['team-c', '--secret-id', SECRET]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/sca_[A-Za-z0-9_-]{43}/);
    expect(entriesNow().map((k) => k.name)).toEqual(['team-a', 'team-b', 'team-c', 'team-y']);
  });
});

describe('a created key, deployed', () => {
  const created = createClientKey('team-e');
  const limited = createClientKey('team-g', { dailySearches: 1 });
  const hourly = createClientKey('team-j', { hourlySearches: 1 });
  let secrets: FakeSecretsManager;
  let upstream: FakeSerpApi;
  let handler: (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string }>;

  beforeAll(async () => {
    secrets = await startFakeSecretsManager({
      'client-keys': mergeEntry(mergeEntry(mergeEntry('{"keys":[]}', created.entry), limited.entry), hourly.entry),
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

  const call = (key: string, body = '{"q":"coffee"}') =>
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
        body,
        isBase64Encoded: false,
      },
      { awsRequestId: 'create-client-key-test', getRemainingTimeInMillis: () => 28_000 } as Context,
    );

  it('is accepted by the function that reads the digests from the secret', async () => {
    expect((await call(created.key)).statusCode).toBe(200);
  });

  it('made with --daily 1, is refused its second paid search of the day with 429 BUDGET_EXHAUSTED', async () => {
    expect((await call(limited.key, '{"q":"daily one"}')).statusCode).toBe(200);
    const refused = await call(limited.key, '{"q":"daily two"}');
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body).error).toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(JSON.parse(refused.body).error.details).toMatch(/your key's own limit of 1 searches today/i);
    // Another client's key goes on.
    expect((await call(created.key, '{"q":"daily three"}')).statusCode).toBe(200);
  });

  it('made with --hourly 1, is refused its second paid search of the hour, naming its own hour', async () => {
    expect((await call(hourly.key, '{"q":"hourly one"}')).statusCode).toBe(200);
    const refused = await call(hourly.key, '{"q":"hourly two"}');
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body).error.details).toMatch(/^Your key's own limit of 1 searches this hour is used up/);
    expect((await call(created.key, '{"q":"hourly three"}')).statusCode).toBe(200);
  });

  it('is the only key accepted: its digest, a near miss or another new key are not', async () => {
    expect((await call(created.entry.sha256)).statusCode).toBe(401);
    expect((await call(`${created.key.slice(0, -1)}x`)).statusCode).toBe(401);
    expect((await call(createClientKey('team-f').key)).statusCode).toBe(401);
  });
});
