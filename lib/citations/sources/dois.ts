/**
 * DOIs looked up directly, in batches: twenty to a Crossref request (`filter=doi:…,doi:…`), and the DOIs of
 * DataCite's repositories (arXiv's, Zenodo's, Dryad's…: DATACITE_PREFIXES) twenty to a DataCite request
 * (`ids=…,…`), both sources at once. A page whose links carry the DOIs of its twenty papers
 * costs one request instead of twenty. What a lookup finds is a candidate: the caller's matcher decides.
 */
import type { CrossrefWork } from '../model/work.js';
import { DOIS_PER_LOOKUP, worksByDoi } from './crossref.js';
import { DATACITE_DOIS_PER_LOOKUP, dataCiteWorks, isDataCiteDoi } from './datacite.js';

/** What a DOI's batch found: its work, nothing (the source does not hold it), or why the batch failed. */
export type DoiFound = { work: CrossrefWork | undefined } | { error: unknown };

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Every DOI's work, by lower-case DOI: DataCite's repositories' DOIs from DataCite, the others from Crossref,
 * in batches (in turn within a source, both sources at once). A DOI no batch can hold (a comma, which
 * separates Crossref's filters and DataCite's ids) is left out of the map: the caller looks its paper up otherwise.
 */
export async function worksOfDois(
  dois: readonly string[],
  options: { deadline: number; timeoutMs?: number },
): Promise<Map<string, DoiFound>> {
  const unique = [...new Set(dois.map((doi) => doi.toLowerCase()))];
  const batchable = unique.filter((doi) => !doi.includes(','));
  const dataCite = batchable.filter((doi) => isDataCiteDoi(doi));
  const crossref = batchable.filter((doi) => !isDataCiteDoi(doi));
  const found = new Map<string, DoiFound>();
  const batches = async (
    list: readonly string[],
    size: number,
    lookUp: (batch: readonly string[]) => Promise<Map<string, CrossrefWork>>,
  ) => {
    for (const batch of chunks(list, size)) {
      try {
        const works = await lookUp(batch);
        for (const doi of batch) found.set(doi, { work: works.get(doi) });
      } catch (error) {
        for (const doi of batch) found.set(doi, { error });
      }
    }
  };
  await Promise.all([
    batches(crossref, DOIS_PER_LOOKUP, (batch) => worksByDoi(batch, options)),
    batches(dataCite, DATACITE_DOIS_PER_LOOKUP, (batch) => dataCiteWorks(batch, options)),
  ]);
  return found;
}
