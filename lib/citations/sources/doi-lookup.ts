/**
 * DOIs looked up directly, in as few requests as the sources allow: Crossref twenty to a request
 * (`filter=doi:…,doi:…`) and, at the same time, the DOIs of the repositories DataCite registers (arXiv's,
 * Zenodo's, Dryad's…: DATACITE_PREFIXES) twenty to a DataCite request (`GET /dois?ids=…`). A page whose
 * links carry the DOIs of its twenty papers costs one request instead of twenty. Resolving and checking
 * then ask DataCite for every DOI Crossref did not give (`crossrefMissesToDataCite`); a citation search
 * does not, since it searches for such a paper by its title, DataCite included. A DOI holding a comma can
 * be neither a Crossref filter nor one of DataCite's ids (commas separate them): it is asked of DataCite on
 * its own, or, for a search, left to the search. Each caller says in its own words why a DOI has no record.
 */
import { mapSettled } from '../../concurrency.js';
import type { CrossrefWork } from '../model/work.js';
import { DOIS_PER_LOOKUP, worksByDoi } from './crossref.js';
import { DATACITE_DOIS_PER_LOOKUP, dataCiteWork, dataCiteWorks, isDataCiteDoi } from './datacite.js';

/** What the lookups found for one DOI: its work, no record in the sources asked, or a lookup that failed. */
export type DoiOutcome = { work: CrossrefWork } | { absent: true } | { failed: unknown };

export interface DoiLookupOptions {
  /** Epoch ms by which every lookup must be over. */
  deadline: number;
  /** At most this many requests of the lookup in flight to each source. */
  concurrency: number;
  /** Whether a DOI Crossref does not give is asked of DataCite too (resolving, checking) or left to the caller (a search). */
  crossrefMissesToDataCite: boolean;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const hasComma = (doi: string) => doi.includes(',');

/** Which DOIs go to Crossref: those it can be asked for, outside DataCite's repositories. */
function forCrossref(dois: readonly string[]): string[] {
  return dois.filter((doi) => !hasComma(doi) && !isDataCiteDoi(doi));
}

/** The Crossref requests a list of DOIs costs (the pace a request plans by). */
export function crossrefDoiRequests(dois: readonly string[]): number {
  return Math.ceil(forCrossref([...new Set(dois)]).length / DOIS_PER_LOOKUP);
}

/** DataCite's requests for `dois`: twenty to a request, one that holds a comma on its own. */
function dataCiteRequests(dois: readonly string[]): string[][] {
  return [
    ...chunks(
      dois.filter((doi) => !hasComma(doi)),
      DATACITE_DOIS_PER_LOOKUP,
    ),
    ...dois.filter(hasComma).map((doi) => [doi]),
  ];
}

async function askDataCite(request: readonly string[], deadline: number): Promise<Map<string, CrossrefWork>> {
  const [first] = request;
  if (request.length > 1 || !first || !hasComma(first)) return dataCiteWorks(request, { deadline });
  const work = await dataCiteWork(first, { deadline });
  return new Map(work ? [[first, work]] : []);
}

/**
 * Every DOI's outcome, by lower-case DOI (the DOIs are given lower case). A DOI neither source asked holds is
 * `absent`, unless a lookup that could have found it failed (Crossref's failure is kept over DataCite's "no
 * record": the DOI may well be Crossref's). A comma DOI a search leaves to itself is not in the map.
 */
export async function lookUpDois(dois: readonly string[], options: DoiLookupOptions): Promise<Map<string, DoiOutcome>> {
  const unique = [...new Set(dois)];
  const found = new Map<string, DoiOutcome>();
  const failures = new Map<string, unknown>();
  const { deadline, concurrency } = options;
  /** Each request's DOIs as the request settled: a work, or absent, or the request's failure. */
  const settle = (requests: readonly string[][], outcomes: PromiseSettledResult<Map<string, CrossrefWork>>[]) =>
    outcomes.forEach((outcome, i) => {
      for (const doi of requests[i] ?? []) {
        const work = outcome.status === 'fulfilled' ? outcome.value.get(doi) : undefined;
        if (work) found.set(doi, { work });
        else {
          const failed = failures.get(doi) ?? (outcome.status === 'rejected' ? outcome.reason : undefined);
          if (failed !== undefined) failures.set(doi, failed);
          found.set(doi, failed === undefined ? { absent: true } : { failed });
        }
      }
    });
  const crossrefRequests = chunks(forCrossref(unique), DOIS_PER_LOOKUP);
  const ownRequests = dataCiteRequests(
    unique.filter((doi) => isDataCiteDoi(doi) || (hasComma(doi) && options.crossrefMissesToDataCite)),
  );
  const [fromCrossref, fromDataCite] = await Promise.all([
    mapSettled(crossrefRequests, concurrency, (request) => worksByDoi(request, { deadline })),
    mapSettled(ownRequests, concurrency, (request) => askDataCite(request, deadline)),
  ]);
  settle(crossrefRequests, fromCrossref);
  settle(ownRequests, fromDataCite);
  if (!options.crossrefMissesToDataCite) return found;
  const missed = crossrefRequests.flat().filter((doi) => !('work' in (found.get(doi) ?? {})));
  const missedRequests = dataCiteRequests(missed);
  settle(missedRequests, await mapSettled(missedRequests, concurrency, (request) => askDataCite(request, deadline)));
  return found;
}
