/**
 * What a reference says that its record does not (POST /v1/cite/check): the reference is read against the
 * record (a free-text reference has no fields of its own until a record says where its title is: its
 * authors come before the title, its venue and numbers after it; an entry states them), then each rule
 * compares one field and names itself, its field and its severity (CHECK_RULES, the table the citation
 * guide and the tests read). Which record a reference describes at all is `identify`: the title (nearly),
 * and an author, the year or the venue besides; a notice is only ever a notice. Pure functions, tested
 * rule by rule (test/unit/lib/reference-check-rules.test.ts) and on a labelled set
 * (test/unit/lib/reference-check-labelled.test.ts).
 */
import type { IssueField, IssueSeverity } from '../../contract/cite-check.js';
import type { CitedReference } from '../model/cited.js';
import { plainText } from '../model/csl.js';
import { normalizeText } from '../model/text.js';
import { type CrossrefPerson, type CrossrefWork, workTitles, workYear } from '../model/work.js';
import { isNotice, titleNumbers, titleSimilarity } from './match.js';
import { alignTitle, namesNotice, type Reference, readReference, WEB_ADDRESS, type Window } from './reference-match.js';

/** One rule: its name, the field it judges and how grave what it finds is. */
export interface CheckRule {
  rule: string;
  field: IssueField;
  severity: IssueSeverity;
  /** What it finds, in the citation guide's words. */
  finds: string;
  /** Whether it is about the record itself (its notices) rather than about how the reference cites it. */
  aboutRecord?: boolean;
}

/** Every rule of the check, in the order they are reported: the citation guide's table. */
export const CHECK_RULES = [
  {
    rule: 'doi_unknown',
    field: 'doi',
    severity: 'error',
    finds: 'The reference’s DOI is in no registry asked (Crossref, DataCite).',
  },
  {
    rule: 'doi_other_work',
    field: 'doi',
    severity: 'error',
    finds:
      'The reference’s DOI is the record of another work: its title or authors are not the reference’s (or one is a notice and the other not).',
  },
  {
    rule: 'doi_differs',
    field: 'doi',
    severity: 'error',
    finds: 'The work the reference describes has another DOI than the one it gives (its own DOI could not be read).',
  },
  {
    rule: 'retracted',
    field: 'doi',
    severity: 'error',
    finds: 'The work is retracted or withdrawn (Crossref’s update metadata, Retraction Watch’s records included).',
    aboutRecord: true,
  },
  {
    rule: 'correction',
    field: 'doi',
    severity: 'warning',
    finds: 'The work has a correction, an erratum or a partial retraction: cite it with its correction in mind.',
    aboutRecord: true,
  },
  {
    rule: 'expression_of_concern',
    field: 'doi',
    severity: 'warning',
    finds: 'The publisher has issued an expression of concern about the work.',
    aboutRecord: true,
  },
  {
    rule: 'title_changed',
    field: 'title',
    severity: 'error',
    finds: 'A word of the title differs from the record’s (a number, a changed, added or dropped word).',
  },
  {
    rule: 'title_spelling',
    field: 'title',
    severity: 'info',
    finds:
      'The title differs only in a letter of a long word or in small words (a, the, of…); case, punctuation and a cut subtitle are no difference at all.',
  },
  {
    rule: 'first_author',
    field: 'authors',
    severity: 'error',
    finds: 'The first author is not the record’s first author (another person, or the record’s authors swapped).',
  },
  {
    rule: 'authors_unknown',
    field: 'authors',
    severity: 'error',
    finds: 'The reference names people who are not among the record’s authors.',
  },
  {
    rule: 'authors_more',
    field: 'authors',
    severity: 'info',
    finds:
      'The reference names more authors than the record, which gives only one (the first): registries sometimes hold only a first author.',
  },
  {
    rule: 'authors_missing',
    field: 'authors',
    severity: 'warning',
    finds: 'Authors of the record are left out without “et al.” (or “…”, “and others”).',
  },
  {
    rule: 'authors_order',
    field: 'authors',
    severity: 'warning',
    finds: 'The record’s authors are named in another order (the first one in place).',
  },
  { rule: 'year_future', field: 'year', severity: 'error', finds: 'The year is after the current year.' },
  {
    rule: 'year_differs',
    field: 'year',
    severity: 'error',
    finds: 'The year is not the record’s (nor, off by one, its print or online year).',
  },
  {
    rule: 'year_print_online',
    field: 'year',
    severity: 'info',
    finds: 'The year is off by one, and it is the year the record gives for its print or online issue.',
  },
  {
    rule: 'preprint_as_published',
    field: 'venue',
    severity: 'warning',
    finds: 'The record is a preprint, and the reference cites it as published in a journal or proceedings.',
  },
  {
    rule: 'venue_differs',
    field: 'venue',
    severity: 'warning',
    finds: 'The journal, proceedings or book named is not the record’s (abbreviations such as “J. Biol. Chem.” agree).',
  },
  {
    rule: 'published_version',
    field: 'venue',
    severity: 'info',
    finds: 'The reference cites a preprint server; the record is the version published since.',
  },
  { rule: 'volume_differs', field: 'volume', severity: 'warning', finds: 'The volume is not the record’s.' },
  { rule: 'issue_differs', field: 'issue', severity: 'warning', finds: 'The issue is not the record’s.' },
  {
    rule: 'pages_differ',
    field: 'pages',
    severity: 'warning',
    finds: 'The pages are not the record’s (either end agreeing is enough).',
  },
  {
    rule: 'type_differs',
    field: 'type',
    severity: 'info',
    finds: 'An entry’s kind (article, chapter, conference paper, book…) is not the record’s.',
  },
] as const satisfies readonly CheckRule[];

export type CheckRuleName = (typeof CHECK_RULES)[number]['rule'];

/** What a rule found: the rule, its field and severity, what the reference and the record say, and a sentence. */
export interface CheckIssue {
  rule: CheckRuleName;
  field: IssueField;
  severity: IssueSeverity;
  cited: string | null;
  recorded: string | null;
  message: string;
}

const RULE_BY_NAME = new Map<string, CheckRule>(CHECK_RULES.map((rule) => [rule.rule, rule]));

/** An issue of a rule, with its field and severity from the table. */
export function issue(rule: CheckRuleName, cited: string | null, recorded: string | null, message: string): CheckIssue {
  const spec = RULE_BY_NAME.get(rule) as CheckRule;
  return { rule, field: spec.field, severity: spec.severity, cited, recorded, message };
}

/** Whether an issue is about how the reference cites its work (as opposed to the work's own notices). */
export function aboutCitation(found: CheckIssue): boolean {
  return RULE_BY_NAME.get(found.rule)?.aboutRecord !== true;
}

// ---------------------------------------------------------------------------------------------------------
// A record, as the check reads it

/** Elsevier and others mark a retracted article's own title: "RETRACTED: …", "WITHDRAWN: …". */
const RETRACTED_MARK = /^\s*(?:<[^>]*>\s*)*(?:retracted|withdrawn)(?:\s+article)?\s*:\s*/i;

/** A record's titles as a reference cites them: with and without its subtitle, a retraction mark removed. */
export function citableTitles(work: CrossrefWork): string[] {
  // Markup read as a citation shows it: "Al<sub>2</sub>O<sub>3</sub>" is "Al2O3", MathML its text.
  return workTitles(work).map((title) => plainText(title.replace(RETRACTED_MARK, '')) ?? '');
}

/** Whether the record is a notice about another work: it updates one, or its title or type says so. */
export function isNoticeWork(work: CrossrefWork): boolean {
  if ((work['update-to'] ?? []).length > 0) return true;
  const title = (work.title?.[0] ?? '').replace(/<[^>]*>/g, '');
  // A dataset, a figure or supplement deposited beside a paper is a work of its own to a reference list.
  if (RETRACTED_MARK.test(title) || DEPOSITS.test(title) || ['dataset', 'component'].includes(work.type ?? '')) return false;
  return isNotice(title, work.type);
}

/** Titles of deposits beside a paper: "Data from: …", "Supplementary material …". */
const DEPOSITS = /^\s*(?:data\s+from\s*:|supplementa(?:l|ry)\s+(?:material|information|data)\b)/i;

/** The record's authors (its editors when it has none: an edited book), as the reference would name them. */
function peopleOf(work: CrossrefWork): CrossrefPerson[] {
  const people = work.author?.length ? work.author : (work.editor ?? []);
  return people.filter((person) => person.family || person.name);
}

/** A person's name words, normalised: the family name's (or the organisation's), then the given names'. */
function familyWords(person: CrossrefPerson): string[] {
  return normalizeText(person.family ?? person.name ?? '')
    .split(' ')
    .filter(Boolean);
}

function givenWords(person: CrossrefPerson): string[] {
  return normalizeText(person.given ?? '')
    .split(' ')
    .filter(Boolean);
}

/** The word a reference surely writes of a person: the last word of the family name ("Almeida" of "Ferreira de Almeida"). */
function surname(person: CrossrefPerson): string {
  return familyWords(person).at(-1) ?? '';
}

function personText(person: CrossrefPerson): string {
  return person.name ?? [person.given, person.family].filter(Boolean).join(' ');
}

function authorsText(people: readonly CrossrefPerson[], max = 6): string {
  const shown = people.slice(0, max).map(personText);
  return people.length > max ? `${shown.join(', ')}, … (${people.length} authors)` : shown.join(', ');
}

/** The years a reference may cite the record by: its issue year, and its print and online years. */
function recordYears(work: CrossrefWork): { issued: number | null; printOnline: number[] } {
  const year = (date?: { 'date-parts'?: (number | null)[][] }) => {
    const value = date?.['date-parts']?.[0]?.[0];
    return typeof value === 'number' ? value : undefined;
  };
  const printOnline = [year(work['published-print']), year(work['published-online'])].filter((y): y is number => y !== undefined);
  return { issued: workYear(work), printOnline };
}

/** Preprint servers, as records and references name them. */
const PREPRINT =
  /\b(?:arxiv|biorxiv|medrxiv|chemrxiv|techrxiv|psyarxiv|socarxiv|eartharxiv|engrxiv|osf preprints|preprints org|research square|ssrn|essoar|authorea|preprint)\b/;

/** Repositories a preprint or a deposit is cited by ("OSF", "Zenodo"). */
const REPOSITORY = /\b(?:osf|zenodo|figshare|dryad|hal|researchgate|repository)\b/;

/** Types whose container is a book or proceedings. */
const CONTAINED_TYPES = new Set(['proceedings-article', 'book-chapter', 'book-section', 'book-part', 'reference-entry']);

function isPreprintWork(work: CrossrefWork): boolean {
  return work.type === 'posted-content' || (work['container-title'] ?? []).some((name) => PREPRINT.test(normalizeText(name)));
}

// ---------------------------------------------------------------------------------------------------------
// A reference, read against one record

/** Small words a changed title may differ by without being another title. */
const SMALL_WORDS = new Set(['a', 'an', 'the', 'of', 'and', 'in', 'on', 'for', 'to', 'with', 'by', 'at', 'from', 'as', 'or']);

/** Words of an author list that name nobody: conjunctions, "et al.", editors' marks, name suffixes. */
const LIST_WORDS = new Set([
  'and',
  'und',
  'y',
  'e',
  'et',
  'al',
  'others',
  'eds',
  'ed',
  'editor',
  'editors',
  'edited',
  'hrsg',
  'by',
  'with',
  'in',
  'jr',
  'sr',
  'ii',
  'iii',
  'iv',
  'u',
  'a',
  'nd',
  'anon',
  'anonymous',
]);

/** Words that join a family name: "van der Berg", "de la Cruz", "al-Farabi". */
const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'di',
  'da',
  'du',
  'la',
  'le',
  'dos',
  'das',
  'ten',
  'ter',
  'bin',
  'ibn',
  'al',
  'el',
]);

/** "et al.", "and others", "u. a.", or an ellipsis in the author list: more authors than those named. */
const AUTHORS_CUT = /\bet\.?\s*al\b|\band others\b|\bu\.\s*a\.|…|\.\s?\.\s?\./i;

/** Words that end a venue in a reference: the numbers, pages and links after it. */
const VENUE_END = new Set([
  'vol',
  'volume',
  'no',
  'nr',
  'pp',
  'p',
  'doi',
  'https',
  'http',
  'retrieved',
  'available',
  'accessed',
  'isbn',
  'issn',
  'url',
  'online',
  'epub',
  'pmid',
  'pmcid',
]);

/** One word of the text, normalised, with where it stands in the text (for quoting what the reference says). */
interface Token {
  word: string;
  from: number;
  to: number;
}

/**
 * The text's words as readReference reads them, each with its place in the text: web addresses and DOIs
 * blanked (they hold no field), markup skipped.
 */
function tokens(text: string): Token[] {
  const masked = text
    .replace(WEB_ADDRESS, (found) => ' '.repeat(found.length))
    .replace(/\b10\.\d{4,9}\/\S+/g, (found) => ' '.repeat(found.length));
  const out: Token[] = [];
  for (const match of masked.matchAll(/<[^>]*>|[\p{L}\p{M}\p{N}]+/gu)) {
    if (match[0].startsWith('<')) continue;
    for (const word of normalizeText(match[0]).split(' ').filter(Boolean)) {
      out.push({ word, from: match.index, to: match.index + match[0].length });
    }
  }
  return out;
}

/** What the reference says, read against one record: each field as far as the reference states it. */
export interface Reading {
  /** How closely the reference's title is the record's (Sørensen–Dice over letter pairs, 0–1). */
  similarity: number;
  /** The reference's title: its words, and as written. */
  titleWords: string[];
  title: string;
  /** The record's title it was read against (the subtitle with it or not). */
  recordTitle: string;
  /** Whether the title's numbers are the record's (Arabic and Roman alike). */
  numbersAgree: boolean;
  /** The words that name the authors, in order, and as written. */
  authorWords: string[];
  authors: string;
  authorsCut: boolean;
  /** Whether the authors are stated where a style puts them (before the title, or an entry's field). */
  authorsPlaced: boolean;
  /** Every word outside the title (where a title-first reference may name its authors). */
  outsideWords: string[];
  years: number[];
  venueWords: string[];
  venue: string;
  /** The text after the title, links included (a preprint server may be named only in a link). */
  afterText: string;
  volume?: string;
  issue?: string;
  /** The first and last page of a page range. */
  pages?: [string, string | undefined];
  /** Whether it names a notice (an erratum, a retraction…) rather than an article. */
  namesNotice: boolean;
  /** An entry's CSL type. */
  type?: string;
}

/** A range of pages, not a span of years: "1255–1267", "1255-67", "e1002345". */
const PAGE_RANGE = /(?<!\d|\d\.)(\d+)\s*[-–—‐‑]+\s*(\d+)(?!\d|\.\d)/;
const YEAR = /(?<!\d)(?:1[5-9]|20)\d\d(?!\d)/g;

function quote(text: string, list: readonly Token[], from: number, to: number): string {
  const first = list[from];
  const last = list[to - 1];
  if (!first || !last) return '';
  return text.slice(first.from, last.to).trim();
}

/** The title window and what stands around it, for a free-text reference. */
function readText(cited: CitedReference, work: CrossrefWork, threshold: number): Reading | undefined {
  const ref: Reference = readReference(cited.text);
  const list = tokens(ref.raw);
  // readReference and tokens read the same words; if they ever differ, quotes fall back to the words.
  const aligned = list.length === ref.words.length && list.every((token, i) => token.word === ref.words[i]);
  const said = (from: number, to: number) => (aligned ? quote(ref.raw, list, from, to) : ref.words.slice(from, to).join(' '));
  let best: { window: Window; title: string } | undefined;
  for (const title of citableTitles(work)) {
    const window = alignTitle(ref, title, threshold);
    if (window && (!best || window.similarity > best.window.similarity)) best = { window, title };
  }
  if (!best) return undefined;
  const { title } = best;
  const window = trimmed(ref, best.window, title);
  const before = ref.words.slice(0, window.start);
  const after = ref.words.slice(window.end);
  const afterText = aligned && list[window.end] ? ref.raw.slice(list[window.end]?.from) : after.join(' ');
  const beforeText = said(0, window.start);
  // The venue: the words after the title up to the first number, page mark or link; a year that starts a
  // name ("2007 IEEE 11th International Conference…") is part of it.
  let venueEnd = 0;
  const pureNumber = (word: string | undefined) => word !== undefined && /^\d+$/.test(word);
  while (
    venueEnd < after.length &&
    pureNumber(after[venueEnd]) &&
    /^\p{L}/u.test(after[venueEnd + 1] ?? '') &&
    !VENUE_END.has(after[venueEnd + 1] ?? '')
  )
    venueEnd++;
  while (venueEnd < after.length && !pureNumber(after[venueEnd]) && !VENUE_END.has(after[venueEnd] ?? '')) venueEnd++;
  const numbers = numbersAfter(afterText);
  return {
    similarity: window.similarity,
    titleWords: ref.words.slice(window.start, window.end),
    title: said(window.start, window.end),
    recordTitle: title,
    numbersAgree: window.numbers,
    authorWords: before,
    authors: beforeText.replace(/[\s.,;:(]*(?:\(?\d{4}[a-z]?\)?[\s.,;:]*)+$/, '').trim(),
    authorsCut: AUTHORS_CUT.test(beforeText),
    authorsPlaced: before.some((word) => /\p{L}/u.test(word) && !LIST_WORDS.has(word)),
    outsideWords: [...before, ...after],
    // Years, not pages that look like one ("pp. 1988–90").
    years: [...new Set(Array.from(`${beforeText} ${withoutPages(afterText)}`.matchAll(YEAR), ([y]) => Number(y)))],
    venueWords: after.slice(0, venueEnd),
    venue: said(window.end, window.end + venueEnd),
    afterText,
    ...numbers,
    namesNotice: namesNotice(ref, window),
  };
}

/**
 * The window without words at its edges that are none of the title's: the best run of the title's length
 * give or take two may take in the "al" of "et al." before it, or a venue's first word after it.
 */
function trimmed(ref: Reference, window: Window, title: string): Window {
  const letters = normalizeText(title).replace(/ /g, '');
  let { start, end } = window;
  while (end - start > 1 && !letters.includes(ref.words[start] ?? '')) start++;
  while (end - start > 1 && !letters.includes(ref.words[end - 1] ?? '')) end--;
  return { ...window, start, end };
}

/** Volume, issue and pages from the text after a title: "21(8), 1255–1267", "vol. 21, no. 8, pp. 1255–67", "21, no. 8 (2018)", "21:1255". */
function numbersAfter(text: string): Pick<Reading, 'volume' | 'issue' | 'pages'> {
  const withoutLinks = text
    .replace(WEB_ADDRESS, ' ')
    .replace(/\b10\.\d{4,9}\/\S+/g, ' ')
    .replace(/\b(?:ISBN|ISSN)[\s:]*[\dXx-]+/gi, ' ');
  // An issue range ("53(5–6)", "nos. 1–4") is no page range.
  const range = PAGE_RANGE.exec(
    withoutLinks
      .replace(YEAR_SPAN_TEXT, ' ')
      .replace(/\(\s*\d+\s*[-–—‐‑]+\s*\d+\s*\)/g, ' ')
      .replace(/\bnos?\.?\s*\d+\s*[-–—‐‑]+\s*\d+/gi, ' '),
  );
  const pages: [string, string | undefined] | undefined = range ? [strip(range[1] ?? ''), strip(range[2] ?? '')] : undefined;
  const isYear = (n: string | undefined) => n !== undefined && /^(?:1[5-9]|20)\d\d$/.test(n);
  // "21(8)" and "47(15)", not "15 (1993)": a year in brackets is the date.
  const bracketed = [...withoutLinks.matchAll(/(?<![\d.–-])(\d{1,5})\s*\(\s*(\d[\w–-]*)\s*\)/g)].find(
    (match) => !isYear(match[2]),
  );
  const volume =
    /\bvol(?:ume)?\.?\s*(\d+)/i.exec(withoutLinks)?.[1] ??
    /(?<![\d.–-])(\d{1,5}),?\s+(?:no|nr|issue)\.?\s*\d/i.exec(withoutLinks)?.[1] ??
    bracketed?.[1] ??
    /(?<![\d.–-])(\d{1,5})\s*:\s*[\dA-Za-z]/.exec(withoutLinks)?.[1];
  const issue = /\b(?:no|nr|issue)\.?\s*(\d+)/i.exec(withoutLinks)?.[1] ?? bracketed?.[2]?.match(/^\d+/)?.[0];
  return {
    ...(volume && !isYear(volume) ? { volume: strip(volume) } : {}),
    ...(issue ? { issue: strip(issue) } : {}),
    ...(pages ? { pages } : {}),
  };
}

/** The text without its page range: "pp. 1988–90" holds no year. */
function withoutPages(text: string): string {
  const spans = text.replace(YEAR_SPAN_TEXT, (span) => '\u0000'.repeat(span.length));
  const range = PAGE_RANGE.exec(spans.replace(/\(\s*\d+\s*[-–—‐‑]+\s*\d+\s*\)/g, (issue) => ' '.repeat(issue.length)));
  return range ? `${text.slice(0, range.index)} ${text.slice(range.index + range[0].length)}` : text;
}

/** Spans of years, which are not pages: "1992–1993", "2019–20". */
const YEAR_SPAN_TEXT = /(?<!\d)(?:1[5-9]|20)\d\d\s*[-–—]\s*(?:(?:1[5-9]|20)\d\d|\d\d)(?!\d)/g;

function strip(number: string): string {
  return number.replace(/^0+(?=\d)/, '');
}

/** An entry's fields, read against the record: the title aligned within the entry's own title. */
function readFields(cited: CitedReference, work: CrossrefWork, threshold: number): Reading | undefined {
  const fields = cited.fields ?? {};
  if (!fields.title) return undefined;
  const ref = readReference(fields.title);
  // An entry's title is the whole field: the record's title (with its subtitle or not) most like all of it.
  let best: { window: Window; title: string } | undefined;
  for (const title of citableTitles(work)) {
    const window = alignTitle(ref, title, threshold);
    if (!window) continue;
    const whole = titleSimilarity(fields.title, title);
    if (!best || whole > titleSimilarity(fields.title, best.title))
      best = { window: { ...window, similarity: Math.max(whole, window.similarity) }, title };
  }
  if (!best) return undefined;
  const names = fields.authors ?? [];
  const authorWords = names.flatMap((name) =>
    normalizeText(name.literal ?? `${name.given ?? ''} ${name.family ?? ''}`)
      .split(' ')
      .filter(Boolean),
  );
  const range = fields.pages ? PAGE_RANGE.exec(fields.pages) : null;
  const firstPage = fields.pages ? /\d+/.exec(fields.pages)?.[0] : undefined;
  return {
    similarity: best.window.similarity,
    titleWords: ref.words,
    title: fields.title,
    recordTitle: best.title,
    numbersAgree: titleNumbers(fields.title).join(' ') === titleNumbers(best.title).join(' '),
    authorWords,
    authors: names.map((name) => name.literal ?? [name.given, name.family].filter(Boolean).join(' ')).join(', '),
    authorsCut: fields.authorsCut === true,
    authorsPlaced: authorWords.length > 0,
    outsideWords: [
      ...authorWords,
      ...normalizeText(fields.venue ?? '')
        .split(' ')
        .filter(Boolean),
    ],
    years: fields.year === undefined ? [] : [fields.year],
    venueWords: normalizeText(fields.venue ?? '')
      .split(' ')
      .filter(Boolean),
    venue: fields.venue ?? '',
    afterText: fields.venue ?? '',
    ...(fields.volume ? { volume: strip(fields.volume) } : {}),
    ...(fields.issue ? { issue: strip(fields.issue) } : {}),
    ...(range
      ? { pages: [strip(range[1] ?? ''), strip(range[2] ?? '')] }
      : firstPage
        ? { pages: [strip(firstPage), undefined] }
        : {}),
    namesNotice: isNotice(fields.title),
    ...(fields.type ? { type: fields.type } : {}),
  };
}

/**
 * The reference read against a record, when the record's title is (nearly, at `threshold`) in it; the
 * threshold is lower than the matcher's, so that a title with a changed word is read and reported rather
 * than missed.
 */
export function readAgainst(cited: CitedReference, work: CrossrefWork, threshold = TITLE_READ_THRESHOLD): Reading | undefined {
  return cited.fields?.title ? readFields(cited, work, threshold) : readText(cited, work, threshold);
}

/** The least title similarity at which a reference is read against a record at all. */
export const TITLE_READ_THRESHOLD = 0.7;

// ---------------------------------------------------------------------------------------------------------
// Which record a reference describes

/** How well the reference and a record agree on the authors: the first author's place, and how many are named. */
interface AuthorAgreement {
  /** The record's authors the reference names, by index in the record's list, in the reference's order. */
  named: number[];
  /** Words of the author list that are none of the record's authors' names. */
  unknown: string[];
  /** Whether one of them stands before the record's first author: someone else is named first. */
  unknownFirst: boolean;
}

function agreeOnAuthors(reading: Reading, work: CrossrefWork): AuthorAgreement {
  const people = peopleOf(work);
  const words = (reading.authorsPlaced ? reading.authorWords : reading.outsideWords).map(latinLookalikes);
  const positions: { index: number; at: number }[] = [];
  const explained = new Set<number>();
  // Each person at the next place their name stands after the one before ("Lin JD, Lin LP, Lin FG" are three
  // places, not one three times), else at any place not yet taken: then they are out of order.
  let cursor = 0;
  const findRun = (run: readonly string[], from: number) =>
    words.findIndex((_, i) => i >= from && !explained.has(i) && run.every((word, j) => words[i + j] === word));
  people.forEach((person, index) => {
    const family = familyWords(person);
    const last = family.at(-1);
    if (!last) return;
    // An organisation is named whole; a person by the last word of the family name.
    const run = person.name && !person.family ? family : [last];
    if (run.length === 1 && (run[0]?.length ?? 0) < 2) return;
    const after = findRun(run, cursor);
    const at = after >= 0 ? after : findRun(run, 0);
    if (at < 0) return;
    positions.push({ index, at });
    if (after >= 0) cursor = at + run.length;
    for (let j = 0; j < run.length; j++) explained.add(at + j);
  });
  positions.sort((a, b) => a.at - b.at);
  if (!reading.authorsPlaced) return { named: positions.map((p) => p.index), unknown: [], unknownFirst: false };
  const givens = people.map((person) => givenWords(person).map(latinLookalikes));
  const families = people.map((person) => familyWords(person).map(latinLookalikes));
  const unknown: string[] = [];
  const firstAt = positions.find((p) => p.index === 0)?.at ?? Number.POSITIVE_INFINITY;
  let unknownFirst = false;
  words.forEach((word, i) => {
    if (explained.has(i) || word.length < 2 || /\d/.test(word) || LIST_WORDS.has(word) || PARTICLES.has(word)) return;
    if (families.some((family) => family.includes(word)) || givens.some((given) => given.includes(word))) return;
    // Initials written together ("JC"), or a given name the record has only as an initial, beside its family name.
    const near = positions.filter((p) => Math.abs(p.at - i) <= 3).map((p) => p.index);
    const initialsOf = (index: number) => (givens[index] ?? []).map((given) => given[0]).join('');
    if (near.some((index) => word.length <= 3 && [...word].every((letter) => initialsOf(index).includes(letter)))) return;
    if (near.some((index) => initialsOf(index).startsWith(word[0] ?? ''))) return;
    unknown.push(word);
    if (i < firstAt) unknownFirst = true;
  });
  return { named: positions.map((p) => p.index), unknown, unknownFirst };
}

/** Greek and Cyrillic letters that look Latin ("Κita" with a Greek kappa), as Latin, in a word that mixes scripts. */
const LOOKALIKES: Record<string, string> = {
  α: 'a',
  β: 'b',
  ε: 'e',
  ζ: 'z',
  η: 'h',
  ι: 'i',
  κ: 'k',
  μ: 'm',
  ν: 'n',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'y',
  χ: 'x',
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  х: 'x',
  у: 'y',
};

function latinLookalikes(word: string): string {
  if (!/[a-z]/.test(word) || !/[\u0370-\u03ff\u0400-\u04ff]/.test(word)) return word;
  return [...word].map((letter) => LOOKALIKES[letter] ?? letter).join('');
}

/** What makes a record the reference's: the title (nearly) and one more field besides. */
export interface Identification {
  work: CrossrefWork;
  reading: Reading;
  /** How strongly: the title's similarity, and one point each for the first author, the year and the venue. */
  score: number;
}

/** The least title similarity at which a record is the reference's with nothing else agreeing but the year. */
const TITLE_ALONE = 0.9;

/**
 * Whether the reference describes this record: its title (read at TITLE_READ_THRESHOLD) with the same
 * numbers, and besides it an author of the record (the title at 0.8), or the year or venue (the title at
 * 0.9); a notice only for a notice. Undefined when it does not.
 */
export function describes(cited: CitedReference, work: CrossrefWork): Identification | undefined {
  const reading = readAgainst(cited, work);
  if (!reading?.numbersAgree) return undefined;
  if (reading.namesNotice !== isNoticeWork(work)) return undefined;
  const { named } = agreeOnAuthors(reading, work);
  const { issued, printOnline } = recordYears(work);
  const years = [issued, ...printOnline].filter((y): y is number => y !== null);
  const yearAgrees = reading.years.some((y) => years.some((r) => Math.abs(r - y) <= 1));
  const venueAgrees = venueNamed(reading, work) === true;
  const firstAuthor = named[0] === 0;
  const authorAgrees = named.length > 0;
  const enough =
    (authorAgrees && reading.similarity >= 0.8) ||
    (reading.similarity >= TITLE_ALONE && (yearAgrees || venueAgrees || authorAgrees)) ||
    (reading.similarity >= TITLE_READ_THRESHOLD && firstAuthor && yearAgrees);
  if (!enough) return undefined;
  const score = reading.similarity + (firstAuthor ? 1 : authorAgrees ? 0.5 : 0) + (yearAgrees ? 1 : 0) + (venueAgrees ? 1 : 0);
  return { work, reading, score };
}

/**
 * Whether the reference names the record's first author, or half its authors, anywhere: what a DOI the
 * reference gives needs besides to be the reference's own record when its title is cut or garbled.
 */
export function namesAuthors(cited: CitedReference, work: CrossrefWork): boolean {
  const people = peopleOf(work);
  if (people.length === 0) return false;
  const words = new Set(
    cited.fields?.authors
      ? cited.fields.authors.flatMap((name) =>
          normalizeText(name.literal ?? `${name.given ?? ''} ${name.family ?? ''}`).split(' '),
        )
      : readReference(cited.text).words,
  );
  const named = people.filter((person) => {
    const last = surname(person);
    return last.length > 1 && words.has(last);
  });
  return named.includes(people[0] as CrossrefPerson) || named.length * 2 >= people.length;
}

/**
 * The reference read against the record its own DOI names, when the record's authors are the reference's
 * but its title is not found in it (cut, garbled): the run of the reference most like the title stands for
 * it, so that what differs is reported rather than the record refused.
 */
export function readForDoi(cited: CitedReference, work: CrossrefWork): Identification | undefined {
  const reading = readAgainst(cited, work, 0.01);
  return reading ? { work, reading, score: reading.similarity } : undefined;
}

/**
 * Whether the reference states a title of its own that is not the record's: enough words outside the
 * record's authors, venue and numbers to be one. A reference that is a DOI and an author or two says
 * nothing its DOI's record could contradict.
 */
export function statesOtherTitle(cited: CitedReference, work: CrossrefWork): boolean {
  if (cited.fields) return cited.fields.title !== undefined;
  const known = new Set([
    ...peopleOf(work).flatMap((person) => [...familyWords(person), ...givenWords(person)]),
    ...(work['container-title'] ?? []).flatMap((name) => normalizeText(name).split(' ')),
    ...(work['short-container-title'] ?? []).flatMap((name) => normalizeText(name).split(' ')),
  ]);
  const own = readReference(cited.text).words.filter(
    (word) =>
      word.length > 2 &&
      !/\d/.test(word) &&
      !known.has(word) &&
      !LIST_WORDS.has(word) &&
      !SMALL_WORDS.has(word) &&
      !VENUE_END.has(word),
  );
  return own.length >= 3;
}

// ---------------------------------------------------------------------------------------------------------
// The rules

function titleIssues(reading: Reading): CheckIssue[] {
  const record = normalizeText(reading.recordTitle).split(' ').filter(Boolean);
  const cited = reading.titleWords;
  const citedLetters = cited.join('');
  const recordLetters = record.join('');
  // A word is there when the other title's letters, run together, hold it ("non-alcoholic" holds "nonalcoholic").
  const lacking = record.filter((word) => !citedLetters.includes(word));
  const adding = cited.filter((word) => !recordLetters.includes(word));
  // A cut subtitle: the reference gives the title up to its colon.
  const main = normalizeText(reading.recordTitle.split(/:\s/)[0] ?? '').split(' ');
  const cutSubtitle =
    reading.recordTitle.includes(': ') && adding.length === 0 && main.every((word) => citedLetters.includes(word));
  if (reading.numbersAgree && (cutSubtitle || (lacking.length === 0 && adding.length === 0))) return [];
  if (!reading.numbersAgree) {
    return [
      issue(
        'title_changed',
        reading.title,
        reading.recordTitle,
        'The title’s numbers are not the record’s: another part, edition or work.',
      ),
    ];
  }
  // A letter changed in a long word, or a small word, is spelling; any other word is another title.
  // A letter changed, added or dropped in a word of four letters or more ("fie" for "fine", "texts" for "text").
  const respelt = (a: string, b: string) => Math.max(a.length, b.length) >= 4 && a[0] === b[0] && editDistanceAtMostOne(a, b);
  const missing = lacking.filter((word) => !SMALL_WORDS.has(word) && !cited.some((other) => respelt(word, other)));
  const added = adding.filter((word) => !SMALL_WORDS.has(word) && !record.some((other) => respelt(word, other)));
  if (missing.length === 0 && added.length === 0) {
    return [
      issue(
        'title_spelling',
        reading.title,
        reading.recordTitle,
        'The title differs from the record’s only in spelling or small words.',
      ),
    ];
  }
  const what = [
    missing.length > 0 ? `it lacks the record’s “${missing.join(' ')}”` : '',
    added.length > 0 ? `it has “${added.join(' ')}”, which the record’s title has not` : '',
  ].filter(Boolean);
  return [issue('title_changed', reading.title, reading.recordTitle, `The title is not the record’s: ${what.join(', and ')}.`)];
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

function authorIssues(reading: Reading, work: CrossrefWork, recordCut: boolean): CheckIssue[] {
  const people = peopleOf(work);
  if (people.length === 0) return [];
  const recorded = authorsText(people);
  const { named, unknown, unknownFirst } = agreeOnAuthors(reading, work);
  const found: CheckIssue[] = [];
  const cited = reading.authors || null;
  const first = people[0] as CrossrefPerson;
  // A first author recorded as initials alone ("T.J.C.") cannot be told from others' initials.
  if ((named[0] !== 0 || unknownFirst) && surname(first).length >= 2) {
    const swapped = named.includes(0);
    found.push(
      issue(
        'first_author',
        cited,
        recorded,
        swapped
          ? `The record’s first author is ${personText(first)}; the reference names another of its authors first.`
          : `The record’s first author, ${personText(first)}, is not named first${named.length === 0 ? ' (the reference names none of its authors)' : ''}.`,
      ),
    );
  }
  // A record that gives one author, whom the reference names first, with others after: registries sometimes
  // hold only a work's first author.
  const onlyFirst = people.length === 1 && named[0] === 0 && !unknownFirst;
  if (unknown.length > 0 && onlyFirst && !recordCut) {
    found.push(
      issue(
        'authors_more',
        cited,
        recorded,
        `The reference names more authors than the record, which gives only ${personText(first)}: check the author list.`,
      ),
    );
  } else if (unknown.length > 0 && !recordCut) {
    found.push(
      issue(
        'authors_unknown',
        cited,
        recorded,
        `The reference names ${unknown.map((word) => `“${word}”`).join(', ')}, ${unknown.length === 1 ? 'who is' : 'who are'} none of the record’s authors.`,
      ),
    );
  }
  const missing = people.length - new Set(named).size;
  // Authors replaced by others are reported as such, not as left out.
  if (missing > 0 && named.length > 0 && unknown.length === 0 && !reading.authorsCut && !recordCut && reading.authorsPlaced) {
    found.push(
      issue(
        'authors_missing',
        cited,
        recorded,
        `The reference names ${new Set(named).size} of the record’s ${people.length} authors, without “et al.”.`,
      ),
    );
  }
  const order = named.slice(1);
  if (named[0] === 0 && order.some((index, i) => i > 0 && index < (order[i - 1] ?? 0))) {
    found.push(issue('authors_order', cited, recorded, 'The reference names the record’s authors in another order.'));
  }
  return found;
}

function yearIssues(reading: Reading, work: CrossrefWork, currentYear: number): CheckIssue[] {
  const { issued, printOnline } = recordYears(work);
  const future = reading.years.filter((y) => y > currentYear);
  if (future.length > 0) {
    return [
      issue(
        'year_future',
        String(future[0]),
        issued === null ? null : String(issued),
        `The year ${future[0]} is after this year (${currentYear}).`,
      ),
    ];
  }
  if (issued === null || reading.years.length === 0 || reading.years.includes(issued)) return [];
  const printOrOnline = reading.years.find((y) => printOnline.includes(y) && Math.abs(y - issued) === 1);
  if (printOrOnline !== undefined) {
    return [
      issue(
        'year_print_online',
        String(printOrOnline),
        String(issued),
        `The reference gives ${printOrOnline}, the record’s print or online year; its first issue is ${issued}.`,
      ),
    ];
  }
  const cited = reading.years.reduce((a, b) => (Math.abs(b - issued) < Math.abs(a - issued) ? b : a));
  return [issue('year_differs', String(cited), String(issued), `The year is ${cited}; the record’s is ${issued}.`)];
}

/**
 * Whether the reference's venue names one of the record's containers: the name within the venue nearly
 * letter for letter, or abbreviated word by word in order ("J Biol Chem", "Proc. Natl. Acad. Sci. U.S.A.",
 * "PNAS"). Undefined when the reference names no venue or the record has none.
 */
export function venueNamed(reading: Reading, work: CrossrefWork): boolean | undefined {
  const names = [...(work['container-title'] ?? []), ...(work['short-container-title'] ?? [])].filter((name) =>
    normalizeText(name),
  );
  if (names.length === 0 || reading.venueWords.length === 0) return undefined;
  const venue = reading.venueWords;
  return names.some((name) => {
    const words = normalizeText(name).split(' ');
    const ref = readReference(venue.join(' '));
    const window = alignTitle(ref, name, 0.85);
    // The name found within the venue, and nothing before it but small words: "The Journal of Clinical
    // Endocrinology & Metabolism" is not "Clinical Endocrinology".
    const before = window ? venue.slice(0, window.start) : [];
    const leads = before.every((word) => SMALL_WORDS.has(word) || VENUE_LEADS.has(word));
    if (window && window.similarity >= 0.85 && normalizeText(name).length >= 4 && leads) return true;
    return venue.some((_, start) => abbreviates(venue.slice(start), words));
  });
}

/** Words a venue may be introduced by, before the name of its book or proceedings. */
const VENUE_LEADS = new Set(['in', 'proceedings', 'proc', 'eds', 'ed']);

/** Whether `cited` abbreviates `name` word by word: each cited word a contraction of the next name word. */
function abbreviates(cited: readonly string[], name: readonly string[]): boolean {
  const content = name.filter((word) => !SMALL_WORDS.has(word));
  if (content.length === 0) return false;
  // An acronym of the content words: "pnas".
  if (cited[0] === content.map((word) => word[0]).join('') && content.length > 2) return true;
  let i = 0;
  for (const word of name) {
    const next = cited[i];
    if (next !== undefined && contracts(next, word)) {
      i++;
      continue;
    }
    if (!SMALL_WORDS.has(word)) return false;
  }
  return i > 0;
}

/** "natl" contracts "national", "j" contracts "journal": the same first letter, the others in order. */
function contracts(short: string, word: string): boolean {
  if (short === word) return true;
  if (short[0] !== word[0] || short.length > word.length) return false;
  let at = 0;
  for (const letter of short) {
    at = word.indexOf(letter, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

function venueIssues(reading: Reading, work: CrossrefWork): CheckIssue[] {
  const container = (work['container-title'] ?? [])[0] ?? null;
  const citedVenue = reading.venue || null;
  // A preprint server or repository named anywhere after the title, a link to one included.
  if (isPreprintWork(work)) {
    // The venue it names, not a link: a preprint's own DOI link does not make a journal named before it its server.
    const venue = reading.venueWords.join(' ');
    if (reading.venueWords.length === 0 || PREPRINT.test(venue) || REPOSITORY.test(venue)) return [];
    if (venueNamed(reading, work)) return [];
    return [
      issue(
        'preprint_as_published',
        citedVenue,
        container ?? 'a preprint',
        'The record is a preprint; the reference cites it as published in a journal or proceedings.',
      ),
    ];
  }
  if (PREPRINT.test(normalizeText(reading.afterText)) && !venueNamed(reading, work)) {
    return [
      issue(
        'published_version',
        citedVenue,
        container,
        `The reference cites a preprint; the record is the version published in ${container ?? 'a journal'}.`,
      ),
    ];
  }
  // A chapter or conference paper is cited by its book, its conference's name or acronym, or its series
  // ("WISTP 2011. LNCS, vol. 6633"): only a journal's venue is compared.
  if (CONTAINED_TYPES.has(work.type ?? '')) return [];
  if (venueNamed(reading, work) === false && container && work.type !== 'book' && work.type !== 'monograph') {
    return [
      issue(
        'venue_differs',
        citedVenue,
        container,
        `The reference names “${citedVenue}”; the record was published in ${container}.`,
      ),
    ];
  }
  return [];
}

function numberIssues(reading: Reading, work: CrossrefWork): CheckIssue[] {
  const found: CheckIssue[] = [];
  const volume = work.volume ? strip(work.volume) : undefined;
  if (volume && /^\d+$/.test(volume) && reading.volume && reading.volume !== volume) {
    found.push(
      issue(
        'volume_differs',
        reading.volume,
        work.volume ?? null,
        `The volume is ${reading.volume}; the record’s is ${work.volume}.`,
      ),
    );
  }
  const number = work.issue ? strip(work.issue) : undefined;
  if (number && /^\d+$/.test(number) && reading.issue && reading.issue !== number) {
    found.push(
      issue('issue_differs', reading.issue, work.issue ?? null, `The issue is ${reading.issue}; the record’s is ${work.issue}.`),
    );
  }
  const ends = (work.page ?? '')
    .split(/[-–—,]/)
    .map((part) => /\d+/.exec(part)?.[0])
    .filter((digits): digits is string => digits !== undefined)
    .map(strip);
  if (ends.length > 0 && reading.pages) {
    const [first, last] = reading.pages;
    // One catalogue's first page is often one off the other's: either end agreeing is enough (an abbreviated
    // end, "1255–67", comes with its first page).
    const agree = ends.includes(first) || (last !== undefined && ends.at(-1) === last);
    if (!agree) {
      const cited = last === undefined ? first : `${first}–${last}`;
      found.push(issue('pages_differ', cited, work.page ?? null, `The pages are ${cited}; the record’s are ${work.page}.`));
    }
  }
  return found;
}

/** CSL types by kind: an entry's type disagrees only across kinds. */
const KINDS: Record<string, string> = {
  'article-journal': 'article',
  article: 'preprint',
  'paper-conference': 'conference paper',
  chapter: 'chapter',
  book: 'book',
  thesis: 'thesis',
  report: 'report',
  dataset: 'dataset',
  software: 'software',
};

const CROSSREF_KINDS: Record<string, string> = {
  'journal-article': 'article',
  'posted-content': 'preprint',
  'proceedings-article': 'conference paper',
  'book-chapter': 'chapter',
  'book-section': 'chapter',
  'book-part': 'chapter',
  book: 'book',
  monograph: 'book',
  'edited-book': 'book',
  dissertation: 'thesis',
  report: 'report',
  dataset: 'dataset',
  software: 'software',
};

function typeIssues(reading: Reading, work: CrossrefWork): CheckIssue[] {
  const cited = reading.type ? KINDS[reading.type] : undefined;
  const recorded = work.type ? CROSSREF_KINDS[work.type] : undefined;
  if (!cited || !recorded || cited === recorded) return [];
  return [issue('type_differs', cited, recorded, `The entry is a ${cited}; the record is a ${recorded}.`)];
}

/** Crossref's update types that take a work back, and those that amend it. */
const RETRACTING = new Set(['retraction', 'withdrawal', 'removal']);
const AMENDING = new Set(['correction', 'erratum', 'corrigendum', 'partial_retraction', 'partial-retraction']);
const CONCERN = new Set(['expression_of_concern', 'expression-of-concern']);

/** One notice about the record, as the answer lists it. */
export interface RecordUpdate {
  type: string;
  doi: string | null;
  date: string | null;
  source: string;
}

/** The notices Crossref's update metadata gives for the record (each once), and a retraction its title marks. */
export function updatesOf(work: CrossrefWork): RecordUpdate[] {
  const seen = new Set<string>();
  const out: RecordUpdate[] = [];
  for (const update of work['updated-by'] ?? []) {
    const type = (update.type ?? 'update').toLowerCase().replace(/-/g, '_');
    const doi = update.DOI?.toLowerCase() ?? null;
    const parts = update.updated?.['date-parts']?.[0]?.filter((part): part is number => typeof part === 'number');
    const date = parts?.length
      ? parts.map((part, i) => (i === 0 ? String(part) : String(part).padStart(2, '0'))).join('-')
      : (update.updated?.['date-time']?.slice(0, 10) ?? null);
    const key = `${type}|${doi ?? ''}|${update.source ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ type, doi, date, source: update.source ?? 'publisher' });
  }
  const marked = RETRACTED_MARK.exec(work.title?.[0] ?? '')?.[0];
  if (marked && !out.some((update) => RETRACTING.has(update.type))) {
    out.push({ type: /withdrawn/i.test(marked) ? 'withdrawal' : 'retraction', doi: null, date: null, source: 'title' });
  }
  return out;
}

function updateIssues(work: CrossrefWork): CheckIssue[] {
  const updates = updatesOf(work);
  const found: CheckIssue[] = [];
  const retraction = updates.find((update) => RETRACTING.has(update.type));
  if (retraction) {
    const notice = retraction.doi ? ` (notice ${retraction.doi}${retraction.date ? `, ${retraction.date}` : ''})` : '';
    const said =
      retraction.source === 'title'
        ? 'its title says so'
        : `${retraction.source === 'retraction-watch' ? 'Retraction Watch' : 'the publisher'}, through Crossref`;
    found.push(
      issue(
        'retracted',
        null,
        retraction.doi,
        `The work was ${retraction.type === 'withdrawal' ? 'withdrawn' : 'retracted'}${notice}: ${said}.`,
      ),
    );
  }
  const amended = updates.filter((update) => AMENDING.has(update.type));
  if (amended.length > 0) {
    found.push(
      issue(
        'correction',
        null,
        amended
          .map((u) => u.doi)
          .filter(Boolean)
          .join(', ') || null,
        `The work has ${amended.length === 1 ? 'a notice' : `${amended.length} notices`} amending it (${[...new Set(amended.map((u) => u.type.replace(/_/g, ' ')))].join(', ')}).`,
      ),
    );
  }
  const concern = updates.find((update) => CONCERN.has(update.type));
  if (concern) {
    found.push(
      issue(
        'expression_of_concern',
        null,
        concern.doi,
        `The publisher issued an expression of concern about the work${concern.date ? ` (${concern.date})` : ''}.`,
      ),
    );
  }
  return found;
}

/** What a record alone says a citation of it should know: its notices (retractions, corrections, concerns). */
export function recordIssues(work: CrossrefWork): CheckIssue[] {
  return sortIssues(updateIssues(work));
}

/** How the record is known: whole (a registry's), or as the scholarly index shows it (its author list cut). */
export interface CompareOptions {
  /** This year, from the caller's clock: a later year is an error. */
  currentYear: number;
  /** The record's author list is cut (the index shows some authors): nobody outside it counts as invented. */
  recordAuthorsCut?: boolean;
}

/** Every issue the rules find between the reference (read against the record) and the record, in CHECK_RULES order. */
export function compareWithRecord(identified: Identification, options: CompareOptions): CheckIssue[] {
  const { reading, work } = identified;
  const found = [
    ...updateIssues(work),
    ...titleIssues(reading),
    ...authorIssues(reading, work, options.recordAuthorsCut === true),
    ...yearIssues(reading, work, options.currentYear),
    ...venueIssues(reading, work),
    ...numberIssues(reading, work),
    ...typeIssues(reading, work),
  ];
  return sortIssues(found);
}

const ORDER = new Map<string, number>(CHECK_RULES.map((rule, i) => [rule.rule, i]));

/** Issues in the table's order. */
export function sortIssues(found: readonly CheckIssue[]): CheckIssue[] {
  return [...found].sort((a, b) => (ORDER.get(a.rule) ?? 0) - (ORDER.get(b.rule) ?? 0));
}

const WEIGHT: Record<IssueSeverity, number> = { error: 100, warning: 10, info: 1 };

/** How much is wrong: errors weigh most. Of two records a reference may describe, the one it gets least wrong is its. */
export function weight(found: readonly CheckIssue[]): number {
  return found.filter(aboutCitation).reduce((sum, one) => sum + WEIGHT[one.severity], 0);
}

/** The record's authors as the answer names them. */
export function recordAuthors(work: CrossrefWork): string {
  return authorsText(peopleOf(work));
}
