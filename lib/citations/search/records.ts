/**
 * Step 2 of citation search: each paper's Crossref record (bounded concurrency, each lookup with its own
 * timeout, all within the request's deadline and CROSSREF_BUDGET_MS), and for a matched record its five
 * citations rendered locally (render.ts). A matched record never changes, so it is cached per scholar
 * result id with its rendered citations, in memory and in the shared table: a repeated paper costs
 * neither a lookup nor a render. A miss or a failure is not cached, so that a later request may find it.
 */

import { type CacheScope, createSharedCache } from '../../cache/shared.js';
import { mapSettled } from '../../concurrency.js';
import { config } from '../../config.js';
import type { CitationMarkup, Citations } from '../../contract/cite-search.js';
import { AppError } from '../../errors.js';
import { logger } from '../../logger.js';
import { bestMatch } from '../match/match.js';
import { citableItem, cslFromCrossref, type PaperRecord } from '../model/csl.js';
import { parseScholarSummary, type ScholarRecord } from '../model/scholar.js';
import type { CitationRenderer } from '../render/render.js';
import { searchWorks } from '../sources/crossref.js';
import type { FoundPaper } from './page.js';

/**
 * What the lookup found for one paper, as cached: the matched work's record and, once rendered, its
 * citations in the five formats; `render_error` says why a matched record has none.
 */
export type CitedRecord = PaperRecord & { citations?: Citations; citations_html?: Citations; render_error?: string };

/** The record's citations in `markup`, when they were rendered. */
export function renderedCitations(record: CitedRecord, markup: CitationMarkup): Citations | undefined {
  return markup === 'html' ? record.citations_html : record.citations;
}

/** One paper's lookup: what the index said about it, parsed, and what Crossref gave for it. */
export interface PaperLookup {
  scholar: ScholarRecord;
  record: CitedRecord;
}

const NO_MATCH = 'Crossref has no work whose title, first author and year match this paper closely enough';

// Matched records per scholar result id, in memory and in the deployment's shared table like citations.
// Their lookups stay out of the request's hit/miss counts (X-Cache, cache metrics): those tell what the
// search provider was spared, and a paper Crossref cannot match, never stored, would count a miss on
// every repeat of a search otherwise answered entirely from the cache.
const matchedRecords = createSharedCache<CitedRecord>({
  // v3: records carry rich text, decoded entities, a book's series and a title's language.
  name: 'crossref-v3',
  ttlSeconds: config.CROSSREF_CACHE_TTL_SECONDS,
  memoryMax: config.CROSSREF_CACHE_MAX,
  countsLookups: false,
});

async function lookUp(scholar: ScholarRecord, deadline: number): Promise<CitedRecord> {
  if (!scholar.title || scholar.authors.length === 0) {
    return { doi: null, reason: 'The index gave no title and author to look the paper up by' };
  }
  const match = bestMatch(scholar, await searchWorks(scholar, { deadline }));
  if (!match) return { doi: null, reason: NO_MATCH };
  return { doi: match.work.DOI, csl: cslFromCrossref(match.work) };
}

/** A renderer that could not be built: every record it is asked for goes without citations, and says why. */
function rendererFailure(error: unknown): CitationRenderer {
  logger.error('citation styles could not be loaded', { error: error as Error });
  return {
    render: () => {
      throw new Error('The citation styles could not be loaded');
    },
  };
}

/**
 * The record with its citations in `markup` rendered, once: every format whose style renders it (a style
 * that gives nothing for this record leaves only that format to the next source).
 */
function withCitations(record: CitedRecord, renderer: CitationRenderer, markup: CitationMarkup): CitedRecord {
  if (record.doi === null || renderedCitations(record, markup)) return record;
  try {
    const citations = renderer.render(citableItem(record.csl), markup);
    if (Object.keys(citations).length === 0) throw new Error('no style rendered the record');
    return { ...record, [markup === 'html' ? 'citations_html' : 'citations']: citations, render_error: undefined };
  } catch (error) {
    logger.warn('citations not rendered', { doi: record.doi, error: error as Error });
    return { ...record, render_error: 'The citations could not be rendered from the Crossref record' };
  }
}

function recordOf(outcome: PromiseSettledResult<CitedRecord> | undefined, requestId?: string): CitedRecord {
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
 * Every paper's Crossref record, in paper order, within `deadline` and CROSSREF_BUDGET_MS. Never rejects:
 * a failed lookup is a record without a DOI that says why. With a `renderer`, every matched record also
 * carries its citations (rendered once, then cached with it). Only matched records are cached, and when
 * citations were asked for only those that have them; `scope` is the request's cache scope (its
 * `no_cache`, its table counters and pending writes).
 */
export async function lookUpRecords(
  papers: readonly FoundPaper[],
  options: { deadline: number; scope?: CacheScope; renderer?: Promise<CitationRenderer>; markup?: CitationMarkup },
): Promise<PaperLookup[]> {
  const { renderer } = options;
  const markup = options.markup ?? 'text';
  const scholar = papers.map((paper) => parseScholarSummary(paper.title, paper.publication));
  const outcomes = await matchedRecords.rememberMany(
    papers.map((paper, i) => ({ id: paper.scholar_id, scholar: scholar[i] as ScholarRecord })),
    (paper) => paper.id,
    async (missing) => {
      // The styles finish building before a lookup starts: a build holds the event loop for up to a second
      // per large style, and a lookup's timer that fired late would fail a lookup that had answered. Papers
      // all found in the cache never wait for it.
      await renderer?.catch(() => undefined);
      // The lookups' budget starts when they do, not while the styles were being built.
      const deadline = Math.min(options.deadline, Date.now() + config.CROSSREF_BUDGET_MS);
      const outcomes = await mapSettled(missing, config.CROSSREF_CONCURRENCY, (paper) => lookUp(paper.scholar, deadline));
      if (!renderer) return outcomes;
      // Rendered once every lookup has settled, for the same reason: rendering holds the event loop too.
      const ready = await renderer.catch(rendererFailure);
      return outcomes.map((outcome) =>
        outcome.status === 'fulfilled' ? { status: 'fulfilled', value: withCitations(outcome.value, ready, markup) } : outcome,
      );
    },
    {
      scope: options.scope,
      store: (record) => record.doi !== null && (!renderer || renderedCitations(record, markup) !== undefined),
    },
  );
  const records = outcomes.map((outcome) => recordOf(outcome, options.scope?.requestId));
  // A record cached by a request that asked for exports only, or for the other markup, has no such
  // citations yet: rendered here, for this request.
  const unrendered = (record: CitedRecord) => record.doi !== null && !renderedCitations(record, markup) && !record.render_error;
  if (renderer && records.some(unrendered)) {
    const ready = await renderer.catch(rendererFailure);
    records.forEach((record, i) => {
      if (unrendered(record)) records[i] = withCitations(record, ready, markup);
    });
  }
  return scholar.map((parsed, i) => ({ scholar: parsed, record: records[i] as CitedRecord }));
}
