/** POST /v1/web-search/delta: the `data` of a success (functions/web-search-delta.ts builds it). */
import * as z from 'zod/mini';
import { described, paging, relatedSearches, webResult } from './web.js';

export const responseSchema = z.object({
  Delta_data: described(
    z.array(webResult),
    'Natural results (the capital D is the contract’s); ranks start at pn + 1, or page × 10 + 1 when pn is absent',
  ),
  related_searches: relatedSearches,
  pagination: z.extend(paging, {
    next_pn: described(z.nullable(z.int()), 'The pn of the next page, or null: pn + 10 (or page × 10 + 10)'),
  }),
});

export type WebSearchDeltaData = z.output<typeof responseSchema>;
