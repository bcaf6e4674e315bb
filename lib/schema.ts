/**
 * Field builders for request schemas. Each one carries a message written for a person, so that a 400's
 * details name the field and the rule ("num: must be an integer from 1 to 100"). zod/mini keeps the
 * handlers' bundles small (the full zod build alone is about 440 KiB minified).
 */
import * as z from 'zod/mini';

// ASCII control characters (C0 and DEL): never meaningful in a search term, and a classic injection vector.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

const QUERY_MAX = 2048;

export interface TextFormat {
  pattern: RegExp;
  hint: string;
  /** A further check the pattern cannot express, such as a real calendar date. */
  valid?: (value: string) => boolean;
}

interface TextOptions {
  max?: number;
  /** A format the value must match, and how to describe it in an error. */
  format?: TextFormat;
  description?: string;
}

function textChecks(max: number, format?: TextFormat) {
  return [
    z.trim(),
    z.maxLength(max, { error: `must be at most ${max} characters` }),
    z.refine<string>((s) => !CONTROL_CHARACTERS.test(s), { error: 'must not contain control characters' }),
    z.refine<string>((s) => s.isWellFormed(), { error: 'must be valid Unicode text (no lone surrogates)' }),
    ...(format
      ? [
          z.refine<string>((s) => s === '' || (format.pattern.test(s) && (format.valid?.(s) ?? true)), {
            error: `must be ${format.hint}`,
          }),
        ]
      : []),
  ] as const;
}

function describe<T extends z.ZodMiniType>(schema: T, description?: string): T {
  if (description) z.globalRegistry.add(schema, { description });
  return schema;
}

/** A required string: trimmed, and empty after trimming counts as missing. */
export function requiredText(options: TextOptions = {}) {
  const schema = z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .check(...textChecks(options.max ?? QUERY_MAX, options.format), z.minLength(1, { error: 'must not be empty' }));
  return describe(schema, options.description);
}

/** An optional string: trimmed; an empty string is treated as not given. */
export function optionalText(options: TextOptions = {}) {
  const schema = z.optional(z.string({ error: 'must be a string' }).check(...textChecks(options.max ?? 256, options.format)));
  return describe(schema, options.description);
}

/** The search terms field (`q` or `query`). */
export function searchTerms(description = 'Search terms') {
  return requiredText({ max: QUERY_MAX, description });
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

/** The last page a request may ask for (decisions.md §4: page is 0–99). */
export const LAST_PAGE = 99;

/** The page field every paged endpoint shares: 0–99, default 0. */
export function page() {
  return integer({ min: 0, max: LAST_PAGE, default: 0, description: 'Page number, starting at 0' });
}

/** One of a fixed list of values; the error lists them all. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, description?: string) {
  return describe(z.optional(z.enum(values, { error: `must be one of: ${values.join(', ')}` })), description);
}

/** Common formats, shared so that every endpoint describes them in the same words. */
export const formats = {
  language: { pattern: /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, hint: 'a language code such as en or zh-CN' },
  country: { pattern: /^[A-Za-z]{2}$/, hint: 'a two-letter country code such as us' },
  isoDate: {
    pattern: /^\d{4}-\d{2}-\d{2}$/,
    hint: 'a date such as 2024-01-31',
    valid: (s: string) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
  },
} as const satisfies Record<string, TextFormat>;

/** The `language` field (SerpApi `hl`): a language code; the description says what it affects. */
export function language(description = 'Result language, e.g. en or zh-CN') {
  return optionalText({ max: 16, format: formats.language, description });
}

/** The `location` field (SerpApi `location`): free text, as Google takes it. */
export function location(description = 'Geographic location the search comes from, e.g. "Austin, Texas"') {
  return optionalText({ max: 256, description });
}

/** The object every request body is: unknown fields are rejected, by name. */
export const body = z.strictObject;
