/** The `data` of a successful POST /v1/cite/styles: the CSL style catalogue, searched (docs/citations.md). */
import * as z from 'zod/mini';

/** Styles a page, at most. */
export const STYLES_RESULTS_MAX = 100;

/**
 * The last page a request may ask for: the catalogue is the service's own data, so every style can be paged
 * to, one a page included (it holds about 10,900; a test holds this above it). Pages of SerpApi's answers
 * stop at 99 (docs/decisions.md §4); these do not (§23).
 */
export const STYLES_LAST_PAGE = 19_999;

export const catalogueStyleSchema = z.strictObject({
  id: z.string().check(z.describe('What `styles` and `format` take')),
  title: z.string(),
  title_short: z.nullable(z.string()),
  fields: z.array(z.string()).check(z.describe('The style\'s fields, e.g. "medicine", "physics", "generic-base"')),
  citation_format: z.string().check(z.describe('"author-date", "numeric", "note", "label" or "author"')),
  parent: z.nullable(
    z
      .string()
      .check(
        z.describe(
          "A dependent style's parent: the independent style it renders with, in its own locale; null for an independent style",
        ),
      ),
  ),
  locale: z.nullable(
    z.string().check(z.describe('The style\'s own default locale, e.g. "de-DE"; null: en-US unless its parent names one')),
  ),
});

export const responseSchema = z.strictObject({
  query: z.string(),
  field: z.nullable(z.string()),
  total_styles: z.int().check(z.describe('Styles in the catalogue, independent and dependent')),
  total_matches: z.int().check(z.describe('Styles that match the query')),
  styles: z
    .array(catalogueStyleSchema)
    .check(z.describe('Matches, best first: exact id, id prefix, title prefix, then the rest; independent before dependent')),
  page: z.int(),
  has_more: z
    .boolean()
    .check(
      z.describe(
        'Whether a next page holds more matches; when true, `page` + 1 is always accepted, so that every match can be listed',
      ),
    ),
  source: z
    .string()
    .check(z.describe('Where the catalogue comes from: the CSL styles repository commit it was taken from (CC BY-SA 3.0)')),
});

export type CiteStylesData = z.output<typeof responseSchema>;
