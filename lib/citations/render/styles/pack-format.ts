/**
 * The style pack's format, which pack-write.ts writes and style-catalogue.ts reads: catalogue.json.br (the
 * metadata, and where each compressed body is) and the bodies in parts of at most PART_BYTES each
 * (styles-00.bin, styles-01.bin, …), so that no file of the repository is over 1 MiB.
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
  /** `<info><updated>`. */
  updated?: string;
}

/** The format version of catalogue.json.br; style-catalogue.ts refuses another. */
export const PACK_VERSION = 2;

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

export interface PackCatalogue {
  version: number;
  source: { styles_commit: string; styles_date: string; locales_commit: string; locales_date: string };
  styles: PackedStyle[];
  locales: Record<string, Span>;
  primary_dialects: Record<string, string>;
  pinned: { styles: Record<string, Span>; locales: Record<string, Span> };
}
