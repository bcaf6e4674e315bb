/** Reshaping shared by the four web-search engines. */
import { LAST_PAGE } from '../schema.js';
import { isRecord, list, record, text, textOrEmpty } from './values.js';

/** A link the engine shows under a result (a page of the same site). */
export interface Sitelink {
  title: string;
  link: string;
}

/**
 * What a client uses to judge a result, beside the contract's fields: each present only when the upstream
 * gave it (docs/endpoints.md names, per engine, which ones it gives).
 */
export interface ResultFacts {
  /** The result's date as the engine shows it ("Apr 3, 2023", "2 days ago", "2023年3月16日"). */
  date?: string;
  /** DuckDuckGo's machine form of that date ("2023-07-19T01:51:00.0000000"). */
  date_raw?: string;
  /** The site or publisher the engine names for the result ("Wikipedia", "Reddit · r/Coffee"). */
  source?: string;
  /** The site's icon. */
  favicon?: string;
  /** Links to other pages of the same site, at most SITELINKS_MAX. */
  sitelinks?: Sitelink[];
}

export interface WebResult extends ResultFacts {
  rank: number;
  title: string;
  link: string;
  snippet: string;
}

export interface RelatedSearch {
  query: string;
  link: string | null;
}

/** The most sitelinks a result carries: Google shows at most six under one result. */
export const SITELINKS_MAX = 6;

/** Text that says something: a string (or number) with more than spaces in it, else undefined. */
export function nonBlank(value: unknown): string | undefined {
  const said = text(value)?.trim();
  return said ? said : undefined;
}

/**
 * A result's sitelinks, whatever form the engine gives them in: `{expanded: [...], inline: [...]}` (Google,
 * Bing) or a plain list; the expanded ones (with their own line on the page) first, each link once.
 */
export function reshapeSitelinks(value: unknown): Sitelink[] {
  const groups = isRecord(value) ? [value.expanded, value.inline, value.list] : [value];
  const seen = new Set<string>();
  const links: Sitelink[] = [];
  for (const item of groups.flatMap((group) => list(group))) {
    const link = nonBlank(item.link);
    if (!link || seen.has(link)) continue;
    seen.add(link);
    links.push({ title: textOrEmpty(item.title).trim(), link });
  }
  return links.slice(0, SITELINKS_MAX);
}

/** The facts of one upstream result that the engine gave (see ResultFacts); absent ones are left out. */
export function resultFacts(item: Record<string, unknown>): ResultFacts {
  const facts: ResultFacts = {};
  const date = nonBlank(item.date);
  if (date) facts.date = date;
  const dateRaw = nonBlank(item.date_raw);
  if (dateRaw) facts.date_raw = dateRaw;
  const source = nonBlank(item.source);
  if (source) facts.source = source;
  const favicon = nonBlank(item.favicon);
  if (favicon) facts.favicon = favicon;
  const sitelinks = reshapeSitelinks(item.sitelinks);
  if (sitelinks.length > 0) facts.sitelinks = sitelinks;
  return facts;
}

/**
 * Organic results with a 1-based `rank` that continues across pages (`offset` results came before this
 * page). The upstream's own `position` is not trusted: some engines start it at 0, some restart per page.
 * The contract's fields come first and keep their types; the result's facts follow where it has them.
 */
export function reshapeWebResults(results: unknown, offset: number, limit = Number.POSITIVE_INFINITY): WebResult[] {
  return list(results)
    .slice(0, limit)
    .map((item, i) => ({
      rank: offset + i + 1,
      title: textOrEmpty(item.title),
      link: textOrEmpty(item.link),
      snippet: textOrEmpty(item.snippet),
      ...resultFacts(item),
    }));
}

/** The same, with the displayed link some engines show beside the result. */
export function withDisplayedLink(results: unknown, shaped: WebResult[]): (WebResult & { displayed_link: string | null })[] {
  const items = list(results);
  return shaped.map((result, i) => ({ ...result, displayed_link: text(items[i]?.displayed_link) }));
}

/** Related searches: SerpApi's `{query, link}` items; an item given as a plain string is its query. */
export function reshapeRelatedSearches(value: unknown): RelatedSearch[] {
  const items = Array.isArray(value) ? value : [];
  return items
    .map((item) =>
      typeof item === 'string'
        ? { query: item.trim(), link: null }
        : { query: textOrEmpty(record(item).query), link: text(record(item).link) },
    )
    .filter((item) => item.query !== '');
}

/**
 * Paging in this API's terms: which page this is, and the next one if the upstream has one and it can be
 * asked for (`next_page` never points past the last page; `has_more` still reports what the upstream said).
 */
export function reshapePaging(
  json: Record<string, unknown>,
  page: number,
): { current_page: number; next_page: number | null; has_more: boolean } {
  const hasMore = Boolean(text(record(json.serpapi_pagination).next) ?? text(record(json.pagination).next));
  return { current_page: page, next_page: hasMore && page < LAST_PAGE ? page + 1 : null, has_more: hasMore };
}
