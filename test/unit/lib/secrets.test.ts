/**
 * The pure parts of the credential layer: the upstream key secret's shape, the refusal of two sources for
 * one credential, and the start-up line that says which source is in use.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.js';
import { jsonKind, logCredentialSources, SecretShapeError } from '../../../lib/credentials/secrets.js';
import { isRealSerpApi } from '../../../lib/credentials/sources.js';
import { parseUpstreamKeySecret } from '../../../lib/credentials/upstream-key.js';
import { capturedLogLines } from '../../support/capture-logs.js';
import { pieces, thrownText } from '../../support/key-leaks.js';

/** What `run` threw: its message, its own fields and its cause, as a log line of it would show them. */

describe('parseUpstreamKeySecret', () => {
  it('reads the key, trimmed', () => {
    expect(parseUpstreamKeySecret({ serpapi_api_key: '  abc123  ' })).toBe('abc123');
  });

  const bareKey = 'b81d44e07c9a2f35b81d44e07c9a2f35';
  it.each([
    [bareKey, 'the upstream key secret is a string, not an object {"serpapi_api_key":"..."}'],
    [null, 'the upstream key secret is null, not an object {"serpapi_api_key":"..."}'],
    [{ api_key: bareKey }, 'the upstream key secret has no "serpapi_api_key"'],
    [{ serpapi_api_key: 42 }, `the upstream key secret's "serpapi_api_key" is a number, not a string`],
    [{ serpapi_api_key: '  ' }, `the upstream key secret's "serpapi_api_key" is empty`],
  ])('refuses %j, saying why without quoting it', (value, reason) => {
    const { error, text } = thrownText(() => parseUpstreamKeySecret(value));
    expect(pieces(bareKey).filter((piece) => text.includes(piece))).toEqual([]);
    expect(error).toEqual(new SecretShapeError(reason));
  });
});

describe('jsonKind', () => {
  it.each([
    [null, 'null'],
    [[], 'an array'],
    [{}, 'an object'],
    ['x', 'a string'],
    [1, 'a number'],
    [true, 'a boolean'],
  ])('calls %j %s', (value, kind) => {
    expect(jsonKind(value)).toBe(kind);
  });
});

describe('credential sources in the configuration', () => {
  const base = { SERPAPI_SECRET_ID: 'upstream', CLIENT_KEYS_SECRET_ID: 'keys' };

  it('accepts one source for each credential', () => {
    expect(loadConfig(base)).toMatchObject(base);
    const key = '0123456789abcdef'.repeat(4);
    expect(loadConfig({ SERPAPI_API_KEY: key, API_KEYS: 'a,b' })).toMatchObject({ SERPAPI_API_KEY: key, API_KEYS: 'a,b' });
  });

  it('refuses, naming SERPAPI_API_KEY and never quoting it, a plain key for SerpApi that is not 64 hexadecimal characters', () => {
    const short = 'foo-bar';
    expect(() => loadConfig({ SERPAPI_API_KEY: short, API_KEYS: 'a' })).toThrow(
      'Invalid configuration: SERPAPI_API_KEY: must be a SerpApi API key, 64 hexadecimal characters (0-9, a-f) as shown at https://serpapi.com/manage-api-key; the one set has 7 characters, not all of them hexadecimal',
    );
    expect(() => loadConfig({ SERPAPI_API_KEY: short, API_KEYS: 'a' })).not.toThrow(short);
    expect(() => loadConfig({ SERPAPI_API_KEY: 'ab'.repeat(31), API_KEYS: 'a' })).toThrow(/the one set has 62 characters$/);
    expect(() =>
      loadConfig({ SERPAPI_API_KEY: 'ab'.repeat(32), API_KEYS: 'a', SERPAPI_BASE_URL: 'https://api.serpapi.com' }),
    ).not.toThrow();
    expect(() => loadConfig({ SERPAPI_API_KEY: 'AB'.repeat(32), API_KEYS: 'a' })).not.toThrow();
    // Any other upstream (the demo's, an emulator, a test's fake) takes the key it is given.
    expect(loadConfig({ SERPAPI_API_KEY: short, API_KEYS: 'a', SERPAPI_BASE_URL: 'http://127.0.0.1:8080' }).SERPAPI_API_KEY).toBe(
      short,
    );
  });

  it('refuses a plain upstream key beside its secret, naming both', () => {
    expect(() => loadConfig({ ...base, SERPAPI_API_KEY: 'k' })).toThrow(
      'Invalid configuration: SERPAPI_API_KEY: set only one of SERPAPI_API_KEY (a plain key) and SERPAPI_SECRET_ID (the secret holding it)',
    );
  });

  it('refuses plain client keys beside their secret, naming both', () => {
    expect(() => loadConfig({ ...base, API_KEYS: 'a' })).toThrow(
      'Invalid configuration: API_KEYS: set only one of API_KEYS (plain keys) and CLIENT_KEYS_SECRET_ID (the secret holding their digests)',
    );
  });

  it('bounds one secret read with SECRETS_TIMEOUT_MS, 3 s unless set', () => {
    expect(loadConfig(base).SECRETS_TIMEOUT_MS).toBe(3_000);
    expect(loadConfig({ ...base, SECRETS_TIMEOUT_MS: '500' }).SECRETS_TIMEOUT_MS).toBe(500);
    expect(() => loadConfig({ ...base, SECRETS_TIMEOUT_MS: '50' })).toThrow(/SECRETS_TIMEOUT_MS/);
  });

  it('says on the first invocation, once, which source each credential comes from and which upstream is called', () => {
    const sourceLines = () =>
      capturedLogLines.map((line) => JSON.parse(line)).filter((line) => line.message === 'credential sources');
    // Importing the module (done above) is no start of the service: it logs nothing.
    expect(sourceLines()).toEqual([]);
    logCredentialSources();
    logCredentialSources();
    const lines = sourceLines();
    // The unit tests' environment: plain keys, and an upstream that is not SerpApi.
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'INFO',
        clientKeys: 'API_KEYS',
        upstreamKey: 'SERPAPI_API_KEY',
        upstream: 'http://127.0.0.1:9',
      }),
    ]);
  });
});

describe('isRealSerpApi', () => {
  it.each([
    ['https://serpapi.com', true],
    ['https://SerpApi.com/', true],
    ['https://eu.serpapi.com', true],
    ['http://127.0.0.1:8080', false],
    ['https://serpapi.com.example.org', false],
    ['https://notserpapi.com', false],
    ['not a url', false],
  ])('%s: %s', (url, real) => {
    expect(isRealSerpApi(url)).toBe(real);
  });
});
