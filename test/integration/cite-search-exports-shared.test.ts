/**
 * Matched Crossref records in the shared cache: two service containers (this test's process and a second
 * process) sharing one table (dynalite on loopback), the fake SerpApi and the fake Crossref counting
 * every call. A matched record is stored for every container; a paper that matched nothing is not.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';
import { type FakeCrossref, startFakeCrossref } from '../support/fake-crossref.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { BANANAS, EARLY_WARNING, servePapers as serveIndexPapers } from '../support/index-papers.js';
import { type Service, startService } from '../support/service.js';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.js';

const PATH = '/v1/cite/search';

let table: CacheTableServer;
let upstream: FakeSerpApi;
let crossref: FakeCrossref;
let first: Service;
let second: ServiceProcess;

beforeAll(async () => {
  [table, upstream, crossref] = await Promise.all([startCacheTable(), startFakeSerpApi(), startFakeCrossref()]);
  const env = {
    ...table.env,
    SERPAPI_BASE_URL: upstream.url,
    CROSSREF_BASE_URL: crossref.url,
    // The table works throughout: its reads and writes get 20 s, so that a busy machine never turns a
    // stored record into one given up on (and a second lookup). A slow table is shared-cache.test.ts's subject.
    CACHE_READ_TIMEOUT_MS: '20000',
    CACHE_WRITE_TIMEOUT_MS: '20000',
    // Crossref (the fake) answers too: a lookup given up on would leave a paper unmatched, and unstored.
    CROSSREF_TIMEOUT_MS: '20000',
    CROSSREF_BUDGET_MS: '20000',
    TABLE_PREPARE_TIMEOUT_MS: '10000',
  };
  // The second, a process of its own, builds the citation styles at its start, as a deployed container
  // does: its first search would otherwise spend them (half a minute beside eight busy processes, past
  // the request's deadline).
  [first, second] = await Promise.all([startService(env), startServiceProcess({ ...env, CITATION_STYLES_AT_INIT: 'true' })]);
  // The first citation search of a process builds the citation styles: seconds of CPU, many more on a busy
  // machine. Built here, under a limit of its own, so that no test's verdict depends on the machine's speed.
  await (await import('../../lib/citations/render/render.js')).citationRenderer();
}, 300_000);

afterAll(async () => {
  await second?.stop();
  await first?.close();
  await Promise.all([upstream?.close(), crossref?.close(), table?.close()]);
});

/** Serves a scholar page for `query` of one paper Crossref matches and one it does not, ids `<prefix>-1`… */
const servePapers = (query: string, prefix: string) => serveIndexPapers(upstream, query, prefix, [EARLY_WARNING, BANANAS]);

it('stores a matched record for every container, and looks up again only the paper that matched nothing', async () => {
  servePapers('shared exports', 'shared-export');
  // The index's citations: the second service, a process of its own, would otherwise build the citation
  // styles before looking up the paper it lacks, seconds of CPU this test does not measure.
  const body = { query: 'shared exports', export: ['bibtex'], citation_source: 'index' };

  const miss = await first.post(PATH, body);
  expect(miss.status, miss.text).toBe(200);
  expect(crossref.requests).toHaveLength(2);
  const stored = (await table.items()).map((item) => item.pk).filter((pk) => pk.startsWith('records-v4#'));
  expect(stored).toEqual(['records-v4#shared-export-1']);

  crossref.reset();
  const hit = await second.post(PATH, body);
  expect(hit.status, JSON.stringify(hit.json)).toBe(200);
  expect(hit.json.data.papers.map((p: { doi: unknown }) => p.doi)).toEqual(['10.1007/s12080-013-0192-6', null]);
  expect(hit.json.data.papers[0].exports.bibtex).toBe(miss.json.data.papers[0].exports.bibtex);
  expect(crossref.requests.map((q) => q.get('query.bibliographic'))).toEqual(['Bananas and plantains']);
});

it('says X-Cache hit for a repeat the search provider need not answer, though Crossref is asked again', async () => {
  servePapers('export x-cache', 'export-xcache');
  // The index's cite answers are what the cache spares the search provider here; by default ("auto") the
  // search is the only paid call, and this test's services cache no search pages.
  const body = { query: 'export x-cache', export: ['bibtex'], citation_source: 'index' };
  for (const service of [first, second]) {
    expect((await service.post(PATH, body)).status).toBe(200);
    upstream.requests.length = 0;
    crossref.reset();
    const repeat = await service.post(PATH, body);
    expect(repeat.status).toBe(200);
    // Every paper's citations come from the cache (the in-process service caches no search pages).
    expect(upstream.calls('google_scholar_cite')).toBe(0);
    expect(repeat.headers.get('x-cache')).toBe('hit');
    // The paper Crossref matched nothing for was looked up again: not a miss of the search provider's.
    expect(crossref.requests.map((q) => q.get('query.bibliographic'))).toEqual(['Bananas and plantains']);
  }
});
