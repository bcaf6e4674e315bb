/**
 * The request schemas as the OpenAPI document states them, checked against the server's own validation:
 * for every field of every route, over a set of probe values (blank, padded, control characters, lone
 * surrogates, the upstream's codes in other letter cases, boundary lengths, impossible dates…), the value is
 * valid by the document (type, maxLength, minLength, pattern with the `u` flag, enum, bounds) exactly when
 * the server accepts it. The few rules JSON Schema cannot state must be in the field's description.
 */
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type JsonObject, loadRouteSchemas } from '../../../lib/openapi.js';
import { ROUTES } from '../../../lib/routes.js';
import { ANY_LETTER_CASE, encodedBytes, requiredText, textPattern, WELL_FORMED_RULE } from '../../../lib/schema.js';
import { anyCasePattern } from '../../../lib/upstream/options-write.js';
import {
  BING_COUNTRIES,
  BING_MARKETS,
  DUCKDUCKGO_REGIONS,
  GOOGLE_LANGUAGES,
  TRENDS_CATEGORIES,
  TRENDS_GEOS,
} from '../../../lib/upstream/serpapi-options.js';
import { SAMPLE_REQUESTS } from '../../fixtures/sample-requests.js';

// biome-ignore lint/suspicious/noExplicitAny: the test walks the document's JSON freely
let document: any;

beforeAll(async () => {
  document = await buildOpenApiDocument();
});

/**
 * A real JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1) over the document as written: each
 * route's request schema, references into the document's components resolved by the validator itself.
 * Patterns are compiled with the `u` flag, as the dialect asks; `format` is an annotation in 2020-12.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const validators = new Map<string, ValidateFunction>();

function documentValidator(stem: string): ValidateFunction {
  let validate = validators.get(stem);
  if (!validate) {
    validate = ajv.compile({ components: document.components, $ref: `#/components/schemas/${stem}Request` });
    validators.set(stem, validate);
  }
  return validate;
}

/** Whether a string anywhere in the body is ill-formed (a lone surrogate). */
function holdsIllFormed(value: unknown): boolean {
  if (typeof value === 'string') return !value.isWellFormed();
  if (Array.isArray(value)) return value.some(holdsIllFormed);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsIllFormed);
  return false;
}

/**
 * The body with each value of a listed field whose description says "(any letter case)" (lib/schema.ts
 * `oneOf`) in the listed spelling: the rule the document's `enum` states only for that spelling.
 */
function inListedCase(stem: string, body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const properties = (document.components.schemas[`${stem}Request`]?.properties ?? {}) as Record<string, JsonObject>;
  const out: Record<string, unknown> = { ...body };
  for (const [field, value] of Object.entries(out)) {
    const rule = properties[field];
    if (typeof value !== 'string' || !Array.isArray(rule?.enum) || !String(rule.description).includes(ANY_LETTER_CASE)) continue;
    out[field] = rule.enum.find((option) => String(option).toLowerCase() === value.toLowerCase()) ?? value;
  }
  return out;
}

/** Whether the document accepts the body: the validator's verdict, and the rules only its text states. */
function validByDocument(stem: string, body: unknown): boolean {
  if (!documentValidator(stem)(inListedCase(stem, body))) return false;
  // The one rule the patterns leave out, so that other languages' engines compile them: the document's
  // description states it for every text field (docs/decisions.md §12).
  return !(holdsIllFormed(body) && String(document.info.description).includes(WELL_FORMED_RULE));
}

const x = (n: number) => 'x'.repeat(n);
// biome-ignore format: a list of probes reads best packed
const STRING_PROBES = [
  '', ' ', '\t', '\n \r', 'coffee', ' coffee ', '\tcoffee\n', 'a\u0000b', 'a\u007fb', 'a\tb', 'a\u001fb', '\u001f', '\ud800', 'a\udc00b',
  '😀', '\u00a0x\u00a0', '\ufeffx', 'a,b', ',', 'en', 'EN', ' en ', 'zh-CN', 'zh-cn', 'xx-klingon', 'en-us', 'english', 'us', 'US',
  'gb', 'GB', 'uk', 'usa', 'u1', 'en-US', 'EN-gb', 'en-XX', 'us-en', 'US-EN', 'wt-wt', 'hk-tzh', 'xx-yy', 'US-CA', 'us-ca', 'US-ZZ',
  '807', '8070', 'GB-ENG', 'AF-BDS', 'today 12-m', 'now 1-H', 'now 1-h', 'all', 'ALL', 'last week', '2024-01-01 2024-03-31',
  '2024-02-29 2024-03-01', '2023-02-29 2024-03-01', '2003-12-31 2004-01-31', '2004-01-01 2004-01-01', '2100-02-29 2100-03-01',
  '2400-02-29 2400-03-01', '2024-01-01  2024-03-31', '2024-02-29', '2023-02-29', '2000-02-29', '1900-02-29', '2024-13-01', '2024-1-01',
  ' 2024-02-29 ', 'example.com', 'sub.example.co.uk', 'a.b', 'example', 'exa mple.com', 'LSsXyncAAAAJ', 'LSsX yncAAAAJ', 'a/b',
  'LSsXyncAAAAJ:u5HHmVD_uO8C', 'a:b', ':b', 'a:', x(16), x(17), x(64), x(65), ` ${x(63)}`, x(100), x(101), ` ${x(99)} `, x(256),
  x(257), x(500), x(501), ` ${x(499)} `, x(2048), x(2049), ` ${x(2047)} `,
];
const NUMBER_PROBES = [-1, 0, 1, 1.5, 7, 10, 11, 20, 21, 64, 71, 99, 100, 101, 958, 990, 991, 2 ** 40, '1', null, true];
const BOOLEAN_PROBES = [true, false, 'true', 0, null];

/** Probes of an array of enum values (cite search's `export`): empty, each value, all, repeats, too many. */
function arrayProbes(rule: JsonObject): unknown[] {
  const items = (rule.items ?? {}) as JsonObject;
  const values = (Array.isArray(items.enum) ? items.enum : ['x']) as unknown[];
  const first = values[0];
  const most = typeof rule.maxItems === 'number' ? rule.maxItems : values.length;
  return [
    [],
    ...values.map((value) => [value]),
    values,
    [first, first],
    Array.from({ length: most + 1 }, (_, i) => values[i % values.length]),
    [String(first).toUpperCase()],
    [` ${String(first)} `],
    ['not-a-format'],
    [1],
    [null],
    first,
    null,
    {},
  ];
}

/** A probe of one field in an otherwise valid body of the route; cross-field partners are left out. */
function bodyWith(route: string, field: string, value: unknown): Record<string, unknown> {
  const base = { ...(SAMPLE_REQUESTS[route] as Record<string, unknown>) };
  if (field === 'queries') return { ...base, queries: [value] };
  // author_id must be citation_id's author part (a rule the description states): make it so.
  if (route === 'scholar-author-citation' && field === 'author_id' && typeof value === 'string' && value.trim() !== '') {
    return { ...base, author_id: value, citation_id: `${value.trim()}:u5HHmVD_uO8C` };
  }
  return { ...base, [field]: value };
}

describe.each(ROUTES.map((route) => [route.path, route] as const))('the request schema of %s', (_path, route) => {
  it('accepts a value of any field exactly when the document says it is valid', async () => {
    const { requestSchema } = await loadRouteSchemas(route);
    const stem = route.name.replace(/(^|-)([a-z])/g, (_m, _s: string, c: string) => c.toUpperCase());
    const schema = document.components.schemas[`${stem}Request`] as { properties: Record<string, JsonObject> };
    const disagreements: string[] = [];
    let probed = 0;
    for (const [field, property] of Object.entries(schema.properties)) {
      const rule = (field === 'queries' ? property.items : property) as JsonObject;
      const probes =
        rule.type === 'array'
          ? arrayProbes(rule)
          : rule.type === 'string'
            ? STRING_PROBES
            : rule.type === 'boolean'
              ? BOOLEAN_PROBES
              : NUMBER_PROBES;
      for (const probe of [...probes, ...(Array.isArray(rule.enum) ? rule.enum : [])]) {
        const body = bodyWith(route.name, field, probe);
        const byDocument = validByDocument(stem, body);
        const byServer = requestSchema.safeParse(body).success;
        probed += 1;
        if (byDocument !== byServer) {
          disagreements.push(`${field}=${JSON.stringify(probe).slice(0, 40)}: document ${byDocument}, server ${byServer}`);
        }
      }
    }
    // Every field was probed (array fields included), and the sample body itself is valid to both.
    expect(probed).toBeGreaterThanOrEqual(Object.keys(schema.properties).length * 5);
    expect(validByDocument(stem, SAMPLE_REQUESTS[route.name])).toBe(true);
    expect(disagreements).toEqual([]);
  });
});

describe('rules JSON Schema cannot state', () => {
  const property = (name: string, field: string) => {
    const stem = name.replace(/(^|-)([a-z])/g, (_m, _s: string, c: string) => c.toUpperCase());
    return document.components.schemas[`${stem}Request`].properties[field] as JsonObject;
  };

  it.each([
    ['web-search-delta', 'date_to', 'not before date_from'],
    ['alpha-trends', 'timeframe', 'the second date not before the first'],
    ['scholar-author-citation', 'author_id', 'must equal the part of citation_id before the colon'],
    ['web-search-charlie', 'cc', 'Not together with market'],
    ['web-search-charlie', 'market', 'Not together with cc'],
    ['web-search-alpha', 'q', 'at most 4096 bytes once URL-encoded'],
    ['cite-search', 'query', 'at most 4096 bytes once URL-encoded'],
  ])("%s %s: the description says '%s'", (name, field, says) => {
    expect(property(name, field).description).toContain(says);
  });

  it('counts URL-encoded bytes as the upstream call will: a space 1, an ASCII sign 3, a Chinese character 9', () => {
    expect(encodedBytes('a b')).toBe(3);
    expect(encodedBytes('&')).toBe(3);
    expect(encodedBytes('咖')).toBe(9);
  });
});

describe('the upstream lists as patterns', () => {
  it.each([
    ['GOOGLE_LANGUAGES', GOOGLE_LANGUAGES],
    ['DUCKDUCKGO_REGIONS', DUCKDUCKGO_REGIONS],
    ['BING_MARKETS', BING_MARKETS],
    ['BING_COUNTRIES', BING_COUNTRIES],
    ['TRENDS_GEOS', TRENDS_GEOS],
  ] as const)('%s: matches every listed value in any letter case, and nothing else', (_name, values) => {
    const pattern = new RegExp(`^(?:${anyCasePattern(values)})$`, 'u');
    const listed = new Set(values.map((value) => value.toLowerCase()));
    for (const value of values) {
      for (const variant of [value, value.toUpperCase(), value.toLowerCase()]) expect(pattern.test(variant), variant).toBe(true);
    }
    // Near misses: every listed value cut short, lengthened, or with a character changed.
    for (const value of values) {
      for (const miss of [value.slice(0, -1), `${value}a`, `${value}-`, `${value.slice(0, -1)}#`, ` ${value}`]) {
        expect(pattern.test(miss), miss).toBe(listed.has(miss.toLowerCase()));
      }
    }
  });

  it('holds numbers for Google Trends categories, 0 (all) among them', () => {
    expect(TRENDS_CATEGORIES).toContain(0);
    expect(TRENDS_CATEGORIES.every((id) => Number.isInteger(id))).toBe(true);
  });

  it('reads a free-text value as trimmed text with no control character and no lone surrogate', () => {
    const required = textPattern(true, {});
    expect(['x', ' x ', 'a b', '\tx\n', '😀'].every((s) => required.test(s))).toBe(true);
    expect(['', ' ', 'a\tb', 'a\u0000'].some((s) => required.test(s))).toBe(false);
    // Lone surrogates pass the pattern (which must compile outside JavaScript) and fail the field's own check.
    expect(required.test('\ud800')).toBe(true);
    expect(['\ud800', 'a\udc00b'].some((s) => requiredText().safeParse(s).success)).toBe(false);
    expect(textPattern(false, {}).test('  ')).toBe(true);
  });
});
