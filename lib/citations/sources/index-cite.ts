/**
 * The index's own cite call (SerpApi `google_scholar_cite`, one paid call per paper), made only when a
 * request asks for it ("citation_source": "index"). Its answers are cached per paper, in memory and in the
 * deployment's shared table, so a repeated paper costs no call in any container.
 */
import { type CacheScope, createSharedCache } from '../../cache/shared.js';
import { mapSettled } from '../../concurrency.js';
import { config } from '../../config.js';
import { CITATION_FORMATS, type CitationDetail, type Citations } from '../../contract/cite-search.js';
import { AppError } from '../../errors.js';
import { logger } from '../../logger.js';
import { list, textOrEmpty } from '../../reshape/values.js';
import type { SerpApiJson, Upstream } from '../../upstream/serpapi.js';

/** One paper's cite answer from the index: what the cite cache keeps. */
export interface CiteAnswer {
  citations: Citations;
  formats: { name: string; text: string }[];
  links: CitationDetail['links'];
}

export function reshapeCite(json: SerpApiJson): CiteAnswer {
  const formatList = list(json.citations)
    .map((item) => ({ name: textOrEmpty(item.title), text: textOrEmpty(item.snippet) }))
    .filter((item) => item.name !== '' && item.text !== '');
  const citations: Citations = {};
  for (const format of CITATION_FORMATS) {
    const given = formatList.find((item) => item.name.toLowerCase() === format.toLowerCase());
    if (given) citations[format] = given.text;
  }
  const links = list(json.links)
    .map((item) => ({ name: textOrEmpty(item.name), url: textOrEmpty(item.link) }))
    .filter((item) => item.name !== '' && item.url !== '');
  return { citations, formats: formatList, links };
}

/**
 * Step 2: every paper's citations. All calls start together (up to CITE_CONCURRENCY), each with its own
 * short timeout and all within the request's deadline, so 20 papers take about one round trip; a
 * rejection only empties that paper's citations.
 */
export function citeAll(
  papers: readonly { scholar_id: string }[],
  cite: (scholarId: string) => Promise<CiteAnswer>,
  concurrency = config.CITE_CONCURRENCY,
): Promise<PromiseSettledResult<CiteAnswer>[]> {
  return mapSettled(papers, concurrency, async ({ scholar_id }) => {
    if (!scholar_id) throw new AppError('UPSTREAM_ERROR', { details: 'The index gave no identifier to look the paper up by' });
    return cite(scholar_id);
  });
}

/** Why a paper's cite call gave nothing, in words safe to show (AppError details are already redacted). */
export function failureReason(reason: unknown): string {
  if (reason instanceof AppError) return reason.details;
  logger.error('citation lookup failed unexpectedly', { error: reason as Error });
  return 'Unexpected error while fetching the citations';
}

// Citations per scholar result id. The search page itself is cached by `api()` like every endpoint's answer.
const citeAnswers = createSharedCache<CiteAnswer>({
  name: 'cite-v1',
  ttlSeconds: config.CITE_CACHE_TTL_SECONDS,
  memoryMax: config.CITE_CACHE_MAX,
});

/** Each paper's cite answer, cached per paper; a rejection only fails that paper's. */
export function citeFromIndex(
  papers: readonly { scholar_id: string }[],
  { upstream, cache }: { upstream: Upstream; cache: CacheScope },
): Promise<PromiseSettledResult<CiteAnswer>[]> {
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
