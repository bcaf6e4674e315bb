/** Scholar pages made of chosen papers, for the citation-search tests that pair the index with Crossref. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { sample } from '../../lib/local/samples.js';
import { type FakeCrossref, startFakeCrossref } from './fake-crossref.js';
import type { FakeSerpApi } from './fake-serpapi.js';
import { useService } from './service.js';

export interface IndexPaper {
  title: string;
  /** The index's summary line: authors, venue, year, host. */
  summary: string;
}

/** A paper of the recorded Crossref answers (habanero's recordings hold it). */
export const EARLY_WARNING: IndexPaper = {
  title: 'Early warning signals: the charted and uncharted territories',
  summary: 'C Boettiger, N Ross, A Hastings - Theoretical Ecology, 2013 - Springer',
};

/** Not in any recorded Crossref answer: the fake Crossref answers its lookup with the recorded empty answer. */
export const BANANAS: IndexPaper = { title: 'Bananas and plantains', summary: 'JC Robinson, VG Saúco - 2010 - books.google.com' };

/**
 * Makes `upstream` answer the scholar search for `query` with a page of these papers, built from the recorded
 * result, with ids `<prefix>-1`…; every other call (cite calls included) gets the recorded samples.
 */
export function servePapers(upstream: FakeSerpApi, query: string, prefix: string, papers: IndexPaper[]): void {
  const recorded = sample('google_scholar');
  const first = (recorded.organic_results as Record<string, unknown>[])[0];
  const page = {
    ...recorded,
    organic_results: papers.map((paper, i) => ({
      ...first,
      position: i,
      title: paper.title,
      result_id: `${prefix}-${i + 1}`,
      publication_info: { summary: paper.summary },
    })),
  };
  upstream.respond((q) => (q.get('engine') === 'google_scholar' && q.get('q') === query ? { json: page } : undefined));
}

/**
 * The service (in this process) with a fake SerpApi and a fake Crossref (recorded answers), for a file of
 * citation-search tests: Crossref's fake and pace are reset before each test, and the citation styles are
 * built once before the first.
 */
export async function useCrossrefService(env: Record<string, string> = {}) {
  const crossref: FakeCrossref = await startFakeCrossref();
  const harness = useService({ CROSSREF_BASE_URL: crossref.url, CROSSREF_MAILTO: 'ops@example.org', ...env });
  // The first citation search of a process builds the citation styles: seconds of CPU, many more on a busy
  // machine. Built here, under a limit of its own, so that no test's verdict depends on the machine's speed.
  beforeAll(async () => {
    await (await import('../../lib/crossref/render.js')).citationRenderer();
  }, 180_000);
  afterAll(() => crossref.close());
  beforeEach(async () => {
    crossref.reset();
    // A 429 pauses every lookup of the container for a while (client.ts); each test starts unpaused.
    // Imported only now: the client reads the configuration, which the service sets up, on import.
    (await import('../../lib/crossref/client.js')).crossrefPace.reset();
  });
  return {
    harness,
    crossref,
    /** `servePapers` on this harness's upstream. */
    servePapers: (query: string, prefix: string, papers: IndexPaper[]) => servePapers(harness.upstream, query, prefix, papers),
  };
}
