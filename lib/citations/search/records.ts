/**
 * Step 2 of citation search: each paper's free record (bounded concurrency, each lookup with its own
 * timeout, all within the request's deadline and CROSSREF_BUDGET_MS), and for a matched record its five
 * citations rendered locally (render.ts). First the DOIs the papers' links carry (and arXiv identifiers,
 * DataCite's DOIs) are looked up directly, twenty to a request (sources/doi-lookup.ts): a page of journal
 * articles whose links carry their DOIs costs one Crossref request, not one per paper. Each work found is
 * still taken only if the matcher accepts it for the paper, and never a notice (an erratum, a correction)
 * a link pointed at. The papers left are searched for: Crossref's bibliographic query, then DataCite for a
 * paper the index shows on a repository DataCite registers (arXiv, Zenodo, Dryad, figshare, OSF…), when
 * Crossref has no match for it; a page of journal articles costs DataCite nothing. A matched record never
 * changes, so it is cached per scholar result id with its rendered citations, in memory and in the shared
 * table: a repeated paper costs neither a lookup nor a render. A miss or a failure is not cached, so that a
 * later request may find it.
 */

import { type CacheScope, createSharedCache } from '../../cache/shared.js';
import { createLimiter } from '../../concurrency.js';
import { config } from '../../config.js';
import type { CitationMarkup } from '../../contract/cite-search.js';
import { AppError } from '../../errors.js';
import { logger } from '../../logger.js';
import { bestMatch } from '../match/match.js';
import { citableItem, cslFromCrossref } from '../model/csl.js';
import type { ScholarRecord } from '../model/scholar.js';
import { agencyName, agencyOf, type CrossrefWork } from '../model/work.js';
import type { CitationRenderer } from '../render/render.js';
import { searchWorks } from '../sources/crossref.js';
import { dataCiteWork, isDataCiteDoi, paperQuery, searchDataCite } from '../sources/datacite.js';
import { type DoiOutcome, lookUpDois } from '../sources/doi-lookup.js';
import { type CitedRecord, renderedCitations, type SearchPaper } from './paper.js';

export { type CitedRecord, renderedCitations } from './paper.js';

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

/** Whether the paper has what a lookup is built from and matched against: a title and a first author. */
function lookable(paper: SearchPaper): boolean {
  return Boolean(paper.scholar.title) && paper.scholar.authors.length > 0;
}

/**
 * The work its DOI candidate names, taken for the paper when the matcher accepts it (match.ts: title,
 * first author, year, numbers, version) and it is no notice of another work (Crossref's `update-to`: an
 * erratum, a correction or a retraction keeps the title of the paper it is about).
 */
export function acceptedForPaper(scholar: ScholarRecord, work: CrossrefWork | undefined): CrossrefWork | undefined {
  if (!work || (work['update-to']?.length ?? 0) > 0) return undefined;
  return bestMatch(scholar, [work])?.work;
}

/**
 * One paper's record searched for: an arXiv DOI not yet asked of DataCite, else Crossref's match, else (for a
 * paper on a DataCite repository) DataCite's; each accepted only by the matcher (match.ts). Rejects with an
 * AppError when Crossref's lookup fails and DataCite has nothing to add.
 */
async function searchFor(paper: SearchPaper, deadline: number, doiAsked: boolean): Promise<CitedRecord> {
  const { scholar } = paper;
  const link = paper.listed.source_url;
  if (!lookable(paper)) return { doi: null, reason: 'The index gave no title and author to look the paper up by' };
  const candidate = paper.doiCandidate;
  // A DataCite DOI its batch could not answer for (the batch failed, or could not hold it): asked alone.
  if (candidate && isDataCiteDoi(candidate) && !doiAsked) {
    const work = await dataCiteWork(candidate, { deadline }).catch(() => undefined);
    const match = acceptedForPaper(scholar, work);
    if (match) return matched(match);
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

/**
 * Every missing paper's record, by paper: the DOI candidates looked up at once first (one batch, while the
 * papers without one are searched for), then the papers whose candidate gave no accepted work searched for
 * too; at most CROSSREF_CONCURRENCY requests of this request in flight, in the order they were asked.
 */
async function lookUpMissing(papers: readonly SearchPaper[], deadline: number): Promise<PromiseSettledResult<CitedRecord>[]> {
  const limit = createLimiter(config.CROSSREF_CONCURRENCY);
  const settle = (paper: SearchPaper, doiAsked: boolean) =>
    limit(() => searchFor(paper, deadline, doiAsked)).then(
      (value): PromiseSettledResult<CitedRecord> => ({ status: 'fulfilled', value }),
      (reason: unknown): PromiseSettledResult<CitedRecord> => ({ status: 'rejected', reason }),
    );
  const withDoi = papers.filter((paper) => paper.doiCandidate && lookable(paper));
  // One slot of the request's limit: one request to each source at a time, both sources at once.
  const byDoi: Promise<Map<string, DoiOutcome>> =
    withDoi.length > 0
      ? limit(() =>
          lookUpDois(
            withDoi.map((paper) => paper.doiCandidate as string),
            { deadline, concurrency: 1, crossrefMissesToDataCite: false },
          ),
        )
      : Promise.resolve(new Map());
  const outcomes = papers.map(async (paper) => {
    if (!withDoi.includes(paper)) return settle(paper, false);
    const found = (await byDoi).get(paper.doiCandidate as string);
    const work = found && 'work' in found ? acceptedForPaper(paper.scholar, found.work) : undefined;
    if (work) return { status: 'fulfilled', value: matched(work) } satisfies PromiseSettledResult<CitedRecord>;
    // Not found, not accepted, or its batch failed: searched for like a paper without a DOI.
    return settle(paper, found !== undefined && !('failed' in found));
  });
  return Promise.all(outcomes);
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
 * The papers with their records (Crossref's or DataCite's), in paper order, within `deadline` and
 * CROSSREF_BUDGET_MS. Never rejects: a failed lookup is a record without a DOI that says why. With a
 * `renderer`, every matched record also carries its citations (rendered once, then cached with it). Only
 * matched records are cached, and when citations were asked for only those that have them; `scope` is the
 * request's cache scope (its `no_cache`, its table counters and pending writes).
 */
export async function lookUpRecords(
  papers: readonly SearchPaper[],
  options: { deadline: number; scope?: CacheScope; renderer?: Promise<CitationRenderer>; markup?: CitationMarkup },
): Promise<SearchPaper[]> {
  const { renderer } = options;
  const markup = options.markup ?? 'text';
  const outcomes = await matchedRecords.rememberMany(
    papers,
    (paper) => paper.listed.scholar_id,
    async (missing) => {
      // The styles finish building before a lookup starts: a build holds the event loop for up to a second
      // per large style, and a lookup's timer that fired late would fail a lookup that had answered. Papers
      // all found in the cache never wait for it.
      await renderer?.catch(() => undefined);
      // The lookups' budget starts when they do, not while the styles were being built.
      const outcomes = await lookUpMissing(missing, Math.min(options.deadline, Date.now() + config.CROSSREF_BUDGET_MS));
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
  return papers.map((paper, i) => ({ ...paper, record: records[i] as CitedRecord }));
}
