/**
 * The index's own cite call (SerpApi `google_scholar_cite`, one paid call per paper), made only when a
 * request asks for it ("citation_source": "index"). Its answers are cached per paper, in memory and in the
 * deployment's shared table, so a repeated paper costs no call in any container.
 */
import { type CacheScope, createSharedCache } from '../cache/shared.js';
import { config } from '../config.js';
import type { Upstream } from '../upstream/serpapi.js';
import { type CiteAnswer, citeAll, type FoundPaper, reshapeCite } from './page.js';

// Citations per scholar result id. The search page itself is cached by `api()` like every endpoint's answer.
const citeAnswers = createSharedCache<CiteAnswer>({
  name: 'cite-v1',
  ttlSeconds: config.CITE_CACHE_TTL_SECONDS,
  memoryMax: config.CITE_CACHE_MAX,
});

/** Each paper's cite answer, cached per paper; a rejection only fails that paper's. */
export function citeFromIndex(
  papers: readonly FoundPaper[],
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
