/**
 * Reference-manager exports for citation search: a CSL-JSON record per paper, from Crossref when a work
 * matched and else from what the scholarly index gave, rendered to BibTeX and RIS by citation-js (its
 * core and its BibTeX and RIS plugins). Its CSL plugin is left out on purpose: it renders bibliographies
 * in citation styles through citeproc, which the exports do not need and which would be 560 KiB of the
 * bundle. citation-js is imported only when a request asks for BibTeX or RIS, and then once per container.
 * A record it cannot render costs that paper only the format, never the answer. CSL rich text in titles,
 * containers and series (`<i>`, `<b>`, `<sup>`, `<sub>`, small capitals, `nocase`) becomes LaTeX in BibTeX
 * and plain text in RIS; the CSL-JSON record keeps it. test/unit/lib/exports-tex.test.ts builds a LaTeX
 * document of the BibTeX exports with BibTeX and with biber.
 */
import type { ExportFormat, PaperExports } from '../../contract/cite-search.js';
import { AUTHORS_CUT, type CslItem, withoutEmpty } from '../model/csl.js';
import { citationKey } from './keys.js';

type CiteConstructor = typeof import('@citation-js/core').Cite;

let citationJs: Promise<CiteConstructor> | undefined;

/**
 * citation-js with its BibTeX and RIS plugins, loaded on first use and kept for the container's life. A
 * failed load is not kept: the next request tries again rather than failing for the container's life.
 */
export function loadCitationJs(): Promise<CiteConstructor> {
  citationJs ??= (async () => {
    const { Cite } = await import('@citation-js/core');
    // The plugins register themselves with core when imported.
    await Promise.all([import('@citation-js/plugin-bibtex'), import('@citation-js/plugin-ris')]);
    const { plugins } = (await import('@citation-js/core')) as unknown as {
      plugins: { config: { get(name: string): unknown } };
    };
    // UTF-8 BibTeX, which biber and BibTeX since 0.99 read: the ASCII-only default writes LaTeX escapes
    // for Latin letters and silently drops every other character (an Arabic name, a Chinese title, the
    // U+2010 hyphen of "Cavaco‐Paulo").
    (plugins.config.get('@bibtex') as { format: { asciiOnly: boolean } }).format.asciiOnly = false;
    return Cite;
  })().catch((error: unknown) => {
    citationJs = undefined;
    throw error;
  });
  return citationJs;
}

type RisEntry = Record<string, string | number | (string | number)[]>;

/**
 * The RIS tags of a container's title by RIS type, where reference managers look for it: a journal's full
 * name also in `JF` (`T2` alone is read as an abbreviation by bibutils); a book's title in `T2`, where
 * Zotero and EndNote read it, and `BT`, where bibutils and older RIS readers do; a proceedings' title in
 * `C3` (Zotero's proceedings title) and `T2` (EndNote's and Mendeley's; citation-js writes a CSL
 * proceedings paper as `CONF`, never RIS's other name for it, `CPAPER`); a reference work's in `T2` and
 * `BT`. Any other type with a container, a dataset's repository among them (citation-js leaves it out):
 * `T2`, RIS's secondary title.
 */
const RIS_CONTAINER_TAGS: Record<string, readonly string[]> = {
  JOUR: ['T2', 'JF'],
  CHAP: ['T2', 'BT'],
  CONF: ['C3', 'T2'],
  ENCYC: ['T2', 'BT'],
  DICT: ['T2', 'BT'],
};

/**
 * citation-js's RIS records, put where RIS readers look: keyed `key` (citation-js cuts the item's id to 20
 * characters, and two DOIs of one publisher share their first 20), dates as RIS writes them
 * (`YYYY/MM/DD/`, zero padded: "2011/3/22/" is read as no date by some), the container's title under
 * every tag readers look for it in (RIS_CONTAINER_TAGS), and a corporate author with the trailing comma
 * that marks a name not to be split into family and given names.
 */
function risFixed(entry: RisEntry, csl: CslItem, key: string): RisEntry {
  const fixed: RisEntry = { ...entry, ID: key };
  // An article in no periodical: a preprint is an unpublished work (RIS's UNPB, as Zotero writes one), any
  // other a generic reference; citation-js makes both journal articles.
  if (csl.type === 'article') {
    fixed.TY = /preprint/i.test(String(csl.genre ?? '')) ? 'UNPB' : 'GEN';
    // Its server or publisher ("arXiv"), which citation-js leaves out of a journal article's record.
    if (typeof csl.publisher === 'string' && fixed.PB === undefined) fixed.PB = csl.publisher;
  }
  const date = typeof entry.DA === 'string' ? /^(\d{4})\/(\d{0,2})\/(\d{0,2})\/?(.*)$/.exec(entry.DA) : null;
  if (date) {
    const pad = (part: string | undefined) => (part ? part.padStart(2, '0') : '');
    fixed.DA = `${date[1]}/${pad(date[2])}/${pad(date[3])}/${date[4] ?? ''}`;
  }
  const container = typeof csl['container-title'] === 'string' ? csl['container-title'] : undefined;
  if (container) {
    const tags = RIS_CONTAINER_TAGS[String(entry.TY)];
    if (tags) for (const tag of tags) fixed[tag] ??= container;
    else if ([fixed.T2, fixed.JF, fixed.C3, fixed.BT].every((value) => value === undefined)) fixed.T2 = container;
  }
  const literals = new Set(
    [csl.author, csl.editor]
      .flatMap((people) => (Array.isArray(people) ? people : []))
      .flatMap((person) => (typeof person?.literal === 'string' ? [person.literal] : [])),
  );
  for (const tag of ['AU', 'A2', 'ED'] as const) {
    const names = entry[tag];
    if (names === undefined) continue;
    fixed[tag] = [names].flat().map((name) => (typeof name === 'string' && literals.has(name) ? `${name},` : name));
  }
  return fixed;
}

/**
 * RIS text of citation-js's RIS record. Its own text output breaks every value after 70 characters,
 * mid-word, and readers (citation-js's own among them) join the pieces with a space: "surveyi ng". One
 * line per value, as the RIS format's tag lines are, keeps the title whole; a line break inside a value
 * (a CR, an LF or a Unicode line separator) would start a line that is no tag line, and becomes a space.
 */
function risText(entry: RisEntry): string {
  const lines = [`TY  - ${entry.TY}`];
  for (const [tag, values] of Object.entries(entry)) {
    if (tag === 'TY') continue;
    for (const value of [values].flat())
      lines.push(`${tag}  - ${String(value).replace(/\s*[\r\n\v\f\u0085\u2028\u2029]\s*/g, ' ')}`);
  }
  lines.push('ER  - ');
  return lines.join('\n');
}

/**
 * The markup of CSL rich text, as citeproc-js reads it in any text field (title, container-title,
 * collection-title): `<i>`, `<b>`, `<sup>`, `<sub>`, small capitals and `nocase` (no case change).
 */
type Markup = 'i' | 'b' | 'sup' | 'sub' | 'sc' | 'nocase';
const RICH_TEXT_TAG =
  /<(i|b|sup|sub)>|<span\s+style="\s*font-variant:\s*small-caps;?\s*">|<span\s+class="nocase">|<\/(i|b|sup|sub|span)>/g;

type RichPart = { text: string } | { open: Markup } | { close: Markup };

/** The text a tag of CSL rich text closes: `</i>` closes `<i>`, `</span>` small capitals and `nocase`. */
const CLOSED_BY: Record<Markup, string> = { i: 'i', b: 'b', sup: 'sup', sub: 'sub', sc: 'span', nocase: 'span' };

/**
 * CSL rich text as its text and its markup. A tag without its pair (an `<i>` never closed, a `</b>`
 * never opened, tags crossed) is text, as citeproc-js reads it, and so is anything else in angle brackets
 * ("a < b"): every opening part the result holds is closed after it, innermost first.
 */
function richText(value: string): RichPart[] {
  // The text between tags, and the tags; an empty text between two tags is an empty part, which prints nothing.
  const tokens: { raw: string; open?: Markup; close?: string }[] = [];
  let last = 0;
  for (const match of value.matchAll(RICH_TEXT_TAG)) {
    const [raw, opening, closing] = match;
    tokens.push({ raw: value.slice(last, match.index) });
    if (closing) tokens.push({ raw, close: closing });
    else tokens.push({ raw, open: (opening as Markup | undefined) ?? (raw.includes('nocase') ? 'nocase' : 'sc') });
    last = match.index + raw.length;
  }
  tokens.push({ raw: value.slice(last) });
  const pairs = new Map<number, Markup>();
  const opened: { at: number; markup: Markup }[] = [];
  tokens.forEach((token, i) => {
    if (token.open) {
      opened.push({ at: i, markup: token.open });
      return;
    }
    const top = opened.at(-1);
    if (top && token.close === CLOSED_BY[top.markup]) {
      opened.pop();
      pairs.set(top.at, top.markup);
      pairs.set(i, top.markup);
    }
  });
  return tokens.map((token, i): RichPart => {
    const markup = pairs.get(i);
    if (markup === undefined) return { text: token.raw };
    return token.open ? { open: markup } : { close: markup };
  });
}

/** CSL rich text as plain text, for RIS, which has no markup: the text, without the tags. */
function plainRichText(value: string): string {
  return richText(value)
    .map((part) => ('text' in part ? part.text : ''))
    .join('');
}

/** CSL's rich-text markup as the LaTeX commands BibTeX readers write and read for it. */
const LATEX_MARKUP: Record<Markup, string> = {
  i: '\\textit{',
  b: '\\textbf{',
  sup: '\\textsuperscript{',
  sub: '\\textsubscript{',
  sc: '\\textsc{',
  // Braces keep what they hold from a style's case changes, as `nocase` does in CSL.
  nocase: '{',
};

/**
 * In UTF-8 output citation-js escapes nothing (its ASCII mode did), and LaTeX reads `& % $ # _ ~ ^ \`
 * as commands: a title with "R&D" or "50%" would break the document that cites it. They are escaped as
 * LaTeX and every BibTeX reader writes them; braces and backslashes as the text commands that print
 * them, so that they stay letters and every brace in the file is one of a pair; `<` and `>` as the
 * commands that print them in any font encoding (in LaTeX's default one they are "¡" and "¿").
 */
const LATEX_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  // BibTeX counts escaped braces too: a lone "\{" would still end the entry early.
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
};

function latexEscaped(text: string): string {
  return text.replace(/[\\{}&%$#_~^<>]/g, (char) => LATEX_ESCAPES[char] ?? `\\${char}`);
}

/** CSL rich text as LaTeX: the text escaped, the markup as LaTeX commands. */
function latexRichText(value: string): string {
  return richText(value)
    .map((part) => ('text' in part ? latexEscaped(part.text) : 'close' in part ? '}' : LATEX_MARKUP[part.open]))
    .join('');
}

/**
 * BibTeX counts braces in every value, escaped or not, and a backslash starts a command: one lone brace
 * ends the entry early and breaks every entry after it in the file. Names drop them (a brace or
 * backslash in a name is noise, not a letter); a URL gets their percent-encoded forms, which web servers
 * read as the same address, and a DOI only for a brace without its pair (bibtexDoi).
 */
const BIBTEX_BREAKERS = /[{}\\]/g;
const PERCENT_ENCODED: Record<string, string> = { '{': '%7B', '}': '%7D', '\\': '%5C' };

/**
 * A URL as BibTeX's `url` field holds it: as it is, for biblatex reads the field verbatim and BibTeX
 * styles print it with `\url`, which takes `& % # ~ _` as they are (escaping them would put the
 * backslashes in the link), and percent-encoded where neither would read it whole: braces and
 * backslashes, white space, and letters beyond ASCII (`\url` under pdfLaTeX takes bytes, not letters).
 */
function texUrl(url: string): string {
  return url.replace(/[{}\\]|[^\x21-\x7e]+/g, (chars) => PERCENT_ENCODED[chars] ?? encodeURIComponent(chars));
}

/**
 * A DOI as BibTeX's `doi` field holds it: verbatim (biblatex reads the field verbatim, and a reference
 * manager compares it with the DOI it knows), backslashes and paired braces included. Only a brace
 * without its pair is percent-encoded, as doi.org reads it: one lone brace would end the entry early and
 * break every entry after it in the file.
 */
export function bibtexDoi(doi: string): string {
  const chars = [...doi];
  const lone = new Set<number>();
  const open: number[] = [];
  chars.forEach((char, i) => {
    if (char === '{') open.push(i);
    else if (char === '}') {
      if (open.length > 0) open.pop();
      else lone.add(i);
    }
  });
  for (const i of open) lone.add(i);
  return chars.map((char, i) => (lone.has(i) ? (PERCENT_ENCODED[char] ?? char) : char)).join('');
}

/** A CSL name as BibTeX may hold it: its parts without braces or backslashes, escaped; undefined when none is left. */
function bibtexSafePerson(person: object): object | undefined {
  const parts = Object.entries(person).map(([part, value]) => [
    part,
    typeof value === 'string' ? latexEscaped(value.replace(BIBTEX_BREAKERS, '').trim()) : value,
  ]);
  const kept = parts.filter(([, value]) => value !== '');
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** CSL fields that hold identifiers or codes, not text: never rich text, never LaTeX. */
const NOT_TEXT = new Set(['id', 'citation-key', 'type', 'DOI', 'URL']);

/** The item as citation-js should see it to write a BibTeX entry that any reader imports whole, keyed `key`. */
function bibtexSafe(csl: CslItem, key: string): CslItem {
  const item: Record<string, unknown> = { ...structuredClone(csl), 'citation-key': key };
  for (const [field, value] of Object.entries(item)) {
    if (typeof value === 'string') {
      if (field === 'DOI') item[field] = bibtexDoi(value);
      else if (field === 'URL') item[field] = texUrl(value);
      else if (!NOT_TEXT.has(field)) item[field] = latexRichText(value);
    } else if (Array.isArray(value) && value.every((person) => typeof person === 'object' && person !== null)) {
      // The name lists (author, editor, …): CSL's only arrays of objects. A list left with no name is dropped.
      item[field] = value.map(bibtexSafePerson).filter((person) => person !== undefined);
    }
  }
  return withoutEmpty(item) as CslItem;
}

/** An entry as citation-js's BibTeX writer gives it before writing it out: each field's value as written. */
type BibtexObject = { type: string; label: string; properties: Record<string, string> };

/** BibTeX's month macros, which every BibTeX style and biber read as the month, in the style's language. */
const BIBTEX_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** CSL types of an entry in a reference work: an encyclopedia's article, a dictionary's entry. */
const REFERENCE_ENTRIES = new Set(['entry', 'entry-encyclopedia', 'entry-dictionary']);

/**
 * The BibTeX entry type of `csl`, where citation-js's own choice loses data in classic BibTeX styles: a
 * chapter is `@incollection`, which prints its book's title (`@inbook` is a part of a book by the book's
 * own authors, and plain and its kin drop the `booktitle`); so is an entry in a reference work, which
 * citation-js makes `@misc`; a thesis is `@phdthesis` (`@mastersthesis` when its genre says so), which
 * prints its school, not `@misc`, which does not; an article in no periodical is `@misc`.
 */
function bibtexType(csl: CslItem, written: string): string {
  const container = typeof csl['container-title'] === 'string';
  if (csl.type === 'chapter') return 'incollection';
  // A preprint or working paper in no periodical: an `@article` without a journal is an error to biber.
  if (csl.type === 'article' && !container) return 'misc';
  if (REFERENCE_ENTRIES.has(csl.type)) return container ? 'incollection' : 'misc';
  if (csl.type === 'thesis') return /master/i.test(String(csl.genre ?? '')) ? 'mastersthesis' : 'phdthesis';
  return written;
}

/**
 * The BibTeX entry citation-js made of `safe` (bibtexSafe of `csl`), with the fields classic BibTeX, biber
 * and reference managers read: the entry type of bibtexType; the container of a chapter or a reference
 * entry in `booktitle`; a book's series in `series` (an older record has it as the book's container);
 * the month as its macro (`month = mar`; a number prints as "3 2020", a day makes biber drop it); the URL
 * in `url` only (citation-js copies it to `howpublished`, which styles print as text); an article's
 * container in `journal` (citation-js leaves a review's out); and a `@misc`'s container (a dataset's
 * repository) in `howpublished`, where styles print it.
 * A thesis whose genre is not known is a "Thesis", not a "PhD thesis": Crossref's dissertations are both.
 * Fields the entry type has in neither BibTeX's styles nor biblatex's data model, which drop them, move
 * to one it has: a report's series to `type` ("NBER Working Paper", printed before its number), a
 * `@misc`'s publisher to `howpublished`, an article's genre ("Preprint") to `note`; an article's
 * publisher (the journal's, which no citation gives) is left out.
 */
function bibtexText(entry: BibtexObject, csl: CslItem, safe: CslItem): string {
  const type = bibtexType(csl, entry.type);
  const fields = new Map(Object.entries(entry.properties));
  const container = typeof safe['container-title'] === 'string' ? safe['container-title'] : undefined;
  if (fields.get('howpublished') === fields.get('url')) fields.delete('howpublished');
  if (type === 'incollection' && container !== undefined && !fields.has('booktitle')) fields.set('booktitle', container);
  if (csl.type === 'book' && container !== undefined && !fields.has('series')) fields.set('series', container);
  if (type === 'phdthesis' && csl.genre === undefined && !fields.has('type')) fields.set('type', 'Thesis');
  if (type === 'techreport' && container !== undefined && !fields.has('type')) fields.set('type', container);
  if (type === 'article') {
    fields.delete('publisher');
    // A review citation-js gives no journal: its container is the journal, which biber requires of an article.
    if (container !== undefined && !fields.has('journal')) fields.set('journal', container);
    const genre = fields.get('type');
    fields.delete('type');
    if (genre !== undefined) fields.set('note', [fields.get('note'), genre].filter(Boolean).join('. '));
  }
  if (type === 'misc') {
    const published = [fields.get('howpublished'), container, fields.get('publisher')].filter(
      (value, i, all): value is string => value !== undefined && all.indexOf(value) === i,
    );
    fields.delete('publisher');
    if (published.length > 0) fields.set('howpublished', published.join(', '));
  }

  // BibTeX has no day: citation-js writes `month = {mar 22}`, which biber rejects as a month, and a
  // number, which styles print as it is. The month is written from the date, as its macro, and alone.
  const month = (csl.issued as { 'date-parts'?: unknown[][] } | undefined)?.['date-parts']?.[0]?.[1];
  const macro = typeof month === 'number' || typeof month === 'string' ? BIBTEX_MONTHS[Number(month) - 1] : undefined;
  // An author list the index cut short ends in BibTeX's own "and others", which every style prints as "et al.".
  const authors = fields.get('author');
  if (csl[AUTHORS_CUT] && authors !== undefined) fields.set('author', `${authors} and others`);
  const lines: string[] = [];
  for (const [field, value] of fields) {
    if (field === 'month') continue;
    lines.push(`\t${field} = {${value}},`);
    if (field === 'year' && macro !== undefined) lines.push(`\tmonth = ${macro},`);
  }
  return `@${type}{${entry.label},\n${lines.join('\n')}\n}`;
}

type Rendered = Pick<PaperExports, 'csl_json' | 'bibtex' | 'ris' | 'render_error'>;

/**
 * What a record whose author list the index cut (AUTHORS_CUT) says in its CSL-JSON `note` and its RIS `N1`:
 * neither format has a way to end a list with "et al." (BibTeX's "and others"), and a reference manager
 * would otherwise import the authors shown as every author.
 */
export const AUTHORS_CUT_NOTE = 'Incomplete author list: the scholarly index named only these authors of the work.';

/** The record with AUTHORS_CUT_NOTE added to its `note` when its author list was cut; else the record itself. */
function withCutNote(csl: CslItem): CslItem {
  if (!csl[AUTHORS_CUT]) return csl;
  const note = [csl.note, AUTHORS_CUT_NOTE].filter((part) => typeof part === 'string' && part !== '').join(' ');
  return { ...csl, note };
}

/** The item with its rich text made plain, for RIS. */
function plainItem(csl: CslItem): CslItem {
  const item: Record<string, unknown> = structuredClone(csl);
  for (const [field, value] of Object.entries(item)) {
    if (typeof value === 'string' && !NOT_TEXT.has(field)) item[field] = plainRichText(value);
  }
  return withoutEmpty(item) as CslItem;
}

/** The formats citation-js renders, each from its own copy of the item. */
const EXPORT_RENDERERS: {
  format: Exclude<ExportFormat, 'csl-json'>;
  name: string;
  render: (Cite: CiteConstructor, csl: CslItem, key: string) => string;
}[] = [
  {
    format: 'bibtex',
    name: 'BibTeX',
    render: (Cite, csl, key) => {
      const safe = bibtexSafe(csl, key);
      // One item gives one entry (a missing one fails here, as a format that could not be rendered).
      const [entry] = new Cite(safe).format('bibtex', { format: 'object' }) as unknown as [BibtexObject];
      return bibtexText(entry, csl, safe);
    },
  },
  {
    format: 'ris',
    name: 'RIS',
    render: (Cite, csl, key) => {
      const plain = plainItem(withCutNote(csl));
      const [entry] = new Cite(plain).format('ris', { format: 'object' }) as unknown as [RisEntry];
      return risText(risFixed(entry, plain, key));
    },
  },
];

/**
 * The requested exports of one CSL item; the BibTeX entry and the RIS record are keyed `key` (by default
 * made of the item's id; addExports gives each paper of an answer its own). Never rejects: a format citation-js cannot render, or citation-js failing to load, costs only
 * that format, and `render_error` says so; the CSL-JSON record is given all the same.
 */
export async function renderExports(
  csl: CslItem,
  formats: readonly ExportFormat[],
  key: string = citationKey(csl.id) || 'paper',
): Promise<Rendered> {
  const out: Rendered = {};
  if (formats.includes('csl-json')) out.csl_json = withCutNote(csl);
  const rendered = EXPORT_RENDERERS.filter(({ format }) => formats.includes(format));
  if (rendered.length === 0) return out;
  let Cite: CiteConstructor;
  try {
    Cite = await loadCitationJs();
  } catch {
    out.render_error = `The ${rendered.map(({ name }) => name).join(' and ')} renderer could not be loaded; try again`;
    return out;
  }
  const failed: string[] = [];
  for (const { format, name, render } of rendered) {
    try {
      out[format] = render(Cite, csl, key);
    } catch {
      failed.push(name);
    }
  }
  if (failed.length > 0) out.render_error = `The record could not be rendered as ${failed.join(' or ')}`;
  return out;
}
