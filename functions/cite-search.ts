/**
 * POST /v1/cite/search: papers from the scholarly index (SerpApi `google_scholar`), then every paper's
 * formatted citations (`google_scholar_cite`, one call per paper, all started together). A paper whose
 * citations could not be fetched is still listed, with `citations: {}`, and one whose BibTeX or RIS could
 * not be rendered, without them; only the search itself can fail the request. Citations never change and
 * search pages change slowly, so both are cached in memory and in the deployment's shared table: a
 * paper's citations are read for a whole page in one table read, and a repeated paper costs no upstream
 * call in any container, a repeated request none at all.
 */
import * as z from 'zod/mini';
import { createSharedCache } from '../lib/cache/shared.js';
import { config } from '../lib/config.js';
import { CITATION_FORMATS, EXPORT_FORMATS } from '../lib/contract/cite-search.js';
import { addExports } from '../lib/crossref/exports.js';
import { lookUpRecords } from '../lib/crossref/records.js';
import { countMessage } from '../lib/envelope.js';
import { logger } from '../lib/logger.js';
import { api } from '../lib/middleware/index.js';
import { assemble, type CiteAnswer, citeAll, reshapeCite, reshapeScholarPage } from '../lib/reshape/citations.js';
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
  // No `country`: the scholarly search takes no country parameter (it has no `gl`), so one would do nothing.
  format: z._default(
    oneOf(CITATION_FORMATS, 'Citation format of reference_list; papers[].citations holds every format the upstream gave'),
    'MLA',
  ),
  export: z._default(
    z
      .array(z.enum(EXPORT_FORMATS, { error: `must be one of: ${EXPORT_FORMATS.join(', ')}` }), { error: 'must be a list' })
      .check(
        z.maxLength(EXPORT_FORMATS.length, { error: `at most ${EXPORT_FORMATS.length} formats` }),
        z.describe(
          'Reference-manager records to add to each paper: any of csl-json, bibtex, ris. Each paper then also gets its DOI from Crossref (free, no key; looked up beside the citations). Default none: no Crossref call',
        ),
      ),
    [],
  ),
});
export type CiteSearchRequest = z.output<typeof requestSchema>;

export function toScholarParams(request: CiteSearchRequest) {
  return { q: request.query, num: request.results, start: request.page * request.results };
}

// Citations per scholar result id. The search page itself is cached by `api()` like every endpoint's answer.
const citeAnswers = createSharedCache<CiteAnswer>({
  name: 'cite-v1',
  ttlSeconds: config.CITE_CACHE_TTL_SECONDS,
  memoryMax: config.CITE_CACHE_MAX,
});

export const handler = api({ body: requestSchema }).handler(async ({ body: request, upstream, cache }) => {
  const found = reshapeScholarPage(await upstream.search('scholar', toScholarParams(request)), request);
  // Started before the citations and awaited after them: both run at once, within the same deadline.
  const records = request.export.length > 0 ? lookUpRecords(found.papers, { deadline: upstream.deadline, scope: cache }) : null;
  const cited = await citeAnswers.rememberMany(
    found.papers,
    (paper) => paper.scholar_id,
    (papers) =>
      citeAll(papers, async (scholarId) =>
        reshapeCite(
          await upstream.search(
            'scholarCite',
            { q: scholarId },
            // Cached here per paper, in reshaped form, rather than as the upstream's answer.
            { timeoutMs: config.CITE_TIMEOUT_MS, retries: config.CITE_RETRIES, answerTtlSeconds: 0 },
          ),
        ),
      ),
    // An answer without citations may be the upstream's passing hiccup: keep only answers that hold some.
    { scope: cache, store: (answer) => answer.formats.length > 0 },
  );
  const assembled = assemble(request, found, cited);
  const data = records ? await addExports(assembled, request.export, await records) : assembled;
  // A paper whose BibTeX or RIS could not be rendered is answered without them; the log names its record.
  const unrendered = data.papers.filter((paper) => paper.exports?.render_error);
  if (unrendered.length > 0) {
    logger.warn('exports not rendered', {
      papers: unrendered.map((paper) => ({ scholarId: paper.scholar_id, doi: paper.doi, reason: paper.exports?.render_error })),
    });
  }
  return { data, message: countMessage(data.total_found, 'paper') };
});
