/**
 * The gateway's TOKEN authorizer (functions/authorizer.ts), the real handler with the environment the stack
 * gives it (infra/gateway-keys.ts: the client key secret's id, NO_UPSTREAM_KEY, USAGE_KEY_SCOPE), reading
 * its keys through the real AWS SDK from a local endpoint that speaks Secrets Manager's protocol.
 */
import { createHash } from 'node:crypto';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { usageKeyValue } from '../../lib/auth/usage-key.js';
import { capturedLogLines } from '../support/capture-logs.js';
import { type FakeSecretsManager, startFakeSecretsManager } from '../support/fake-secrets-manager.js';

const KEYS_SECRET = 'search-api/client-keys';
const UPSTREAM_SECRET = 'search-api/serpapi';
const SCOPE = 'SearchCitationApi';
const CLIENT_KEY = 'sca_authorizer-test-key-0123456789abcdef';
const OTHER_KEY = 'sca_a-key-of-the-right-shape-nobody-holds';
const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/POST/v1/web-search/alpha';
const STAGE = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*';

const digest = createHash('sha256').update(CLIENT_KEY).digest('hex');
const keysSecret = JSON.stringify({ keys: [{ name: 'team-a', sha256: digest, dailySearches: 7 }] });

let secrets: FakeSecretsManager;
/** Every secret id the authorizer asked Secrets Manager for, in order. */
const reads: string[] = [];
let handler: (event: { type: 'TOKEN'; authorizationToken: string; methodArn: string }) => Promise<APIGatewayAuthorizerResult>;
let forget: (secretId: string) => void;

beforeAll(async () => {
  secrets = await startFakeSecretsManager({
    [KEYS_SECRET]: keysSecret,
    // There to be refused: the authorizer's role cannot read it, and nothing in it may try.
    [UPSTREAM_SECRET]: JSON.stringify({ serpapi_api_key: 'upstream-key-the-authorizer-never-reads' }),
  });
  secrets.afterCall = (operation, secretId) => {
    if (operation === 'GetSecretValue' && secretId) reads.push(secretId);
  };
  // As the stack configures the function: no upstream key of any kind, no plain client keys.
  for (const name of ['API_KEYS', 'SERPAPI_API_KEY', 'SERPAPI_SECRET_ID']) delete process.env[name];
  Object.assign(process.env, {
    CLIENT_KEYS_SECRET_ID: KEYS_SECRET,
    NO_UPSTREAM_KEY: 'true',
    USAGE_KEY_SCOPE: SCOPE,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    SECRETS_TTL_SECONDS: '300',
  });
  ({ handler } = (await import('../../functions/authorizer.js')) as unknown as { handler: typeof handler });
  ({ invalidateSecret: forget } = await import('../../lib/credentials/secrets.js'));
});
afterAll(async () => {
  await secrets.close();
});
beforeEach(() => {
  secrets.down = false;
  secrets.secrets.set(KEYS_SECRET, keysSecret);
  reads.length = 0;
});

const authorize = (header: string) => handler({ type: 'TOKEN', authorizationToken: header, methodArn: METHOD_ARN });

describe('the gateway authorizer', () => {
  it('allows a known key on every method of the stage, naming its client and the API key of its usage plan', async () => {
    const result = await authorize(`Bearer ${CLIENT_KEY}`);
    expect(result).toEqual({
      principalId: 'team-a',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: STAGE }],
      },
      usageIdentifierKey: usageKeyValue(SCOPE, 'team-a'),
      context: { client: 'team-a' },
    });
    // The scheme in any case and any number of spaces, as the functions read it.
    expect((await authorize(`bearer    ${CLIENT_KEY}`)).principalId).toBe('team-a');
  });

  it('denies a well-formed key nobody holds, on the whole stage (API Gateway caches the answer for the token)', async () => {
    const result = await authorize(`Bearer ${OTHER_KEY}`);
    expect(result).toEqual({
      principalId: 'unknown',
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: STAGE }] },
    });
    expect(result.usageIdentifierKey).toBeUndefined();
  });

  it.each([
    ['another scheme', `Basic ${CLIENT_KEY}`],
    ['no scheme', CLIENT_KEY],
    ['a token no key can be', 'Bearer short'],
    ['an empty header', ''],
  ])('denies %s without reading the secret', async (_, header) => {
    forget(KEYS_SECRET);
    const result = await authorize(header);
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(result.principalId).toBe('unknown');
    expect(reads).toEqual([]);
  });

  it('reads the client key secret once per cache lifetime, and never the SerpApi key’s', async () => {
    forget(KEYS_SECRET);
    for (let i = 0; i < 5; i++) await authorize(`Bearer ${i % 2 ? CLIENT_KEY : OTHER_KEY}`);
    expect(reads).toEqual([KEYS_SECRET]);
  });

  it('fails, rather than denies, while the client key secret cannot be read: an outage is never a remembered 401', async () => {
    forget(KEYS_SECRET);
    secrets.down = true;
    // API Gateway answers a failed authorizer with its AUTHORIZER_FAILURE response (503 SERVICE_UNAVAILABLE,
    // infra/gateway-responses.ts) and caches nothing.
    await expect(authorize(`Bearer ${CLIENT_KEY}`)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(authorize(`Bearer ${OTHER_KEY}`)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    secrets.down = false;
    expect((await authorize(`Bearer ${CLIENT_KEY}`)).principalId).toBe('team-a');
  });

  it('picks up a key added to the secret once its cached copy is read again', async () => {
    const added = 'sca_added-later-0123456789abcdefghij';
    expect((await authorize(`Bearer ${added}`)).principalId).toBe('unknown');
    const withAdded = JSON.parse(keysSecret) as { keys: object[] };
    withAdded.keys.push({ name: 'team-b', sha256: createHash('sha256').update(added).digest('hex') });
    secrets.secrets.set(KEYS_SECRET, JSON.stringify(withAdded));
    forget(KEYS_SECRET);
    const result = await authorize(`Bearer ${added}`);
    expect(result.principalId).toBe('team-b');
    expect(result.usageIdentifierKey).toBe(usageKeyValue(SCOPE, 'team-b'));
  });

  it('writes no key to any log line', async () => {
    forget(KEYS_SECRET);
    secrets.down = true;
    await authorize(`Bearer ${CLIENT_KEY}`).catch(() => undefined);
    secrets.down = false;
    await authorize(`Bearer ${CLIENT_KEY}`);
    await authorize(`Bearer ${OTHER_KEY}`);
    for (const line of capturedLogLines) {
      expect(line).not.toContain(CLIENT_KEY);
      expect(line).not.toContain(OTHER_KEY);
    }
  });
});
