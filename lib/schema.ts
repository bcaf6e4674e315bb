/**
 * Field builders for request schemas. Each one carries a message written for a person, so that a 400's
 * details name the field and the rule ("num: must be an integer from 1 to 100"), and each states its rule
 * as JSON Schema can read it (`maxLength` on the value as sent, one `pattern`, `enum`, bounds), so that the
 * OpenAPI document generated from these schemas accepts exactly what the server accepts. Rules JSON Schema
 * cannot state are written into the field's description. zod/mini keeps the handlers' bundles small (the
 * full zod build alone is about 440 KiB minified).
 */
import * as z from 'zod/mini';
import { GOOGLE_LANGUAGES, GOOGLE_LANGUAGES_PATTERN } from './upstream/serpapi-options.js';

// ASCII control characters (C0 and DEL): never meaningful in a search term, and a classic injection vector.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
// In a pattern: a control character. Lone surrogates are refused too, but by a check of their own, not in
// the pattern: a `\ud800-\udfff` range compiles only in JavaScript, and the document's patterns must compile
// in other languages' engines (Rust regex, RE2, Python re) too (docs/decisions.md §12).
const NOT_TEXT = '\\x00-\\x1f\\x7f';

// What String.prototype.trim (and so z.trim) removes, which is what JavaScript's `\s` matches, spelt out:
// other engines read `\s` differently (Rust's and Python's add U+0085 and leave out U+FEFF). ASCII as `\x`
// escapes, the rest as the characters themselves, the one spelling every engine reads.
const SPACE = '\\t\\n\\x0b\\x0c\\r \\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/** The rule the patterns leave out, said once in the document's description (lib/openapi.ts). */
export const WELL_FORMED_RULE = 'a lone surrogate (half of a UTF-16 surrogate pair: not text)';

const QUERY_MAX = 2048;

/**
 * The most a field may take up in the upstream's URL once percent-encoded (UTF-8: up to 9 bytes for a
 * Chinese character). Together these keep every upstream URL under UPSTREAM_URL_MAX (lib/upstream/serpapi.ts).
 */
export const QUERY_MAX_ENCODED_BYTES = 4096;

export interface TextFormat {
  /** A regular expression source, unanchored, valid with the `u` flag, for the trimmed value. */
  pattern: string;
  hint: string;
  /** A further check the pattern cannot express (the description must say it). */
  valid?: (value: string) => boolean;
  /** Rewrites an accepted value into the form the upstream expects, e.g. its letter case. */
  normalise?: (value: string) => string;
}

interface TextOptions {
  max?: number;
  /** A format the value must match, and how to describe it in an error. */
  format?: TextFormat;
  /** Characters free text may not hold (a class body such as ","), and why, for the error. */
  forbid?: { characters: string; hint: string };
  /** The most bytes the value may take once URL-encoded; stated in the description. */
  maxEncodedBytes?: number;
  description?: string;
}

/** Bytes the value takes in a query string (spaces as +, the rest of non-ASCII as UTF-8 %XX). */
export function encodedBytes(value: string): number {
  return new URLSearchParams({ v: value }).toString().length - 2;
}

/**
 * The one pattern a text field's value, as sent, must match: optional surrounding whitespace (trimmed
 * away) around either the format, or free text without control characters that does not start or end
 * with whitespace. An optional field may be blank; a required one may not.
 */
export function textPattern(required: boolean, options: Pick<TextOptions, 'format' | 'forbid'>): RegExp {
  const forbidden = `${NOT_TEXT}${options.forbid?.characters ?? ''}`;
  const inner = options.format?.pattern ?? `[^${SPACE}${forbidden}](?:[^${forbidden}]*[^${SPACE}${forbidden}])?`;
  return new RegExp(`^[${SPACE}]*(?:${inner})${required ? '' : '?'}[${SPACE}]*$`, 'u');
}

/** Why a value failed its pattern, in the words of the rule it broke. */
function explain(input: unknown, required: boolean, options: TextOptions): string {
  const trimmed = typeof input === 'string' ? input.trim() : '';
  if (trimmed === '') return required ? 'must not be empty' : 'must not be blank';
  if (CONTROL_CHARACTERS.test(trimmed)) return 'must not contain control characters';
  if (!trimmed.isWellFormed()) return 'must be valid Unicode text (no lone surrogates)';
  if (options.format) return `must be ${options.format.hint}`;
  return `must be ${options.forbid?.hint ?? 'text'}`;
}

function textChecks(required: boolean, options: TextOptions) {
  const max = options.max ?? (required ? QUERY_MAX : 256);
  const { format, maxEncodedBytes } = options;
  return [
    // The length is that of the value as sent: the document's maxLength and this check agree.
    z.maxLength(max, { error: `must be at most ${max} characters` }),
    // Implied by the pattern when required; stated so that a reader of the document sees it at once.
    ...(required ? [z.minLength(1, { error: 'must not be empty' })] : []),
    z.regex(textPattern(required, options), { error: (issue) => explain(issue.input, required, options), abort: true }),
    z.refine<string>((s) => s.isWellFormed(), { error: 'must be valid Unicode text (no lone surrogates)', abort: true }),
    z.trim(),
    ...(format?.valid
      ? [z.refine<string>((s) => s === '' || (format.valid?.(s) ?? true), { error: `must be ${format.hint}` })]
      : []),
    ...(format?.normalise ? [z.overwrite<string>(format.normalise)] : []),
    ...(maxEncodedBytes
      ? [
          z.refine<string>((s) => encodedBytes(s) <= maxEncodedBytes, {
            error: `must take at most ${maxEncodedBytes} bytes once URL-encoded (a Chinese character takes 9)`,
          }),
        ]
      : []),
  ] as const;
}

function describe<T extends z.ZodMiniType>(schema: T, description?: string): T {
  if (description) z.globalRegistry.add(schema, { description });
  return schema;
}

function withEncodedLimit(options: TextOptions): string | undefined {
  if (!options.maxEncodedBytes) return options.description;
  const limit = `at most ${options.maxEncodedBytes} bytes once URL-encoded (a Chinese character takes 9)`;
  return options.description ? `${options.description}; ${limit}` : limit;
}

/** A required string: trimmed, and blank counts as missing. */
export function requiredText(options: TextOptions = {}) {
  const schema = z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .check(...textChecks(true, options));
  return describe(schema, withEncodedLimit(options));
}

/** An optional string: trimmed; a blank string is treated as not given. */
export function optionalText(options: TextOptions = {}) {
  const schema = z.optional(z.string({ error: 'must be a string' }).check(...textChecks(false, options)));
  return describe(schema, withEncodedLimit(options));
}

/** The search terms field (`q` or `query`); `max` where the upstream takes fewer characters. */
export function searchTerms(description = 'Search terms', max = QUERY_MAX) {
  return requiredText({ max, maxEncodedBytes: QUERY_MAX_ENCODED_BYTES, description });
}

interface IntegerOptions {
  min: number;
  max?: number;
  default?: number;
  description?: string;
}

/** A JSON integer (not "2", not 2.5) within bounds. */
export function integer(options: IntegerOptions & { default: number }): z.ZodMiniDefault<z.ZodMiniNumberFormat>;
export function integer(options: IntegerOptions): z.ZodMiniOptional<z.ZodMiniNumberFormat>;
export function integer(options: IntegerOptions): z.ZodMiniType {
  const { min, max } = options;
  const rule = max === undefined ? `must be an integer of at least ${min}` : `must be an integer from ${min} to ${max}`;
  const base = z
    .int({ error: rule })
    .check(z.gte(min, { error: rule }), ...(max === undefined ? [] : [z.lte(max, { error: rule })]));
  if (options.default === undefined) return describe(z.optional(base), options.description);
  return describe(z._default(base, options.default), options.description);
}

/** The last page a request may ask for (docs/decisions.md §4: page is 0–99). */
export const LAST_PAGE = 99;

/**
 * The page field every paged endpoint shares: 0–99, default 0. An endpoint whose list is its own data, not
 * an upstream's pages, may page further (`last`, its contract's limit: docs/decisions.md §23).
 */
export function page(last: number = LAST_PAGE, description = 'Page number, starting at 0') {
  return integer({ min: 0, max: last, default: 0, description });
}

/** Said in the description of a list accepted in any letter case (the document's `enum` lists the canonical values). */
export const ANY_LETTER_CASE = '(any letter case)';

/**
 * One of a fixed list of values; the error lists them all. Accepted in any letter case and turned into the
 * listed spelling (`"apa"` → `APA`), unless two values of the list differ only in case, where that would be
 * ambiguous and only the exact spelling is taken. The document lists the values as written (`enum`) and
 * the description says "(any letter case)".
 */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, description?: string) {
  const { schema, anyCase } = listValue(values, () => `must be one of: ${values.join(', ')}`);
  if (!anyCase) return describe(z.optional(schema), description);
  return describe(z.optional(schema), description ? `${description} ${ANY_LETTER_CASE}` : `Any letter case`);
}

/** A required field taking one of a fixed list of values, as `oneOf` takes them. */
export function requiredOneOf<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  const { schema, anyCase } = listValue(values, (input) =>
    input === undefined ? 'is required' : `must be one of: ${values.join(', ')}`,
  );
  if (!anyCase) return describe(schema, description);
  // One entry for the schema in the registry: the listed values and the description together.
  z.globalRegistry.add(schema, {
    type: 'string',
    enum: [...values],
    description: `${description} ${ANY_LETTER_CASE}`,
  } as z.core.GlobalMeta);
  return schema;
}

/** One value of `values`, in any letter case unless two differ only in case; `error` words a refusal. */
function listValue<const T extends readonly [string, ...string[]]>(values: T, error: (input: unknown) => string) {
  const canonical = new Map<string, T[number]>(values.map((value) => [value.toLowerCase(), value]));
  const refused = { error: (issue: { input?: unknown }) => error(issue.input) };
  if (canonical.size < values.length) return { schema: z.enum(values, refused), anyCase: false };
  const schema = z.pipe(
    z.string(refused).check(z.overwrite((value) => canonical.get(value.toLowerCase()) ?? value)),
    z.enum(values, refused),
  );
  // The input is a string turned into one of the values; the document still lists the values themselves.
  z.globalRegistry.add(schema, { type: 'string', enum: [...values] } as z.core.GlobalMeta);
  return { schema, anyCase: true };
}

/**
 * The values of one of the upstream's `select` parameters as a format: accepted in any letter case and
 * sent as the upstream lists them (`hl=zh-cn`, `cc=US`). `pattern` is the list's any-case pattern, built
 * when lib/upstream/serpapi-options.ts is written (its `…_PATTERN` constants), not at every cold start.
 */
export function upstreamOptions(values: readonly string[], hint: string, pattern: string): TextFormat {
  const canonical = new Map(values.map((value) => [value.toLowerCase(), value]));
  return {
    pattern,
    hint,
    normalise: (value) => canonical.get(value.toLowerCase()) ?? value,
  };
}

/** A calendar date pattern (yyyy-mm-dd that exists), for years matching `year`, leap years `leapYear`. */
export function calendarDatePattern(year: string, leapYear: string): string {
  const day = '(?:0[1-9]|1\\d|2[0-8])';
  return `(?:${year}-(?:(?:0[13578]|1[02])-(?:${day}|29|30|31)|(?:0[469]|11)-(?:${day}|29|30)|02-${day})` + `|${leapYear}-02-29)`;
}

const ANY_LEAP_YEAR = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';

/** Common formats, shared so that every endpoint describes them in the same words. */
export const formats = {
  isoDate: { pattern: calendarDatePattern('\\d{4}', ANY_LEAP_YEAR), hint: 'a real date such as 2024-01-31' },
} as const satisfies Record<string, TextFormat>;

/** The `language` field (SerpApi `hl`): one of Google's codes; the description says what it affects. */
export function language(description = "Result language: one of Google's codes, such as en or zh-cn (any letter case)") {
  // Built here, not at load: a handler without a language field then bundles no list of languages.
  const format = upstreamOptions(
    GOOGLE_LANGUAGES,
    "one of Google's language codes, such as en, de, zh-cn or pt-br",
    GOOGLE_LANGUAGES_PATTERN,
  );
  return optionalText({ max: 16, format, description });
}

/** The `location` field (SerpApi `location`): free text, as Google takes it. */
export function location(description = 'Geographic location the search comes from, e.g. "Austin, Texas"') {
  return optionalText({ max: 256, description });
}

// Every endpoint caches its upstream answers (README, "Caching"); this is the caller's way around that.
const noCache = z._default(
  z
    .boolean({ error: 'must be true or false' })
    .check(z.describe('Skip the caches: ask the upstream again, and cache the fresh answers for the next request')),
  false,
);

/** The object every request body is: unknown fields are rejected, by name, and every body takes `no_cache`. */
export function body<const Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.strictObject({ ...shape, no_cache: noCache });
}
