/** POST /v1/web-search/bravo: web search on engine bravo (SerpApi `duckduckgo`). */
import type * as z from 'zod/mini';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { reshapePaging, reshapeRelatedSearches, reshapeWebResults } from '../lib/reshape/web.js';
import { reshapeKnowledgeGraph, reshapeNewsResults } from '../lib/reshape/web-answers.js';
import { body, oneOf, optionalText, page, searchTerms, upstreamOptions } from '../lib/schema.js';
import { DUCKDUCKGO_REGIONS, DUCKDUCKGO_REGIONS_PATTERN } from '../lib/upstream/serpapi-options.js';

// DuckDuckGo pages by result offset (`start`); its first page holds up to 35 results and later ones up to
// 50. A fixed page size no larger than the first page, asked for with `m` and cut to it in case `m` is
// not honoured, makes page N exactly the results from offset N × 30. DuckDuckGo itself may still repeat
// a result on two pages (its documentation says so); nothing here can know.
export const BRAVO_PAGE_SIZE = 30;

const DATE_FILTER = { day: 'd', week: 'w', month: 'm', year: 'y' } as const;
const SAFE_SEARCH = { strict: '1', moderate: '-1', off: '-2' } as const;

export const requestSchema = body({
  // DuckDuckGo refuses a longer query.
  q: searchTerms('Search terms, at most 500 characters', 500),
  region: optionalText({
    max: 16,
    format: upstreamOptions(
      DUCKDUCKGO_REGIONS,
      "one of DuckDuckGo's region codes, such as us-en, uk-en or wt-wt",
      DUCKDUCKGO_REGIONS_PATTERN,
    ),
    description: "One of DuckDuckGo's region codes, such as us-en, de-de or wt-wt (none); any letter case",
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
    start: request.page * BRAVO_PAGE_SIZE,
    m: BRAVO_PAGE_SIZE,
  };
}

export function reshapeBravo(json: Record<string, unknown>, request: BravoRequest) {
  const knowledgeGraph = reshapeKnowledgeGraph(json.knowledge_graph);
  const news = reshapeNewsResults(json.news_results);
  return {
    organic_results: reshapeWebResults(json.organic_results, request.page * BRAVO_PAGE_SIZE, BRAVO_PAGE_SIZE),
    related_searches: reshapeRelatedSearches(json.related_searches),
    pagination: reshapePaging(json, request.page),
    ...(knowledgeGraph ? { knowledge_graph: knowledgeGraph } : {}),
    ...(news.length > 0 ? { news_results: news } : {}),
  };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const data = reshapeBravo(await upstream.search('webBravo', toSerpApiParams(body)), body);
  return { data, message: countMessage(data.organic_results.length) };
});
