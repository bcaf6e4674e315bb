import { describe, expect, it } from 'vitest';
import { createClientKey } from '../../../infra/create-client-key.js';
import { parseClientKeySecret, SECRET_KEY_SHAPE, sha256 } from '../../../lib/credentials/client-keys.js';
import { SecretShapeError } from '../../../lib/credentials/secrets.js';
import { bearerToken } from '../../../lib/middleware/auth.js';
import { pieces, thrownText } from '../../support/key-leaks.js';

/** What `run` threw: its message, its own fields and its cause, as a log line of it would show them. */

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER   abc  ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    ['Bearer    ', undefined],
    ['abc', undefined],
    [undefined, undefined],
  ])('reads %j as %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe('parseClientKeySecret', () => {
  it('reads names and digests', () => {
    const digest = sha256('k1').toString('hex');
    expect(parseClientKeySecret({ keys: [{ name: 'team-a', sha256: digest }] })).toEqual([
      { name: 'team-a', digest: sha256('k1') },
    ]);
  });

  // The reasons are logged, so none of them may hold any of the value: only types, field names, indexes.
  const plainKey = 'sca_this-is-the-plain-key-put-by-mistake-0000';
  it.each([
    [null, 'the client key secret is null, not an object {"keys":[...]}'],
    [[{ name: 'a', sha256: 'a'.repeat(64) }], 'the client key secret is an array, not an object {"keys":[...]}'],
    [plainKey, 'the client key secret is a string, not an object {"keys":[...]}'],
    [{}, 'the client key secret has no "keys" array'],
    [{ keys: plainKey }, `the client key secret's "keys" is a string, not an array`],
    [{ keys: [plainKey] }, 'keys[0] is a string, not an object {"name","sha256"}'],
    [
      {
        keys: [
          { name: 'a', sha256: 'a'.repeat(64) },
          { name: 'b', sha256: plainKey },
        ],
      },
      'keys[1] has a "sha256" that is not 64 hex digits',
    ],
    [{ keys: [{ name: 'c', key: plainKey }] }, 'keys[0] has no "sha256" of 64 hex digits'],
  ])('refuses %j, saying why without quoting it', (value, reason) => {
    const { error, text } = thrownText(() => parseClientKeySecret(value));
    expect(pieces(plainKey).filter((piece) => text.includes(piece))).toEqual([]);
    expect(error).toEqual(new SecretShapeError(reason));
  });
});

describe('SECRET_KEY_SHAPE', () => {
  it('admits every key the create-key script makes, and the bearer token alphabet from 16 characters', () => {
    for (let i = 0; i < 50; i++) expect(SECRET_KEY_SHAPE.test(createClientKey(`team-${i}`).key)).toBe(true);
    expect(SECRET_KEY_SHAPE.test('ck-7f3a9c51e2d84b06')).toBe(true);
    expect(SECRET_KEY_SHAPE.test('abcd/efgh+ijkl~mnop==')).toBe(true);
  });

  it.each([
    '',
    'short-key',
    'x'.repeat(15),
    'x'.repeat(513),
    'has a space in it here',
    'quote"quote"quote"',
    'ünïcode-ünïcode-ü',
  ])('refuses %j, which no stored key can be', (token) => {
    expect(SECRET_KEY_SHAPE.test(token)).toBe(false);
  });
});
