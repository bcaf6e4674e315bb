/**
 * The shared cache end to end: the real AWS SDK against dynalite on loopback, two service containers
 * (this test's process and a second process, each with its own memory) sharing one table, and the fake
 * upstream counting every paid call. Each test searches its own query with its own paper ids, so one
 * test's cached answers never answer another's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sample } from '../../lib/local/samples.js';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';
import { capturedLogLines, capturedMetricLines } from '../support/capture-logs.js';
import { type FakeSerpApi, type Fault, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type Service, startService } from '../support/service.js';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.js';

// Every cite search here asks for the index's citations: these tests are about the per-paper cite cache.
// Citations rendered from Crossref records, and their cache, are tested in cite-search-crossref.test.ts.
const CITE = '/v1/cite/search';
const WEB = '/v1/web-search/alpha';
const TRENDS = '/v1/alpha/trends';
// The tests that share answers through the table need every read and write of a table that answers to
// finish, whatever the machine's load (beside eight busy processes a write took over 5 s): budgets of
// 20 s (deployed 150 and 300 ms), and a cite call's time far above what the fake upstream takes. A verdict
// never depends on how fast they finish. Only the container that meets a table that never answers has
// short budgets: it must give up on it, which no speed of the machine changes.
const READ_BUDGET_MS = 20_000;
const WRITE_BUDGET_MS = 20_000;
const IMPATIENT_BUDGET_MS = 300;
const COOLDOWN_MS = 300;

let table: CacheTableServer;
let upstream: FakeSerpApi;
let first: Service;
let second: ServiceProcess;
let impatient: ServiceProcess;

beforeAll(async () => {
  table = await startCacheTable();
  upstream = await startFakeSerpApi();
  const env = {
    ...table.env,
    SERPAPI_BASE_URL: upstream.url,
    ANSWER_CACHE_TTL_SECONDS: '3600',
    CACHE_READ_TIMEOUT_MS: String(READ_BUDGET_MS),
    CACHE_WRITE_TIMEOUT_MS: String(WRITE_BUDGET_MS),
    CACHE_TABLE_COOLDOWN_MS: String(COOLDOWN_MS),
    CITE_TIMEOUT_MS: '20000',
    POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApiTest',
  };
  const short = { CACHE_READ_TIMEOUT_MS: String(IMPATIENT_BUDGET_MS), CACHE_WRITE_TIMEOUT_MS: String(IMPATIENT_BUDGET_MS) };
  // The first citation search of a process builds the citation styles: seconds of CPU, half a minute beside
  // eight busy processes (past the request's deadline, an answer of 500). Built before any test, as a
  // deployed container builds them at its start, so that no test's verdict depends on the machine's speed.
  const atStart = { CITATION_STYLES_AT_INIT: 'true' };
  [first, second, impatient] = await Promise.all([
    startService(env),
    startServiceProcess({ ...env, ...atStart }),
    startServiceProcess({ ...env, ...short, ...atStart }),
  ]);
  await (await import('../../lib/citations/render/render.js')).citationRenderer();
}, 300_000);

afterAll(async () => {
  await impatient?.stop();
  await second?.stop();
  await first?.close();
  await upstream?.close();
  await table?.close();
});

beforeEach(async () => {
  upstream.reset();
  table.setMode({ kind: 'ok' });
  table.resetLog();
});

/** A scholar page of papers with the given ids, built from the recording's first result. */
function scholarPage(query: string, ids: string[]) {
  const recorded = sample('google_scholar');
  const paper = (recorded.organic_results as Record<string, unknown>[])[0];
  return {
    ...recorded,
    organic_results: ids.map((id, i) => ({ ...paper, position: i, title: `${query} paper ${id}`, result_id: id })),
  };
}

/** Serves each query's page; cite calls get `cite(id)` or else the recorded cite sample. */
function serve(pages: Record<string, unknown>, cite: (id: string) => Fault | undefined = () => undefined) {
  upstream.respond((q) => {
    const engine = q.get('engine');
    const page = pages[q.get('q') ?? ''];
    if (engine === 'google_scholar' && page) return { json: page };
    if (engine === 'google_scholar_cite') return cite(q.get('q') ?? '');
    return undefined;
  });
}

/** Forgets the calls counted so far, keeping the responder (`reset` would drop it). */
const forgetCalls = () => {
  upstream.requests.length = 0;
};
const citeCalls = () => upstream.requests.filter((q) => q.get('engine') === 'google_scholar_cite').map((q) => q.get('q'));
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);

/** Papers cited from the index's cite answers (the others are cited from the index's own records). */
function citedPapers(reply: { status: number; json: { data: { papers: { citations_source: string | null }[] } } }) {
  expect(reply.status, JSON.stringify((reply as { json?: unknown }).json)).toBe(200);
  return reply.json.data.papers.filter((paper) => paper.citations_source === 'index').length;
}

describe('two containers sharing one table', () => {
  it('answers a cite search repeated from a second process with 0 upstream calls', async () => {
    serve({ shared: scholarPage('shared', ids('sh', 5)) });
    const miss = await first.post(CITE, { citation_source: 'index', query: 'shared', results: 5 });
    expect(miss.status, miss.text).toBe(200);
    expect(miss.headers.get('x-cache')).toBe('miss');
    expect(upstream.calls()).toBe(6);
    // One search-page read, the claim on it (no other container is asking for it), one batch read for all
    // five papers, then the writes. The search page is written as soon as it arrives, beside the batch read.
    expect([...table.operations].sort()).toEqual(['BatchGetItem', 'BatchWriteItem', 'GetItem', 'PutItem', 'PutItem']);
    const stored = (await table.items()).map((item) => item.pk);
    expect(stored).toEqual(expect.arrayContaining(ids('sh', 5).map((id) => `cite-v1#${id}`)));

    forgetCalls();
    table.resetLog();
    const hit = await second.post(CITE, { citation_source: 'index', query: 'shared', results: 5 });
    expect(hit.status, JSON.stringify(hit.json)).toBe(200);
    expect(upstream.calls()).toBe(0);
    expect(hit.headers.get('x-cache')).toBe('hit');
    expect(hit.json.data).toEqual(miss.json.data);
    expect(citedPapers(hit)).toBe(5);
    expect(table.operations).toEqual(['GetItem', 'BatchGetItem']);
  });

  it('reads again a read whose connection closed before any answer, rather than paying the upstream', async () => {
    serve({ dropped: scholarPage('dropped', ids('dr', 3)) });
    expect((await first.post(CITE, { citation_source: 'index', query: 'dropped', results: 3 })).status).toBe(200);
    forgetCalls();
    table.resetLog();
    // The search page's read and the papers' batch read each meet a closed connection once.
    table.dropNext(1, { operation: 'GetItem' });
    table.dropNext(1, { operation: 'BatchGetItem' });
    const reply = await second.post(CITE, { citation_source: 'index', query: 'dropped', results: 3 });
    expect(citedPapers(reply)).toBe(3);
    expect(reply.headers.get('x-cache')).toBe('hit');
    expect(upstream.calls()).toBe(0);
    expect(table.operations).toEqual(['GetItem', 'GetItem', 'BatchGetItem', 'BatchGetItem']);
  });

  it('calls the upstream only for the papers no container has seen, and says partial', async () => {
    serve({
      'overlap one': scholarPage('overlap one', ids('ov', 4)),
      'overlap two': scholarPage('overlap two', ids('ov', 6).slice(2)),
    });
    expect((await first.post(CITE, { citation_source: 'index', query: 'overlap one', results: 4 })).status).toBe(200);
    forgetCalls();
    const reply = await second.post(CITE, { citation_source: 'index', query: 'overlap two', results: 4 });
    expect(citedPapers(reply)).toBe(4);
    expect(citeCalls().sort()).toEqual(['ov-5', 'ov-6']);
    // The new search page and two papers missed; two papers were in the table.
    expect(reply.headers.get('x-cache')).toBe('partial; hits=2; misses=3');
  });

  it('serves a repeat from memory without reading the table', async () => {
    serve({ memory: scholarPage('memory', ids('mem', 3)) });
    await first.post(CITE, { citation_source: 'index', query: 'memory', results: 3 });
    table.resetLog();
    forgetCalls();
    const reply = await first.post(CITE, { citation_source: 'index', query: 'memory', results: 3 });
    expect(reply.headers.get('x-cache')).toBe('hit');
    expect(upstream.calls()).toBe(0);
    expect(table.operations).toEqual([]);
  });

  it('caches other endpoints per engine and parameters: a different page is a different answer', async () => {
    const one = await first.post(WEB, { q: 'espresso' });
    expect(one.headers.get('x-cache')).toBe('miss');
    expect((await second.post(WEB, { q: 'espresso' })).headers.get('x-cache')).toBe('hit');
    expect((await second.post(WEB, { q: 'espresso', page: 1 })).headers.get('x-cache')).toBe('miss');
    expect((await second.post(WEB, { q: 'espresso', location: 'Austin, Texas' })).headers.get('x-cache')).toBe('miss');
    expect(upstream.calls('google')).toBe(3);
  });
});

describe('no_cache', () => {
  it('bypasses both levels, asks the upstream again, and refreshes the table for every container', async () => {
    serve({ refresh: scholarPage('refresh', ids('rf', 2)) });
    await first.post(CITE, { citation_source: 'index', query: 'refresh', results: 2 });
    const changed = scholarPage('refresh', ids('rf', 2));
    changed.organic_results = changed.organic_results.map((paper, i) =>
      i === 0 ? { ...paper, title: 'A corrected title' } : paper,
    );
    serve({ refresh: changed });
    forgetCalls();

    const bypass = await first.post(CITE, { citation_source: 'index', query: 'refresh', results: 2, no_cache: true });
    expect(bypass.headers.get('x-cache')).toBe('miss');
    expect(upstream.calls()).toBe(3);
    // SerpApi's own cache (an hour) is skipped too, for the search page and every paper.
    expect(upstream.requests.map((q) => q.get('no_cache'))).toEqual(['true', 'true', 'true']);
    expect(bypass.json.data.papers[0].title).toBe('A corrected title');

    forgetCalls();
    const after = await second.post(CITE, { citation_source: 'index', query: 'refresh', results: 2 });
    expect(upstream.calls()).toBe(0);
    expect(after.json.data.papers[0].title).toBe('A corrected title');
  });

  it('is accepted by every endpoint, false by default, and must be a boolean', async () => {
    expect((await first.post(WEB, { q: 'bypass web', no_cache: true })).status).toBe(200);
    expect((await first.post(WEB, { q: 'bypass web', no_cache: true })).headers.get('x-cache')).toBe('miss');
    expect(upstream.calls()).toBe(2);
    // no_cache is not part of the key: a normal request finds the answer the bypass stored.
    expect((await second.post(WEB, { q: 'bypass web' })).headers.get('x-cache')).toBe('hit');
    expect(upstream.calls()).toBe(2);
    const wrong = await first.post(WEB, { q: 'bypass web', no_cache: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.details).toContain('no_cache: must be true or false');
  });
});

describe('no_cache upstream', () => {
  it('sends no_cache=true to SerpApi for a no_cache request, and no no_cache for a normal one', async () => {
    expect((await first.post(WEB, { q: 'upstream cache' })).status).toBe(200);
    expect((await first.post(WEB, { q: 'upstream cache', page: 1, no_cache: false })).status).toBe(200);
    expect((await first.post(WEB, { q: 'upstream cache', no_cache: true })).status).toBe(200);
    expect(upstream.requests.map((q) => q.get('no_cache'))).toEqual([null, null, 'true']);
  });
});

describe('lifetimes', () => {
  it("keeps a Trends answer for a `now` window minutes, and other timeframes the endpoint's hour", async () => {
    // Each answer's expiry is its write's time plus its lifetime; the write falls after its request was
    // sent and before the table was read, however long either takes on a busy machine.
    const lifetimes = { 'now 1-H': 300, 'now 7-d': 900, 'today 12-m': 3_600 };
    const sent = new Map<string, number>();
    for (const timeframe of Object.keys(lifetimes)) {
      sent.set(timeframe, Math.floor(Date.now() / 1000));
      expect((await first.post(TRENDS, { queries: ['lifetime'], timeframe })).status).toBe(200);
    }
    const items = await table.items();
    const to = Math.ceil(Date.now() / 1000);
    const expiries = Object.fromEntries(
      items
        .filter((item) => item.pk.includes('q=lifetime') && item.pk.includes('TIMESERIES'))
        .map((item) => [new URLSearchParams(item.pk.slice(item.pk.indexOf('#') + 1)).get('date'), item.expiresAt]),
    );
    expect(Object.keys(expiries).sort()).toEqual(Object.keys(lifetimes).sort());
    for (const [timeframe, lifetime] of Object.entries(lifetimes)) {
      const from = sent.get(timeframe) ?? 0;
      expect(expiries[timeframe], timeframe).toBeGreaterThanOrEqual(from + lifetime);
      expect(expiries[timeframe], timeframe).toBeLessThanOrEqual(to + lifetime);
    }
  });
});

describe('what is never stored', () => {
  it('does not store an answer over the 400 KB item limit, and still answers it', async () => {
    // Random text does not compress: the stored (gzipped) value stays over the limit.
    const padding = Buffer.from(Array.from({ length: 450_000 }, () => Math.floor(Math.random() * 256))).toString('base64');
    upstream.respond((q) =>
      q.get('q') === 'oversize'
        ? { json: { organic_results: [{ position: 1, title: 'Big', link: 'https://example.com/big' }], padding } }
        : undefined,
    );
    const reply = await first.post(WEB, { q: 'oversize' });
    expect(reply.status).toBe(200);
    expect(reply.json.data.organic_results[0].title).toBe('Big');
    expect((await table.items()).some((item) => item.pk.includes('q=oversize'))).toBe(false);
    expect(capturedLogLines.some((line) => line.includes('over the size limit'))).toBe(true);
    await second.post(WEB, { q: 'oversize' });
    expect(upstream.calls()).toBe(2);
  });

  it('does not store a failure: the next request asks the upstream again', async () => {
    upstream.queue('status500', 'status500', 'status500');
    expect((await first.post(WEB, { q: 'failing' })).status).toBe(502);
    expect((await table.items()).some((item) => item.pk.includes('q=failing'))).toBe(false);
    const retry = await second.post(WEB, { q: 'failing' });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('x-cache')).toBe('miss');
    expect(upstream.calls()).toBe(4);
  });

  it("does not store the upstream's no-results answer", async () => {
    upstream.queue('noResults');
    const empty = await first.post(WEB, { q: 'nothing here' });
    expect(empty.json.message).toBe('No results');
    expect((await table.items()).some((item) => item.pk.includes('nothing+here'))).toBe(false);
    expect((await first.post(WEB, { q: 'nothing here' })).headers.get('x-cache')).toBe('miss');
    expect(upstream.calls()).toBe(2);
  });

  it('does not store an answer that holds no results, though SerpApi marked no error', async () => {
    upstream.respond((q) => (q.get('q') === 'empty page' ? { json: { organic_results: [], search_metadata: {} } } : undefined));
    const empty = await first.post(WEB, { q: 'empty page' });
    expect(empty.status).toBe(200);
    expect(empty.json.message).toBe('No results');
    expect((await table.items()).some((item) => item.pk.includes('empty+page'))).toBe(false);
    expect((await first.post(WEB, { q: 'empty page' })).headers.get('x-cache')).toBe('miss');
    expect((await second.post(WEB, { q: 'empty page' })).headers.get('x-cache')).toBe('miss');
    expect(upstream.calls()).toBe(3);
  });

  it('does not store a paper whose cite answer holds no citations, nor one whose cite call failed', async () => {
    serve({ gaps: scholarPage('gaps', ids('gap', 3)) }, (id) =>
      id === 'gap-1' ? { json: { citations: [], links: [] } } : id === 'gap-2' ? 'invalidKey' : undefined,
    );
    const reply = await first.post(CITE, { citation_source: 'index', query: 'gaps', results: 3 });
    expect(citedPapers(reply)).toBe(1);
    const stored = (await table.items()).map((item) => item.pk);
    expect(stored).toContain('cite-v1#gap-3');
    expect(stored).not.toContain('cite-v1#gap-1');
    expect(stored).not.toContain('cite-v1#gap-2');
    forgetCalls();
    serve({ gaps: scholarPage('gaps', ids('gap', 3)) });
    const again = await second.post(CITE, { citation_source: 'index', query: 'gaps', results: 3 });
    expect(citedPapers(again)).toBe(3);
    expect(citeCalls().sort()).toEqual(['gap-1', 'gap-2']);
  });
});

describe('a failing table is never worse than no table', () => {
  // Each is answered as without a table; a table that refuses or fails does so at once, and one that never
  // answers is given up on at the read's and the write's budgets (the test's timeout catches a wait for it).
  async function expectAnswersWithoutTable(query: string, services: readonly (Service | ServiceProcess)[] = [first, second]) {
    serve({ [query]: scholarPage(query, ids(query, 5)) });
    for (const service of services) {
      forgetCalls();
      const reply = await service.post(CITE, { citation_source: 'index', query, results: 5, no_cache: false });
      expect(citedPapers(reply as never)).toBe(5);
    }
  }

  it('answers every request correctly while the table is down', async () => {
    await table.stop();
    try {
      await expectAnswersWithoutTable('down');
      // A web search too, from both containers.
      expect((await first.post(WEB, { q: 'down web' })).status).toBe(200);
      expect((await second.post(WEB, { q: 'down web' })).status).toBe(200);
    } finally {
      await table.start();
    }
    expect(capturedLogLines.some((line) => line.includes('cache table unavailable'))).toBe(true);
    const records = capturedMetricLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.some((record) => Number(record.CacheTableErrors) > 0)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 50));
  });

  it('answers while the table never answers, giving up on its reads and writes', async () => {
    table.setMode({ kind: 'hang' });
    try {
      await expectAnswersWithoutTable('hung', [impatient]);
      // It asked the table, and answered though the table never did.
      expect(table.operations.length).toBeGreaterThan(0);
    } finally {
      table.setMode({ kind: 'ok' });
    }
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 50));
  });

  it('answers while the table throttles or fails', async () => {
    table.setMode({ kind: 'throttle' });
    await expectAnswersWithoutTable('throttled');
    table.setMode({ kind: 'error' });
    await expectAnswersWithoutTable('erroring');
    table.setMode({ kind: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 50));
  });

  it('uses the table again once it is back', async () => {
    serve({ recovered: scholarPage('recovered', ids('rc', 2)) });
    await first.post(CITE, { citation_source: 'index', query: 'recovered', results: 2 });
    forgetCalls();
    const reply = await second.post(CITE, { citation_source: 'index', query: 'recovered', results: 2 });
    expect(reply.headers.get('x-cache')).toBe('hit');
    expect(upstream.calls()).toBe(0);
  });
});
