/**
 * POST /v1/cite/search: papers from the scholarly index (SerpApi `google_scholar`, the one paid call),
 * then every paper's citations. By default (`citation_source: "auto"`) each paper is looked up in Crossref
 * (free) and, when a work matches it confidently, its five citations are rendered here from that record;
 * only the other papers get the index's cite call (`google_scholar_cite`, one paid call each, all started
 * together), as every paper does with `citation_source: "index"`. A paper whose citations could not be had
 * is still listed, with `citations: {}` and the reason; only the search itself can fail the request.
 * Records, citations and search pages are cached in memory and in the deployment's shared table: a
 * repeated paper costs no call and no render in any container, a repeated request nothing at all.
 */
import * as z from 'zod/mini';
import { createSharedCache } from '../lib/cache/shared.js';
import {
  assemble,
  type CitationOrigin,
  type CiteAnswer,
  citeAll,
  type FoundPaper,
  INDEX_ONLY,
  renderedAnswer,
  reshapeCite,
  reshapeScholarPage,
} from '../lib/citations/page.js';
import { addExports } from '../lib/citations/paper-exports.js';
import { lookUpRecords, type PaperLookup } from '../lib/citations/records.js';
import { citationRenderer, prepareCitationRenderer } from '../lib/citations/render.js';
import { config } from '../lib/config.js';
import { CITATION_FORMATS, CITATION_SOURCES, EXPORT_FORMATS } from '../lib/contract/cite-search.js';
import { countMessage } from '../lib/envelope.js';
import { logger } from '../lib/logger.js';
import { api, type HandlerInput } from '../lib/middleware/index.js';
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
  format: z._default(
    oneOf(CITATION_FORMATS, 'Citation format of reference_list; papers[].citations holds every format the upstream gave'),
    'MLA',
  ),
  citation_source: z._default(
    oneOf(
      CITATION_SOURCES,
      'Where citations come from. "auto": rendered here from each paper\'s Crossref record (free) when one matches it confidently, else the index\'s cite call (one paid call per such paper); "index": the index\'s cite call for every paper',
    ),
    'auto',
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

/** Each paper's citations from the index's cite call, cached per paper; a rejection empties only that paper's. */
function citeFromIndex(papers: readonly FoundPaper[], { upstream, cache }: Pick<HandlerInput<unknown>, 'upstream' | 'cache'>) {
  return citeAnswers.rememberMany(
    papers,
    (paper) => paper.scholar_id,
    (missing) =>
      citeAll(missing, async (scholarId) =>
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
}

/**
 * Every paper's citation outcome and origin: rendered from its Crossref record where `lookups` has
 * citations for it, else the index's cite call, asked only for those papers.
 */
async function citationsOf(
  papers: readonly FoundPaper[],
  lookups: readonly PaperLookup[] | null,
  context: Pick<HandlerInput<unknown>, 'upstream' | 'cache'>,
): Promise<{ cited: PromiseSettledResult<CiteAnswer>[]; origins: CitationOrigin[] }> {
  if (!lookups) return { cited: await citeFromIndex(papers, context), origins: papers.map(() => INDEX_ONLY) };
  const fromIndex = papers.filter((_, i) => !lookups[i]?.record.citations);
  const indexAnswers = await citeFromIndex(fromIndex, context);
  let next = 0;
  const cited: PromiseSettledResult<CiteAnswer>[] = [];
  const origins: CitationOrigin[] = [];
  lookups.forEach(({ record }) => {
    if (record.citations) {
      cited.push({ status: 'fulfilled', value: renderedAnswer(record.citations) });
      origins.push({ source: 'crossref', crossrefFallback: null });
    } else {
      cited.push(indexAnswers[next++] ?? { status: 'rejected', reason: new Error('no cite outcome') });
      origins.push({ source: 'index', crossrefFallback: record.doi === null ? record.reason : (record.render_error ?? null) });
    }
  });
  return { cited, origins };
}

// Deployed, the citation styles are built while the container starts (render.ts says why).
if (config.CITATION_STYLES_AT_INIT === 'true') await prepareCitationRenderer();

export const handler = api({ body: requestSchema }).handler(async ({ body: request, upstream, cache }) => {
  const auto = request.citation_source === 'auto';
  // Unless built at start-up, the citation styles are built while the search is on the network (render.ts
  // says why), and finish before any Crossref lookup starts (records.ts). A failed build shows later, as
  // papers whose citations come from the index.
  const renderer = auto ? citationRenderer() : undefined;
  renderer?.catch(() => undefined);
  const found = reshapeScholarPage(await upstream.search('scholar', toScholarParams(request)), request);
  const wantsRecords = auto || request.export.length > 0;
  // With "index", the records an export needs are looked up beside the cite calls; with "auto", first,
  // since they decide which papers need a cite call at all.
  const records = wantsRecords ? lookUpRecords(found.papers, { deadline: upstream.deadline, scope: cache, renderer }) : null;
  const { cited, origins } = await citationsOf(found.papers, auto ? await records : null, { upstream, cache });
  const assembled = assemble(request, found, cited, origins);
  const data = records && request.export.length > 0 ? await addExports(assembled, request.export, await records) : assembled;
  // A paper whose BibTeX or RIS could not be rendered is answered without them; the log names its record.
  const unrendered = data.papers.filter((paper) => paper.exports?.render_error);
  if (unrendered.length > 0) {
    logger.warn('exports not rendered', {
      papers: unrendered.map((paper) => ({ scholarId: paper.scholar_id, doi: paper.doi, reason: paper.exports?.render_error })),
    });
  }
  return { data, message: countMessage(data.total_found, 'paper') };
});
