/** POST /v1/web-search/alpha: the `data` of a success (functions/web-search-alpha.ts builds it). */
import * as z from 'zod/mini';
import { described, nullableText, paging, relatedSearch, webResultWithDisplayedLink } from './web.js';

export const responseSchema = z.object({
  search_information: described(
    z.object({
      query: described(z.string(), 'The query as the engine understood it (the request’s q when it did not say)'),
      total_results: described(z.nullable(z.int()), 'The engine’s estimate of all matching results'),
      time_taken_seconds: described(z.nullable(z.number()), 'Seconds the engine says the search took'),
      results_page_url: nullableText('The engine’s own result page for this query'),
    }),
    'Query, total result count, elapsed time and result page URL',
  ),
  organic_results: described(
    z.array(
      z.extend(webResultWithDisplayedLink, {
        position: described(z.int().check(z.gte(1)), 'Equal to rank (the name the upstream sample uses)'),
      }),
    ),
    'Natural results, at most `num`',
  ),
  people_also_ask: described(
    z.array(
      z.object({
        question: described(z.string(), 'The related question'),
        snippet: nullableText('Excerpt of the answer'),
        title: nullableText('Title of the page the answer comes from'),
        link: nullableText('URL of the page the answer comes from'),
        displayed_link: nullableText('That URL as the engine displays it'),
      }),
    ),
    'Related questions with the source of their answers',
  ),
  relatedSearches: described(z.array(relatedSearch), 'Related search terms with links (camelCase, as the contract names it)'),
  pagination: z.extend(paging, {
    page_size: described(z.int().check(z.gte(1), z.lte(100)), 'Results per page: the request’s `num`'),
  }),
});

export type WebSearchAlphaData = z.output<typeof responseSchema>;
