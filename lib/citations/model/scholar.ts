/** The scholarly index's one-line summary of a paper, parsed: what its lookups are built from and matched against. */

/** What the scholarly index told us about a paper, parsed: what the query is built from and matched against. */
export interface ScholarRecord {
  title: string;
  authors: { given: string; family: string }[];
  year: number | null;
  venue: string | null;
  /** The site the index links to ("biorxiv.org", "Springer"), the summary's last part; absent when unknown. */
  site?: string | null;
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
  const site = parts.length > 1 ? (parts.at(-1) ?? '').trim() : '';
  return {
    title: title.trim(),
    authors,
    year: yearText ? Number(yearText) : null,
    venue: venue && !/^\d+$/.test(venue) ? venue : null,
    ...(site && parts.length > 2 ? { site } : {}),
  };
}
