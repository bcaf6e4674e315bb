/**
 * Reference-manager exports for citation search: a CSL-JSON record per paper, from Crossref when a work
 * matched and else from what the scholarly index gave, rendered to BibTeX and RIS by citation-js (its
 * core and its BibTeX and RIS plugins). Its CSL plugin is left out on purpose: it renders bibliographies
 * in citation styles through citeproc, which the exports do not need and which would be 560 KiB of the
 * bundle. citation-js is imported only when a request asks for BibTeX or RIS, and then once per container.
 * A record it cannot render costs that paper only the format, never the answer.
 */
import type { CiteSearchData, ExportFormat, PaperExports } from '../contract/cite-search.js';
import { type CrossrefPerson, type CrossrefWork, normalizeText, type ScholarRecord } from './match.js';

/** A CSL-JSON item (citation-style-language/schema, csl-data.json): what reference managers import. */
export type CslItem = Record<string, unknown> & { id: string; type: string; title?: string };

/** What the lookup found for one paper: the matched work's record, or why there is none. */
export type PaperRecord = { doi: string; csl: CslItem } | { doi: null; reason: string };

// Crossref's work types (api.crossref.org/types) in CSL's vocabulary; anything else is a generic document.
const CSL_TYPES: Record<string, string> = {
  'journal-article': 'article-journal',
  'proceedings-article': 'paper-conference',
  'book-chapter': 'chapter',
  'book-section': 'chapter',
  'book-part': 'chapter',
  book: 'book',
  monograph: 'book',
  'edited-book': 'book',
  'reference-book': 'book',
  'book-series': 'book',
  'posted-content': 'article',
  dataset: 'dataset',
  report: 'report',
  dissertation: 'thesis',
  // An entry in a reference work (encyclopedia, dictionary): CSL's plain `entry` has no container in
  // BibTeX or RIS, and the work it is in is how it is found.
  'reference-entry': 'entry-encyclopedia',
  standard: 'standard',
};

// Markup inside a word: chemical formulas (H<sub>2</sub>O), exponents, and MathML's token elements.
const IN_WORD_TAGS = /^(?:sub|sup|mml:mi|mml:mn|mml:mo|mml:msub|mml:msup|mml:mrow|mml:mtext|mi|mn|mo|msub|msup|mrow|mtext)$/i;

/**
 * Crossref titles may carry JATS markup (<i>, <scp>, <sub>, MathML) and line breaks; reference managers
 * want plain text. Publishers often leave no space at a tag ("of<i>Salmonella enterica</i>from"): a tag
 * between two letters stands for a word boundary, except inside a word: MathML tokens, sub- and
 * superscripts unless a lower-case word follows, and a small-capital initial that starts a word
 * ("<scp>T</scp>reebase").
 */
export function plainText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const cleaned = text
    .replace(/<(\/?)([\w:.-]+)[^>]*>/g, (tag, closing: string, name: string, offset: number, whole: string) => {
      const before = whole.slice(0, offset);
      const after = whole.slice(offset + tag.length);
      if (!/\p{L}$/u.test(before.replace(/<[^>]*>/g, '')) || !/^(?:<[^>]*>)*\p{L}/u.test(after)) return '';
      // A subscript ends a word when a lower-case word follows ("NO<sub>x</sub>and"), not in "H<sub>2</sub>O".
      if (/^(?:sub|sup)$/i.test(name)) return closing && /^(?:<[^>]*>)*\p{Ll}/u.test(after) ? ' ' : '';
      if (IN_WORD_TAGS.test(name)) return '';
      // A small-capital initial: "<scp>T</scp>reebase" at a word's start, one capital inside the element.
      if (closing && /^scp$/i.test(name) && /(?:^|[^\p{L}])<scp[^>]*>\p{Lu}$/u.test(before)) return '';
      return ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned || undefined;
}

const plain = plainText;

/**
 * Crossref's `subtitle` is not always a subtitle: Wiley deposits the running title there (a short form
 * of the title), others a translation of the title or the title of a reviewed book. It is added to the
 * title only when it is neither already in it nor mostly made of the title's words, and is written in
 * the same script.
 */
export function withSubtitle(title: string | undefined, subtitle: string | undefined): string | undefined {
  if (!title || !subtitle) return title;
  const titleWords = new Set(normalizeText(title).split(' '));
  const subtitleWords = normalizeText(subtitle).split(' ').filter(Boolean);
  if (subtitleWords.length === 0 || normalizeText(title).includes(normalizeText(subtitle))) return title;
  const shared = subtitleWords.filter((word) => titleWords.has(word)).length;
  if (shared / subtitleWords.length >= 0.6) return title;
  if (scriptOf(title) !== scriptOf(subtitle)) return title;
  return `${title}: ${subtitle}`;
}

/** The script most of a text's letters are in, as far as telling a translation apart needs. */
function scriptOf(text: string): string {
  const scripts = [
    'Latin',
    'Cyrillic',
    'Greek',
    'Arabic',
    'Hebrew',
    'Han',
    'Hiragana',
    'Katakana',
    'Hangul',
    'Devanagari',
    'Thai',
  ];
  let best = 'other';
  let most = 0;
  for (const script of scripts) {
    const count = text.match(new RegExp(`\\p{Script=${script}}`, 'gu'))?.length ?? 0;
    if (count > most) {
      best = script === 'Hiragana' || script === 'Katakana' ? 'Han' : script;
      most = count;
    }
  }
  return best;
}

function cslPeople(people: CrossrefPerson[] | undefined): Record<string, string>[] | undefined {
  const names = (people ?? []).flatMap((person): Record<string, string>[] => {
    if (person.family) return [person.given ? { family: person.family, given: person.given } : { family: person.family }];
    return person.name ? [{ literal: person.name }] : [];
  });
  return names.length > 0 ? names : undefined;
}

function withoutEmpty(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined && value !== null && value !== ''));
}

/** A Crossref work as a CSL-JSON item; Crossref's own format is nearly CSL already. */
export function cslFromCrossref(work: CrossrefWork): CslItem {
  const title = plain(work.title?.[0]);
  const subtitle = plain(work.subtitle?.[0]);
  const containers = (work['container-title'] ?? []).map(plain).filter((name): name is string => name !== undefined);
  const dateParts = work.issued?.['date-parts']?.[0]?.filter((part): part is number => typeof part === 'number');
  return withoutEmpty({
    id: work.DOI,
    type: CSL_TYPES[work.type ?? ''] ?? 'document',
    title: withSubtitle(title, subtitle),
    author: cslPeople(work.author),
    editor: cslPeople(work.editor),
    issued: dateParts?.length ? { 'date-parts': [dateParts] } : undefined,
    'container-title': containers[0],
    // A chapter's second container is the series its book is in ("Lecture Notes in Computer Science").
    'collection-title': work.type?.startsWith('book') && containers[1] !== containers[0] ? containers[1] : undefined,
    volume: work.volume,
    issue: work.issue,
    page: work.page,
    publisher: work.publisher,
    ISBN: work.ISBN?.[0],
    ISSN: work.ISSN?.[0],
    DOI: work.DOI,
    URL: work.URL,
  }) as CslItem;
}

/**
 * The paper as the index described it, as a CSL-JSON item: title, authors (initials as given names),
 * year, venue and link. The index does not say what kind of work it is: with a venue other than the
 * title it is taken for a journal article, else for a generic document.
 */
export function cslFromScholar(scholarId: string, record: ScholarRecord, url: string | null): CslItem {
  const venue = record.venue && normalizeText(record.venue) !== normalizeText(record.title) ? record.venue : null;
  return withoutEmpty({
    id: scholarId,
    type: venue ? 'article-journal' : 'document',
    // The index ends some titles with "…" (cut short) or a full stop of its own; a style adds its own.
    title: plain(record.title.replace(/\s*(…|\.\.\.|\.)\s*$/, '')),
    author: record.authors.length > 0 ? record.authors : undefined,
    issued: record.year === null ? undefined : { 'date-parts': [[record.year]] },
    'container-title': venue ?? undefined,
    URL: url ?? undefined,
  }) as CslItem;
}

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
 * citation-js's RIS records, put where RIS readers look: dates as RIS writes them (`YYYY/MM/DD/`, zero
 * padded: "2011/3/22/" is read as no date by some), a journal's name also in `JF` (its full name; `T2`
 * alone is read as an abbreviation by bibutils), and a corporate author with the trailing comma that
 * marks a name not to be split into family and given names.
 */
function risFixed(entry: RisEntry, csl: CslItem): RisEntry {
  const fixed: RisEntry = { ...entry };
  const date = typeof entry.DA === 'string' ? /^(\d{4})\/(\d{0,2})\/(\d{0,2})\/?(.*)$/.exec(entry.DA) : null;
  if (date) {
    const pad = (part: string | undefined) => (part ? part.padStart(2, '0') : '');
    fixed.DA = `${date[1]}/${pad(date[2])}/${pad(date[3])}/${date[4] ?? ''}`;
  }
  const container = typeof csl['container-title'] === 'string' ? csl['container-title'] : undefined;
  if (entry.TY === 'JOUR' && container && fixed.JF === undefined) fixed.JF = container;
  // A dataset's repository, which citation-js leaves out: RIS's secondary title.
  if (container && [fixed.T2, fixed.JF, fixed.C3, fixed.BT].every((value) => value === undefined)) fixed.T2 = container;
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
 * RIS text from citation-js's RIS records. Its own text output breaks every value after 70 characters,
 * mid-word, and readers (citation-js's own among them) join the pieces with a space: "surveyi ng". One
 * line per value, as the RIS format's tag lines are, keeps the title whole.
 */
function risText(entries: RisEntry[]): string {
  return entries
    .map((entry) => {
      const lines = [`TY  - ${entry.TY}`];
      for (const [tag, values] of Object.entries(entry)) {
        if (tag === 'TY') continue;
        for (const value of [values].flat()) lines.push(`${tag}  - ${String(value).replace(/\s*\n\s*/g, ' ')}`);
      }
      lines.push('ER  - ');
      return lines.join('\n');
    })
    .join('\n');
}

/**
 * A BibTeX citation key made of `text`: letters, digits and underscores only, which every BibTeX reader
 * (citation-js's own among them) takes as a key; any other run of characters becomes one underscore.
 * Empty when `text` holds none of them.
 */
export function citationKey(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

/**
 * BibTeX counts braces in every value, escaped or not, and a backslash starts a command: one lone brace
 * ends the entry early and breaks every entry after it in the file. citation-js escapes them in titles
 * and the like but writes names and the DOI and URL as they are, so those lose them here: names drop
 * them (a brace or backslash in a name is noise, not a letter), the DOI and URL get their percent-encoded
 * forms, which doi.org resolves to the same work.
 */
const BIBTEX_BREAKERS = /[{}\\]/g;
const PERCENT_ENCODED: Record<string, string> = { '{': '%7B', '}': '%7D', '\\': '%5C' };

/**
 * In UTF-8 output citation-js escapes nothing (its ASCII mode did), and LaTeX reads `& % $ # _` as
 * commands: a title with "R&D" or "50%" would break the document that cites it. They are escaped as
 * LaTeX and every BibTeX reader writes them; braces and backslashes as the text commands that print
 * them, so that they stay letters and every brace in the file is one of a pair.
 */
function latexEscaped(text: string): string {
  return text.replace(/[\\{}&%$#_~^]/g, (char) => {
    if (char === '\\') return '\\textbackslash{}';
    if (char === '~') return '\\textasciitilde{}';
    if (char === '^') return '\\textasciicircum{}';
    // BibTeX counts escaped braces too: a lone "\{" would still end the entry early.
    if (char === '{') return '\\textbraceleft{}';
    if (char === '}') return '\\textbraceright{}';
    return `\\${char}`;
  });
}

function bibtexSafePerson(person: unknown): unknown {
  if (typeof person !== 'object' || person === null) return person;
  const parts = Object.entries(person).map(([part, value]) => [
    part,
    typeof value === 'string' ? latexEscaped(value.replace(BIBTEX_BREAKERS, '').trim()) : value,
  ]);
  const kept = parts.filter(([, value]) => value !== '');
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** The item as citation-js should see it to write a BibTeX entry that any reader imports whole, keyed `key`. */
function bibtexSafe(csl: CslItem, key: string): CslItem {
  const item: Record<string, unknown> = { ...structuredClone(csl), 'citation-key': key };
  // BibTeX has no day: citation-js would write `month = {mar 22}`, which biber rejects as a month.
  const issued = item.issued as { 'date-parts'?: unknown[][] } | undefined;
  const parts = issued?.['date-parts']?.[0];
  if (Array.isArray(parts) && parts.length > 2) item.issued = { 'date-parts': [parts.slice(0, 2)] };
  for (const [field, value] of Object.entries(item)) {
    if (field === 'DOI' || field === 'URL') {
      if (typeof value === 'string') item[field] = value.replace(BIBTEX_BREAKERS, (char) => PERCENT_ENCODED[char] ?? '');
    } else if (typeof value === 'string' && field !== 'id' && field !== 'citation-key' && field !== 'type') {
      item[field] = latexEscaped(value);
    } else if (Array.isArray(value) && value.some((person) => typeof person === 'object' && person !== null)) {
      // The name lists (author, editor, …): CSL's only arrays of objects besides dates, which are objects.
      const people = value.map(bibtexSafePerson).filter((person) => person !== undefined);
      item[field] = people.length > 0 ? people : undefined;
    }
  }
  return withoutEmpty(item) as CslItem;
}

/**
 * An entry citation-js writes as `@misc` (a dataset, a generic document) has no field for the container
 * (a dataset's repository, "CRAN contributed packages"), and citation-js leaves it out: it goes in
 * `howpublished`, where BibTeX styles print it for `@misc`.
 */
function withContainer(bibtex: string, csl: CslItem): string {
  const container = csl['container-title'];
  if (typeof container !== 'string' || /^\s*(journal|booktitle|howpublished) = /m.test(bibtex)) return bibtex;
  return bibtex.replace(/\n}$/, `\n\thowpublished = {${latexEscaped(container)}},\n}`);
}

type Rendered = Pick<PaperExports, 'csl_json' | 'bibtex' | 'ris' | 'render_error'>;

/** The formats citation-js renders, each from its own copy of the item. */
const EXPORT_RENDERERS: {
  format: Exclude<ExportFormat, 'csl-json'>;
  name: string;
  render: (Cite: CiteConstructor, csl: CslItem, key: string) => string;
}[] = [
  {
    format: 'bibtex',
    name: 'BibTeX',
    render: (Cite, csl, key) => withContainer(new Cite(bibtexSafe(csl, key)).format('bibtex').trim(), csl),
  },
  {
    format: 'ris',
    name: 'RIS',
    render: (Cite, csl) =>
      risText(
        (new Cite(structuredClone(csl)).format('ris', { format: 'object' }) as unknown as RisEntry[]).map((entry) =>
          risFixed(entry, csl),
        ),
      ),
  },
];

/**
 * The requested exports of one CSL item; the BibTeX entry is keyed `key` (by default made of the item's
 * id). Never rejects: a format citation-js cannot render, or citation-js failing to load, costs only
 * that format, and `render_error` says so; the CSL-JSON record is given all the same.
 */
export async function renderExports(
  csl: CslItem,
  formats: readonly ExportFormat[],
  key: string = citationKey(csl.id) || 'paper',
): Promise<Rendered> {
  const out: Rendered = {};
  if (formats.includes('csl-json')) out.csl_json = csl;
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

/**
 * Each paper's citation key: made of its scholar result id, else its DOI, else its place in the list, and
 * made unique within the answer with a numbered suffix, so a .bib of the whole answer has no two entries
 * under one key.
 */
function citationKeys(papers: readonly { scholar_id: string; index: number }[], dois: readonly (string | null)[]): string[] {
  const used = new Set<string>();
  return papers.map((paper, i) => {
    const base = citationKey(paper.scholar_id) || citationKey(dois[i] ?? '') || `paper_${paper.index}`;
    let key = base;
    for (let n = 2; used.has(key); n += 1) key = `${base}_${n}`;
    used.add(key);
    return key;
  });
}

/**
 * Adds `doi` and `exports` to every paper of a cite-search answer. `lookups[i]` belongs to `papers[i]`:
 * the index's own data for it, the fallback when Crossref gave no record, and Crossref's record. Never
 * rejects for one paper's record: what cannot be rendered is left out and `render_error` says why.
 */
export async function addExports(
  data: CiteSearchData,
  formats: readonly ExportFormat[],
  lookups: readonly { scholar: ScholarRecord; record: PaperRecord }[],
): Promise<CiteSearchData> {
  const records = data.papers.map(
    (_paper, i): PaperRecord => lookups[i]?.record ?? { doi: null, reason: 'No Crossref lookup was made for this paper' },
  );
  const keys = citationKeys(
    data.papers,
    records.map((record) => record.doi),
  );
  const papers = await Promise.all(
    data.papers.map(async (paper, i) => {
      const record = records[i] as PaperRecord;
      const scholar = lookups[i]?.scholar ?? { title: paper.title, authors: [], year: null, venue: null };
      const csl = record.doi === null ? cslFromScholar(paper.scholar_id, scholar, paper.source_url) : record.csl;
      const exports: PaperExports = {
        source: record.doi === null ? 'scholar' : 'crossref',
        fallback_reason: record.doi === null ? record.reason : null,
        ...(await renderExports(csl, formats, keys[i])),
      };
      return { ...paper, doi: record.doi, exports };
    }),
  );
  return { ...data, papers };
}
