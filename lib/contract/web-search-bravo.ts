/** POST /v1/web-search/bravo: the `data` of a success (functions/web-search-bravo.ts builds it). */
import * as z from 'zod/mini';
import { described, knowledgeGraph, newsResult, paging, relatedSearches, webResult } from './web.js';

export const responseSchema = z.object({
  organic_results: described(
    z.array(webResult),
    'Natural results; page N starts at result offset N × 30, so ranks continue from 30 × page + 1',
  ),
  related_searches: relatedSearches,
  pagination: paging,
  knowledge_graph: z.optional(
    described(knowledgeGraph, 'The knowledge panel beside the results, summarised; absent when the page has none'),
  ),
  news_results: z.optional(
    described(
      z.array(newsResult).check(z.minLength(1)),
      'News stories DuckDuckGo shows beside the results, in its order; absent when it shows none',
    ),
  ),
});

export type WebSearchBravoData = z.output<typeof responseSchema>;
