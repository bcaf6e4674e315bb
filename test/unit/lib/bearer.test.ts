/**
 * The gateway's picture of a key (lib/auth/bearer.ts), held to the functions' own: every Authorization
 * header the middleware could accept for a key the secret can hold passes the identity validation
 * expression (else the gateway would refuse a client the functions accept), and every header that passes
 * carries a token of a stored key's shape. Also the API key that names a client in the usage plans, and
 * the stage-wide resource of the authorizer's cached answer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClientKey } from '../../../infra/create-client-key.js';
import { stageResource } from '../../../lib/auth/authorizer.js';
import { bearerToken, VALID_LOOKING_AUTHORIZATION } from '../../../lib/auth/bearer.js';
import { usageKeyValue } from '../../../lib/auth/usage-key.js';
import { KEY_CHARACTERS, SECRET_KEY_SHAPE } from '../../../lib/credentials/key-shape.js';

const validLooking = new RegExp(VALID_LOOKING_AUTHORIZATION);
const keyAlphabet = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~+/-'];

/** A key the client key secret could hold: 16 to 512 characters of the alphabet, then `=` padding. */
const storedKey = fc
  .tuple(fc.string({ unit: fc.constantFrom(...keyAlphabet), minLength: 16, maxLength: 512 }), fc.nat({ max: 2 }))
  .map(([body, padding]) => `${body}${'='.repeat(padding)}`);
/** The scheme word in any letter case. */
const scheme = fc
  .array(fc.boolean(), { minLength: 6, maxLength: 6 })
  .map((upper) => [...'bearer'].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

describe('VALID_LOOKING_AUTHORIZATION', () => {
  it('is written for API Gateway, WAF and JavaScript at once: anchored, no flags, escapes or lookaround, under WAF’s 200 characters', () => {
    expect(VALID_LOOKING_AUTHORIZATION.startsWith('^')).toBe(true);
    expect(VALID_LOOKING_AUTHORIZATION.endsWith('$')).toBe(true);
    expect(VALID_LOOKING_AUTHORIZATION).not.toMatch(/\\|\(\?|\(\?i\)/);
    expect(VALID_LOOKING_AUTHORIZATION.length).toBeLessThanOrEqual(200);
    expect(VALID_LOOKING_AUTHORIZATION).toContain(`[${KEY_CHARACTERS}]{16,512}`);
  });

  it('passes every key the create-key script makes, after "Bearer" in any case and any number of spaces', () => {
    for (let i = 0; i < 50; i++) {
      const { key } = createClientKey(`team-${i}`);
      for (const header of [`Bearer ${key}`, `bearer ${key}`, `BEARER   ${key}`])
        expect(validLooking.test(header), header).toBe(true);
    }
    // The shortest and the longest key the secret can hold, padding after.
    for (const key of ['a'.repeat(16), `${'a'.repeat(512)}==`]) expect(validLooking.test(`Bearer ${key}`), key).toBe(true);
  });

  it.each([
    ['no scheme', 'sca_0123456789abcdef0123'],
    ['another scheme', 'Basic dXNlcjpwYXNzd29yZDEyMzQ1Ng=='],
    ['no space', 'Bearersca_0123456789abcdef0123'],
    ['a token too short to be a key', 'Bearer 0123456789abcde'],
    ['a token too long to be a key', `Bearer ${'a'.repeat(513)}`],
    ['a character no key has', 'Bearer sca_0123456789abcdef"0123'],
    ['two tokens', 'Bearer sca_0123456789abcdef0123 sca_0123456789abcdef0123'],
    ['padding inside the token', 'Bearer sca_0123456789=abcdef0123'],
    ['nothing', ''],
  ])('refuses a header with %s', (_, header) => {
    expect(validLooking.test(header)).toBe(false);
  });

  it('passes every header the middleware could accept for a stored key (property, 2,000 cases)', () => {
    fc.assert(
      fc.property(scheme, fc.integer({ min: 1, max: 4 }), storedKey, (word, spaces, key) => {
        const header = `${word}${' '.repeat(spaces)}${key}`;
        expect(bearerToken(header)).toBe(key);
        expect(SECRET_KEY_SHAPE.test(key)).toBe(true);
        expect(validLooking.test(header)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('lets through only headers whose token has a stored key’s shape (property, 2,000 cases)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          scheme.chain((w) => fc.string().map((t) => `${w} ${t}`)),
        ),
        (header) => {
          if (!validLooking.test(header)) return;
          const token = bearerToken(header);
          expect(token).toBeDefined();
          expect(SECRET_KEY_SHAPE.test(token as string)).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('usageKeyValue', () => {
  it('names a client by the stack and the key’s name: 64 hex characters, the same every time, never the key', () => {
    const value = usageKeyValue('SearchCitationApi', 'team-a');
    expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(usageKeyValue('SearchCitationApi', 'team-a')).toBe(value);
    // API key values are unique per account and region: a second copy of the stack names its own.
    expect(usageKeyValue('SearchCitationApiStaging', 'team-a')).not.toBe(value);
    expect(usageKeyValue('SearchCitationApi', 'team-b')).not.toBe(value);
  });
});

describe('stageResource', () => {
  it('widens the method ARN to every method of its stage, so the cached answer serves the key’s other calls', () => {
    expect(stageResource('arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/POST/v1/web-search/alpha')).toBe(
      'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*',
    );
    expect(stageResource('arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/mcp')).toBe(
      'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*',
    );
    expect(stageResource('not an arn')).toBe('not an arn');
  });
});
