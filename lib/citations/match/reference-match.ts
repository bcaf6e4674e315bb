/**
 * Which Crossref work, if any, a free-text reference ("Shea, M. J., & Compton, R. N. (1993). Surface-plasmon
 * ejection of Ag+ ions … Physical Review B, 47(15), 9967–9970.") is. Pure functions: the handler sends the
 * text as `query.bibliographic` (bibliographicQuery) and passes Crossref's candidates to matchReference.
 * A wrong DOI is worse than none, so a candidate is accepted only when the text carries its title (the
 * best-aligned window of the text: Dice ≥ 0.85, same numbers, at most a tenth of its letters in words the
 * window lacks), its first author's family name outside that window, and
 * its year (or one off); its pages must not conflict with the text's, a notice, preprint, chapter or
 * generic title needs the text to name it, and two accepted DOIs give none unless exactly one also agrees
 * on pages or venue. test/unit/lib/reference-labelled.test.ts holds the rules to 0 wrong DOIs on real
 * reference strings (test/fixtures/SOURCES.md). The rules and the title threshold are those of match.ts.
 */

import { repositoriesNamed, repositoryOf } from '../model/repository.js';
import { cleanReference, normalizeText } from '../model/text.js';
import { type CrossrefPerson, type CrossrefWork, workTitles, workYear } from '../model/work.js';
import { isGenericTitle, isNotice, TITLE_SIMILARITY_THRESHOLD, titleNumbers } from './match.js';

/** What one entry of the request's `references` is: a DOI, or a reference's text (with the DOI it contains). */
export type ReferenceInput = { kind: 'doi'; doi: string } | { kind: 'text'; text: string; doi?: string };

/**
 * A DOI's suffix: anything but spaces, quotes and angle brackets, but for a SICI DOI's segment in angle
 * brackets ("35:4<435::AID-JBM4>3.0.CO;2-K", its "::" telling it from a tag after the DOI).
 */
// No colon before the segment's "::", so that the pattern is read in one pass whatever follows a "<".
const SUFFIX = String.raw`(?:[^\s"<>]|<[^\s"<>:]*::[^\s"<>]*>)+`;
/** A DOI's prefix and suffix: "10." and a registrant code, a slash, then the suffix. */
const DOI = new RegExp(String.raw`10\.\d{4,9}\/${SUFFIX}`, 'i');
/**
 * A request's entry that is a DOI and nothing else, its slash percent-encoded or not: links written by
 * encoders encode it ("10.1002%2Fapp.35676"), and a SICI DOI's angle brackets with it.
 */
const WHOLE_DOI = new RegExp(String.raw`^10\.\d{4,9}(?:\/|%2f)${SUFFIX}$`, 'i');
/**
 * What may stand before a DOI: a doi.org link (with or without its scheme, `www.` or `dx.`), `info:doi/`,
 * `urn:doi:`, then `doi:` (also inside a link, "https://doi.org/doi:10…"). The link is tried first: "doi.org/…"
 * begins with "doi" too.
 */
const DOI_PREFIX = /^(?:(?:https?:\/\/)?(?:www\.)?(?:dx\.)?doi\.org\/|info:doi\/|urn:doi:)?(?:doi\s*:?\s*)?/i;
/** Percent-encoded characters before a link's DOI ("doi.org/%2010.…"): dropped when they decode to white space alone. */
const ENCODED_BEFORE = /^(?:%[\da-f]{2})+(?=10\.)/i;

/** A text percent-decoded, or as it is when a "%" in it encodes nothing ("50%-off"). */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** White space (the spaces, tabs and line breaks of every kind) and invisible format characters (U+200B …). */
const BLANK = /[\s\p{Cf}]+/gu;

/**
 * A DOI as found: without a link's query or fragment, before and after percent-decoding ("?via%3Dihub",
 * "#abstract", "%3Fvia%3Dihub": a link encodes a DOI's own "?" and "#", and an encoded one is nearly always
 * a query encoded by mistake; docs/decisions.md §19), without the white space and invisible characters a
 * link's encoding carried ("%20", "%E2%80%8B"), lower case, trailing punctuation, a trailing slash and
 * unbalanced closing brackets removed one character at a time until the last is none of them.
 */
function cleanDoi(found: string): string {
  const query = /[?#].*$/s;
  let doi = percentDecoded(found.replace(query, '')).replace(BLANK, '').replace(query, '');
  for (;;) {
    const before = doi;
    doi = doi.replace(/[.,;:'"’”!?/]$/, '');
    for (const [open, close] of [
      ['(', ')'],
      ['[', ']'],
      ['{', '}'],
      ['<', '>'],
    ] as const) {
      if (doi.endsWith(close) && doi.split(open).length < doi.split(close).length) doi = doi.slice(0, -1);
    }
    if (doi === before) return doi.toLowerCase();
  }
}

/** A request's reference, read: a DOI (bare, `doi:…`, a doi.org link), or text holding one, or text alone. */
export function parseReferenceInput(input: string): ReferenceInput {
  const text = cleanReference(input);
  const trimmed = text.replace(/^[\s.,;:'"“”‘’<([{]+|[\s,;:'"“”‘’>\]}]+$/g, '');
  const bare = trimmed
    .replace(DOI_PREFIX, '')
    .replace(ENCODED_BEFORE, (encoded) => (percentDecoded(encoded).replace(BLANK, '') === '' ? '' : encoded))
    .trim();
  if (WHOLE_DOI.test(bare)) return { kind: 'doi', doi: cleanDoi(bare) };
  const found = DOI.exec(text)?.[0];
  return found ? { kind: 'text', text, doi: cleanDoi(found) } : { kind: 'text', text };
}

/** A web address: with a scheme, from "www.", or a DOI link without its scheme ("doi.org/10…"). */
export const WEB_ADDRESS = /\b(?:https?:\/\/|www\.|(?:dx\.)?doi\.org\/)\S+/gi;

/** The longest query sent: Crossref ranks on the words, and a reference's tail adds nothing but noise. */
const QUERY_LENGTH = 300;

/**
 * The text as Crossref's `query.bibliographic`: web addresses removed (a web address runs to the next
 * space, so nothing needs to stand in its place), white space collapsed, and a text over QUERY_LENGTH
 * characters cut at its last space within them plus one, or at QUERY_LENGTH when it has none there
 * (lastIndexOf's -1 then drops the one character over).
 */
export function bibliographicQuery(text: string): string {
  const clean = text.replace(WEB_ADDRESS, '').replace(/\s+/g, ' ').trim();
  if (clean.length <= QUERY_LENGTH) return clean;
  const cut = clean.slice(0, QUERY_LENGTH + 1);
  return cut.slice(0, cut.lastIndexOf(' '));
}

export interface ReferenceMatch {
  doi: string;
  score: number;
  rule: string;
  work: CrossrefWork;
}

export type ReferenceOutcome = { matched: ReferenceMatch } | { matched: null; rule: string; reason: string; score?: number };

/** The text, normalised, as words and as the numbers it holds. */
export interface Reference {
  raw: string;
  words: string[];
  numbers: Set<string>;
  years: Set<number>;
  /** Whether the text holds a page range ("155–9", "pp. 68–82") that is not a span of years. */
  hasPages: boolean;
  /** The character bigrams of all its words run together (see alignTitle). */
  bigrams: Map<string, number>;
  doi?: string;
}

/** A range that is a span of years, not pages: "1993–94", "2019–2020" (the digits at both ends, a dash between). */
const YEAR_SPAN = /^(?:1[5-9]|20)\d\d\D+(?:(?:1[5-9]|20)\d\d|\d\d)$/;

export function readReference(input: string): Reference {
  const text = cleanReference(input);
  const withoutUrls = text.replace(WEB_ADDRESS, ' ').replace(/\b10\.\d{4,9}\/\S+/g, ' ');
  const words = normalizeText(withoutUrls).split(' ').filter(Boolean);
  const numbers = new Set(Array.from(withoutUrls.matchAll(/\d+/g), ([n]) => n.replace(/^0+(?=\d)/, '')));
  const years = new Set(Array.from(withoutUrls.matchAll(/(?<!\d)(?:1[5-9]|20)\d\d(?!\d)/g), ([y]) => Number(y)));
  const ranges = Array.from(withoutUrls.matchAll(/(?<!\d|\d\.)\d+\s*[-–—‐‑]+\s*\d+(?!\d|\.\d)/g), ([range]) => range);
  const hasPages = ranges.some((range) => !YEAR_SPAN.test(range));
  const parsed = parseReferenceInput(text);
  return {
    raw: text,
    words,
    numbers,
    years,
    hasPages,
    bigrams: bigramCounts(words.join('')),
    ...(parsed.doi ? { doi: parsed.doi } : {}),
  };
}

export interface Window {
  start: number;
  end: number;
  similarity: number;
  /** Whether the window's numbers are the title's, in order (Arabic and Roman alike). */
  numbers: boolean;
}

function bigramCounts(letters: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < letters.length - 1; i++) {
    const pair = letters.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

function sharedBigrams(a: Map<string, number>, b: Map<string, number>): number {
  let shared = 0;
  for (const [pair, n] of a) shared += Math.min(n, b.get(pair) ?? 0);
  return shared;
}

/**
 * The run of the text's words most like the title, among runs of the title's word count give or take two:
 * a title in the text is one such run, without the authors before it or the venue after it. Similarity is
 * titleSimilarity's (Sørensen–Dice over the character bigrams of the normalised words, spaces dropped),
 * computed here on the words already normalised. The run is chosen on its letters alone, and `numbers`
 * says whether its numbers are the title's: "Mode-II pullout model" is the run most like "Mode-I pullout
 * model", and its numbers refuse it, rather than the shorter run "pullout model" being taken for it. A
 * title whose bigrams the whole text holds too few of to reach the threshold in any run (a run sharing s
 * bigrams with a title of t needs s ≥ 0.85·t / 1.15) is not aligned at all: most candidates are far from
 * the text.
 */
export function alignTitle(ref: Reference, title: string, threshold = TITLE_SIMILARITY_THRESHOLD): Window | undefined {
  const titleWords = normalizeText(title).split(' ');
  const n = titleWords.length;
  const titleBigrams = bigramCounts(titleWords.join(''));
  let titleTotal = 0;
  for (const count of titleBigrams.values()) titleTotal += count;
  // A title without two letters in a row (one letter, punctuation alone) has nothing to be found by.
  if (titleTotal === 0) return undefined;
  if (sharedBigrams(titleBigrams, ref.bigrams) < (threshold * titleTotal) / (2 - threshold)) return undefined;
  let best: Omit<Window, 'numbers'> | undefined;
  for (let length = Math.max(1, n - 2); length <= n + 2; length++) {
    for (let start = 0; start + length <= ref.words.length; start++) {
      const letters = ref.words.slice(start, start + length).join('');
      const shared = sharedBigrams(titleBigrams, bigramCounts(letters));
      const total = titleTotal + Math.max(0, letters.length - 1);
      const similarity = (2 * shared) / total;
      if (best && similarity <= best.similarity) continue;
      best = { start, end: start + length, similarity };
    }
  }
  if (!best) return undefined;
  const numbers = titleNumbers(ref.words.slice(best.start, best.end).join(' ')).join(' ') === titleNumbers(title).join(' ');
  return { ...best, numbers };
}

/** Words that number what follows them: "Part 2", "Vol. II", "Book 3" (match.ts's markers, for the text). */
const NUMBERING = /^(?:part|parts|pt|vol|volume|no|number|book|phase|series|section|tome|teil|band)$/;
/** A Roman numeral of two letters or more (II … XXXIX), or a number. */
const NUMERAL = /^(?:\d+|(?=[ivx]{2,}$)x{0,3}(?:ix|iv|v?i{0,3}))$/;

/**
 * Whether the text numbers the title where the candidate's has no number: a numeral or a numbered part
 * right after the run ("… nanofibers II", "…, Part 2", "… Vol. 2") or right before it ("Part 2: …",
 * "Mode-II pullout …"). A candidate without that number is another part, volume or version: the
 * unnumbered sibling of a numbered paper takes its DOI only when the numbers agree.
 */
function numberedAround(ref: Reference, window: Window): boolean {
  // Beyond either end of the text there is no word, which neither pattern matches.
  const word = (i: number) => ref.words[i] ?? '';
  const [next, after] = [word(window.end), word(window.end + 1)];
  const [before, last] = [word(window.start - 2), word(window.start - 1)];
  const roman = (w: string) => !/\d/.test(w) && NUMERAL.test(w);
  return (
    roman(next) || (NUMBERING.test(next) && NUMERAL.test(after)) || roman(last) || (NUMBERING.test(before) && NUMERAL.test(last))
  );
}

/**
 * The share of the title's letters in words the window lacks. Dice over bigrams is a bag of letter pairs:
 * "Histological alterations following thyroid fine needle biopsy: a systematic review" reaches 0.85
 * against "Clinical complications following thyroid fine-needle biopsy: a systematic review", another
 * paper of the same authors and year, because the shared tail carries it and "histological" and
 * "clinical" share pairs. Whole words tell them apart: a title word counts as present when the window's
 * letters, run together, hold it ("non-alcoholic" holds "nonalcoholic").
 */
function missingTitleWords(ref: Reference, window: Window, title: string): number {
  const letters = ref.words.slice(window.start, window.end).join('');
  // The title was aligned (alignTitle), so it has letters: total is never 0.
  const words = normalizeText(title).split(' ');
  const total = words.reduce((sum, word) => sum + word.length, 0);
  const missing = words.filter((word) => !letters.includes(word)).reduce((sum, word) => sum + word.length, 0);
  return missing / total;
}

/** The most of a title's letters (in whole words) a text may lack or misspell: a typo, a dropped "the". */
const MISSING_TITLE_LETTERS = 0.1;

/**
 * Whether `name` (normalised words, at least one) appears as consecutive words of the text outside the
 * title window. An empty word (a name without letters) is no word of the text.
 */
function wordsOutside(ref: Reference, name: string[], window: Window): boolean {
  return ref.words.some(
    (_, i) => (i >= window.end || i + name.length <= window.start) && name.every((word, j) => ref.words[i + j] === word),
  );
}

/** The first author (or, for an edited book without authors, the first editor): family name or organisation. */
function firstPerson(work: CrossrefWork): CrossrefPerson | undefined {
  const people = work.author?.length ? work.author : work.editor;
  return people?.find((person) => person.family || person.name);
}

/**
 * Whether the text names the work's first author outside the title: the last word of the family name
 * ("Ferreira de Almeida" by "Almeida"), or an organisation's whole name.
 */
function namesFirstAuthor(ref: Reference, work: CrossrefWork, window: Window): boolean {
  const person = firstPerson(work);
  if (person?.family) {
    const family = normalizeText(person.family);
    const last = family.slice(family.lastIndexOf(' ') + 1);
    return last.length > 1 && wordsOutside(ref, [last], window);
  }
  if (person?.name) return wordsOutside(ref, normalizeText(person.name).split(' '), window);
  return false;
}

/** The first and last pages of a work's page range, when they have digits: "9967-9970" → ["9967", "9970"]. */
function pages(work: CrossrefWork): string[] {
  return (
    work.page
      ?.split(/[-–—,]/)
      .map((part) => /\d+/.exec(part)?.[0].replace(/^0+(?=\d)/, ''))
      .filter((digits): digits is string => digits !== undefined) ?? []
  );
}

function firstPage(work: CrossrefWork): string | undefined {
  return pages(work)[0];
}

/** Whether a container name of the work appears in the text, nearly letter for letter (as a title must). */
function namesContainer(ref: Reference, work: CrossrefWork): boolean {
  return (
    work['container-title']?.some((name) => {
      const window = alignTitle(ref, name);
      return window !== undefined && normalizeText(name).length >= 4 && window.similarity >= TITLE_SIMILARITY_THRESHOLD;
    }) ?? false
  );
}

/** Agreement beyond title, author and year: the first page, or the volume with the venue. */
function agreesOnPlace(ref: Reference, work: CrossrefWork): boolean {
  const page = firstPage(work);
  if (page && ref.numbers.has(page)) return true;
  // The text's numbers are digits alone: a volume that is not ("12A", "Suppl") is never among them.
  return work.volume !== undefined && ref.numbers.has(work.volume.replace(/^0+(?=\d)/, '')) && namesContainer(ref, work);
}

const PREPRINT_TEXT =
  /\b(?:arxiv|biorxiv|medrxiv|chemrxiv|techrxiv|psyarxiv|socarxiv|eartharxiv|engrxiv|osf preprints|preprints org|research square|ssrn|essoar|authorea|preprint)\b/;

/** How a reference names a dataset, on its normalised words: "[Data set]", "Data from: …", a data repository. */
const DATA_TEXT = /\b(?:data ?sets?|data from|data repository|dryad|pangaea|dataverse)\b/;

/** A work whose container is a book or proceedings: the text must name that container or its pages. */
const BOOK_OR_PROCEEDINGS_TYPES = new Set<string | undefined>([
  'proceedings-article',
  'book-chapter',
  'book-section',
  'book-part',
]);

/** How a reference cites a part of a book or proceedings: "In: …", "Proc. …", "(eds.)", a conference or series. */
const CONTAINED_TEXT =
  /(?:^|[.,;:)]\s*)[Ii]n\s*:|[.,;)]\s+In\s+(?=\p{Lu})|\b(?:Proc|PROC|Proceedings|[Cc]onference|Conf|[Ww]orkshop|[Ss]ymposium|[Cc]ongress|[Cc]olloquium|Lecture Notes|LNCS|[Ee]ds?|[Ee]ditors?|Hrsg)\b/u;

/** Titles this short (words or letters) are too easily found in any text: they need the venue or pages too. */
const SHORT_TITLE_WORDS = 3;
const SHORT_TITLE_LETTERS = 15;

interface Accepted {
  work: CrossrefWork;
  doi: string;
  similarity: number;
  agrees: boolean;
}

interface Refusal {
  rule: string;
  reason: string;
  similarity: number;
}

/**
 * The titles a reference may give a work by: its own (with its subtitle), and for a dataset deposited as
 * Dryad deposits them ("Data from: <the article's title>") that title without the depositor's prefix, as
 * a reference to the data often writes it ("… The forecast trap [Data set]. Dryad."). A title without
 * that prefix comes twice, which changes nothing: of equally similar titles, judge keeps the first.
 */
function titlesOf(work: CrossrefWork): string[] {
  const titles = workTitles(work);
  if (work.type !== 'dataset') return titles;
  return [...titles, ...titles.map((title) => title.replace(/^\s*data\s+from\s*:\s*/i, ''))];
}

/** Whether the text names a notice: the title it carries, or up to three words before it, reads as one. */
export function namesNotice(ref: Reference, window: Pick<Window, 'start' | 'end'>): boolean {
  return [0, 1, 2, 3].some((k) => isNotice(ref.words.slice(Math.max(0, window.start - k), window.end).join(' ')));
}

/** One candidate against the text: accepted, or the first rule that refuses it. */
function judge(ref: Reference, work: CrossrefWork): Accepted | Refusal {
  const doi = work.DOI.toLowerCase();
  let best: { window: Window; title: string } | undefined;
  for (const title of titlesOf(work)) {
    const window = alignTitle(ref, title);
    if (window && (!best || window.similarity > best.window.similarity)) best = { window, title };
  }
  const similarity = best?.window.similarity ?? 0;
  if (!best || similarity < TITLE_SIMILARITY_THRESHOLD) {
    return { rule: 'title', reason: 'No candidate’s title appears in the reference.', similarity };
  }
  const { window, title } = best;
  if (missingTitleWords(ref, window, title) > MISSING_TITLE_LETTERS) {
    return { rule: 'title', reason: 'No candidate’s title appears in the reference.', similarity };
  }
  if (!window.numbers || (titleNumbers(title).length === 0 && numberedAround(ref, window))) {
    return {
      rule: 'numbers',
      reason: 'The reference numbers its title (a part, volume or edition) differently from the work found.',
      similarity,
    };
  }
  if (!namesFirstAuthor(ref, work, window)) {
    return {
      rule: 'author',
      reason: 'The reference does not name the first author of the work whose title it carries.',
      similarity,
    };
  }
  // A work without a year agrees with no year (NaN is none of the text's years).
  const year = workYear(work) ?? Number.NaN;
  if (![year - 1, year, year + 1].some((y) => ref.years.has(y))) {
    return { rule: 'year', reason: 'The reference’s year is not the year of the work whose title it carries.', similarity };
  }
  // One catalogue's first page is often one off the other's ("424–434" for 423-434): either end may agree.
  const ends = [pages(work)[0], pages(work).at(-1)].filter((p): p is string => p !== undefined);
  if (ends.length > 0 && ref.hasPages && !ends.some((p) => ref.numbers.has(p))) {
    return { rule: 'pages', reason: 'The reference’s pages are not those of the work whose title it carries.', similarity };
  }
  const text = ref.words.join(' ');
  const named = namesNotice(ref, window);
  const dataset = work.type === 'dataset';
  const notice = isNotice(title, work.type);
  if (notice && !named && !(dataset && DATA_TEXT.test(text))) {
    return {
      rule: 'notice',
      reason: 'The only work found is a notice (a correction, reply or deposit) about the referenced work.',
      similarity,
    };
  }
  // A reference to a dataset ("Data from: …", "[Data set]", a data repository) is not the article the data
  // belong to, though the article's title is in it.
  const outside = [...ref.words.slice(0, window.start), ...ref.words.slice(window.end)].join(' ');
  if (!dataset && DATA_TEXT.test(outside)) {
    return { rule: 'version', reason: 'The reference cites a dataset, and the work found is not one.', similarity };
  }
  // A reference to a notice (an erratum, a retraction, a reply) is that notice, never the article it is about.
  if (named && !notice) {
    return {
      rule: 'notice',
      reason:
        'The reference cites a notice (a correction, retraction, reply or comment), and the work found is the article it is about.',
      similarity,
    };
  }
  // One work deposited in two repositories is two records: a reference naming one is not the other's copy.
  const deposited = repositoryOf(work);
  const repositories = repositoriesNamed(ref.raw);
  if (deposited && repositories.length > 0 && !repositories.includes(deposited)) {
    return {
      rule: 'version',
      reason: `The reference names ${repositories.map((repository) => repository.name).join(' or ')}, and the work found is deposited in ${deposited.name}.`,
      similarity,
    };
  }
  const agrees = agreesOnPlace(ref, work);
  const placed = agrees || namesContainer(ref, work);
  const letters = normalizeText(title).replace(/ /g, '').length;
  const short = normalizeText(title).split(' ').length < SHORT_TITLE_WORDS || letters < SHORT_TITLE_LETTERS;
  if ((isGenericTitle(title) || short) && !(placed && ref.years.has(year))) {
    return {
      rule: 'generic_title',
      reason: 'The title is one many works share, and the venue, pages or year do not single one out.',
      similarity,
    };
  }
  const preprintWork =
    work.type === 'posted-content' || work['container-title']?.some((n) => PREPRINT_TEXT.test(normalizeText(n))) === true;
  if (preprintWork !== PREPRINT_TEXT.test(text)) {
    return {
      rule: 'version',
      reason: preprintWork
        ? 'The work found is a preprint, and the reference does not cite a preprint.'
        : 'The reference cites a preprint, and the work found is not one.',
      similarity,
    };
  }
  if (BOOK_OR_PROCEEDINGS_TYPES.has(work.type) && !placed && !CONTAINED_TEXT.test(ref.raw)) {
    return {
      rule: 'version',
      reason: 'The work found is a chapter or conference paper, and the reference names neither its book nor its pages.',
      similarity,
    };
  }
  return { work, doi, similarity, agrees };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * The work the reference is, or a refusal. Every candidate is judged (judge); a DOI the text holds that
 * one candidate has decides, and one that none has refuses (the text names another work). One accepted
 * DOI is the match; several are a tie, settled only when exactly one also agrees on pages or venue.
 */
export function matchReference(text: string, works: readonly CrossrefWork[]): ReferenceOutcome {
  const ref = readReference(text);
  const named = works.find((work) => work.DOI.toLowerCase() === ref.doi);
  if (named) return { matched: { doi: named.DOI.toLowerCase(), score: 1, rule: 'doi_in_text', work: named } };
  const accepted: Accepted[] = [];
  const refusals: Refusal[] = [];
  for (const work of works) {
    const judged = judge(ref, work);
    if ('work' in judged) accepted.push(judged);
    else refusals.push(judged);
  }
  if (ref.doi && accepted.length > 0) {
    return {
      matched: null,
      rule: 'doi_conflict',
      reason: 'The reference holds a DOI that none of the works found has.',
      score: round(Math.max(...accepted.map((a) => a.similarity))),
    };
  }
  const dois = new Set(accepted.map((a) => a.doi));
  if (dois.size === 0) {
    // The refusal of the candidate that came furthest: the one most like the text by title.
    const order = ['title', 'numbers', 'author', 'year', 'pages', 'notice', 'generic_title', 'version'];
    refusals.sort((a, b) => order.indexOf(b.rule) - order.indexOf(a.rule) || b.similarity - a.similarity);
    const top = refusals[0];
    // No refusal and no acceptance: there was no candidate.
    if (!top) return { matched: null, rule: 'no_candidates', reason: 'No work was found for this reference.' };
    return { matched: null, rule: top.rule, reason: top.reason, ...(top.similarity > 0 ? { score: round(top.similarity) } : {}) };
  }
  let chosen = accepted;
  let rule = 'title_author_year';
  if (dois.size > 1) {
    chosen = accepted.filter((a) => a.agrees);
    rule = 'title_author_year_place';
    if (new Set(chosen.map((a) => a.doi)).size !== 1) {
      return {
        matched: null,
        rule: 'ambiguous',
        reason: 'Several works carry the title, authors and year of the reference, and nothing in it tells them apart.',
        score: round(Math.max(...accepted.map((a) => a.similarity))),
      };
    }
  }
  // The most similar; of equals, the first (Crossref's ranking). `chosen` is never empty here.
  const best = chosen.reduce((a, b) => (b.similarity > a.similarity ? b : a));
  return { matched: { doi: best.doi, score: round(best.similarity), rule, work: best.work } };
}
