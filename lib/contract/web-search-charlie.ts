/** POST /v1/web-search/charlie: the `data` of a success (functions/web-search-charlie.ts builds it). */
import * as z from 'zod/mini';
import { described, paging, relatedSearches, webResultWithDisplayedLink } from './web.js';

export const responseSchema = z.object({
  charlie_data: described(z.array(webResultWithDisplayedLink), 'Natural results; page 1 starts at rank 11'),
  related_searches: relatedSearches,
  pagination: paging,
});

export type WebSearchCharlieData = z.output<typeof responseSchema>;
