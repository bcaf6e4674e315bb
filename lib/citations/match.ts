/**
 * Which Crossref work, if any, is the paper the scholarly index found. Pure functions, tested on recorded
 * Crossref answers. A wrong DOI is worse than none: a reference manager would file the paper under
 * another paper's identity, and the user would not notice. So a work is accepted only when its title is
 * nearly the same as the paper's (with the same numbers), the paper's first author is among its authors,
 * and its year is within one of the paper's; notices about a paper, generic titles in another venue and
 * ties between DOIs are refused (bestMatch). test/unit/lib/crossref-labelled.test.ts holds the rules to
 * 0 wrong DOIs on a labelled set of recorded answers and traps. Crossref's own relevance `score` is not used: it is relative to each query (the
 * recorded answers range from 0 to 35, and an author-only query ranks unrelated works first at 9.5), so
 * no fixed cut-off on it means "the same paper".
 */

/** A person as Crossref records one: usually given + family, sometimes only a name (an organisation). */
export interface CrossrefPerson {
  given?: string;
  family?: string;
  name?: string;
}

/** A Crossref work: the fields the lookup asks for with `select`. */
export interface CrossrefWork {
  DOI: string;
  title?: string[];
  subtitle?: string[];
  author?: CrossrefPerson[];
  editor?: CrossrefPerson[];
  issued?: { 'date-parts'?: (number | null)[][] };
  'container-title'?: string[];
  type?: string;
  volume?: string;
  issue?: string;
  page?: string;
  publisher?: string;
  ISBN?: string[];
  ISSN?: string[];
  URL?: string;
}

/** What the scholarly index told us about a paper, parsed: what the query is built from and matched against. */
export interface ScholarRecord {
  title: string;
  authors: { given: string; family: string }[];
  year: number | null;
  venue: string | null;
}

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

/** Lower case, accents and markup removed, only letters and digits, single spaces. */
export function normalizeText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

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
  const cut = /(…|\.\.\.)\s*$/.exec(scholarTitle);
  const shown = cut ? scholarTitle.slice(0, cut.index) : scholarTitle;
  if (cut) {
    const words = normalizeText(shown).split(' ').length;
    other = normalizeText(crossrefTitle).split(' ').slice(0, words).join(' ');
  }
  const a = bigrams(shown);
  const b = bigrams(other);
  let total = 0;
  let shared = 0;
  for (const n of a.values()) total += n;
  for (const n of b.values()) total += n;
  for (const [pair, n] of a) shared += Math.min(n, b.get(pair) ?? 0);
  return total === 0 ? 0 : (2 * shared) / total;
}

/** The year a work was first issued, if Crossref knows it. */
export function workYear(work: CrossrefWork): number | null {
  const year = work.issued?.['date-parts']?.[0]?.[0];
  return typeof year === 'number' ? year : null;
}

/** The work's title as one line, with its subtitle when Crossref keeps one apart. */
export function workTitles(work: CrossrefWork): string[] {
  const title = work.title?.[0];
  if (!title) return [];
  const subtitle = work.subtitle?.[0];
  return subtitle ? [title, `${title}: ${subtitle}`] : [title];
}

function familyWords(person: CrossrefPerson): string[] {
  return normalizeText(person.family ?? person.name ?? '').split(' ');
}

/** Whether the paper's first author is one of the work's authors (or editors, for an edited book). */
function sameFirstAuthor(record: ScholarRecord, work: CrossrefWork): boolean {
  const family = normalizeText(record.authors[0]?.family ?? '')
    .split(' ')
    .at(-1);
  if (!family) return false;
  return [...(work.author ?? []), ...(work.editor ?? [])].some((person) => familyWords(person).includes(family));
}

export interface Match {
  work: CrossrefWork;
  similarity: number;
}

// A preprint and its published version share title and authors; the published one is what gets cited.
const PREPRINT_TYPES = new Set(['posted-content']);

/**
 * Crossref types that are never the paper itself: a dataset deposited with it ("Data from: …"), a
 * figure or supplement (`component`), its peer reviews. They carry the paper's title and authors.
 */
const NOTICE_TYPES = new Set(['dataset', 'component', 'peer-review']);

/**
 * Titles of works that are about another work and carry its title and authors: errata and corrections,
 * retractions and expressions of concern, replies and comments, the yearly thanks to reviewers, peer
 * review reports and decision letters, deposited data. Matched at the start of the title (with an
 * optional "Re:"), where publishers put the notice's kind.
 */
const NOTICE_TITLE =
  /^(?:re\s*:\s*)?(?:(?:author|publisher|editorial)?\s*(?:erratum|errata|corrigendum|corrigenda|correction|retraction|retracted|withdrawn|expression of concern|addendum)\b|(?:reply|response|rejoinder|comments?|commentary)\s+(?:to|on)\b|(?:authors?\s+)?(?:reply|response)\s*:|acknowledge?ments?\s+to\s+(?:the\s+)?(?:reviewers|referees)|(?:peer\s+)?review\s+(?:report|of)\b|decision\s+letter|author\s+response|data\s+from\s*:|supplementa(?:l|ry)\s+(?:material|information|data)\b)/i;

/** Whether a work is a notice about a paper, or a record deposited beside it, rather than a paper. */
export function isNotice(title: string, type?: string): boolean {
  return NOTICE_TYPES.has(type ?? '') || NOTICE_TITLE.test(title.replace(/<[^>]*>/g, '').trim());
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

/**
 * The numbers a title holds, in order: years, editions, volumes, parts. "Report 2015" and "Report 2013"
 * differ in one number and nearly no letters, and are different works. A title the index cut short is
 * compared only on as many words as it shows.
 */
export function titleNumbers(title: string, words?: number): string[] {
  const text = normalizeText(title)
    .split(' ')
    .slice(0, words ?? Number.POSITIVE_INFINITY)
    .join(' ');
  return (text.match(/\d+/g) ?? []).map((n) => n.replace(/^0+(?=\d)/, ''));
}

function sameNumbers(scholarTitle: string, crossrefTitle: string): boolean {
  const cut = /(…|\.\.\.)\s*$/.exec(scholarTitle);
  const shown = cut ? scholarTitle.slice(0, cut.index) : scholarTitle;
  const shownWords = cut ? normalizeText(shown).split(' ').length : undefined;
  const mine = titleNumbers(shown);
  // The last word of a cut title may itself be cut ("20…" of "2015"): it is not compared.
  const theirs = titleNumbers(crossrefTitle, shownWords);
  if (cut && /\d$/.test(normalizeText(shown))) return mine.slice(0, -1).join(' ') === theirs.slice(0, mine.length - 1).join(' ');
  return mine.join(' ') === theirs.join(' ');
}

/** Whether the index's venue and the work's container name one journal, book or proceedings. */
function sameVenue(record: ScholarRecord, work: CrossrefWork): boolean {
  const venue = record.venue ? normalizeText(record.venue) : '';
  if (!venue) return false;
  return (work['container-title'] ?? []).some((container) => {
    const name = normalizeText(container);
    if (!name) return false;
    // As nearly the same name as titles need: "Nature" is not "Nature Communications".
    return name === venue || titleSimilarity(record.venue ?? '', container) >= TITLE_SIMILARITY_THRESHOLD;
  });
}

/**
 * The work that is this paper, or undefined. A work passes when its title is nearly the paper's (the
 * same numbers in it), the paper's first author is among its authors, and its year is within one of the
 * paper's; a notice about a paper passes only for a paper whose title is a notice; a generic title only
 * with the same venue. Of several that pass, the most similar title wins, then the year nearest the
 * paper's, then a published version over a preprint. Works of different DOIs still tied after that (a
 * conference paper and its journal version of one title and year; one report deposited twice) give no
 * DOI: Crossref's order is no reason to pick one.
 */
export function bestMatch(record: ScholarRecord, works: readonly CrossrefWork[]): Match | undefined {
  const paperIsNotice = isNotice(record.title);
  const generic = isGenericTitle(record.title.replace(/(…|\.\.\.)\s*$/, ''));
  const accepted = works.flatMap((work) => {
    const titles = workTitles(work).filter((title) => sameNumbers(record.title, title));
    const similarity = Math.max(0, ...titles.map((title) => titleSimilarity(record.title, title)));
    if (similarity < TITLE_SIMILARITY_THRESHOLD || !sameFirstAuthor(record, work)) return [];
    if (!paperIsNotice && isNotice(work.title?.[0] ?? '', work.type)) return [];
    if (generic && !sameVenue(record, work)) return [];
    const year = workYear(work);
    const yearsApart = record.year !== null && year !== null ? Math.abs(record.year - year) : 0;
    if (yearsApart > 1) return [];
    const preprint = PREPRINT_TYPES.has(work.type ?? '') ? 1 : 0;
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

const INITIALS = /^\p{Lu}{1,4}$/u;

/** "JC Robinson" → { given: "JC", family: "Robinson" }; "G Van Rossum" → { given: "G", family: "Van Rossum" }. */
export function parseScholarAuthor(text: string): { given: string; family: string } | undefined {
  const words = text.replace(/…/g, '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  if (words.length > 1 && INITIALS.test(words[0] ?? '')) return { given: words[0] ?? '', family: words.slice(1).join(' ') };
  return { given: words.slice(0, -1).join(' '), family: words.at(-1) ?? '' };
}

/**
 * The index's one-line summary, "JC Robinson, VG Saúco - 2010 - books.google.com" or "C Boettiger, A
 * Hastings - Theoretical Ecology, 2013 - Springer", as authors, year and venue. A list the index cut
 * short ends in "…"; the authors it shows are kept.
 */
export function parseScholarSummary(title: string, summary: string | null): ScholarRecord {
  const parts = (summary ?? '').split(/\s+[-–]\s+/);
  const authors = (parts.length > 1 ? (parts[0] ?? '') : '')
    .split(',')
    .map((name) => parseScholarAuthor(name))
    .filter((name): name is { given: string; family: string } => name !== undefined && name.family !== '');
  const middle = parts.length > 2 ? (parts[1] ?? '') : '';
  const yearText = /(?:^|\D)((?:1[5-9]|20)\d\d)\s*$/.exec(middle)?.[1];
  const venue = middle
    .replace(/,?\s*(?:1[5-9]|20)\d\d\s*$/, '')
    .replace(/…/g, '')
    .trim();
  return {
    title: title.trim(),
    authors,
    year: yearText ? Number(yearText) : null,
    venue: venue && !/^\d+$/.test(venue) ? venue : null,
  };
}
