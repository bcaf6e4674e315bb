/** The service with a fake Crossref and a fake DataCite beside the fake SerpApi, for the citation tests. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FakeCrossref, startFakeCrossref } from './fake-crossref.js';
import { type FakeDataCite, startFakeDataCite } from './fake-datacite.js';
import { type IndexPaper, servePapers } from './index-papers.js';
import { useService } from './service.js';

/**
 * The service (in this process) with a fake SerpApi and a fake Crossref (recorded answers), for a file of
 * citation-search tests: Crossref's fake and pace are reset before each test, and the citation styles are
 * built once before the first.
 */
export async function useCrossrefService(env: Record<string, string | undefined> = {}) {
  const [crossref, dataCite]: [FakeCrossref, FakeDataCite] = await Promise.all([startFakeCrossref(), startFakeDataCite()]);
  const harness = useService({
    CROSSREF_BASE_URL: crossref.url,
    DATACITE_BASE_URL: dataCite.url,
    CROSSREF_MAILTO: 'ops@example.org',
    ...env,
  });
  // The first citation search of a process builds the citation styles: seconds of CPU, many more on a busy
  // machine. Built here, under a limit of its own, so that no test's verdict depends on the machine's speed.
  beforeAll(async () => {
    await (await import('../../lib/citations/render/render.js')).citationRenderer();
  }, 180_000);
  afterAll(() => Promise.all([crossref.close(), dataCite.close()]));
  beforeEach(async () => {
    crossref.reset();
    dataCite.reset();
    // A 429 pauses every lookup of the container for a while (sources/pace.ts); each test starts unpaused.
    // Imported only now: the clients read the configuration, which the service sets up, on import.
    await (await import('../../lib/citations/sources/crossref.js')).crossrefPace.reset();
    await (await import('../../lib/citations/sources/datacite.js')).dataCitePace.reset();
  });
  return {
    harness,
    crossref,
    dataCite,
    /** `servePapers` on this harness's upstream. */
    servePapers: (query: string, prefix: string, papers: IndexPaper[]) => servePapers(harness.upstream, query, prefix, papers),
  };
}
