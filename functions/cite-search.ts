/**
 * POST /v1/cite/search: papers from the scholarly index (SerpApi `google_scholar`), then every paper's
 * formatted citations (`google_scholar_cite`, one call per paper, all started together). A paper whose
 * citations could not be fetched is still listed, with `citations: {}`; only the search itself can fail
 * the request. Citations never change and search pages change slowly, so both are kept in the warm
 * container: a repeated paper costs no upstream call, a repeated request none at all.
 */
import * as z from 'zod/mini';
import { createCache } from '../lib/cache.js';
import { config } from '../lib/config.js';
import { CITATION_FORMATS } from '../lib/contract/cite-search.js';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import {
  assemble,
  type CiteAnswer,
  citeAll,
  reshapeCite,
  reshapeScholarPage,
  type ScholarPage,
} from '../lib/reshape/citations.js';
import { body, formats, integer as intField, oneOf, optionalText, page, searchTerms } from '../lib/schema.js';

export const requestSchema = body({
  query: searchTerms(),
  results: intField({
    min: 1,
    max: 20,
    default: 10,
    description: 'Papers per page; each costs one upstream call unless its citations are cached',
  }),
  page: page(),
  country: z._default(
    optionalText({
      max: 2,
      format: formats.country,
      description: 'Two-letter country code such as us or de, sent to the scholarly search as gl',
    }),
    'us',
  ),
  format: z._default(
    oneOf(CITATION_FORMATS, 'Citation format of reference_list; papers[].citations holds every format the upstream gave'),
    'MLA',
  ),
  no_cache: z._default(
    z
      .boolean({ error: 'must be true or false' })
      .check(
        z.describe('Skip the caches (search pages 5 min, citations 24 h): ask the upstream again, and cache the fresh answers'),
      ),
    false,
  ),
});
export type CiteSearchRequest = z.output<typeof requestSchema>;

export function toScholarParams(request: CiteSearchRequest) {
  return { q: request.query, num: request.results, start: request.page * request.results, gl: countryOf(request) };
}

function countryOf(request: CiteSearchRequest): string {
  return (request.country || 'us').toLowerCase();
}

const scholarPages = createCache<ScholarPage>({ max: config.SEARCH_CACHE_MAX, ttlMs: config.SEARCH_CACHE_TTL_SECONDS * 1000 });
const citeAnswers = createCache<CiteAnswer>({ max: config.CITE_CACHE_MAX, ttlMs: config.CITE_CACHE_TTL_SECONDS * 1000 });

export const handler = api({ body: requestSchema }).handler(async ({ body: request, upstream }) => {
  const cacheOptions = { fresh: request.no_cache, onHit: () => upstream.cacheHit() };
  const params = toScholarParams(request);
  const found = await scholarPages.remember(
    JSON.stringify(params),
    async () => reshapeScholarPage(await upstream.search('scholar', params), request),
    // An empty page may be the index's passing hiccup: keep only pages that found papers.
    { ...cacheOptions, store: (page) => page.papers.length > 0 },
  );
  const cited = await citeAll(found.papers, (scholarId) =>
    citeAnswers.remember(
      scholarId,
      async () =>
        reshapeCite(
          await upstream.search(
            'scholarCite',
            { q: scholarId },
            { timeoutMs: config.CITE_TIMEOUT_MS, retries: config.CITE_RETRIES },
          ),
        ),
      // An answer without citations may be the upstream's passing hiccup: keep only answers that hold some.
      { ...cacheOptions, store: (answer) => answer.formats.length > 0 },
    ),
  );
  const data = assemble(request, found, cited);
  return { data, message: countMessage(data.total_found, 'paper') };
});
