/** POST /v1/web-search/alpha: the `data` of a success (functions/web-search-alpha.ts builds it). */
import * as z from 'zod/mini';
import {
  aiOverview,
  answerBox,
  described,
  knowledgeGraph,
  nullableText,
  paging,
  relatedSearch,
  webResultWithDisplayedLink,
} from './web.js';

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
        snippet: nullableText(
          'Excerpt of the answer (for an AI overview answer, its first text block; for a list answer, often null: see `list`)',
        ),
        title: nullableText('Title of the page the answer comes from'),
        link: nullableText('URL of the page the answer comes from'),
        displayed_link: nullableText('That URL as the engine displays it'),
        type: z.optional(described(z.string().check(z.minLength(1)), 'Google’s kind of answer: featured_snippet, ai_overview…')),
        date: z.optional(described(z.string().check(z.minLength(1)), 'The answer’s date as Google shows it')),
        list: z.optional(
          described(z.array(z.string()).check(z.minLength(1)), 'A list answer’s items, in order (its heading is `title`)'),
        ),
        table: z.optional(described(z.array(z.array(z.string())).check(z.minLength(1)), 'A table answer’s rows')),
        ai_overview: z.optional(
          described(
            aiOverview,
            'An AI overview answer (`type` ai_overview): its text blocks and the pages it cites (`inline`), or, when Google holds it back for a request of its own, no text and a note saying so (`not_fetched`: this service does not follow the tokens of "People also ask" overviews)',
          ),
        ),
      }),
    ),
    'Related questions with the source of their answers, and the answer itself whatever its type',
  ),
  relatedSearches: described(z.array(relatedSearch), 'Related search terms with links (camelCase, as the contract names it)'),
  pagination: z.extend(paging, {
    page_size: described(z.int().check(z.gte(1), z.lte(100)), 'Results per page: the request’s `num`'),
  }),
  answer_box: z.optional(described(answerBox, 'Google’s direct answer above the results; absent when the page has none')),
  knowledge_graph: z.optional(
    described(knowledgeGraph, 'The knowledge panel beside the results, summarised; absent when the page has none'),
  ),
  ai_overview: z.optional(
    described(
      aiOverview,
      'Google’s AI overview at the top of the page; absent when the page has none. When Google holds it back for a second request, it is fetched only if the request says `fetch_ai_overview: true` (one more paid search)',
    ),
  ),
});

export type WebSearchAlphaData = z.output<typeof responseSchema>;
