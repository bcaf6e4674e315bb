/**
 * Request cases generated from a JSON Schema (draft 2020-12, the subset zod writes for request bodies):
 * valid values as fast-check arbitraries, a checker that lists every rule a value breaks, and values that
 * break exactly one rule of one field. The checker is the judge of every generated case, so a generator
 * that is sloppy only yields fewer cases, never a wrong one. A keyword outside the subset fails loudly
 * rather than being ignored.
 */
import fc from 'fast-check';

export type JsonSchema = { readonly [keyword: string]: unknown };

/** One rule a value breaks: where (a field path such as `queries.2`) and which keyword. */
export interface Violation {
  path: string;
  keyword: string;
}

// Keywords that constrain a value, and annotations that do not (format is an annotation in 2020-12).
const ASSERTIONS = new Set([
  'propertyNames',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'anyOf',
  'not',
]);
const ANNOTATIONS = new Set(['description', 'default', 'title', 'examples', 'format', 'deprecated']);

/** Throws on a keyword this module does not understand, naming where it is. */
export function assertSupported(schema: JsonSchema, where: string): void {
  for (const [keyword, value] of Object.entries(schema)) {
    if (!ASSERTIONS.has(keyword) && !ANNOTATIONS.has(keyword)) {
      throw new Error(`${where}: keyword "${keyword}" is not understood by the case generator; teach it`);
    }
    if (keyword === 'properties') {
      for (const [name, inner] of Object.entries(value as Record<string, JsonSchema>)) assertSupported(inner, `${where}.${name}`);
    }
    if (keyword === 'items') assertSupported(value as JsonSchema, `${where}[]`);
    if (keyword === 'anyOf') {
      for (const [i, inner] of (value as JsonSchema[]).entries()) assertSupported(inner, `${where}|${i}`);
    }
    if (keyword === 'not') assertSupported(value as JsonSchema, `${where}!`);
    // An open record (a CSL-JSON item): any other property with any value, `{}` the schema every value meets.
    const anyValue = typeof value === 'object' && value !== null && Object.keys(value).length === 0;
    if (keyword === 'additionalProperties' && value !== false && !anyValue) {
      throw new Error(`${where}: additionalProperties other than false or {} is not understood by the case generator`);
    }
    // Every key of a JSON object is a string: `{"type": "string"}` holds of any object, so it generates no case.
    if (keyword === 'propertyNames' && JSON.stringify(value) !== '{"type":"string"}') {
      throw new Error(`${where}: propertyNames other than {"type": "string"} is not understood by the case generator`);
    }
  }
}

const patterns = new Map<string, RegExp>();
/** JSON Schema patterns are ECMA-262 regular expressions with Unicode semantics (the `u` flag). */
export function patternOf(source: string): RegExp {
  let regex = patterns.get(source);
  if (!regex) {
    regex = new RegExp(source, 'u');
    patterns.set(source, regex);
  }
  return regex;
}

/** Length as JSON Schema counts it: in Unicode code points, not UTF-16 units. */
export function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      throw new Error(`unknown JSON Schema type ${type}`);
  }
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** Every rule of `schema` that `value` breaks; empty when the document accepts it. */
export function violations(schema: JsonSchema, value: unknown, path = ''): Violation[] {
  const out: Violation[] = [];
  const add = (keyword: string, at = path) => out.push({ path: at, keyword });
  if (schema.anyOf && (schema.anyOf as JsonSchema[]).every((branch) => violations(branch, value, path).length > 0)) add('anyOf');
  if (schema.not && violations(schema.not as JsonSchema, value, path).length === 0) add('not');
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) add('const');
  // A list whose description says "any letter case" (lib/schema.ts `oneOf`) takes its values in any case.
  const anyCase = /any letter case/i.test(String(schema.description ?? ''));
  const listed = (option: unknown) =>
    option === value ||
    (anyCase && typeof option === 'string' && typeof value === 'string' && option.toLowerCase() === value.toLowerCase());
  if (schema.enum && !(schema.enum as unknown[]).some(listed)) add('enum');
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((type) => hasType(type, value))) {
      add('type');
      return out;
    }
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && codePoints(value) < schema.minLength) add('minLength');
    if (typeof schema.maxLength === 'number' && codePoints(value) > schema.maxLength) add('maxLength');
    if (typeof schema.pattern === 'string' && !patternOf(schema.pattern).test(value)) add('pattern');
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) add('minimum');
    if (typeof schema.maximum === 'number' && value > schema.maximum) add('maximum');
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) add('exclusiveMinimum');
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) add('exclusiveMaximum');
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) add('minItems');
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) add('maxItems');
    if (schema.items) {
      for (const [i, item] of value.entries()) out.push(...violations(schema.items as JsonSchema, item, join(path, i)));
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const record = value as Record<string, unknown>;
    for (const name of (schema.required ?? []) as string[]) if (!Object.hasOwn(record, name)) add('required', join(path, name));
    for (const [name, inner] of Object.entries(record)) {
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (property) out.push(...violations(property, inner, join(path, name)));
      else if (schema.additionalProperties === false) add('additionalProperties', join(path, name));
    }
  }
  return out;
}

/** Characters a string is made of: mostly printable ASCII, plus the Unicode a real client sends. */
const CHARACTER = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', '中', '文', '😀', '𝄞', '\u00a0', '\u3000', 'ﬃ', 'İ') },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 0, max: 0x10ffff })
      .filter((code) => code < 0xd800 || code > 0xdfff)
      .map((code) => String.fromCodePoint(code)),
  },
);

/** Any text, for fields without a pattern and as raw material for broken values. */
export function text(options: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.string({ unit: CHARACTER, minLength: options.minLength ?? 0, maxLength: options.maxLength ?? 40 });
}

/** A string of exactly `length` code points made from `seed`'s own characters, or undefined. */
function stretched(seed: string, length: number, filler: string): string {
  const current = codePoints(seed);
  if (current >= length) return [...seed].slice(0, length).join('');
  return seed + filler.repeat(length - current);
}

/** Values the document accepts for this schema, boundaries included. */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const accepted = (value: unknown) => violations(schema, value).length === 0;
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as JsonSchema[]).map(validValue)).filter(accepted);
  switch (schema.type) {
    case 'string': {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = (schema.maxLength as number | undefined) ?? 4096;
      const base =
        typeof schema.pattern === 'string'
          ? fc.stringMatching(patternOf(schema.pattern))
          : text({ minLength: min, maxLength: Math.min(max, 40) });
      // The longest value allowed, padded with spaces or with its own last character.
      const longest = fc
        .tuple(base, fc.constantFrom(' ', '\u3000', 'LAST'))
        .map(([seed, filler]) => stretched(seed, max, filler === 'LAST' ? ([...seed].at(-1) ?? 'a') : filler));
      return fc.oneof({ weight: 5, arbitrary: base }, { weight: 1, arbitrary: longest }).filter(accepted);
    }
    case 'integer': {
      const min = (schema.minimum as number | undefined) ?? -1_000_000;
      const max = (schema.maximum as number | undefined) ?? 1_000_000_000;
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
    }
    case 'number':
      return fc.double({
        min: (schema.minimum as number | undefined) ?? -1e9,
        max: (schema.maximum as number | undefined) ?? 1e9,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(schema.items as JsonSchema), {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: (schema.maxItems as number | undefined) ?? 5,
      });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const model = Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, validValue(inner)]));
      const record = fc.record(model, { requiredKeys: (schema.required ?? []) as string[] }) as fc.Arbitrary<unknown>;
      return schema.not ? record.filter(accepted) : record;
    }
    default:
      throw new Error(`no generator for ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

/** Candidate values for one field, valid and broken alike; the checker sorts them out. */
export function candidates(schema: JsonSchema, seed: number): unknown[] {
  const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns: number) => fc.sample(arbitrary, { numRuns, seed });
  const out: unknown[] = [42, 2.5, -1, true, null, {}, [], 'x', '', ' ', '\t x \t', 'a\u0001b', 'a\nb', 'a\u007fb', '😀'];
  out.push(...sample(text({ maxLength: 30 }), 40));
  const valid = schema.type === 'object' ? [] : sample(validValue(schema), 8);
  if (schema.enum) {
    const first = String((schema.enum as unknown[])[0]);
    out.push(`${first}x`, first.toUpperCase(), first.toLowerCase(), ` ${first} `, 'not-listed');
  }
  if (typeof schema.minimum === 'number') out.push(schema.minimum - 1, schema.minimum + 0.5);
  if (typeof schema.maximum === 'number') out.push(schema.maximum + 1, schema.maximum - 0.5);
  if (schema.type === 'integer') out.push('1', 1.5);
  for (const value of valid) {
    if (typeof value !== 'string') continue;
    if (typeof schema.maxLength === 'number') {
      const over = schema.maxLength + 1;
      out.push(stretched(value, over, ' '), stretched(value, over, [...value].at(-1) ?? 'a'), stretched(value, over, '😀'));
      // At the limit exactly, counted in code points (an emoji is one, in two UTF-16 units).
      out.push(stretched(value, schema.maxLength, '😀'), stretched(value, schema.maxLength, '中'));
    }
    out.push(`${value}!`, `${value},x`, value.toUpperCase(), [...value].slice(1).join(''), `${value}\u0000`, `\u200b${value}`);
  }
  if (typeof schema.maxLength === 'number') out.push('a'.repeat(schema.maxLength + 1), '😀'.repeat(schema.maxLength + 1));
  if (typeof schema.minLength === 'number' && schema.minLength > 1) out.push('a'.repeat(schema.minLength - 1));
  if (schema.type === 'array' && schema.items) {
    const items = sample(validValue(schema.items as JsonSchema), 6);
    const item = items[0] ?? 'x';
    // One item too many, each the shortest sampled: a list that breaks maxItems and fits the body's limit.
    const shortest = [...items].sort((a, b) => JSON.stringify(a).length - JSON.stringify(b).length)[0] ?? item;
    out.push([], [item, 42], [item, ''], [item, null], Array(((schema.maxItems as number | undefined) ?? 5) + 1).fill(shortest));
    for (const broken of candidates(schema.items as JsonSchema, seed + 1).slice(0, 60)) out.push([item, broken]);
  }
  return out;
}
