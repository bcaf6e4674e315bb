/** Reshaping shared by the four web-search engines. */
import { LAST_PAGE } from '../schema.js';
import { list, record, text, textOrEmpty } from './values.js';

export interface WebResult {
  rank: number;
  title: string;
  link: string;
  snippet: string;
}

export interface RelatedSearch {
  query: string;
  link: string | null;
}

/**
 * Organic results with a 1-based `rank` that continues across pages (`offset` results came before this
 * page). The upstream's own `position` is not trusted: some engines start it at 0, some restart per page.
 */
export function reshapeWebResults(results: unknown, offset: number, limit = Number.POSITIVE_INFINITY): WebResult[] {
  return list(results)
    .slice(0, limit)
    .map((item, i) => ({
      rank: offset + i + 1,
      title: textOrEmpty(item.title),
      link: textOrEmpty(item.link),
      snippet: textOrEmpty(item.snippet),
    }));
}

/** The same, with the displayed link some engines show beside the result. */
export function withDisplayedLink(results: unknown, shaped: WebResult[]): (WebResult & { displayed_link: string | null })[] {
  const items = list(results);
  return shaped.map((result, i) => ({ ...result, displayed_link: text(items[i]?.displayed_link) }));
}

export function reshapeRelatedSearches(value: unknown): RelatedSearch[] {
  return list(value)
    .map((item) => ({ query: textOrEmpty(item.query), link: text(item.link) }))
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
