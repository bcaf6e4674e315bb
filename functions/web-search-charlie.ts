/** POST /v1/web-search/charlie: web search on engine charlie (SerpApi `bing`). */
import type * as z from 'zod/mini';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { reshapePaging, reshapeRelatedSearches, reshapeWebResults, withDisplayedLink } from '../lib/reshape/web.js';
import { body, formats, oneOf, optionalText, page, searchTerms } from '../lib/schema.js';

const PAGE_SIZE = 10;

export const requestSchema = body({
  q: searchTerms(),
  market: optionalText({
    max: 8,
    format: { pattern: /^[a-z]{2}-[a-z]{2}$/i, hint: 'a market code such as en-US' },
    description: 'Market, e.g. en-US; wins over cc when both are given',
  }),
  cc: optionalText({ max: 2, format: formats.country, description: 'Two-letter country code, e.g. us' }),
  safe_search: oneOf(['off', 'moderate', 'strict'], 'Safe search level'),
  page: page(),
});
export type CharlieRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: CharlieRequest) {
  return {
    q: request.q,
    // The upstream takes one of the two; the more specific market wins.
    mkt: request.market || undefined,
    cc: request.market ? undefined : request.cc,
    safeSearch: request.safe_search,
    first: request.page * PAGE_SIZE + 1,
  };
}

export function reshapeCharlie(json: Record<string, unknown>, request: CharlieRequest) {
  const offset = request.page * PAGE_SIZE;
  return {
    charlie_data: withDisplayedLink(json.organic_results, reshapeWebResults(json.organic_results, offset)),
    related_searches: reshapeRelatedSearches(json.related_searches),
    pagination: reshapePaging(json, request.page),
  };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const data = reshapeCharlie(await upstream.search('webCharlie', toSerpApiParams(body)), body);
  return { data, message: countMessage(data.charlie_data.length) };
});
