/** The scholarly index's one-line summary of a paper, parsed: what its lookups are built from and matched against. */

/** An author as the index shows one: initials as the given name and a family name, or an organisation whole. */
export interface ScholarAuthor {
  given: string;
  family: string;
  /** An organisation ("World Health Organization"): one literal name, never split into given and family. */
  organisation?: boolean;
}

/** What the scholarly index told us about a paper, parsed: what the query is built from and matched against. */
export interface ScholarRecord {
  title: string;
  authors: ScholarAuthor[];
  /** Whether the index cut the author list short ("DS Kermany, M Goldbaum…"): more authors than these. */
  authorsCut?: boolean;
  year: number | null;
  /** The venue as the index shows it, a cut one with its "…" ("Proceedings of the 2015 IEEE/ACM …"). */
  venue: string | null;
  /** The site the index links to ("biorxiv.org", "Springer"), the summary's last part; absent when unknown. */
  site?: string | null;
}

const INITIALS = /^\p{Lu}{1,4}$/u;

/**
 * Words that name a body, never a person's family name, as organisations that begin with an acronym write
 * themselves: "US Census Bureau", "GBD 2019 Risk Factors Collaborators", "EFSA Panel on Food Additives",
 * "NCD Risk Factor Collaboration". Read only after initials and among two words or more: "M Bureau" and
 * "J Service" are people.
 */
const BODY_WORD =
  /^(?:bureau|office|department|ministry|agency|administration|authority|commission|committee|council|board|panel|group|team|consortium|collaboration|collaborators|collaborative|network|alliance|coalition|federation|association|society|institute|foundation|organi[sz]ation|centre|center|university|academy|laboratory|survey|programme|program|project|initiative|registry|investigators|secretariat|staff)$/i;

/** The "…" (or "...") the index puts where it cut a text. */
const CUT = /…|\.\.\./g;

/**
 * Whether the words after an acronym name a body rather than a family: a number ("GBD 2019 …"; no
 * family name holds a digit) or, among two words or more, a word only bodies are named by (BODY_WORD).
 */
function namesBody(words: readonly string[]): boolean {
  return words.some((word) => /\d/.test(word)) || (words.length > 1 && words.some((word) => BODY_WORD.test(word)));
}

/**
 * One name of the summary's author list: "JC Robinson" → { given: "JC", family: "Robinson" }; "G Van Rossum"
 * → { given: "G", family: "Van Rossum" }. The index writes every person as initials and a family name, so a
 * name of several words that does not start with initials is an organisation ("World Health Organization"),
 * kept whole, and so is one whose "initials" are an acronym followed by a body's name ("US Census Bureau",
 * namesBody; `person`: the name is known to be a person's, a profile's, and its last word is the family name).
 * A name with no letter (a year where the list is empty) is no author.
 */
export function parseScholarAuthor(text: string, options: { person?: boolean } = {}): ScholarAuthor | undefined {
  const words = text.replace(CUT, '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || !/\p{L}/u.test(words.join(''))) return undefined;
  if (words.length > 1 && INITIALS.test(words[0] ?? '') && (options.person || !namesBody(words.slice(1)))) {
    return { given: words[0] ?? '', family: words.slice(1).join(' ') };
  }
  // A name the index links to a profile is a person's, whatever its form.
  if (words.length > 1 && options.person) return { given: words.slice(0, -1).join(' '), family: words.at(-1) ?? '' };
  if (words.length > 1) return { given: '', family: words.join(' '), organisation: true };
  return { given: '', family: words[0] ?? '' };
}

/** A summary part that is a venue and year, or a year alone ("Nature, 2015", "2010"), not an author list. */
const VENUE_AND_YEAR = /(?:^|,\s*)(?:1[5-9]|20)\d\d\s*$/;

/**
 * The summary's parts as the index separates them with " - ": the author list, the venue and year, and the
 * site (the last part). "2010 - example.org" has no author list (its first part is a year), "R Canu -
 * Proceedings of …, 2015" no site (its last part ends in a year); a summary of one part says none of them.
 * `parts` is how many the summary had, or has once read so.
 */
export function summaryParts(summary: string | null): { authorText: string; middle: string; site: string | null; parts: number } {
  let parts = (summary ?? '').split(/\s+[-–]\s+/);
  // Two parts: no author list ("2010 - example.org"), or no site ("R Canu - Proceedings of …, 2015").
  if (parts.length === 2 && VENUE_AND_YEAR.test(parts[0] ?? '')) parts = ['', ...parts];
  else if (parts.length === 2 && VENUE_AND_YEAR.test(parts[1] ?? '')) parts = [...parts, ''];
  if (parts.length < 2) return { authorText: '', middle: '', site: null, parts: parts.length };
  return {
    authorText: parts[0] ?? '',
    middle: parts.length > 2 ? (parts[1] ?? '') : '',
    site: (parts.at(-1) ?? '').trim() || null,
    parts: parts.length,
  };
}

/** The names of the summary's author list as the index writes them ("DS Kermany"), its "…" dropped. */
export function summaryAuthorNames(summary: string | null): string[] {
  return summaryParts(summary)
    .authorText.split(',')
    .map((name) => name.replace(CUT, '').trim())
    .filter((name) => /\p{L}/u.test(name));
}

/**
 * The index's one-line summary, "JC Robinson, VG Saúco - 2010 - books.google.com" or "C Boettiger, A
 * Hastings - Theoretical Ecology, 2013 - Springer", as authors, year and venue. A list the index cut short
 * ends in "…": the authors it shows are kept and `authorsCut` says there are more. A venue the index cut
 * keeps its "…" ("European …", "Proceedings of the 2015 IEEE/ACM …"), so that it is compared as the
 * beginning it is (match.ts) and printed as cut, never as a whole name.
 */
export function parseScholarSummary(title: string, summary: string | null): ScholarRecord {
  const { authorText, middle, site, parts } = summaryParts(summary);
  const authors = authorText
    .split(',')
    .map((name) => parseScholarAuthor(name))
    .filter((name): name is ScholarAuthor => name !== undefined && name.family !== '');
  const yearText = /(?:^|\D)((?:1[5-9]|20)\d\d)\s*$/.exec(middle)?.[1];
  const venue = middle.replace(/,?\s*(?:1[5-9]|20)\d\d\s*$/, '').trim();
  return {
    title: title.trim(),
    authors,
    ...(authors.length > 0 && /(?:…|\.\.\.)\s*$/.test(authorText) ? { authorsCut: true } : {}),
    year: yearText ? Number(yearText) : null,
    venue: venue && /\p{L}/u.test(venue.replace(CUT, '')) ? venue : null,
    ...(site && parts > 2 ? { site } : {}),
  };
}
