/**
 * A reference as a list cites it, before anything is looked up: its text, and the fields a structured entry
 * states (BibTeX, RIS, CSL-JSON). A free-text reference states no fields apart: they are read from its text
 * against each record it is compared with (match/reference-check.ts), since only a record says where a
 * title begins and ends.
 */
import { cleanReference } from './text.js';

/** A person or organisation as a reference names one. */
export interface CitedName {
  family?: string;
  given?: string;
  /** An organisation, or a name the entry gives whole. */
  literal?: string;
}

/** The kinds of input a reference came in. */
export type CitedFormat = 'text' | 'bibtex' | 'ris' | 'csl-json';

export interface CitedReference {
  format: CitedFormat;
  /** The reference as one line of text: as pasted for free text; its fields written out for an entry. */
  text: string;
  /** The fields an entry states; absent for free text. */
  fields?: CitedFields;
  /** A DOI the reference holds (lower case), claimed by it: the check compares the DOI's record with it. */
  doi?: string;
  /** An arXiv identifier the reference holds ("2201.06719"), which is a DOI of arXiv's. */
  arxiv?: string;
}

/** What an entry states, each field only when it does. */
export interface CitedFields {
  title?: string;
  authors?: CitedName[];
  /** The list is cut: "et al.", BibTeX's "and others", RIS's or CSL's ellipsis. */
  authorsCut?: boolean;
  year?: number;
  venue?: string;
  volume?: string;
  issue?: string;
  pages?: string;
  /** The CSL type the entry gives ("article-journal", "paper-conference", "book"…). */
  type?: string;
}

/** A name as one line: "Given Family", or the literal name. */
export function nameText(name: CitedName): string {
  return name.literal ?? [name.given, name.family].filter(Boolean).join(' ');
}

/**
 * An entry's fields written out as one reference, for the source's bibliographic query and the text
 * checks: "Authors (Year). Title. Venue, Volume(Issue), Pages. doi:…". Only what the entry states.
 */
export function textOfFields(fields: CitedFields, doi?: string): string {
  const authors = (fields.authors ?? []).map(nameText).filter(Boolean);
  const people = authors.length > 0 ? `${authors.join(', ')}${fields.authorsCut ? ' et al.' : ''}` : '';
  const numbers = [fields.volume, fields.issue ? `(${fields.issue})` : ''].join('');
  const place = [fields.venue, numbers, fields.pages].filter(Boolean).join(', ');
  const parts = [
    people && fields.year !== undefined ? `${people} (${fields.year})` : people || (fields.year ?? ''),
    fields.title,
    place,
    doi ? `doi:${doi}` : '',
  ];
  return cleanReference(
    parts
      .map((part) => String(part ?? '').trim())
      .filter(Boolean)
      .map((part) => (/[.?!]$/.test(part) ? part : `${part}.`))
      .join(' '),
  );
}

type Json = Record<string, unknown>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : undefined;

/** A CSL-JSON name: family and given, or a literal (an organisation). */
function cslName(value: unknown): CitedName | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const name = value as Json;
  const literal = text(name.literal);
  if (literal) return { literal };
  const family = [text(name['non-dropping-particle']), text(name.family)].filter(Boolean).join(' ');
  const given = text(name.given);
  if (!family && !given) return undefined;
  return { ...(family ? { family } : {}), ...(given ? { given } : {}) };
}

/** The first year a CSL date gives: `date-parts`, a `raw` or `literal` date, or CSL's older `year`. */
export function cslYear(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const date = value as Json;
  const parts = date['date-parts'];
  const first = Array.isArray(parts) && Array.isArray(parts[0]) ? Number(parts[0][0]) : Number.NaN;
  if (Number.isInteger(first) && first > 0) return first;
  const raw = /\b(\d{4})\b/.exec(text(date.raw) ?? text(date.literal) ?? text(date.year) ?? '')?.[1];
  return raw ? Number(raw) : undefined;
}

/** A DOI as written in a field or link, lower case, without its resolver; undefined when it holds none. */
export function doiOf(value: string | undefined): string | undefined {
  const found = /10\.\d{4,9}\/[^\s"<>]+/i.exec(value ?? '')?.[0];
  return found?.replace(/[.,;]+$/, '').toLowerCase();
}

/**
 * A CSL-JSON item (citation-style-language/schema) as a cited reference: what reference managers export.
 * Undefined when it states neither a title nor a DOI (nothing to check it by).
 */
export function citedFromCsl(item: Json): CitedReference | undefined {
  const authors = (Array.isArray(item.author) ? item.author : []).map(cslName).filter((name): name is CitedName => !!name);
  const editors = (Array.isArray(item.editor) ? item.editor : []).map(cslName).filter((name): name is CitedName => !!name);
  const people = authors.length > 0 ? authors : editors;
  const fields: CitedFields = {
    title: text(item.title),
    authors: people.length > 0 ? people : undefined,
    year: cslYear(item.issued),
    venue: text(item['container-title']) ?? text(item['collection-title']),
    volume: text(item.volume),
    issue: text(item.issue),
    pages: text(item.page),
    type: text(item.type),
  };
  const doi = doiOf(text(item.DOI)) ?? doiOf(text(item.URL));
  if (!fields.title && !doi) return undefined;
  const stated = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as CitedFields;
  return { format: 'csl-json', text: textOfFields(stated, doi), fields: stated, ...(doi ? { doi } : {}) };
}
