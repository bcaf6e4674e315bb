/**
 * Step 2 of citation search: each paper's free record (bounded concurrency, each lookup with its own
 * timeout, all within the request's deadline and CROSSREF_BUDGET_MS), and for a matched record its five
 * citations rendered locally (render.ts). Crossref is asked for every paper; DataCite, which registers
 * arXiv's, Zenodo's, Dryad's, figshare's and OSF's DOIs, for a paper the index shows on one of those (an
 * arXiv identifier is looked up directly), when Crossref has no match for it: a page of journal articles
 * costs DataCite nothing. A matched record never changes, so it is cached per scholar result id with its
 * rendered citations, in memory and in the shared table: a repeated paper costs neither a lookup nor a
 * render. A miss or a failure is not cached, so that a later request may find it.
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
import { agencyName, agencyOf, type CrossrefWork } from '../model/work.js';
import type { CitationRenderer } from '../render/render.js';
import { searchWorks } from '../sources/crossref.js';
import { arxivDoi, dataCiteWork, paperQuery, searchDataCite } from '../sources/datacite.js';
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

/** One paper's lookup: what the index said about it, parsed, and what Crossref or DataCite gave for it. */
export interface PaperLookup {
  scholar: ScholarRecord;
  record: CitedRecord;
}

const NO_MATCH = 'Crossref has no work whose title, first author and year match this paper closely enough';
const NO_MATCH_EITHER =
  'Neither Crossref nor DataCite has a work whose title, first author and year match this paper closely enough';

// Matched records per scholar result id, in memory and in the deployment's shared table like citations.
// Their lookups stay out of the request's hit/miss counts (X-Cache, cache metrics): those tell what the
// search provider was spared, and a paper no source can match, never stored, would count a miss on every
// repeat of a search otherwise answered entirely from the cache.
const matchedRecords = createSharedCache<CitedRecord>({
  // v4: records say which agency they come from (Crossref or DataCite).
  name: 'records-v4',
  ttlSeconds: config.CROSSREF_CACHE_TTL_SECONDS,
  memoryMax: config.CROSSREF_CACHE_MAX,
  countsLookups: false,
});

/** Repositories whose DOIs DataCite registers, as the index names them in a venue, a site or a link. */
const DATACITE_REPOSITORY = /\b(?:arxiv|zenodo|dryad|datadryad|figshare|osf\.io|osf preprints|pangaea|dataverse|gbif)\b/i;

/** An arXiv identifier the index shows whole ("arXiv preprint arXiv:2201.06719", an arxiv.org link). */
export function arxivIdOf(paper: { venue?: string | null; site?: string | null; link?: string | null }): string | undefined {
  const shown = `${paper.venue ?? ''} ${paper.link ?? ''}`;
  return /\barxiv[:/.](?:abs\/|pdf\/)?(\d{4}\.\d{4,5})(?:v\d+)?(?![\d.…])/i.exec(shown)?.[1];
}

/** Whether the index shows the paper on a repository DataCite registers DOIs for, or titles it as a dataset. */
export function mayBeDataCite(scholar: ScholarRecord, link: string | null): boolean {
  return (
    DATACITE_REPOSITORY.test(`${scholar.venue ?? ''} ${scholar.site ?? ''} ${link ?? ''}`) ||
    /^data from\s*:/i.test(scholar.title)
  );
}

/** A matched work's record. */
function matched(work: CrossrefWork): CitedRecord {
  return { doi: work.DOI, csl: cslFromCrossref(work), source: agencyOf(work) };
}

/**
 * One paper's record: an arXiv identifier's DataCite record, else Crossref's match, else (for a paper on a
 * DataCite repository) DataCite's; each accepted only by the matcher (match.ts). Rejects with an AppError
 * when Crossref's lookup fails and DataCite has nothing to add.
 */
async function lookUp(scholar: ScholarRecord, link: string | null, deadline: number): Promise<CitedRecord> {
  if (!scholar.title || scholar.authors.length === 0) {
    return { doi: null, reason: 'The index gave no title and author to look the paper up by' };
  }
  const arxiv = arxivIdOf({ venue: scholar.venue, link });
  if (arxiv) {
    const work = await dataCiteWork(arxivDoi(arxiv), { deadline }).catch(() => undefined);
    const match = work ? bestMatch(scholar, [work]) : undefined;
    if (match) return matched(match.work);
  }
  const fromCrossref = await searchWorks(scholar, { deadline }).then(
    (works) => ({ works }),
    (error: unknown) => ({ error }),
  );
  const match = 'works' in fromCrossref ? bestMatch(scholar, fromCrossref.works) : undefined;
  if (match) return matched(match.work);
  if (mayBeDataCite(scholar, link)) {
    const dataCite = bestMatch(scholar, await searchDataCite(paperQuery(scholar), { deadline }).catch(() => []));
    if (dataCite) return matched(dataCite.work);
    if ('works' in fromCrossref) return { doi: null, reason: NO_MATCH_EITHER };
  }
  if ('error' in fromCrossref) throw fromCrossref.error;
  return { doi: null, reason: NO_MATCH };
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
    return { ...record, render_error: `The citations could not be rendered from the ${agencyName(record.source)} record` };
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
    papers.map((paper, i) => ({ id: paper.scholar_id, scholar: scholar[i] as ScholarRecord, link: paper.source_url })),
    (paper) => paper.id,
    async (missing) => {
      // The styles finish building before a lookup starts: a build holds the event loop for up to a second
      // per large style, and a lookup's timer that fired late would fail a lookup that had answered. Papers
      // all found in the cache never wait for it.
      await renderer?.catch(() => undefined);
      // The lookups' budget starts when they do, not while the styles were being built.
      const deadline = Math.min(options.deadline, Date.now() + config.CROSSREF_BUDGET_MS);
      const outcomes = await mapSettled(missing, config.CROSSREF_CONCURRENCY, (paper) =>
        lookUp(paper.scholar, paper.link, deadline),
      );
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
