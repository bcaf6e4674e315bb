/**
 * DOIs looked up directly, in as few requests as the sources allow: Crossref twenty to a request
 * (`filter=doi:…,doi:…`), then DataCite twenty to a request (`GET /dois?ids=…`) for every DOI Crossref did
 * not give; DOIs of the repositories DataCite registers (arXiv's, Zenodo's, …) go to DataCite alone. A DOI
 * holding a comma can be neither a Crossref filter nor one of DataCite's ids (commas separate them): it is
 * asked of DataCite on its own. Shared by citation resolving and the reference check, each of which says
 * in its own words why a DOI has no record.
 */
import { mapSettled } from '../../concurrency.js';
import type { CrossrefWork } from '../model/work.js';
import { DOIS_PER_LOOKUP, worksByDoi } from './crossref.js';
import { DATACITE_DOIS_PER_LOOKUP, dataCiteWork, dataCiteWorks, isDataCiteDoi } from './datacite.js';

/** What the lookups found for one DOI: its work, no record in either source, or a lookup that failed. */
export type DoiOutcome = { work: CrossrefWork } | { absent: true } | { failed: unknown };

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Which DOIs go to Crossref first: those it can be asked for, outside DataCite's repositories. */
function forCrossref(dois: readonly string[]): string[] {
  return dois.filter((doi) => !doi.includes(',') && !isDataCiteDoi(doi));
}

/**
 * The requests a list of DOIs costs at most, per source: Crossref's batches, and DataCite's when Crossref
 * gives none of its DOIs (the worst case a request plans its pace by).
 */
export function doiLookupRequests(dois: readonly string[]): { crossref: number; datacite: number } {
  const unique = [...new Set(dois)];
  const commas = unique.filter((doi) => doi.includes(',')).length;
  return {
    crossref: Math.ceil(forCrossref(unique).length / DOIS_PER_LOOKUP),
    datacite: Math.ceil((unique.length - commas) / DATACITE_DOIS_PER_LOOKUP) + commas,
  };
}

/**
 * Every DOI's outcome, by lower-case DOI (the DOIs are given lower case): Crossref's batches first, then
 * DataCite's for the rest. A DOI neither source holds is `absent`, unless a lookup that could have found it
 * failed (Crossref's failure is kept over DataCite's "no record": the DOI may well be Crossref's).
 */
export async function lookUpDois(
  dois: readonly string[],
  options: { deadline: number; concurrency: number },
): Promise<Map<string, DoiOutcome>> {
  const unique = [...new Set(dois)];
  const found = new Map<string, DoiOutcome>();
  const failures = new Map<string, unknown>();
  const crossrefChunks = chunks(forCrossref(unique), DOIS_PER_LOOKUP);
  const fromCrossref = await mapSettled(crossrefChunks, options.concurrency, (chunk) =>
    worksByDoi(chunk, { deadline: options.deadline }),
  );
  fromCrossref.forEach((outcome, i) => {
    for (const doi of crossrefChunks[i] ?? []) {
      const work = outcome.status === 'fulfilled' ? outcome.value.get(doi) : undefined;
      if (work) found.set(doi, { work });
      else if (outcome.status === 'rejected') failures.set(doi, outcome.reason);
    }
  });
  const rest = unique.filter((doi) => !found.has(doi));
  const asked = [
    ...chunks(
      rest.filter((doi) => !doi.includes(',')),
      DATACITE_DOIS_PER_LOOKUP,
    ),
    ...rest.filter((doi) => doi.includes(',')).map((doi) => [doi]),
  ];
  const fromDataCite = await mapSettled(asked, options.concurrency, async (chunk) => {
    const [first] = chunk;
    if (chunk.length > 1 || !first?.includes(',')) return dataCiteWorks(chunk, { deadline: options.deadline });
    const work = await dataCiteWork(first, { deadline: options.deadline });
    return new Map(work ? [[first, work]] : []);
  });
  fromDataCite.forEach((outcome, i) => {
    for (const doi of asked[i] ?? []) {
      const work = outcome.status === 'fulfilled' ? outcome.value.get(doi) : undefined;
      if (work) found.set(doi, { work });
      else {
        const failed = failures.get(doi) ?? (outcome.status === 'rejected' ? outcome.reason : undefined);
        found.set(doi, failed === undefined ? { absent: true } : { failed });
      }
    }
  });
  return found;
}
