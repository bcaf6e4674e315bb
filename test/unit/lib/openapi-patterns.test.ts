/**
 * The document's patterns are read by validators in other languages, not only JavaScript: every pattern
 * of openapi.json must compile in Rust's `regex` (behind Python's and Rust's fastest JSON Schema
 * validators) and in RE2 (Go and C++ validators), and decide as JavaScript does on well-formed text
 * (docs/decisions.md §12). A `\ud800-\udfff` range, valid in JavaScript, fails the first.
 */
import { readFileSync } from 'node:fs';
import { RE2 } from 're2-wasm';
import { RRegex } from 'rregex';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type JsonObject, OPENAPI_FILE } from '../../../lib/openapi.js';
import { textPattern } from '../../../lib/schema.js';

/** Every `pattern` keyword in the document, with where it sits. */
function patternsOf(document: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (value: unknown, where: string) => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${where}/${i}`);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'pattern' && typeof inner === 'string') found.set(inner, found.get(inner) ?? where);
        else walk(inner, `${where}/${key}`);
      }
    }
  };
  walk(document, '#');
  return found;
}

/** Why the pattern does not compile in each engine; empty when it compiles in all of them. */
function compileErrors(pattern: string): string[] {
  const errors: string[] = [];
  try {
    new RRegex(pattern);
  } catch (error) {
    errors.push(`Rust regex: ${String(error).split('\n').at(-1)}`);
  }
  try {
    new RE2(pattern, 'u');
  } catch (error) {
    errors.push(`RE2: ${(error as Error).message}`);
  }
  return errors;
}

// Well-formed text only: a lone surrogate cannot even be handed to the other engines (they read UTF-8).
// biome-ignore format: a list of probes reads best packed
const PROBES = [
  '', ' ', 'coffee', ' coffee ', '\tcoffee\n', 'a\u0000b', 'a\u007fb', 'a\u001fb', 'a b', '😀', '咖啡', 'a,b', 'en', 'EN', 'zh-CN',
  'us-en', 'wt-wt', 'US-CA', 'en-US', '807', 'today 12-m', 'now 1-H', '2024-01-01 2024-03-31', '2023-02-29 2024-03-01', '2024-02-29',
  '2100-02-29', 'example.com', 'exa mple.com', 'LSsXyncAAAAJ', 'LSsXyncAAAAJ:u5HHmVD_uO8C', 'a:b', ':b', '12345',
  // Where engines read `\s` differently: U+FEFF is a space to JavaScript only, U+0085 to the others only.
  '\ufeffen', 'en\ufeff', '\u0085en', 'en\u0085', 'a\u0085b', '\u3000coffee\u3000', '\u00a0x', 'x\u2028', '\u180ex',
];

let document: JsonObject;
let file: JsonObject;

beforeAll(async () => {
  document = await buildOpenApiDocument();
  file = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as JsonObject;
});

describe('the patterns of the OpenAPI document', () => {
  it('are found: the document states its text rules as patterns', () => {
    expect(patternsOf(document).size).toBeGreaterThan(10);
  });

  it('compile in Rust regex and RE2, in the generated document and in openapi.json', () => {
    const failures = [...patternsOf(document), ...patternsOf(file)].flatMap(([pattern, where]) =>
      compileErrors(pattern).map((error) => `${where}: ${error}`),
    );
    expect(failures).toEqual([]);
  });

  it('spell characters as every engine reads them: no \\u escape, which RE2 (Go, C++) does not take', () => {
    // re2-wasm translates \u escapes before RE2 sees them, so the compile check alone would not catch one.
    const escaped = [...patternsOf(file)].filter(([pattern]) => /(?<!\\)(?:\\\\)*\\u/.test(pattern)).map(([, where]) => where);
    expect(escaped).toEqual([]);
  });

  it('decide as JavaScript does on well-formed text, in Rust regex', () => {
    const disagreements: string[] = [];
    for (const [pattern, where] of patternsOf(document)) {
      const js = new RegExp(pattern, 'u');
      const rust = new RRegex(pattern);
      for (const probe of PROBES) {
        if (js.test(probe) !== rust.isMatch(probe)) disagreements.push(`${where} on ${JSON.stringify(probe)}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('would catch a lone-surrogate range: the check is able to fail', () => {
    const jsOnly = textPattern(true, { forbid: { characters: '\\ud800-\\udfff', hint: 'no surrogates' } }).source;
    expect(compileErrors(jsOnly).join('; ')).toMatch(/Rust regex/);
  });
});
