import { describe, expect, it } from 'vitest';
import { parseClientKeySecret, sha256 } from '../../../lib/client-keys.js';
import { AppError } from '../../../lib/errors.js';
import { bearerToken } from '../../../lib/middleware/auth.js';

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

  it.each([[null], [{}], [{ keys: 'x' }], [{ keys: [{ name: 'a', sha256: 'nothex' }] }]])(
    'calls %j a misconfiguration',
    (value) => {
      expect(() => parseClientKeySecret(value)).toThrow(AppError);
      try {
        parseClientKeySecret(value);
      } catch (error) {
        expect((error as AppError).code).toBe('SERVICE_MISCONFIGURED');
      }
    },
  );
});
