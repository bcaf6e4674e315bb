/**
 * Step 2b of citation search, when a request asks for exports: each paper's Crossref record, looked up
 * beside its citations (bounded concurrency, each lookup with its own timeout, all within the request's
 * deadline). A matched record never changes, so it is cached per scholar result id like the citations;
 * a miss or a failure is not, so that a later request may find it.
 */

import { type CacheScope, createSharedCache } from '../cache/shared.js';
import { mapSettled } from '../concurrency.js';
import { config } from '../config.js';
import { AppError } from '../errors.js';
import { logger } from '../logger.js';
import type { FoundPaper } from '../reshape/citations.js';
import { searchWorks } from './client.js';
import { cslFromCrossref, type PaperRecord } from './exports.js';
import { bestMatch, parseScholarSummary, type ScholarRecord } from './match.js';

/** One paper's lookup: what the index said about it, parsed, and what Crossref gave for it. */
export interface PaperLookup {
  scholar: ScholarRecord;
  record: PaperRecord;
}

const NO_MATCH = 'Crossref has no work whose title, first author and year match this paper closely enough';

// Matched records per scholar result id, in memory and in the deployment's shared table like citations.
// Their lookups stay out of the request's hit/miss counts (X-Cache, cache metrics): those tell what the
// search provider was spared, and a paper Crossref cannot match, never stored, would count a miss on
// every repeat of a search otherwise answered entirely from the cache.
const matchedRecords = createSharedCache<PaperRecord>({
  name: 'crossref-v1',
  ttlSeconds: config.CROSSREF_CACHE_TTL_SECONDS,
  memoryMax: config.CROSSREF_CACHE_MAX,
  countsLookups: false,
});

async function lookUp(scholar: ScholarRecord, deadline: number): Promise<PaperRecord> {
  if (!scholar.title || scholar.authors.length === 0) {
    return { doi: null, reason: 'The index gave no title and author to look the paper up by' };
  }
  const match = bestMatch(scholar, await searchWorks(scholar, { deadline }));
  return match ? { doi: match.work.DOI, csl: cslFromCrossref(match.work) } : { doi: null, reason: NO_MATCH };
}

function recordOf(outcome: PromiseSettledResult<PaperRecord> | undefined, requestId?: string): PaperRecord {
  if (outcome?.status === 'fulfilled') return outcome.value;
  const reason: unknown = outcome?.reason;
  if (reason instanceof AppError) {
    logger.warn('crossref lookup failed', { requestId, code: reason.code, details: reason.details });
    return { doi: null, reason: reason.details };
  }
  logger.error('crossref lookup failed unexpectedly', { requestId, error: reason as Error });
  return { doi: null, reason: 'Unexpected error while looking the paper up in Crossref' };
}

/**
 * Every paper's Crossref record, in paper order, within `deadline` and CROSSREF_BUDGET_MS. Never rejects: a failed lookup is a
 * record without a DOI that says why. Only matched records are cached; `scope` is the request's cache
 * scope (its `no_cache`, its table counters and pending writes).
 */
export async function lookUpRecords(
  papers: readonly FoundPaper[],
  options: { deadline: number; scope?: CacheScope },
): Promise<PaperLookup[]> {
  const scholar = papers.map((paper) => parseScholarSummary(paper.title, paper.publication));
  const deadline = Math.min(options.deadline, Date.now() + config.CROSSREF_BUDGET_MS);
  const outcomes = await matchedRecords.rememberMany(
    papers.map((paper, i) => ({ id: paper.scholar_id, scholar: scholar[i] as ScholarRecord })),
    (paper) => paper.id,
    (missing) => mapSettled(missing, config.CROSSREF_CONCURRENCY, (paper) => lookUp(paper.scholar, deadline)),
    { scope: options.scope, store: (record) => record.doi !== null },
  );
  return scholar.map((parsed, i) => ({ scholar: parsed, record: recordOf(outcomes[i], options.scope?.requestId) }));
}
