/** POST /v1/web-search/bravo: web search on engine bravo (SerpApi `duckduckgo`). */
import type * as z from 'zod/mini';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { reshapePaging, reshapeRelatedSearches, reshapeWebResults } from '../lib/reshape/web.js';
import { body, oneOf, optionalText, page, searchTerms } from '../lib/schema.js';

// DuckDuckGo pages by result offset and its pages are not of a fixed size (the first holds up to about
// 30); page N asks for the results from offset N × 30, so pages do not overlap.
export const BRAVO_PAGE_OFFSET = 30;

const DATE_FILTER = { day: 'd', week: 'w', month: 'm', year: 'y' } as const;
const SAFE_SEARCH = { strict: '1', moderate: '-1', off: '-2' } as const;

export const requestSchema = body({
  q: searchTerms(),
  region: optionalText({
    max: 8,
    format: { pattern: /^[a-z]{2}-[a-z]{2,3}$/, hint: 'a region code such as us-en or wt-wt' },
    description: 'Region, e.g. us-en, uk-en, wt-wt (no region)',
  }),
  date: oneOf(['day', 'week', 'month', 'year'], 'Only results from the past day, week, month or year'),
  safe_search: oneOf(['strict', 'moderate', 'off'], 'Safe search level'),
  page: page(),
});
export type BravoRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: BravoRequest) {
  return {
    q: request.q,
    kl: request.region,
    df: request.date && DATE_FILTER[request.date],
    safe: request.safe_search && SAFE_SEARCH[request.safe_search],
    start: request.page * BRAVO_PAGE_OFFSET,
  };
}

export function reshapeBravo(json: Record<string, unknown>, request: BravoRequest) {
  return {
    organic_results: reshapeWebResults(json.organic_results, request.page * BRAVO_PAGE_OFFSET),
    related_searches: reshapeRelatedSearches(json.related_searches),
    pagination: reshapePaging(json, request.page),
  };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const data = reshapeBravo(await upstream.search('webBravo', toSerpApiParams(body)), body);
  return { data, message: countMessage(data.organic_results.length) };
});
