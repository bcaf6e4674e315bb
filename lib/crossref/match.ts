/**
 * Which Crossref work, if any, is the paper the scholarly index found. Pure functions, tested on recorded
 * Crossref answers. A wrong DOI is worse than none: a reference manager would file the paper under
 * another paper's identity, and the user would not notice. So a work is accepted only when its title is
 * nearly the same as the paper's, the paper's first author is among its authors, and its year is within
 * one of the paper's. Crossref's own relevance `score` is not used: it is relative to each query (the
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
 * The work that is this paper, or undefined. Of several that pass, the most similar title wins, then the
 * year nearest the paper's, then a published version over a preprint, then Crossref's order.
 */
export function bestMatch(record: ScholarRecord, works: readonly CrossrefWork[]): Match | undefined {
  const accepted = works.flatMap((work, order) => {
    const similarity = Math.max(0, ...workTitles(work).map((title) => titleSimilarity(record.title, title)));
    if (similarity < TITLE_SIMILARITY_THRESHOLD || !sameFirstAuthor(record, work)) return [];
    const year = workYear(work);
    const yearsApart = record.year !== null && year !== null ? Math.abs(record.year - year) : 0;
    if (yearsApart > 1) return [];
    return [{ work, similarity, yearsApart, preprint: PREPRINT_TYPES.has(work.type ?? '') ? 1 : 0, order }];
  });
  accepted.sort(
    (a, b) =>
      Math.round(b.similarity * 100) - Math.round(a.similarity * 100) ||
      a.yearsApart - b.yearsApart ||
      a.preprint - b.preprint ||
      a.order - b.order,
  );
  const best = accepted[0];
  return best && { work: best.work, similarity: best.similarity };
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
