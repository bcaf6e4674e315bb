/**
 * Google Scholar specifics the scholar endpoints share: the shape of its ids, and the reshaping of its
 * answers (profiles, an author's page, one article's citation view, the documents citing it). Every
 * reader tolerates absent fields.
 */
import type * as z from 'zod/mini';
import type { citationCountSchema, interestSchema } from '../contract/alpha-parts.js';
import type { AuthorData } from '../contract/scholar-author.js';
import type { Citation, CitingArticle } from '../contract/scholar-author-citation.js';
import { ENRICH_MAX, PAGE_FIELDS, type Profile, type Unfilled } from '../contract/scholar-profiles.js';
import type { AppError } from '../errors.js';
import { integer, isRecord, list, record, text, textOrEmpty } from './values.js';

/** An author id: the `user=` value of a Google Scholar profile URL, e.g. LSsXyncAAAAJ. */
export const AUTHOR_ID = {
  pattern: '[A-Za-z0-9_\\-]{1,64}',
  hint: 'a Google Scholar author id: 1 to 64 letters, digits, _ or -',
} as const;

/** An article on an author's page: `<author_id>:<article_id>`, e.g. LSsXyncAAAAJ:u5HHmVD_uO8C. */
export const CITATION_ID = {
  pattern: '[A-Za-z0-9_\\-]{1,64}:[A-Za-z0-9_\\-]{1,64}',
  hint: '<author_id>:<article_id>, such as LSsXyncAAAAJ:u5HHmVD_uO8C',
} as const;

type Interest = z.output<typeof interestSchema>;
type CitationCount = z.output<typeof citationCountSchema>;

/** Engines SerpApi has retired (docs/decisions.md §10): no link of ours may lead to one. */
const RETIRED_ENGINES = new Set(['google_scholar_profiles']);

/**
 * A link an answer may pass on: a Google Scholar page, never one of the upstream's own API links
 * (`serpapi_link`, which for interests still names the retired `google_scholar_profiles` engine). A link
 * to the upstream's API, or naming a retired engine, is dropped (null).
 */
function publicLink(value: unknown): string | null {
  const link = text(value);
  if (!link) return null;
  try {
    const url = new URL(link);
    const engine = url.searchParams.get('engine');
    if (/(^|\.)serpapi\.com$/i.test(url.hostname) || (engine !== null && RETIRED_ENGINES.has(engine))) return null;
  } catch {
    return null;
  }
  return link;
}

/**
 * Research interests as `{title, link}`; plain strings (as one spec sample shows) become titles. The link
 * is Google Scholar's page of the interest; the upstream's `serpapi_link` is never passed on.
 */
export function reshapeInterests(value: unknown): Interest[] {
  if (!Array.isArray(value)) return [];
  return value
    .map(
      (item): Interest =>
        isRecord(item)
          ? { title: textOrEmpty(item.title), link: publicLink(item.link) }
          : { title: textOrEmpty(item), link: null },
    )
    .filter((item) => item.title !== '');
}

/** The `cites` parameter of a Google Scholar "cited by" link: the id of the list of citing documents. */
export function citesIdFromLink(link: unknown): string | null {
  const url = text(link);
  if (!url) return null;
  try {
    return new URL(url).searchParams.get('cites') || null;
  } catch {
    return null;
  }
}

/** A "cited by" object, whether the upstream counts it as `value` (author pages) or `total` (elsewhere). */
export function reshapeCitationCount(value: unknown): CitationCount {
  const cited = record(value);
  return {
    count: integer(cited.value ?? cited.total),
    link: text(cited.link),
    cites_id: text(cited.cites_id) ?? citesIdFromLink(cited.link),
  };
}

/** Citations per year, oldest first, dropping entries without a year or count. */
function yearly(value: unknown): { year: number; citations: number }[] {
  return list(value)
    .map((item) => ({ year: integer(item.year), citations: integer(item.citations) }))
    .filter((item): item is { year: number; citations: number } => item.year !== null && item.citations !== null)
    .sort((a, b) => a.year - b.year);
}

export function reshapeProfile(item: Record<string, unknown>): Profile {
  const name = textOrEmpty(item.name ?? item.title);
  const affiliation = textOrEmpty(item.affiliations ?? item.affiliation);
  return {
    title: name,
    name,
    author_id: textOrEmpty(item.author_id),
    affiliations: affiliation,
    affiliation,
    email: text(item.email),
    // Google Scholar shows no "Cited by" line on a profile nobody has cited yet.
    cited_by: integer(item.cited_by) ?? 0,
    interests: reshapeInterests(item.interests),
    link: text(item.link),
    thumbnail: text(item.thumbnail),
  };
}

/**
 * The rows of the author page's metrics table, in the upstream's order: citations, h-index, i10-index,
 * e.g. `[{citations: {all, since_2019}}, {h_index: …}, {i10_index: …}]`. The row labels and the "since"
 * key follow the answer's language (`indice_h`, `depuis_2016` for `hl=fr`), so a row is read by its
 * position and as its one object value, never by an English label.
 */
function metricRows(table: unknown): Record<string, unknown>[] {
  // Not `list`, which drops what is not an object: a row keeps its position even when it is junk.
  return Array.isArray(table) ? table.map((row) => record(Object.values(record(row)).find(isRecord))) : [];
}

/** A metric row's "since" key: the key other than `all` that names a year (`since_2019`, `depuis_2019`). */
function sinceKeyOf(row: Record<string, unknown>): { key: string; year: number } | null {
  for (const key of Object.keys(row)) {
    const year = key === 'all' ? null : /(?:^|\D)((?:19|20)\d{2})(?:\D|$)/.exec(key)?.[1];
    if (year) return { key, year: Number(year) };
  }
  return null;
}

/**
 * The author page's metrics table (see `metricRows`), whose "since" key names a year that moves every
 * year, hence `since` plus `since_year`.
 */
function reshapeCitedBy(value: unknown): AuthorData['cited_by'] {
  if (!isRecord(value)) return null;
  const rows = metricRows(value.table);
  let sinceYear: number | null = null;
  const metric = (position: number) => {
    const row = rows[position] ?? {};
    const since = sinceKeyOf(row);
    if (since) sinceYear ??= since.year;
    return { all: integer(row.all), since: since ? integer(row[since.key]) : null };
  };
  return {
    citations: metric(0),
    h_index: metric(1),
    i10_index: metric(2),
    since_year: sinceYear,
    graph: yearly(value.graph),
  };
}

/** An author's page without its paging, which depends on the request. */
export function reshapeAuthorPage(json: Record<string, unknown>): Omit<AuthorData, 'pagination'> {
  const author = isRecord(json.author) ? json.author : null;
  const access = isRecord(json.public_access) ? json.public_access : null;
  return {
    author: author && {
      name: textOrEmpty(author.name),
      affiliations: text(author.affiliations),
      email: text(author.email),
      website: text(author.website),
      thumbnail: text(author.thumbnail),
      interests: reshapeInterests(author.interests),
    },
    articles: list(json.articles).map((item) => ({
      title: textOrEmpty(item.title),
      link: text(item.link),
      citation_id: text(item.citation_id),
      authors: text(item.authors),
      publication: text(item.publication),
      year: integer(item.year),
      cited_by: reshapeCitationCount(item.cited_by),
    })),
    cited_by: reshapeCitedBy(json.cited_by),
    co_authors: list(json.co_authors).map((item) => ({
      name: textOrEmpty(item.name),
      author_id: text(item.author_id),
      affiliations: text(item.affiliations),
      email: text(item.email),
      link: text(item.link),
      thumbnail: text(item.thumbnail),
    })),
    public_access: access && {
      available: integer(access.available),
      not_available: integer(access.not_available),
      link: text(access.link),
    },
  };
}

/** One article's citation view (`view_op=view_citation`); null when the upstream gave no citation. */
export function reshapeCitation(json: Record<string, unknown>, articles: CitingArticle[]): Citation | null {
  if (!isRecord(json.citation)) return null;
  const citation = json.citation;
  const total = record(citation.total_citations);
  return {
    title: textOrEmpty(citation.title),
    link: text(citation.link),
    authors: textOrEmpty(citation.authors),
    publication_date: textOrEmpty(citation.publication_date),
    journal: text(citation.journal),
    volume: text(citation.volume),
    issue: text(citation.issue),
    pages: text(citation.pages),
    publisher: text(citation.publisher),
    description: text(citation.description),
    resources: list(citation.resources)
      .map((item) => ({ title: textOrEmpty(item.title), link: textOrEmpty(item.link), file_format: text(item.file_format) }))
      .filter((item) => item.link !== ''),
    total_citations: { ...reshapeCitationCount(total.cited_by), per_year: yearly(total.table) },
    articles,
  };
}

/** The id of the list of documents citing the article, taken from its "cited by" link. */
export function citingListId(json: Record<string, unknown>): string | null {
  return citesIdFromLink(record(record(record(json.citation).total_citations).cited_by).link);
}

/** Documents from a Google Scholar search, ranked from 1 (the upstream's `position` starts at 0). */
export function reshapeCitingArticles(json: Record<string, unknown>): CitingArticle[] {
  return list(json.organic_results).map((item, i) => ({
    rank: i + 1,
    title: textOrEmpty(item.title),
    link: text(item.link),
    snippet: text(item.snippet),
    publication_info: text(record(item.publication_info).summary),
    result_id: text(item.result_id),
    cited_by: reshapeCitationCount(record(item.inline_links).cited_by),
  }));
}

const WHOLE_AUTHOR_ID = new RegExp(`^${AUTHOR_ID.pattern}$`);

/** An author that scholarly search results link to, before its profile page is read. */
export interface DiscoveredAuthor {
  author_id: string;
  /** The name as the results print it, often initials and surname ("GD Rey"). */
  name: string;
  link: string | null;
  /** How many results link this author. */
  results: number;
  /** How well the name matches the query's words (0 for a research-tag query). */
  match: number;
  /** Position of the first result that links the author: the search engine's own relevance. */
  first: number;
}

function words(value: string): string[] {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/**
 * How well a printed name ("GD Rey", "Geoffrey Hinton") fits the words of a name query: 2 for each query
 * word equal to one of the name's words (the surname, usually), 1 for a query word whose initial is among
 * the name's initials ("Gunter" against "GD"). Results print first names as initials, so only the surname
 * can match exactly.
 */
export function nameMatch(name: string, nameWords: readonly string[]): number {
  const parts = words(name);
  // Initials are printed in capitals ("GD"); a short surname such as "Rey" or "Lee" is not initials.
  const initials = new Set(
    name
      .split(/\s+/)
      .filter((part) => /^\p{Lu}{1,3}$/u.test(part))
      .flatMap((part) => [...part.toLowerCase()]),
  );
  let score = 0;
  for (const word of nameWords) {
    if (parts.includes(word)) score += 2;
    else if (initials.has(word[0] as string)) score += 1;
  }
  return score;
}

/**
 * The distinct authors a `google_scholar` answer links (`organic_results[].publication_info.authors[]`
 * with an `author_id`), best first: by how well the name matches `nameQuery` (when the query is a name),
 * then by how many results link the author, then by where the author first appears.
 */
export function discoverAuthors(json: Record<string, unknown>, nameQuery: string | null): DiscoveredAuthor[] {
  const nameWords = nameQuery ? words(nameQuery) : [];
  const found = new Map<string, DiscoveredAuthor>();
  list(json.organic_results).forEach((result, position) => {
    for (const author of list(record(result.publication_info).authors)) {
      const id = text(author.author_id);
      if (!id || !WHOLE_AUTHOR_ID.test(id)) continue;
      const seen = found.get(id);
      if (seen) {
        seen.results += 1;
        continue;
      }
      const name = textOrEmpty(author.name);
      found.set(id, {
        author_id: id,
        name,
        link: text(author.link),
        results: 1,
        match: nameWords.length > 0 ? nameMatch(name, nameWords) : 0,
        first: position,
      });
    }
  });
  return [...found.values()].sort((a, b) => b.match - a.match || b.results - a.results || a.first - b.first);
}

/** A discovered author as a profile: only what the results say; the rest is the documented empty value. */
export function profileFromDiscovery(author: DiscoveredAuthor): Profile {
  return reshapeProfile({ name: author.name, author_id: author.author_id, link: author.link });
}

/** A discovered author filled from its `google_scholar_author` page (name, affiliation, citations, interests). */
export function profileFromAuthorPage(author: DiscoveredAuthor, json: Record<string, unknown>): Profile {
  const page = record(json.author);
  // The first row of the metrics table, whatever the language of its label.
  const citations = metricRows(record(json.cited_by).table)[0] ?? {};
  return reshapeProfile({
    name: text(page.name) ?? author.name,
    author_id: author.author_id,
    affiliations: page.affiliations,
    email: page.email,
    cited_by: citations.all,
    interests: page.interests,
    // The profile's own address, without the search-result tracking parameter (oi=sra).
    link: `https://scholar.google.com/citations?user=${author.author_id}`,
    thumbnail: page.thumbnail,
  });
}

/** Beside a profile whose page was not read: why (docs/decisions.md §10, §18). */
export function unfilled(failure: AppError | undefined, enrich: number): Unfilled {
  if (!failure) {
    return {
      fields: [...PAGE_FIELDS],
      reason: 'not_requested',
      details: `Only the first ${enrich} profiles of the page are filled from their profile page ("enrich": ${enrich}, at most ${ENRICH_MAX}, one paid search each)`,
    };
  }
  const budget = failure.code === 'BUDGET_EXHAUSTED' || failure.code === 'BUDGET_UNAVAILABLE';
  return {
    fields: [...PAGE_FIELDS],
    reason: budget ? 'budget' : 'upstream_error',
    code: failure.code,
    details: `Its profile page could not be read: ${failure.details}`,
  };
}
