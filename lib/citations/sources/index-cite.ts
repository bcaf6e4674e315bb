/**
 * The index's own cite call (SerpApi `google_scholar_cite`, one paid call per paper), made only when a
 * request asks for it ("citation_source": "index"). Its answers are cached per paper, in memory and in the
 * deployment's shared table, so a repeated paper costs no call in any container. The engine is watched
 * (CiteEngineWatch): one that keeps answering without citations, as it has since August 2026 (SerpApi's
 * public roadmap #4208), is not paid for every paper of every page.
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
  /** Why no call was made for the paper (the engine rests, CiteEngineWatch); absent when one was. */
  notAsked?: string;
}

/** An instant as the answers write one: ISO 8601, to the second, UTC. */
const isoSecond = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The cite engine as this container has heard it answer. After `limit` answers in a row without citations
 * it is not asked for `restMs` (every paper of a page that asks for it is then cited from its free records,
 * saying why); once the rest is over one more empty answer rests it again. Until an answer with citations
 * has been heard (a new container, or after empty answers), a page's calls are made one at a time, and the
 * rest at once as soon as one answers with citations: an engine that answers empty costs a page at most
 * `limit` calls, not one per paper. Pure bookkeeping on the times given, so a test drives it with its own.
 */
export class CiteEngineWatch {
  private emptyInARow = 0;
  private heardCitations = false;
  private restingUntil = 0;

  constructor(
    private readonly limit: number,
    private readonly restMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Until when the engine is not asked (epoch ms); undefined while it may be. */
  resting(): number | undefined {
    return this.now() < this.restingUntil ? this.restingUntil : undefined;
  }

  /** Whether a page's calls go one at a time: no answer with citations heard yet, or empty ones since. */
  doubtful(): boolean {
    return !this.heardCitations || this.emptyInARow > 0;
  }

  /** Why a paper is not asked while the engine rests. */
  reason(until: number): string {
    return `the index's cite engine answered ${this.limit} papers in a row without citations, and is not asked again until ${isoSecond(until)}`;
  }

  /** Notes an answer the engine gave (a cached one says nothing of the engine now). */
  heard(answer: CiteAnswer): void {
    if (answer.formats.length > 0) {
      this.heardCitations = true;
      this.emptyInARow = 0;
      return;
    }
    this.emptyInARow += 1;
    if (this.restMs > 0 && this.emptyInARow >= this.limit) {
      this.restingUntil = this.now() + this.restMs;
      // Once the rest is over, one more empty answer is enough to rest it again.
      this.emptyInARow = this.limit - 1;
    }
  }
}

/** This container's watch on the cite engine. */
export const citeEngine = new CiteEngineWatch(config.CITE_EMPTY_LIMIT, config.CITE_EMPTY_REST_SECONDS * 1_000);

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

/** The answer of a paper not asked because the engine rests: no citations, and why. */
function notAsked(reason: string): PromiseSettledResult<CiteAnswer> {
  return { status: 'fulfilled', value: { citations: {}, formats: [], links: [], notAsked: reason } };
}

/**
 * The papers' cite calls as the watch allows: none while the engine rests; one at a time while it is in
 * doubt, the rest at once as soon as one answers with citations or fails (and none once the empty answers
 * rest it); all at once otherwise.
 */
async function citeWatched(
  papers: readonly { scholar_id: string }[],
  cite: (scholarId: string) => Promise<CiteAnswer>,
  watch: CiteEngineWatch,
): Promise<PromiseSettledResult<CiteAnswer>[]> {
  const heard = async (scholarId: string) => {
    const answer = await cite(scholarId);
    watch.heard(answer);
    return answer;
  };
  const outcomes: PromiseSettledResult<CiteAnswer>[] = [];
  while (outcomes.length < papers.length && watch.doubtful() && watch.resting() === undefined) {
    const [outcome] = await citeAll(papers.slice(outcomes.length, outcomes.length + 1), heard);
    outcomes.push(outcome as PromiseSettledResult<CiteAnswer>);
    // A call that failed says nothing of the answers: the rest go at once, as they would without the watch.
    if (outcome?.status === 'rejected') break;
  }
  const until = watch.resting();
  const rest = papers.slice(outcomes.length);
  if (until !== undefined) return [...outcomes, ...rest.map(() => notAsked(watch.reason(until)))];
  return [...outcomes, ...(await citeAll(rest, heard))];
}

/** Each paper's cite answer, cached per paper; a rejection only fails that paper's. */
export function citeFromIndex(
  papers: readonly { scholar_id: string }[],
  { upstream, cache, watch = citeEngine }: { upstream: Upstream; cache: CacheScope; watch?: CiteEngineWatch },
): Promise<PromiseSettledResult<CiteAnswer>[]> {
  return citeAnswers.rememberMany(
    papers,
    (paper) => paper.scholar_id,
    (missing) =>
      citeWatched(
        missing,
        async (scholarId) =>
          reshapeCite(
            await upstream.search(
              'scholarCite',
              { q: scholarId },
              // Cached here per paper, in reshaped form, rather than as the upstream's answer.
              { timeoutMs: config.CITE_TIMEOUT_MS, retries: config.CITE_RETRIES, answerTtlSeconds: 0 },
            ),
          ),
        watch,
      ),
    // An answer without citations may be the upstream's passing hiccup: keep only answers that hold some.
    { scope: cache, store: (answer) => answer.formats.length > 0 },
  );
}
