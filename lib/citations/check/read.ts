/**
 * A reference list as the check reads it: each entry of a request's `references` (free text, one BibTeX
 * entry, one RIS record, or a CSL-JSON item), or one `bibliography` string split into its references (a
 * whole .bib or .ris file, a CSL-JSON array, or a pasted list: numbered, bulleted, one per paragraph or
 * one per line). BibTeX is read by the parser of Zotero's Better BibTeX (`@retorquere/bibtex-parser`:
 * @string macros, nested braces, TeX accents, "and others"), loaded only for a list that holds BibTeX.
 * An entry that cannot be read is `unreadable` with its reason, never failing the list. Pure but for that
 * lazy import; the jobs that check longer lists read them with the same functions.
 */

import { CHECK_REFERENCE_MAX_CHARS } from '../../contract/cite-check.js';
import { parseReferenceInput } from '../match/reference-match.js';
import { type CitedFields, type CitedName, type CitedReference, citedFromCsl, doiOf, textOfFields } from '../model/cited.js';
import { cleanReference } from '../model/text.js';

/** One reference of the list: read, or why it could not be. `input` is what the list gave, as given. */
export type ReadReference =
  | { input: string; reference: CitedReference }
  | { input: string; format: CitedReference['format']; unreadable: string };

/** An arXiv identifier in a text: "arXiv:2201.06719", "arxiv.org/abs/2201.06719v2". */
const ARXIV = /\barxiv(?:\.org\/abs\/|\s*[:/]\s*(?:abs\/)?)(\d{4}\.\d{4,5})(?:v\d+)?\b/i;

const BIBTEX_ENTRY = /^\s*@\s*[A-Za-z]+\s*[{(]/;
const BIBTEX_FILE = /^\s*@\s*[A-Za-z]+\s*[{(]/m;
const RIS_RECORD = /^\s*TY\s{1,2}-/;
const RIS_FILE = /^\s*TY\s{1,2}-/m;

/** A free-text reference: read as pasted, its DOI and arXiv identifier noted; empty or too long, unreadable. */
export function readText(input: string): ReadReference {
  const text = cleanReference(input);
  if (text === '') return { input, format: 'text', unreadable: 'The reference is empty.' };
  if (text.length > CHECK_REFERENCE_MAX_CHARS) {
    return {
      input,
      format: 'text',
      unreadable: `The reference is longer than ${CHECK_REFERENCE_MAX_CHARS.toLocaleString('en-US')} characters: more than one reference, or not one at all.`,
    };
  }
  const parsed = parseReferenceInput(text);
  const arxiv = ARXIV.exec(text)?.[1];
  return {
    input,
    reference: {
      format: 'text',
      text: parsed.kind === 'doi' ? `doi:${parsed.doi}` : text,
      ...(parsed.doi ? { doi: parsed.doi } : {}),
      ...(arxiv ? { arxiv } : {}),
    },
  };
}

/** An entry that states fields: its text written out, its DOI and arXiv identifier, or unreadable when it states nothing to check. */
function structured(
  input: string,
  format: CitedReference['format'],
  fields: CitedFields,
  doi?: string,
  arxiv?: string,
): ReadReference {
  const stated = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined && value !== ''),
  ) as CitedFields;
  if (!stated.title && !doi && !arxiv) {
    return { input, format, unreadable: 'The entry states neither a title nor a DOI: there is nothing to check it by.' };
  }
  return {
    input,
    reference: {
      format,
      text: textOfFields(stated, doi),
      fields: stated,
      ...(doi ? { doi } : {}),
      ...(arxiv ? { arxiv } : {}),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// BibTeX

type BibtexCreator = { lastName?: string; firstName?: string; prefix?: string; suffix?: string; name?: string };
type BibtexEntry = { type: string; key: string; fields: Record<string, unknown>; input: string };
type BibtexLibrary = { entries: BibtexEntry[]; errors: { error: string; input: string }[] };

let bibtexParser: Promise<(text: string) => BibtexLibrary> | undefined;

/** The parser, loaded on the first BibTeX a list holds (it is most of a check's code: a list without BibTeX never loads it). */
function bibtex(): Promise<(text: string) => BibtexLibrary> {
  bibtexParser ??= import('@retorquere/bibtex-parser').then(
    ({ parse }) =>
      (text: string) =>
        // As written: no sentence-casing of titles, unknown TeX commands kept as their text.
        parse(text, { sentenceCase: false, english: false, unsupported: 'ignore' }) as unknown as BibtexLibrary,
  );
  return bibtexParser;
}

/** TeX's accents come as combining marks, on a dotless i where TeX writes one ("\\'{\\i}"): composed, as typed. */
function composed(text: string): string {
  return text
    .replace(/ı(?=\p{M})/gu, 'i')
    .replace(/ȷ(?=\p{M})/gu, 'j')
    .normalize('NFC');
}

/** The parser's markup (<i>, <span class="nocase">, <sup>) is no part of a title. */
function bibText(value: unknown): string | undefined {
  if (Array.isArray(value)) return bibText(value.join(', '));
  if (typeof value !== 'string') return undefined;
  const text = composed(value.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
  return text || undefined;
}

function bibNames(value: unknown): { names: CitedName[]; cut: boolean } {
  const creators = (Array.isArray(value) ? value : []) as BibtexCreator[];
  const cut = creators.some((creator) => creator.lastName === 'others' && !creator.firstName);
  const names = creators
    .filter((creator) => !(creator.lastName === 'others' && !creator.firstName))
    .flatMap((creator): CitedName[] => {
      if (creator.name) return [{ literal: composed(creator.name) }];
      const family = composed([creator.prefix, creator.lastName].filter(Boolean).join(' '));
      const given = creator.firstName ? composed(creator.firstName) : undefined;
      return family || given ? [{ ...(family ? { family } : {}), ...(given ? { given } : {}) }] : [];
    });
  return { names, cut };
}

const BIBTEX_TYPES: Record<string, string> = {
  article: 'article-journal',
  inproceedings: 'paper-conference',
  conference: 'paper-conference',
  incollection: 'chapter',
  inbook: 'chapter',
  book: 'book',
  phdthesis: 'thesis',
  mastersthesis: 'thesis',
  thesis: 'thesis',
  techreport: 'report',
  report: 'report',
  dataset: 'dataset',
  software: 'software',
};

function fromBibtex(entry: BibtexEntry): ReadReference {
  const f = entry.fields;
  const authors = bibNames(f.author);
  const people = authors.names.length > 0 ? authors : bibNames(f.editor);
  const year = /\d{4}/.exec(bibText(f.year) ?? bibText(f.date) ?? '')?.[0];
  const arxivField = /arxiv/i.test(bibText(f.archiveprefix) ?? bibText(f.eprinttype) ?? '') ? bibText(f.eprint) : undefined;
  const arxiv = arxivField ?? ARXIV.exec(`${bibText(f.journal) ?? ''} ${bibText(f.url) ?? ''} ${bibText(f.note) ?? ''}`)?.[1];
  const fields: CitedFields = {
    title: bibText(f.title),
    authors: people.names.length > 0 ? people.names : undefined,
    authorsCut: people.cut || undefined,
    year: year ? Number(year) : undefined,
    venue: bibText(f.journal) ?? bibText(f.journaltitle) ?? bibText(f.booktitle),
    volume: bibText(f.volume),
    issue: bibText(f.number) ?? bibText(f.issue),
    pages: bibText(f.pages),
    type: BIBTEX_TYPES[entry.type.toLowerCase()],
  };
  return structured(entry.input, 'bibtex', fields, doiOf(bibText(f.doi)) ?? doiOf(bibText(f.url)), arxiv);
}

/** The references of a BibTeX text (a file or one entry), in their order; a broken entry unreadable with the parser's reason. */
async function readBibtex(text: string): Promise<ReadReference[]> {
  const library = (await bibtex())(text);
  const placed: { at: number; read: ReadReference }[] = [];
  let from = 0;
  for (const entry of library.entries) {
    // An entry the parser recovered from an error has no text of its own: the error reports it.
    if (!entry.input.trim()) continue;
    const at = text.indexOf(entry.input, from);
    if (at >= 0) from = at + entry.input.length;
    placed.push({ at: at >= 0 ? at : from, read: fromBibtex(entry) });
  }
  for (const error of library.errors) {
    if (!error.input.trim()) continue;
    const at = text.indexOf(error.input);
    placed.push({
      at: at >= 0 ? at : text.length,
      read: {
        input: error.input.trim(),
        format: 'bibtex',
        unreadable: `The BibTeX entry cannot be read: ${error.error.slice(0, 200)}`,
      },
    });
  }
  return placed.sort((a, b) => a.at - b.at).map((one) => one.read);
}

// ---------------------------------------------------------------------------------------------------------
// RIS

const RIS_TYPES: Record<string, string> = {
  JOUR: 'article-journal',
  JFULL: 'article-journal',
  EJOUR: 'article-journal',
  MGZN: 'article-magazine',
  CONF: 'paper-conference',
  CPAPER: 'paper-conference',
  CHAP: 'chapter',
  BOOK: 'book',
  EBOOK: 'book',
  EDBOOK: 'book',
  THES: 'thesis',
  RPRT: 'report',
  DATA: 'dataset',
  COMP: 'software',
  UNPB: 'article',
};

/** One RIS record (from "TY  -" to "ER  -"): its tags' values, read into fields. */
function fromRis(record: string): ReadReference {
  const tags = new Map<string, string[]>();
  for (const line of record.split(/\r?\n/)) {
    const match = /^\s*([A-Z][A-Z0-9])\s{1,2}-\s?(.*)$/.exec(line);
    if (!match) continue;
    const [, tag = '', value = ''] = match;
    if (value.trim()) tags.set(tag, [...(tags.get(tag) ?? []), value.trim()]);
  }
  const one = (...names: string[]) => names.map((name) => tags.get(name)?.[0]).find(Boolean);
  const type = one('TY');
  if (!type) return { input: record.trim(), format: 'ris', unreadable: 'The RIS record has no TY line.' };
  const authors = [...(tags.get('AU') ?? []), ...(tags.get('A1') ?? [])];
  const names = authors.map((name): CitedName => {
    const [family, given] = name.split(/,\s*/);
    return given ? { family: family ?? '', given } : { literal: name };
  });
  const start = one('SP');
  const end = one('EP');
  const year = /\d{4}/.exec(one('PY', 'Y1', 'DA') ?? '')?.[0];
  const fields: CitedFields = {
    title: one('TI', 'T1', 'CT'),
    authors: names.length > 0 ? names : undefined,
    year: year ? Number(year) : undefined,
    venue: one('T2', 'JO', 'JF', 'JA', 'J2', 'BT', 'C3'),
    volume: one('VL'),
    issue: one('IS'),
    pages: start ? (end ? `${start}-${end}` : start) : undefined,
    type: RIS_TYPES[type.toUpperCase()],
  };
  const doi = doiOf(one('DO')) ?? doiOf(one('UR', 'L3'));
  const arxiv = ARXIV.exec(`${one('UR') ?? ''} ${one('T2', 'JO') ?? ''}`)?.[1];
  return structured(record.trim(), 'ris', fields, doi, arxiv);
}

/** The records of a RIS text, each from its TY line to its ER line (or the next TY). */
function readRis(text: string): ReadReference[] {
  const records = text.split(/^(?=\s*TY\s{1,2}-)/m).filter((part) => RIS_RECORD.test(part));
  return records.map((record) => fromRis(record.replace(/^\s*ER\s{1,2}-.*$[\s\S]*/m, '')));
}

// ---------------------------------------------------------------------------------------------------------
// CSL-JSON

function fromCsl(item: unknown, input: string): ReadReference {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return { input, format: 'csl-json', unreadable: 'A CSL-JSON item must be an object.' };
  }
  const reference = citedFromCsl(item as Record<string, unknown>);
  if (!reference) {
    return {
      input,
      format: 'csl-json',
      unreadable: 'The CSL-JSON item states neither a title nor a DOI: there is nothing to check it by.',
    };
  }
  const arxiv = ARXIV.exec(reference.text)?.[1];
  return { input, reference: arxiv ? { ...reference, arxiv } : reference };
}

// ---------------------------------------------------------------------------------------------------------
// A pasted list

/** A list item's mark at a line's start: "[12]", "12.", "(12)", "12)", or a bullet. */
const NUMBERED = /^\s*(?:\[\d{1,3}\]|\(\d{1,3}\)|\d{1,3}[.)])\s+/;
const BULLETED = /^\s*[•◦▪‣●*–-]\s+/;
/** A line that starts a reference: a family name and initials or a comma ("Smith, J.", "Smith J", "Smith JA,"), or an organisation's name and a year. */
const STARTS_REFERENCE =
  /^\s*\p{Lu}[\p{L}'’-]+(?:\s+(?:van|von|de|der|den|la|le|da|di|du)\s+\p{Lu}[\p{L}'’-]+)?,?\s+(?:\p{Lu}\.|\p{Lu}{1,3}\b|\p{Lu}[\p{Ll}]+,(?!\s*\d))/u;

/**
 * A pasted reference list split into its references: at list marks (numbers or bullets at line starts),
 * else at blank lines, else line by line, a line joining the one before when it does not start a
 * reference there (a reference wrapped by the paste).
 */
export function splitPastedList(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\u2028\u2029]/);
  const marked = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
  const nonEmpty = lines.filter((line) => line.trim()).length;
  for (const pattern of [NUMBERED, BULLETED]) {
    if (marked(pattern) >= 2 || (marked(pattern) === 1 && nonEmpty === 1))
      return groupAt(lines, (line) => pattern.test(line), pattern);
  }
  if (/\n\s*\n/.test(text.trim())) {
    return text
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter(Boolean);
  }
  return groupAt(
    lines,
    (line, previous) =>
      previous === undefined ||
      (STARTS_REFERENCE.test(line) && /[.)\]]\s*$|\b10\.\d{4,9}\/\S+\s*$|https?:\/\/\S+\s*$/.test(previous)),
    undefined,
  );
}

/** Lines grouped into references, each starting at a line `starts` says begins one; `mark` removed from it. */
function groupAt(
  lines: readonly string[],
  starts: (line: string, previous: string | undefined) => boolean,
  mark: RegExp | undefined,
): string[] {
  const groups: string[][] = [];
  let previous: string | undefined;
  for (const line of lines) {
    if (!line.trim()) continue;
    if (groups.length === 0 || starts(line, previous)) groups.push([mark ? line.replace(mark, '') : line]);
    else groups.at(-1)?.push(line);
    previous = line;
  }
  // Lines before the first mark (a heading such as "References") are no reference.
  if (mark && groups[0] && !mark.test(lines.find((line) => line.trim()) ?? '')) groups.shift();
  return groups.map((group) => group.join('\n').trim()).filter(Boolean);
}

// ---------------------------------------------------------------------------------------------------------
// The two ways a request gives its list

/** One entry of a request's `references`: free text, a BibTeX entry, a RIS record, a CSL-JSON item (an object, or its JSON). */
export async function readReferenceEntry(entry: unknown): Promise<ReadReference> {
  if (typeof entry !== 'string') return fromCsl(entry, JSON.stringify(entry));
  if (BIBTEX_ENTRY.test(entry)) {
    const read = await readBibtex(entry);
    if (read.length === 1 && read[0]) return read[0];
    return {
      input: entry,
      format: 'bibtex',
      unreadable:
        read.length === 0
          ? 'The BibTeX entry cannot be read.'
          : 'The item holds several BibTeX entries: give one per item, or the whole file as `bibliography`.',
    };
  }
  if (RIS_RECORD.test(entry)) return fromRis(entry.replace(/^\s*ER\s{1,2}-.*$[\s\S]*/m, ''));
  if (/^\s*\{[\s\S]*\}\s*$/.test(entry)) {
    try {
      return fromCsl(JSON.parse(entry), entry);
    } catch {
      // Not JSON after all: a reference that happens to be in braces.
    }
  }
  return readText(entry);
}

/** Every entry of `references`, in order. */
export function readReferenceList(entries: readonly unknown[]): Promise<ReadReference[]> {
  return Promise.all(entries.map(readReferenceEntry));
}

/** A whole bibliography: a .bib file, a .ris file, a CSL-JSON array, or a pasted list. */
export async function readBibliography(text: string): Promise<ReadReference[]> {
  if (BIBTEX_FILE.test(text)) return readBibtex(text);
  if (RIS_FILE.test(text)) return readRis(text);
  if (/^\s*\[[\s\S]*\]\s*$/.test(text)) {
    try {
      const items = JSON.parse(text) as unknown;
      if (Array.isArray(items)) return items.map((item) => fromCsl(item, JSON.stringify(item)));
    } catch {
      // Not a JSON array: read as a pasted list.
    }
  }
  return splitPastedList(text).map(readText);
}
