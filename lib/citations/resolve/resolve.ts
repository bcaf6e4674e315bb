/**
 * Citation resolving (POST /v1/cite/resolve): each reference to its Crossref or DataCite record, with no
 * paid call. A reference is read as pasted (any white space, soft hyphens, a word hyphenated across a line
 * break: model/text.ts cleanReference); one that is empty or too long is answered as such, never failing
 * the list.
 * - A DOI (or a reference that holds one, or an arXiv identifier, whose DOI arXiv registers with DataCite)
 *   is looked up directly: Crossref twenty to a request, then DataCite twenty to a request for what
 *   Crossref does not know (DOIs of DataCite's repositories, arXiv's and Zenodo's among them, go to DataCite
 *   first). A DOI is the reference's claim, not its answer: a reference whose DOI is the record of a work
 *   of another title gets no DOI (`doi_conflict`, match/reference-check.ts ownDoiRecord).
 * - Free text is sent to Crossref as a bibliographic query; its candidates go through the reference matcher
 *   (reference-match.ts: a wrong DOI is worse than none, so nothing ambiguous is taken). A reference
 *   Crossref has no match for that names a data repository, a dataset, software or a preprint is then
 *   searched in DataCite the same way.
 * Lookups share citation search's pace per source (sources/pace.ts), so a list of 50 stays within both
 * sources' published limits. Found works are cached (memory and the shared table); a reference that found
 * nothing is not, so a later request may find it.
 */
import { type CacheScope, createSharedCache } from '../../cache/shared.js';
import { mapSettled } from '../../concurrency.js';
import { config } from '../../config.js';
import { AppError } from '../../errors.js';
import { logger } from '../../logger.js';
import { citableTitles, ownDoiRecord, recordAuthors } from '../match/reference-check.js';
import {
  bibliographicQuery,
  matchReference,
  parseReferenceInput,
  type ReferenceInput,
  type ReferenceOutcome,
} from '../match/reference-match.js';
import { inlineMarkupAsText } from '../model/csl.js';
import { agencyOf, type CrossrefWork, type RecordAgency, workYear } from '../model/work.js';
import { searchReference } from '../sources/crossref.js';
import { arxivDoi, isDataCiteDoi, referenceQuery, searchDataCite } from '../sources/datacite.js';
import { lookUpDois as lookUpDoisInSources } from '../sources/doi-lookup.js';

/** What one reference resolved to. */
export interface Resolution {
  doi: string | null;
  match: { method: 'exact' | 'search'; score: number | null; rule: string };
  /** Why no work was found; null when one was. */
  reason: string | null;
  work?: CrossrefWork;
  /** The agency whose record the work is; null when none was found. */
  source: RecordAgency | null;
  /**
   * A lookup failed (a timeout, an error, a refusal for rate): asked again later, the reference may resolve.
   * Jobs retry such references; a synchronous answer says why in `reason`.
   */
  transient?: true;
}

/** The longest reference read: longer text is answered as such, not looked up. */
export const REFERENCE_MAX_CHARS = 2_000;

const resolved = createSharedCache<Resolution>({
  // v2: resolutions say which agency their record comes from.
  name: 'reference-v2',
  ttlSeconds: config.CROSSREF_CACHE_TTL_SECONDS,
  memoryMax: config.CROSSREF_CACHE_MAX,
  countsLookups: false,
});

/** The cache key of a reference: its DOI, else its text as the matcher reads it (case and spacing aside). */
export function referenceKey(input: ReferenceInput): string {
  return input.kind === 'doi' ? `doi:${input.doi}` : `text:${input.text.replace(/\s+/g, ' ').trim().toLowerCase()}`;
}

const demo = () => config.DEMO_REPLAY === 'true';

/**
 * Why a DOI has no record: neither source knows it; in the demo, the demo holds no recording of it. The DOI
 * is named as it was read from the reference, so that a reading the user did not mean shows as such.
 */
function unknownDoi(doi: string): string {
  if (demo()) {
    return `The demo holds no recording of the DOI ${doi}: it replays a few recorded Crossref and DataCite answers; with network access the service looks it up in both`;
  }
  return isDataCiteDoi(doi)
    ? `DataCite, which registers this DOI prefix, has no record of this DOI (read as ${doi}; mistyped, or not registered yet)`
    : `Neither Crossref nor DataCite has a record of this DOI (read as ${doi}; it may be registered with another agency, such as mEDRA or JaLC, or mistyped)`;
}

/** Why a text reference has no record, in the demo: the demo holds no recording of its work. */
function demoUnmatched(outcome: ReferenceOutcome & { matched: null }): string {
  return `The demo holds no recording of the work this reference names: it replays a few recorded Crossref and DataCite answers, and none of their works is this one (${outcome.reason.replace(/\.$/, '')})`;
}

function failure(reason: unknown): string {
  if (reason instanceof AppError) return reason.details;
  logger.error('reference lookup failed unexpectedly', { error: reason as Error });
  return 'Unexpected error while looking the reference up';
}

/** What a DOI's lookups found: its work, or why there is none (`transient` when a lookup failed). */
type DoiResult = { work: CrossrefWork } | { reason: string; transient?: true };

/**
 * Every DOI's work, by lower-case DOI (sources/doi-lookup.ts: Crossref twenty to a request and DataCite's
 * repositories' DOIs at once, then DataCite for every DOI Crossref did not give). A DOI no source gives maps
 * to why.
 */
async function lookUpDois(dois: readonly string[], deadline: number): Promise<Map<string, DoiResult>> {
  const outcomes = await lookUpDoisInSources(dois, {
    deadline,
    concurrency: config.CROSSREF_CONCURRENCY,
    crossrefMissesToDataCite: true,
  });
  return new Map(
    [...outcomes].map(([doi, outcome]): [string, DoiResult] => [
      doi,
      'work' in outcome
        ? outcome
        : 'failed' in outcome
          ? { reason: failure(outcome.failed), transient: true }
          : { reason: unknownDoi(doi) },
    ]),
  );
}

/**
 * Why a reference's own DOI is not its record: the DOI is another work's, by the rule the reference check
 * judges a DOI by (ownDoiRecord: another title, whoever its authors are, or another title and authors), so
 * that the two answer one reference alike (resolve gives such a reference no DOI, as the matcher gives none
 * to a text whose DOI none of its candidates has).
 */
function conflict(text: string, doi: string, work: CrossrefWork): string | undefined {
  const cited = { format: 'text' as const, text, doi };
  if (!('other' in ownDoiRecord(cited, work))) return undefined;
  const year = workYear(work);
  return `The reference holds the DOI ${doi}, which is the record of “${citableTitles(work)[0] ?? 'an untitled work'}” (${[recordAuthors(work), year].filter(Boolean).join(', ')}): another work than the reference’s.`;
}

/** How a reference names a record DataCite holds: a data repository, a dataset, software, a preprint. */
const DATACITE_TEXT =
  /\b(?:arxiv|zenodo|dryad|figshare|osf|pangaea|dataverse|gbif|data ?sets?|data from|data repository|software|preprint)\b/i;

/** The work a free-text reference is: Crossref's candidates first, then (for a reference DataCite may hold) DataCite's. */
async function searchText(pasted: string, deadline: number): Promise<Resolution> {
  // A reference copied with its markup or entities ("&amp;", "<i>") reads as its record does (§25), as the
  // reference check reads one: "amp" is no word of it.
  const text = inlineMarkupAsText(pasted);
  const query = bibliographicQuery(text);
  if (!query) {
    return {
      doi: null,
      match: { method: 'search', score: null, rule: 'empty' },
      reason: 'The reference holds no words to look up',
      source: null,
    };
  }
  const fromCrossref = await searchReference(query, { deadline }).then(
    (works) => matchReference(text, works),
    (error: unknown) => ({ error }),
  );
  const fromDataCite =
    ('error' in fromCrossref || !fromCrossref.matched) && DATACITE_TEXT.test(text)
      ? await searchDataCite(referenceQuery(query), { deadline }).then(
          (works) => matchReference(text, works),
          (error: unknown) => ({ error }),
        )
      : undefined;
  for (const outcome of [fromCrossref, fromDataCite]) {
    if (outcome && !('error' in outcome) && outcome.matched) {
      const { doi, score, rule, work } = outcome.matched;
      return { doi: doi.toLowerCase(), match: { method: 'search', score, rule }, reason: null, work, source: agencyOf(work) };
    }
  }
  // No match: the refusal of the source that came nearest, else why the lookups failed.
  const refusals = [fromCrossref, fromDataCite].filter(
    (outcome): outcome is ReferenceOutcome & { matched: null } => outcome !== undefined && !('error' in outcome),
  );
  const nearest = refusals.sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0];
  if (nearest && (nearest.rule !== 'no_candidates' || !('error' in fromCrossref))) {
    return {
      doi: null,
      match: { method: 'search', score: nearest.score ?? null, rule: nearest.rule },
      reason: demo() ? demoUnmatched(nearest) : nearest.reason,
      source: null,
      // Crossref, which holds most works, was not asked successfully: another try may find it there.
      ...('error' in fromCrossref ? { transient: true as const } : {}),
    };
  }
  const error = 'error' in fromCrossref ? fromCrossref.error : (fromDataCite as { error: unknown }).error;
  return lookupFailed(error);
}

/** A reference's text that is not looked up: empty, or longer than REFERENCE_MAX_CHARS. */
function unread(input: ReferenceInput): Resolution | undefined {
  if (input.kind !== 'text') return undefined;
  if (input.text === '') {
    return { doi: null, match: { method: 'search', score: null, rule: 'empty' }, reason: 'The reference is empty', source: null };
  }
  if (input.text.length > REFERENCE_MAX_CHARS) {
    return {
      doi: null,
      match: { method: 'search', score: null, rule: 'too_long' },
      reason: `The reference is longer than ${REFERENCE_MAX_CHARS} characters; send one reference per item`,
      source: null,
    };
  }
  return undefined;
}

async function resolveMissing(inputs: readonly ReferenceInput[], deadline: number): Promise<Resolution[]> {
  // An arXiv identifier in a text without a DOI is its DOI: arXiv registers one for every paper.
  const identified = inputs.map((input) => {
    if (input.kind !== 'text' || input.doi) return { input, doi: input.doi, rule: input.kind === 'doi' ? 'doi' : 'doi_in_text' };
    const arxiv = /\barxiv\s*[:/]\s*(?:abs\/)?(\d{4}\.\d{4,5})(?:v\d+)?\b/i.exec(input.text)?.[1];
    return { input, doi: arxiv ? arxivDoi(arxiv) : undefined, rule: 'arxiv_id' };
  });
  const results: (Resolution | undefined)[] = inputs.map(unread);
  const dois = [...new Set(identified.flatMap(({ doi }, i) => (doi && !results[i] ? [doi] : [])))];
  const byDoi = dois.length > 0 ? await lookUpDois(dois, deadline) : new Map<string, DoiResult>();
  identified.forEach(({ input, doi, rule }, i) => {
    if (results[i] || !doi) return;
    const outcome = byDoi.get(doi);
    const conflicting =
      outcome && 'work' in outcome && input.kind === 'text' ? conflict(input.text, doi, outcome.work) : undefined;
    if (conflicting) {
      results[i] = {
        doi: null,
        match: { method: 'exact', score: null, rule: 'doi_conflict' },
        reason: conflicting,
        source: null,
      };
    } else if (outcome && 'work' in outcome) {
      const { work } = outcome;
      results[i] = {
        doi: work.DOI.toLowerCase(),
        match: { method: 'exact', score: null, rule },
        reason: null,
        work,
        source: agencyOf(work),
      };
    } else if (input.kind === 'doi') {
      results[i] = {
        doi: null,
        match: { method: 'exact', score: null, rule: 'doi' },
        reason: outcome?.reason ?? unknownDoi(doi),
        source: null,
        ...(outcome && 'transient' in outcome ? { transient: true as const } : {}),
      };
    }
    // A reference whose DOI no source knows is still searched for by its text.
  });
  const searched = inputs.flatMap((input, i) => (results[i] === undefined && input.kind === 'text' ? [i] : []));
  const outcomes = await mapSettled(searched, config.CROSSREF_CONCURRENCY, (i) =>
    searchText((inputs[i] as Extract<ReferenceInput, { kind: 'text' }>).text, deadline),
  );
  outcomes.forEach((outcome, n) => {
    const i = searched[n] as number;
    results[i] = outcome.status === 'fulfilled' ? outcome.value : lookupFailed(outcome.reason);
  });
  return results.map(
    (result) =>
      result ?? {
        doi: null,
        match: { method: 'search', score: null, rule: 'not_looked_up' },
        reason: 'Not looked up',
        source: null,
      },
  );
}

/** A reference whose lookup failed: no DOI, and why. */
function lookupFailed(reason: unknown): Resolution {
  return {
    doi: null,
    match: { method: 'search', score: null, rule: 'lookup_failed' },
    reason: failure(reason),
    source: null,
    transient: true,
  };
}

/**
 * Each reference's resolution, in order. Never rejects for one reference: a failed lookup, an unknown
 * DOI, an empty or overlong text or no confident match is a resolution without a DOI that says why.
 */
export async function resolveReferences(
  references: readonly string[],
  options: { deadline: number; scope?: CacheScope },
): Promise<Resolution[]> {
  const inputs = references.map(parseReferenceInput);
  const outcomes = await resolved.rememberMany(
    inputs,
    referenceKey,
    async (missing) =>
      (await resolveMissing(missing, options.deadline)).map((value) => ({ status: 'fulfilled', value }) as const),
    { scope: options.scope, store: (resolution) => resolution.doi !== null },
  );
  return outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : lookupFailed(outcome.reason)));
}
