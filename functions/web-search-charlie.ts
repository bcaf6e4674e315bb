/** POST /v1/web-search/charlie: web search on engine charlie (SerpApi `bing`). */

import * as z from 'zod/mini';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { reshapePaging, reshapeRelatedSearches, reshapeWebResults, withDisplayedLink } from '../lib/reshape/web.js';
import { body, oneOf, optionalText, page, searchTerms, upstreamOptions } from '../lib/schema.js';
import { BING_COUNTRIES, BING_COUNTRIES_PATTERN, BING_MARKETS, BING_MARKETS_PATTERN } from '../lib/upstream/serpapi-options.js';

const PAGE_SIZE = 10;

export const requestSchema = body({
  q: searchTerms(),
  market: optionalText({
    max: 16,
    format: upstreamOptions(BING_MARKETS, "one of Bing's market codes, such as en-US, en-GB or de-DE", BING_MARKETS_PATTERN),
    description: "One of Bing's markets, such as en-US or de-DE (any letter case). Not together with cc",
  }),
  cc: optionalText({
    max: 16,
    format: upstreamOptions(BING_COUNTRIES, "one of Bing's country codes, such as us, gb or de", BING_COUNTRIES_PATTERN),
    description: "One of Bing's countries, such as us, gb or de (any letter case). Not together with market",
  }),
  safe_search: oneOf(['off', 'moderate', 'strict'], 'Safe search level'),
  page: page(),
}).check(
  // Bing takes one or the other; a cc that would be dropped silently is a mistake worth saying.
  z.refine((request) => !request.market || !request.cc, { error: 'must not be given together with market', path: ['cc'] }),
);
// The same rule in the document: market and cc not both given (a blank one counts as not given).
z.globalRegistry.add(requestSchema, {
  not: { required: ['market', 'cc'], properties: { market: { pattern: '\\S' }, cc: { pattern: '\\S' } } },
});
export type CharlieRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: CharlieRequest) {
  return {
    q: request.q,
    mkt: request.market,
    cc: request.cc,
    safeSearch: request.safe_search,
    first: request.page * PAGE_SIZE + 1,
  };
}

export function reshapeCharlie(json: Record<string, unknown>, request: CharlieRequest) {
  const offset = request.page * PAGE_SIZE;
  return {
    // Bing has no page-size parameter: a page holds up to 10 results, and page N starts at result N × 10 + 1.
    charlie_data: withDisplayedLink(json.organic_results, reshapeWebResults(json.organic_results, offset, PAGE_SIZE)),
    related_searches: reshapeRelatedSearches(json.related_searches),
    pagination: reshapePaging(json, request.page),
  };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const data = reshapeCharlie(await upstream.search('webCharlie', toSerpApiParams(body)), body);
  return { data, message: countMessage(data.charlie_data.length) };
});
