/**
 * Response pieces shared by the four web-search endpoints, as lib/reshape/web.ts builds them. The
 * endpoint files in this folder compose them into each endpoint's `data` schema.
 */
import * as z from 'zod/mini';

/** Attaches a description that the OpenAPI document shows beside the field. */
export function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  return schema.check(z.describe(description)) as T;
}

/** Absent upstream text is null, never an empty string, where the contract allows null. */
export const nullableText = (description: string) => described(z.nullable(z.string()), description);

/** One organic result: `rank` is 1-based and continues across pages. */
export const webResult = z.object({
  rank: described(
    z.int().check(z.gte(1)),
    '1-based position across pages: with 10 results a page, the first result of page 1 is rank 11',
  ),
  title: described(z.string(), 'Result title ("" when the upstream gave none)'),
  link: described(z.string(), 'Result URL ("" when the upstream gave none)'),
  snippet: described(z.string(), 'Text excerpt ("" when the upstream gave none)'),
});

/** An organic result with the shortened link the engine displays beside it. */
export const webResultWithDisplayedLink = z.extend(webResult, {
  displayed_link: nullableText('The link as the engine displays it, e.g. "en.wikipedia.org › wiki › Coffee"'),
});

/** A related search suggestion; empty suggestions are dropped. */
export const relatedSearch = z.object({
  query: described(z.string().check(z.minLength(1)), 'Suggested search terms'),
  link: nullableText('The engine’s result page for the suggestion'),
});

/** Related suggestions: always present, empty when the upstream gave none. */
export const relatedSearches = described(
  z.array(relatedSearch),
  'Related search suggestions; empty when the upstream provides none',
);

/** Paging in this API's terms, whatever the upstream's own scheme. */
export const paging = z.object({
  current_page: described(z.int().check(z.gte(0), z.lte(99)), 'The page answered, as asked for in `page`'),
  next_page: described(z.nullable(z.int().check(z.gte(1))), 'The `page` to ask for next, or null on the last page'),
  has_more: described(z.boolean(), 'Whether the upstream reports a next page'),
});
