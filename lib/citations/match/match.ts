/**
 * Which Crossref work, if any, is the paper the scholarly index found. Pure functions, tested on recorded
 * Crossref answers. A wrong DOI is worse than none: a reference manager would file the paper under
 * another paper's identity, and the user would not notice. So a work is accepted only when its title is
 * nearly the same as the paper's (with the same numbers, Arabic or Roman), the paper's first author is
 * among its authors, both years are known and within one, and it is the version (preprint, conference
 * paper, chapter, journal article, edition) the index's venue names; notices about a paper, generic titles
 * in another venue or year and ties between DOIs are refused (bestMatch). test/unit/lib/crossref-labelled.test.ts holds the rules to
 * 0 wrong DOIs on a labelled set of recorded answers and traps. Crossref's own relevance `score` is not used: it is relative to each query (the
 * recorded answers range from 0 to 35, and an author-only query ranks unrelated works first at 9.5), so
 * no fixed cut-off on it means "the same paper".
 */

import { decodeEntities } from '../model/csl.js';
import type { ScholarRecord } from '../model/scholar.js';
import { normalizeText } from '../model/text.js';
import { type CrossrefPerson, type CrossrefWork, workTitles, workYear } from '../model/work.js';

/**
 * The least title similarity (Sørensen–Dice over character bigrams, see titleSimilarity) a work needs.
 * Measured on 22 recorded Crossref answers (test/unit/lib/crossref-match.test.ts): each of their 370
 * works with a title and an author was looked up among the other works of its answer. On title alone, 17
 * would have taken another work's DOI at this threshold (a journal's "Medical News" columns share one
 * title); with the author and year gates, the most similar different title left was 0.78 ("Text
 * Encoding" against "Encoding"), and no lookup took a work with a different title. 0.85 keeps a margin
 * above that and still accepts what separates the index's rendering of a title from Crossref's: markup
 * (<scp>, <i>), Unicode hyphens, case, a trailing full stop.
 */
export const TITLE_SIMILARITY_THRESHOLD = 0.85;

function bigrams(text: string): Map<string, number> {
  // Spaces are dropped: "an<scp>R</scp>package" and "an R package" must compare equal.
  const letters = normalizeText(text).replace(/ /g, '');
  const counts = new Map<string, number>();
  for (let i = 0; i < letters.length - 1; i++) {
    const pair = letters.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/**
 * Sørensen–Dice coefficient of the two titles' character bigrams, from 0 (nothing shared) to 1 (the same
 * letters in the same order). It tolerates the small differences two catalogues make in one title and
 * drops fast when words differ. A title the index cut short ("…") is compared with as much of the other.
 */
export function titleSimilarity(scholarTitle: string, crossrefTitle: string): number {
  let other = crossrefTitle;
  // The "…" itself is no letter: normalizeText leaves it out of the words and the bigrams.
  if (/(…|\.\.\.)\s*$/.test(scholarTitle)) {
    const words = normalizeText(scholarTitle).split(' ').length;
    // Joined by commas: the bigrams read no separator.
    other = normalizeText(crossrefTitle).split(' ').slice(0, words).join();
  }
  const a = bigrams(scholarTitle);
  const b = bigrams(other);
  let total = 0;
  let shared = 0;
  for (const n of a.values()) total += n;
  for (const n of b.values()) total += n;
  for (const [pair, n] of a) shared += Math.min(n, b.get(pair) ?? 0);
  // A title of one letter has no bigram: it is similar to nothing (0 / 0 would be NaN, and NaN fails no
  // `<` test, so it would pass every threshold).
  return total === 0 ? 0 : (2 * shared) / total;
}

function familyWords(person: CrossrefPerson): string[] {
  return normalizeText(person.family ?? person.name ?? '').split(' ');
}

/**
 * Whether the paper's first author is one of the work's authors (or editors, for an edited book). A paper
 * whose summary gave no author is never matched: title and year alone take a same-titled work of other
 * people (a "Book review", "Medical News", a standard), so no first author means no DOI.
 */
function sameFirstAuthor(record: ScholarRecord, work: CrossrefWork): boolean {
  const [first] = record.authors;
  if (!first) return false;
  const family = normalizeText(first.family).split(' ').at(-1);
  if (!family) return false;
  return [work.author, work.editor].some((people) => people?.some((person) => familyWords(person).includes(family)));
}

export interface Match {
  work: CrossrefWork;
  similarity: number;
}

// A preprint and its published version share title and authors; the published one is what gets cited.
// (The sets of types take an absent type too: a work without one is in none of them.)
const PREPRINT_TYPES: ReadonlySet<string | undefined> = new Set(['posted-content']);

/**
 * Crossref types that are never the paper itself: a dataset deposited with it ("Data from: …"), a
 * figure or supplement (`component`), its peer reviews. They carry the paper's title and authors.
 */
const NOTICE_TYPES: ReadonlySet<string | undefined> = new Set(['dataset', 'component', 'peer-review']);

/**
 * Titles of works that are about another work and carry its title and authors: errata and corrections,
 * retractions and expressions of concern, replies and comments, the yearly thanks to reviewers, peer
 * review reports and decision letters, deposited data. Matched at the start of the title (with an
 * optional "Re:"), where publishers put the notice's kind.
 */
const NOTICE_TITLE =
  /^(?:re\s*:\s*)?(?:(?:author|publisher|editorial)?\s*(?:erratum|errata|corrigendum|corrigenda|correction|retraction|retracted|withdrawn|expression of concern|addendum)\b|(?:reply|response|rejoinder|comments?|commentary)\s+(?:to|on)\b|(?:authors?['’]?\s+)?(?:reply|response)\s*:|acknowledge?ments?\s+to\s+(?:the\s+)?(?:reviewers|referees)|(?:peer\s+)?review\s+(?:report|of)\b|decision\s+letter|author\s+response|data\s+from\s*:|supplementa(?:l|ry)\s+(?:material|information|data)\b)/i;

/** Whether a work is a notice about a paper, or a record deposited beside it, rather than a paper. */
export function isNotice(title: string, type?: string): boolean {
  return NOTICE_TYPES.has(type) || NOTICE_TITLE.test(title.replace(/<[^>]*>/g, '').trim());
}

/**
 * Titles that many unrelated works share: a journal's "Editorial" every issue, a book's "Introduction".
 * Title, author and year do not single one out; the venue has to agree too.
 */
const GENERIC_TITLE =
  /^(?:introduction|general introduction|editorial|guest editorial|editorial comment|editor s note|editors note|preface|foreword|afterword|prologue|epilogue|conclusion|conclusions|book reviews?|reviews?|letters?|letter to the editor|in this issue|news|commentary|abstracts?|index|contents|table of contents|front matter|back matter|obituary|announcements?|medical news|correspondence|discussion|overview|summary|appendix)(?: \d+)?$/;

export function isGenericTitle(title: string): boolean {
  return GENERIC_TITLE.test(normalizeText(title));
}

/** Roman numerals of two or more letters, as far as titles number parts and volumes (II … XXXIX). */
const ROMAN = /^(?:x{0,3})(?:ix|iv|v?i{0,3})$/;
const ROMAN_VALUES: Record<string, number> = { i: 1, v: 5, x: 10 };

function romanValue(word: string): number {
  const values = [...word].map((letter) => ROMAN_VALUES[letter] ?? 0);
  // A letter before a greater one is taken away ("ix" is 9), any other added.
  return values.reduce((total, value, i) => total + (value < (values[i + 1] ?? 0) ? -value : value), 0);
}

/** Words after which a lone "I", "V" or "X" is a number: "Part I", "Vol. V", "Book X". */
const NUMBER_MARKER = /^(?:part|parts|vol|volume|no|number|chapter|book|phase|type|class|stage|series|section|tome|teil|band)$/;

/**
 * The numbers in a text, in order: Arabic numerals without leading zeros, and Roman numerals as Arabic
 * ("Part II" and "Part 2" both give 2). A Roman numeral of two or more letters counts anywhere ("Groups
 * II", "Type IV"); a lone I, V or X only after a word that numbers ("Part I") or as the last word ("…
 * groups I"), because elsewhere it is a pronoun, a letter or an "X-ray".
 */
function numbersOf(words: readonly string[]): string[] {
  const numbers: string[] = [];
  words.forEach((word, i) => {
    for (const digits of word.match(/\d+/g) ?? []) numbers.push(digits.replace(/^0+(?=\d)/, ''));
    // ROMAN takes no digit, but the empty word: an empty title has no number.
    if (!word || !ROMAN.test(word)) return;
    if (word.length > 1 || NUMBER_MARKER.test(words[i - 1] ?? '') || i === words.length - 1) {
      numbers.push(String(romanValue(word)));
    }
  });
  return numbers;
}

/**
 * The numbers a title holds, in order: years, editions, volumes, parts, in Arabic or Roman numerals.
 * "Report 2015" and "Report 2013", "Part I" and "Part II" differ in one number and nearly no letters, and
 * are different works. A title the index cut short is compared only on as many words as it shows.
 */
export function titleNumbers(title: string, words?: number): string[] {
  const all = normalizeText(title).split(' ');
  return numbersOf(all.slice(0, words ?? Number.POSITIVE_INFINITY));
}

/** A text the index cut short: "Deep learning for …", "Proceedings of the 20…", "… on computer vision". */
interface Shown {
  /** The words shown, normalised. */
  words: string[];
  /** Whether the index cut the end ("…" last). */
  cut: boolean;
  /** Whether the last word shown is whole: the index put a space before "…" (or did not cut at all). */
  lastWhole: boolean;
  /** Whether the index cut the beginning ("…" first): what is shown is the end of the name. */
  cutStart: boolean;
}

function shownText(text: string): Shown {
  const start = /^\s*(?:…|\.\.\.)/.exec(text);
  // A "…" both first and last (the text is nothing else) shows no word: either reading of it compares nothing.
  const cut = /(\s*)(?:…|\.\.\.)\s*$/.exec(text);
  // The "…" is no letter: normalizeText leaves it out of the words.
  const words = normalizeText(text).split(' ').filter(Boolean);
  return { words, cut: cut !== null, lastWhole: cut === null || cut[1] !== '', cutStart: start !== null };
}

/**
 * Whether the numbers of what the index shows are those of the other text. All shown numbers must be
 * equal, in order, to the other's numbers on as many words, except that the last word of a cut text that
 * the index cut inside a word ("…Report 20…") need only begin the other's number ("2015"), and a lone
 * Roman letter cut that way is not compared ("Part I…" may be "Part II"). A space before "…" shows the
 * last word whole, so "Part II …" is compared in full.
 */
function sameNumbersShown(shown: Shown, other: string): boolean {
  // An empty text gives one empty word, which has no number.
  const otherWords = normalizeText(other).split(' ');
  const theirs = numbersOf(shown.cut ? otherWords.slice(0, shown.words.length) : otherWords);
  if (shown.lastWhole) return numbersOf(shown.words).join(' ') === theirs.join(' ');
  const head = numbersOf(shown.words.slice(0, -1));
  const last = shown.words.at(-1) ?? '';
  const lastDigits = /\d+$/.exec(last)?.[0];
  const headOfLast = numbersOf([last]).slice(0, lastDigits ? -1 : undefined);
  const mine = [...head, ...headOfLast];
  if (mine.join(' ') !== theirs.slice(0, mine.length).join(' ')) return false;
  if (!lastDigits) return true;
  // The cut number is the start of the other's next number: "20" of "2015", not "2013" for "2015".
  return theirs[mine.length]?.startsWith(lastDigits.replace(/^0+(?=\d)/, '')) === true;
}

function sameNumbers(scholarTitle: string, crossrefTitle: string): boolean {
  return sameNumbersShown(shownText(scholarTitle), crossrefTitle);
}

/**
 * Whether the index's venue and one container name the same journal, book or proceedings, numbers
 * included: "Pro jQuery" is not "Pro jQuery 2.0", the 2015 proceedings are not the 2016 ones. The
 * letters must be nearly the same (as titles need: "Nature" is not "Nature Communications"). A venue the
 * index cut is compared with as many words of the container: its beginning when the end was cut
 * ("Proceedings of the 2015 IEEE/ACM …"), its end when the beginning was ("… on Computer Vision and
 * Pattern Recognition"), any run of them when both were; a number in the hidden beginning (an edition,
 * "the 4th …") refuses, as it would tell the editions apart. A blank container names nothing.
 */
function venueNamesContainer(venue: string, container: string): boolean {
  const shown = shownText(venue);
  // Crossref passes on the entities publishers deposit ("Analytics &amp; Knowledge"): read as characters.
  // A blank container gives one empty word, with no letter and no number: it names no shown venue.
  const nameWords = normalizeText(decodeEntities(container)).split(' ');
  const n = shown.words.length;
  if (n === 0) return false;
  // Compared as letters alone (the separator is no letter): titleSimilarity reads no space or comma.
  const letters = (words: readonly string[]) => words.filter((word) => !/\d/.test(word)).join();
  const a = letters(shown.words);
  // The runs of the container's words the shown venue may be.
  const starts = !shown.cutStart ? [0] : !shown.cut ? [Math.max(0, nameWords.length - n)] : nameWords.map((_word, i) => i);
  return starts.some((start) => {
    const compared = shown.cut || shown.cutStart ? nameWords.slice(start, start + n) : nameWords;
    if (shown.cutStart && compared.length < n) return false;
    // A number the cut hid at the start ("Proceedings of the 4th …") is what tells editions apart: a name
    // whose hidden beginning holds one cannot be confirmed.
    if (shown.cutStart && nameWords.slice(0, start).some((word) => /\d/.test(word))) return false;
    const b = letters(compared);
    // Two names of one letter or none have no bigram to compare: only the same one is alike.
    const alike = a === b || titleSimilarity(a, b) >= TITLE_SIMILARITY_THRESHOLD;
    return alike && sameNumbersShown(shown, compared.join(' '));
  });
}

/** Whether the index's venue names one of the work's containers (see venueNamesContainer). */
function sameVenue(record: ScholarRecord, work: CrossrefWork): boolean {
  const venue = record.venue;
  if (!venue) return false;
  // ACM names its proceedings "Proceedings of the 3rd … Supercomputing - E2SC '15"; the index often
  // leaves out the acronym after " - ", so the name before it is compared too (the white space left
  // before the dash is no word).
  return (
    work['container-title']?.some(
      (name) => venueNamesContainer(venue, name) || venueNamesContainer(venue, name.replace(/\s-\s[^-]*$/, '')),
    ) ?? false
  );
}

/**
 * Venues and sites of preprint servers. A paper the index lists there IS the preprint: its record is the
 * posted content (or, for SSRN, the "SSRN Electronic Journal" article), not the version a journal
 * published later. Matched on the normalised venue or site.
 */
const PREPRINT_VENUE =
  /\b(?:arxiv|biorxiv|medrxiv|chemrxiv|techrxiv|psyarxiv|socarxiv|eartharxiv|engrxiv|osf preprints|preprints org|research square|researchsquare|ssrn|ess open archive|essoar|essopenarchive|authorea|preprints)\b|\bdiscussions?$/;

function isPreprintVenue(text: string | null | undefined): boolean {
  return typeof text === 'string' && PREPRINT_VENUE.test(normalizeText(text));
}

/** Words that name a conference's proceedings, not a journal: "Proceedings of the 3rd International Workshop…". */
const CONFERENCE_VENUE = /\b(?:conference|workshop|symposium|congress|colloquium|lecture notes)\b/;

/** A preprint's record: posted content, or an article of a preprint server's "journal" (SSRN). */
function isPreprintWork(work: CrossrefWork): boolean {
  return PREPRINT_TYPES.has(work.type) || (work['container-title']?.some((name) => isPreprintVenue(name)) ?? false);
}

/**
 * Whether the work is the version of the paper the index lists: preprint, conference paper, journal
 * article and book chapter of one title and authors are different works with different DOIs, told apart
 * by the venue the index names and the work's type, never taken because a work is the only candidate.
 * - A paper on a preprint server takes only a preprint record.
 * - A paper in a named venue takes no preprint record (the index shows a preprint's server as its venue).
 * - A conference paper or a chapter (types whose venue is a book or proceedings) needs the index's venue
 *   to name its container, numbers included: the 2012 book's chapter is not the 2013 edition's.
 * - A journal article is refused for a venue that names a conference which its container is not.
 * Without a venue (the index often shows none) the type cannot be checked, and the ranking prefers a
 * published version to a preprint.
 */
function sameVersion(record: ScholarRecord, work: CrossrefWork): boolean {
  if (DATA_REPOSITORY.test(whereShown(record))) return work.type === 'dataset';
  const venue = normalizeText(record.venue ?? '');
  const paperIsPreprint = isPreprintVenue(record.venue) || isPreprintVenue(record.site);
  if (paperIsPreprint) return isPreprintWork(work);
  if (!venue) return true;
  if (isPreprintWork(work)) return false;
  if (BOOK_OR_PROCEEDINGS_TYPES.has(work.type)) return sameVenue(record, work);
  if (CONFERENCE_VENUE.test(venue)) return sameVenue(record, work);
  return true;
}

/** Repositories of data alone, as the index names them in a venue or site: a result there is a dataset. */
const DATA_REPOSITORY = /\b(?:dryad|datadryad|pangaea|dataverse|gbif)\b/;
/** Repositories of datasets beside other works (software, preprints, papers). */
const MIXED_REPOSITORY = /\b(?:zenodo|figshare)\b/;

/** The venue and the site the index shows, as one normalised text (an absent one is no word). */
function whereShown(record: ScholarRecord): string {
  return normalizeText([record.venue, record.site].join(' '));
}

/** Whether the index shows the paper on a repository of data, where a dataset is what it lists. */
function onDataRepository(record: ScholarRecord): boolean {
  const where = whereShown(record);
  return DATA_REPOSITORY.test(where) || MIXED_REPOSITORY.test(where);
}

/** Types whose container is a book or proceedings volume: a version of a paper that the venue tells apart. */
const BOOK_OR_PROCEEDINGS_TYPES: ReadonlySet<string | undefined> = new Set([
  'proceedings-article',
  'book-chapter',
  'book-section',
  'book-part',
]);

/**
 * The work that is this paper, or undefined. A work passes when its title is nearly the paper's (the
 * same numbers in it), the paper's first author is among its authors, both years are known and within
 * one of each other, and it is the version the index's venue names (sameVersion); a notice about a paper
 * passes only for a paper whose title is a notice; a generic title only in the same venue (numbers
 * included) and the same year. Of several that pass, the most similar title wins, then the year nearest
 * the paper's, then a published version over a preprint. Works of different DOIs still tied after that
 * (a conference paper and its journal version of one title and year; one report deposited twice) give
 * no DOI: Crossref's order is no reason to pick one.
 */
export function bestMatch(record: ScholarRecord, works: readonly CrossrefWork[]): Match | undefined {
  const paperIsNotice = isNotice(record.title);
  // A result the index shows on a data repository is the dataset: its record is one.
  const paperIsData = onDataRepository(record);
  const generic = isGenericTitle(record.title);
  const accepted = works.flatMap((work) => {
    const titles = workTitles(work).filter((title) => sameNumbers(record.title, title));
    const similarity = Math.max(0, ...titles.map((title) => titleSimilarity(record.title, title)));
    if (similarity < TITLE_SIMILARITY_THRESHOLD || !sameFirstAuthor(record, work)) return [];
    const dataRecord = paperIsData && work.type === 'dataset';
    const workIsNotice = isNotice(work.title?.[0] ?? '', work.type);
    if (!paperIsNotice && !dataRecord && workIsNotice) return [];
    // A notice (an erratum, a retraction, a reply) is that notice, never the article whose title it repeats.
    if (paperIsNotice && !workIsNotice) return [];
    // A year is one of the three things that single a work out: without it, a later edition or a
    // same-titled work decades apart cannot be told from the paper. A missing year on either side refuses.
    const year = workYear(work);
    if (record.year === null || year === null) return [];
    const yearsApart = Math.abs(record.year - year);
    if (yearsApart > 1) return [];
    // A generic title is one of a series (every volume has an "Introduction"): the venue, with its
    // numbers, and the very year must agree; a volume a year later is another volume.
    if (generic && (!sameVenue(record, work) || yearsApart !== 0)) return [];
    if (!sameVersion(record, work)) return [];
    const preprint = PREPRINT_TYPES.has(work.type) ? 1 : 0;
    // Compared in hundredths: what separates two renderings of one title is noise, not a preference.
    return [{ work, similarity, score: Math.round(similarity * 100), yearsApart, preprint }];
  });
  const rank = (a: (typeof accepted)[number], b: (typeof accepted)[number]) =>
    b.score - a.score || a.yearsApart - b.yearsApart || a.preprint - b.preprint;
  accepted.sort(rank);
  const [best, next] = accepted;
  if (!best) return undefined;
  if (next && rank(best, next) === 0 && next.work.DOI.toLowerCase() !== best.work.DOI.toLowerCase()) return undefined;
  return { work: best.work, similarity: best.similarity };
}
