/**
 * POST /v1/web-search/alpha: web search on engine alpha (SerpApi `google`). Google serves 10 results a
 * page and has no page-size parameter, so `num` is at most 10 and one request is one upstream call: page N
 * asks for the results from offset N × num, and the answer is cut to `num`.
 */
import type * as z from 'zod/mini';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { integer, list, record, text } from '../lib/reshape/values.js';
import { reshapePaging, reshapeRelatedSearches, reshapeWebResults, withDisplayedLink } from '../lib/reshape/web.js';
import { body, integer as intField, language, location, page, searchTerms } from '../lib/schema.js';

/** The most results Google serves in one page. */
export const GOOGLE_PAGE_SIZE = 10;

export const requestSchema = body({
  q: searchTerms(),
  location: location('Geographic location for localized results, e.g. "Austin, Texas"'),
  language: language(),
  page: page(),
  num: intField({
    min: 1,
    max: GOOGLE_PAGE_SIZE,
    default: GOOGLE_PAGE_SIZE,
    description: 'Results per page, 1 to 10 (Google serves at most 10)',
  }),
});
export type AlphaRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: AlphaRequest) {
  return { q: request.q, location: request.location, hl: request.language, start: request.page * request.num };
}

export function reshapeAlpha(json: Record<string, unknown>, request: AlphaRequest) {
  const offset = request.page * request.num;
  // Google sends up to 10; the contract promises at most `num`, and the next page starts after them.
  const organic = withDisplayedLink(json.organic_results, reshapeWebResults(json.organic_results, offset, request.num));
  const info = record(json.search_information);
  const metadata = record(json.search_metadata);
  return {
    search_information: {
      query: text(info.query_displayed) ?? request.q,
      total_results: integer(info.total_results),
      time_taken_seconds: typeof info.time_taken_displayed === 'number' ? info.time_taken_displayed : null,
      results_page_url: text(metadata.google_url),
    },
    organic_results: organic.map((result) => ({ ...result, position: result.rank })),
    people_also_ask: list(json.related_questions).map((item) => ({
      question: text(item.question) ?? '',
      snippet: text(item.snippet),
      title: text(item.title),
      link: text(item.link),
      displayed_link: text(item.displayed_link),
    })),
    relatedSearches: reshapeRelatedSearches(json.related_searches),
    pagination: { ...reshapePaging(json, request.page), page_size: request.num },
  };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const data = reshapeAlpha(await upstream.search('webAlpha', toSerpApiParams(body)), body);
  return { data, message: countMessage(data.organic_results.length) };
});
