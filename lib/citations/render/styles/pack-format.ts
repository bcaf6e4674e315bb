/**
 * The style pack's format, which pack-write.ts writes and style-catalogue.ts reads: pack.json (the sources,
 * and where each locale and each pinned text is: all that rendering the five formats needs), catalogue.json.br
 * (every style's metadata, in columns, and where each compressed body is: read only for a style of the
 * catalogue, a search of it or a check of style ids) and the bodies in parts of at most PART_BYTES each
 * (styles-00.bin, styles-01.bin, …), so that no file of the repository is over 1 MiB.
 *
 * Version 3 put the styles in columns (one list per field, names of fields, formats and locales by index)
 * and the pinned texts apart: version 2's list of objects was 2.6 MB of JSON that every function rendering a
 * citation parsed on its first request, a new container's longest wait after the network. `updated` is left
 * out since: nothing read it.
 */
/** One style of the catalogue, as the pack keeps it and the catalogue gives it. */
export interface CatalogueStyle {
  /** The style's file name without .csl, e.g. "nature", "apa", "ieee". */
  id: string;
  /** `<info><title>`. */
  title: string;
  /** `<info><title-short>`. */
  title_short?: string;
  /** `<category field="...">` values, sorted. */
  fields: string[];
  /** `<category citation-format="...">`: author-date, numeric, note, label or author; a dependent's own, else its parent's. */
  citation_format: string;
  /** Dependents only: the independent parent's id. */
  parent?: string;
  /** The style's own default-locale attribute, if any. */
  default_locale?: string;
}

/** The format version of pack.json and catalogue.json.br; style-catalogue.ts refuses another. */
export const PACK_VERSION = 3;

/** The most bytes one part of the bodies holds. */
export const PART_BYTES = 1_000_000;

/** The file name of part `n` of the bodies. */
export function partFile(n: number): string {
  return `styles-${String(n).padStart(2, '0')}.bin`;
}

/** [part, offset, length] of one compressed body: which part file, and where in it. */
export type Span = [number, number, number];

/** One style as catalogue.json.br holds it: the run-time metadata, plus its body's span for an independent. */
export interface PackedStyle extends CatalogueStyle {
  body?: Span;
}

/** pack.json. */
export interface PackIndex {
  version: number;
  source: { styles_commit: string; styles_date: string; locales_commit: string; locales_date: string };
  locales: Record<string, Span>;
  primary_dialects: Record<string, string>;
  pinned: { styles: Record<string, Span>; locales: Record<string, Span> };
}

/**
 * catalogue.json.br: the styles sorted by id, one entry per style in each list: a set of fields by its index
 * in `field_sets` (each a sorted list of indexes in `field_names`: a few hundred sets serve 10,000 styles), a
 * citation format and a default locale by their index in `formats` and `locale_names`, a parent by its index
 * in `id`; -1 (and "" for `title_short`) where a style has none. `body` holds three numbers a style, its
 * body's part, offset and length, -1 for a dependent's. Lists of numbers and strings, few objects: the
 * reader parses and keeps them for as long as the process lives.
 */
export interface PackColumns {
  version: number;
  field_names: string[];
  field_sets: number[][];
  formats: string[];
  locale_names: string[];
  id: string[];
  title: string[];
  title_short: string[];
  fields: number[];
  citation_format: number[];
  default_locale: number[];
  parent: number[];
  body: number[];
}

/** Sorts strings by UTF-16 code unit, as the writer sorts every list: the same input, the same files. */
export const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The styles (sorted by id, a dependent's parent among them) as catalogue.json.br's columns. */
export function toColumns(styles: readonly PackedStyle[]): PackColumns {
  const names = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => !!v))].sort(byCodeUnit);
  const field_names = names(styles.flatMap((s) => s.fields));
  const formats = names(styles.map((s) => s.citation_format));
  const locale_names = names(styles.map((s) => s.default_locale));
  const index = (list: readonly string[]) => new Map(list.map((value, i) => [value, i]));
  const [fieldAt, formatAt, localeAt, idAt] = [
    index(field_names),
    index(formats),
    index(locale_names),
    index(styles.map((s) => s.id)),
  ];
  const at = (map: Map<string, number>, value: string | undefined) => {
    if (value === undefined || value === '') return -1;
    const i = map.get(value);
    if (i === undefined) throw new Error(`no entry for ${value}`);
    return i;
  };
  // Each style's set of fields, written as its sorted indexes' JSON.
  const setKeys = styles.map((s) => JSON.stringify(s.fields.map((f) => at(fieldAt, f)).sort((a, b) => a - b)));
  // The empty set first, then by their JSON: any order would do, this one is reproducible.
  const field_sets = names(setKeys)
    .map((key) => JSON.parse(key) as number[])
    .sort((a, b) => a.length - b.length || byCodeUnit(JSON.stringify(a), JSON.stringify(b)));
  const setAt = index(field_sets.map((set) => JSON.stringify(set)));
  return {
    version: PACK_VERSION,
    field_names,
    field_sets,
    formats,
    locale_names,
    id: styles.map((s) => s.id),
    title: styles.map((s) => s.title),
    title_short: styles.map((s) => s.title_short ?? ''),
    fields: setKeys.map((key) => at(setAt, key)),
    citation_format: styles.map((s) => at(formatAt, s.citation_format)),
    default_locale: styles.map((s) => at(localeAt, s.default_locale)),
    parent: styles.map((s) => at(idAt, s.parent)),
    body: styles.flatMap((s) => s.body ?? [-1, -1, -1]),
  };
}

/** The fields of each set, each list frozen and shared by every style of its set. */
export function fieldSetsOf(columns: PackColumns): readonly (readonly string[])[] {
  return columns.field_sets.map((set) => Object.freeze(set.map((f) => columns.field_names[f] as string)));
}

/**
 * Style `i` of the columns as toColumns was given it but for its body (`bodyOf`), frozen; its fields' list
 * is its set's, shared (`fieldSetsOf`).
 */
export function styleOf(columns: PackColumns, sets: readonly (readonly string[])[], i: number): CatalogueStyle {
  const style: CatalogueStyle = {
    id: columns.id[i] as string,
    title: columns.title[i] as string,
    fields: (sets[columns.fields[i] as number] ?? []) as string[],
    citation_format: columns.formats[columns.citation_format[i] as number] ?? '',
  };
  const short = columns.title_short[i];
  if (short) style.title_short = short;
  const parent = columns.parent[i] as number;
  if (parent >= 0) style.parent = columns.id[parent];
  const locale = columns.default_locale[i] as number;
  if (locale >= 0) style.default_locale = columns.locale_names[locale];
  return Object.freeze(style);
}

/** Where style `i`'s body is; undefined for a dependent. */
export function bodyOf(columns: PackColumns, i: number): Span | undefined {
  const part = columns.body[3 * i] as number;
  return part >= 0 ? [part, columns.body[3 * i + 1] as number, columns.body[3 * i + 2] as number] : undefined;
}
