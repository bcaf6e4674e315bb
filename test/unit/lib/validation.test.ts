import { describe, expect, it } from 'vitest';
import { requestSchema as alphaSchema } from '../../../functions/web-search-alpha.js';
import { requestSchema as bravoSchema } from '../../../functions/web-search-bravo.js';
import { formatIssues } from '../../../lib/middleware/validate.js';

function details(schema: typeof alphaSchema | typeof bravoSchema, body: unknown): string {
  const result = schema.safeParse(body);
  if (result.success) throw new Error('expected the body to be rejected');
  return formatIssues(result.error.issues);
}

describe('request validation messages', () => {
  it('names every offending field in one line', () => {
    expect(details(alphaSchema, { q: 'x', num: 0, page: 100, extra: 1 })).toBe(
      'page: must be an integer from 0 to 99; num: must be an integer from 1 to 10; extra: unknown field',
    );
  });

  it('says a missing, empty or whitespace-only q is required', () => {
    expect(details(alphaSchema, {})).toBe('q: is required');
    expect(details(alphaSchema, { q: '' })).toBe('q: must not be empty');
    expect(details(alphaSchema, { q: ' \t ' })).toBe('q: must not be empty');
  });

  it.each([
    ['"2" for an integer', { q: 'x', num: '2' }, 'num: must be an integer from 1 to 10'],
    ['2.5 for an integer', { q: 'x', num: 2.5 }, 'num: must be an integer from 1 to 10'],
    ['1e9 for an integer', { q: 'x', num: 1e9 }, 'num: must be an integer from 1 to 10'],
    ['a number for a string', { q: 5 }, 'q: must be a string'],
    ['2049 characters', { q: 'a'.repeat(2049) }, 'q: must be at most 2048 characters'],
    [
      '2048 characters inside spaces (the limit counts the value as sent)',
      { q: ` ${'a'.repeat(2047)} ` },
      'q: must be at most 2048 characters',
    ],
    ['a tab inside the text', { q: 'a\tb' }, 'q: must not contain control characters'],
    [
      'a language the upstream does not list',
      { q: 'x', language: 'en-us' },
      "language: must be one of Google's language codes, such as en, de, zh-cn or pt-br",
    ],
    [
      '455 Chinese characters plus one (over 4096 bytes once URL-encoded)',
      { q: '咖'.repeat(456) },
      'q: must take at most 4096 bytes once URL-encoded (a Chinese character takes 9)',
    ],
    ['a NUL character', { q: 'a\u0000b' }, 'q: must not contain control characters'],
    ['a lone surrogate', { q: 'a\ud800b' }, 'q: must be valid Unicode text (no lone surrogates)'],
    [
      'a bad language code',
      { q: 'x', language: 'english!' },
      "language: must be one of Google's language codes, such as en, de, zh-cn or pt-br",
    ],
  ])('rejects %s', (_name, body, message) => {
    expect(details(alphaSchema, body)).toBe(message);
  });

  it('lists the allowed values of an enum', () => {
    expect(details(bravoSchema, { q: 'x', date: 'decade' })).toBe('date: must be one of: day, week, month, year');
  });

  it('rejects a body that is not an object, and __proto__ as an unknown field', () => {
    expect(details(alphaSchema, [])).toBe('body: must be a JSON object');
    expect(details(alphaSchema, null)).toBe('body: must be a JSON object');
    expect(details(alphaSchema, JSON.parse('{"q":"x","__proto__":{"admin":true}}'))).toBe('__proto__: unknown field');
  });

  it('accepts a listed language in any letter case and sends it as the upstream lists it', () => {
    expect(alphaSchema.parse({ q: 'x', language: ' ZH-CN ' }).language).toBe('zh-cn');
    expect(alphaSchema.parse({ q: 'x', language: 'Es-419' }).language).toBe('es-419');
  });

  it('trims tabs and newlines around the text, as whitespace', () => {
    expect(alphaSchema.parse({ q: '\tcoffee\n' }).q).toBe('coffee');
  });

  it('accepts emoji and right-to-left marks, trimmed', () => {
    expect(alphaSchema.parse({ q: '  ☕ \u200fقهوة ' }).q).toBe('☕ \u200fقهوة');
  });
});
