/**
 * POST /v1/cite/search: papers from the scholarly index (SerpApi `google_scholar`, the one paid call),
 * then every paper's five citations, rendered here from the best free record of it: its Crossref or
 * DataCite record when one matches it confidently, else the index's own record of it. With
 * "citation_source": "index" the index's cite call (one paid call per paper) is asked first, and what it
 * lacks comes from those records. The pipeline is lib/citations/search/search.ts; only the search itself
 * can fail the request.
 */
import * as z from 'zod/mini';
import { exportFormats } from '../lib/citations/exports/export-fields.js';
import { prepareCitationRenderer } from '../lib/citations/render/render.js';
import { referenceListFormat, styleIds } from '../lib/citations/render/style-fields.js';
import { warmUpCitationPipeline } from '../lib/citations/search/cite.js';
import { citeSearch, toScholarParams } from '../lib/citations/search/search.js';
import { config } from '../lib/config.js';
import { CITATION_MARKUPS, CITATION_SOURCES } from '../lib/contract/cite-search.js';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { body, integer as intField, oneOf, page, searchTerms } from '../lib/schema.js';

export const requestSchema = body({
  query: searchTerms(),
  results: intField({
    min: 1,
    max: 20,
    default: 10,
    description: 'Papers per page; each costs one upstream call unless its citations are cached',
  }),
  page: page(),
  // Accepted because the spec lists it; the scholarly search takes no country parameter (it has no `gl`).
  country: z._default(
    z
      .string({ error: 'must be a string' })
      .check(
        z.regex(/^[A-Za-z]{2}$/, { error: 'must be a two-letter country code, such as us or gb' }),
        z.describe(
          'Two-letter country code (any letter case). Accepted for compatibility; it has no effect: the scholarly index takes no country',
        ),
      ),
    'us',
  ),
  format: z._default(referenceListFormat(), 'MLA'),
  styles: styleIds(),
  citation_source: z._default(
    oneOf(
      CITATION_SOURCES,
      'Where citations come from. "auto": rendered here from each paper\'s Crossref record when one matches it confidently, else from the index\'s own record of the paper (both free: a page costs its one search call); "index": the index\'s cite call for every paper (one paid call each, unless cached), and what it lacks rendered here as in "auto"',
    ),
    'auto',
  ),
  citation_markup: z._default(
    oneOf(
      CITATION_MARKUPS,
      'How citations and reference_list are written: "text" (default), or "html": the styles\' italics and small capitals as inline HTML, no wrapper element. The index\'s cite answers are text either way',
    ),
    'text',
  ),
  export: exportFormats(
    'Reference-manager records to add to each paper: any of csl-json, bibtex, ris. Each paper then also gets its DOI from Crossref (free, no key; looked up beside the citations)',
  ),
});
export type CiteSearchRequest = z.output<typeof requestSchema>;

export { toScholarParams };

// Deployed, the citation styles are built while the container starts (render.ts says why).
if (config.CITATION_STYLES_AT_INIT === 'true') {
  await prepareCitationRenderer();
  await warmUpCitationPipeline();
}

export const handler = api({ body: requestSchema }).handler(async ({ body: request, upstream, cache }) => {
  const data = await citeSearch(request, { upstream, cache });
  return { data, message: countMessage(data.total_found, 'paper') };
});
