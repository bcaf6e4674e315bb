/**
 * POST /v1/cite/search over real HTTP against the fake upstream: the two steps, paging, partial failure,
 * and the warm-container caches, counted at the upstream. Each test searches its own query for papers
 * with their own ids, so the caches of one test never answer another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseSchema } from '../../lib/contract/cite-search.js';
import { sample } from '../../lib/local/samples.js';
import { capturedLogLines } from '../support/capture-logs.js';
import { startFakeCrossref } from '../support/fake-crossref.js';
import type { Fault } from '../support/fake-serpapi.js';
import { type Reply, TEST_UPSTREAM_KEY, useService } from '../support/service.js';

const PATH = '/v1/cite/search';
const FIVE = ['MLA', 'APA', 'Chicago', 'Harvard', 'Vancouver'];

// Citations are rendered from Crossref records where it knows the paper; the fake Crossref knows none of
// these papers (the recorded empty answer), so by default every paper is cited from the index's own record
// of it, with no cite call; the tests of the cite call ask for it ("citation_source": "index").
const crossref = await startFakeCrossref();
afterAll(() => crossref.close());
const harness = useService({
  CROSSREF_BASE_URL: crossref.url,
  // A hanging cite call gives up after its own short timeout; were the search's long one used instead,
  // the hang test would run into the test timeout.
  CITE_TIMEOUT_MS: '300',
  UPSTREAM_TIMEOUT_MS: '25000',
  // A 429 asking for 1 s is not waited for: the failure shows at once.
  MAX_RETRY_AFTER_MS: '500',
  // The search page is cached like every endpoint's answer (memory only here: no table configured).
  ANSWER_CACHE_TTL_SECONDS: '3600',
});

/** A scholar page of n papers built from the recording's first result, with ids `<prefix>-1`… */
function scholarPage(prefix: string, n: number, { next = true } = {}) {
  const recorded = sample('google_scholar');
  const first = (recorded.organic_results as Record<string, unknown>[])[0];
  const page: Record<string, unknown> = {
    ...recorded,
    organic_results: Array.from({ length: n }, (_, i) => ({
      ...first,
      position: i,
      title: `${prefix} paper ${i + 1}`,
      result_id: `${prefix}-${i + 1}`,
    })),
  };
  if (!next) {
    delete page.pagination;
    delete page.serpapi_pagination;
  }
  return page;
}

/** A request that asks for the index's cite call for every paper. */
const INDEX = { citation_source: 'index' } as const;

/** Serves `page` for the scholar search of `query`; cite calls get `cite(id)` or else the recorded sample. */
function serve(query: string, page: unknown, cite: (id: string) => Fault | undefined = () => undefined) {
  harness.upstream.respond((q) => {
    if (q.get('engine') === 'google_scholar' && q.get('q') === query) return { json: page };
    if (q.get('engine') === 'google_scholar_cite') return cite(q.get('q') ?? '');
    return undefined;
  });
}

// The first citation search of a container builds the citation styles, seconds of CPU on a busy machine,
// during which no timer fires on time; built here first, so that the 300 ms cite timeouts above measure
// the fake upstream and not the build (which test/integration/cite-search-crossref.test.ts exercises).
beforeAll(async () => {
  await (await import('../../lib/citations/render/render.js')).citationRenderer();
}, 180_000);

const citeIds = () => harness.upstream.requests.filter((q) => q.get('engine') === 'google_scholar_cite').map((q) => q.get('q'));

function expectSuccess(reply: Reply) {
  expect(reply.status).toBe(200);
  expect(reply.json.success).toBe(true);
  return reply.json.data;
}

/** The access log line of the last request: the service's own count of upstream calls and cache hits. */
function lastRequestLog(): { upstreamCalls: number; cacheHits: number } {
  const line = capturedLogLines
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .filter((entry) => entry.message === 'request' && entry.path === PATH)
    .at(-1);
  if (!line) throw new Error('no request log line');
  return line as unknown as { upstreamCalls: number; cacheHits: number };
}

describe('POST /v1/cite/search', () => {
  it("answers every field of the contract on the recorded samples at one paid call, every paper cited from the index's record", async () => {
    const reply = await harness.service.post(PATH, { query: 'bananas' });
    const data = expectSuccess(reply);
    expect(reply.json.message).toBe('2 papers');
    expect(responseSchema.parse(data)).toEqual(data);
    expect(Object.fromEntries(harness.upstream.requests[0] ?? [])).toEqual({
      engine: 'google_scholar',
      q: 'bananas',
      num: '10',
      start: '0',
      api_key: TEST_UPSTREAM_KEY,
    });
    expect(harness.upstream.calls()).toBe(1);
    expect(citeIds()).toEqual([]);
    expect(data).toMatchObject({
      total_found: 2,
      total_results: 1_140_000,
      citation_count: 2,
      format: 'MLA',
      citation_markup: 'text',
      page: 0,
      has_more: true,
      index_offset: 0,
    });
    expect(data.papers[0]).toEqual({
      index: 1,
      title: 'Bananas and plantains',
      source_url: expect.stringMatching(/^https:\/\//),
      pdf_url: null,
      scholar_id: 'dyZ4bDycdLQJ',
      cited_by: 'Cited by 1179',
      publication: expect.any(String),
      snippet: expect.any(String),
      citations: Object.fromEntries(FIVE.map((format) => [format, expect.any(String)])),
      citations_source: 'index-record',
      citation_gaps: ['publisher'],
      // What a client needs to follow the paper without a second search, as the index gave it.
      authors: [
        { name: 'JC Robinson', author_id: null },
        { name: 'VG Saúco', author_id: null },
      ],
      cites_id: '13003189807457248887',
      cluster_id: '13003189807457248887',
      result_type: 'Book',
    });
    // Each citation names its own paper: its title and its first author.
    for (const [paper, author] of [
      [data.papers[0], 'Robinson'],
      [data.papers[1], 'Simmonds'],
    ]) {
      for (const format of FIVE) {
        expect(paper.citations[format].toLowerCase()).toContain(paper.title.replace(/\.$/, '').toLowerCase());
        expect(paper.citations[format]).toContain(author);
      }
    }
    expect(data.reference_list[1]).toBe(`[2] ${data.papers[1].citations.MLA}`);
    expect(data.url_list).toEqual([data.papers[0].source_url, data.papers[1].source_url]);
    expect(data.citation_details[0]).toMatchObject({
      links: [],
      error: null,
      fallback_reason: expect.stringMatching(/Crossref/),
    });
    expect(data.note).toContain('"page": 1');
  });

  it('asks the index\'s cite call for every paper with "citation_source": "index", and keeps its export links', async () => {
    const data = expectSuccess(await harness.service.post(PATH, { query: 'bananas', ...INDEX, no_cache: true }));
    expect(citeIds().sort()).toEqual(['dyZ4bDycdLQJ', 'l2aiAreIuHsJ']);
    expect(data.papers.map((p: { citations_source: string }) => p.citations_source)).toEqual(['index', 'index']);
    for (const paper of data.papers) expect(Object.keys(paper.citations)).toEqual(FIVE);
    expect(data.citation_details[0].links.map((l: { name: string }) => l.name)).toEqual([
      'BibTeX',
      'EndNote',
      'RefMan',
      'RefWorks',
    ]);
  });

  it('writes citations as HTML when asked: the journal or book title in italics', async () => {
    const data = expectSuccess(await harness.service.post(PATH, { query: 'bananas', citation_markup: 'html', format: 'APA' }));
    expect(data.citation_markup).toBe('html');
    expect(data.papers[0].citations.APA).toContain('<i>Bananas and plantains</i>');
    expect(data.reference_list[0]).toBe(`[1] ${data.papers[0].citations.APA}`);
  });

  it('sends num = results and start = page × results (no gl: the scholarly search has none), and writes references in the chosen format', async () => {
    serve('gl test', scholarPage('gl', 5));
    const data = expectSuccess(await harness.service.post(PATH, { query: 'gl test', results: 5, page: 3, format: 'APA' }));
    expect(harness.upstream.requests[0]?.get('num')).toBe('5');
    expect(harness.upstream.requests[0]?.get('start')).toBe('15');
    expect(harness.upstream.requests[0]?.has('gl')).toBe(false);
    expect(data.reference_list[0]).toBe(`[16] ${data.papers[0].citations.APA}`);
  });

  it('pages 20 papers: page 0 holds indexes 1–20 with more to come, page 1 holds 21–40 and is the last', async () => {
    serve('paging', scholarPage('p0', 20));
    const first = expectSuccess(await harness.service.post(PATH, { query: 'paging', results: 20, ...INDEX }));
    expect(first.papers.map((p: { index: number }) => p.index)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(first).toMatchObject({ page: 0, index_offset: 0, has_more: true, total_found: 20, citation_count: 20 });
    expect(citeIds().sort()).toEqual(Array.from({ length: 20 }, (_, i) => `p0-${i + 1}`).sort());

    harness.upstream.reset();
    serve('paging', scholarPage('p1', 20, { next: false }));
    const second = expectSuccess(await harness.service.post(PATH, { query: 'paging', results: 20, page: 1, ...INDEX }));
    expect(harness.upstream.requests[0]?.get('start')).toBe('20');
    expect(second.papers.map((p: { index: number }) => p.index)).toEqual(Array.from({ length: 20 }, (_, i) => i + 21));
    expect(second).toMatchObject({ page: 1, index_offset: 20, has_more: false });
    expect(second.reference_list[0]).toMatch(/^\[21\] /);
    expect(second.note).toContain('This is the last page.');
  });

  it.each<[string, Fault]>([
    ['fails with HTTP 500', 'status500'],
    ['hangs past its timeout', 'hang'],
    ['is refused with 429', 'rate429'],
    ['answers an upstream error', 'errorBody'],
  ])(
    "cites from the index's record the one paper whose cite call %s, and the others from their cite answers",
    async (_, fault) => {
      const query = `partial ${fault}`;
      serve(query, scholarPage(`f-${fault}`, 6), (id) => (id === `f-${fault}-4` ? fault : undefined));
      const data = expectSuccess(await harness.service.post(PATH, { query, results: 6, ...INDEX }));
      expect(data.total_found).toBe(6);
      expect(data.papers[3]).toMatchObject({ index: 4, scholar_id: `f-${fault}-4`, citations_source: 'index-record' });
      expect(data.citation_details[3]).toMatchObject({
        links: [],
        error: null,
        fallback_reason: expect.stringMatching(/^The index's cite call failed: /),
      });
      for (const i of [0, 1, 2, 4, 5]) expect(data.papers[i].citations_source).toBe('index');
      for (const paper of data.papers) expect(Object.keys(paper.citations)).toEqual(FIVE);
      expect(data.papers[3].citations.MLA.toLowerCase()).toContain(`f-${fault} paper 4`.toLowerCase());
      expect(data.citation_count).toBe(6);
      expect(data.note).not.toContain('lack citations');
    },
  );

  it.each<[Fault, number, string]>([
    ['status500', 502, 'UPSTREAM_ERROR'],
    ['rate429', 503, 'UPSTREAM_QUOTA_EXCEEDED'],
    ['invalidKey', 500, 'SERVICE_MISCONFIGURED'],
  ])('fails the request when the search itself fails (%s → %i %s), with no cite call', async (fault, status, code) => {
    harness.upstream.respond((q) => (q.get('engine') === 'google_scholar' ? fault : undefined));
    const reply = await harness.service.post(PATH, { query: `search fails ${fault}` });
    expect(reply.status).toBe(status);
    expect(reply.json).toMatchObject({ success: false, data: null, error: { code } });
    expect(harness.upstream.calls('google_scholar')).toBeGreaterThanOrEqual(1);
    expect(harness.upstream.calls('google_scholar_cite')).toBe(0);
  });

  it('answers "No results" with empty lists when the index finds nothing, with no cite call', async () => {
    harness.upstream.respond((q) => (q.get('engine') === 'google_scholar' ? 'noResults' : undefined));
    const reply = await harness.service.post(PATH, { query: 'zzqxv nothing' });
    const data = expectSuccess(reply);
    expect(reply.json.message).toBe('No results');
    expect(data).toMatchObject({
      total_found: 0,
      papers: [],
      reference_list: [],
      url_list: [],
      citation_details: [],
      has_more: false,
    });
    expect(harness.upstream.calls('google_scholar_cite')).toBe(0);
  });

  it.each([0, 21])('rejects results %i with 400 INVALID_REQUEST before any upstream call', async (results) => {
    const reply = await harness.service.post(PATH, { query: 'bananas', results });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toEqual({ code: 'INVALID_REQUEST', details: 'results: must be an integer from 1 to 20' });
    expect(harness.upstream.calls()).toBe(0);
  });
});

describe('POST /v1/cite/search caching', () => {
  it('answers a repeated request from the warm container with no upstream call', async () => {
    serve('cache repeat', scholarPage('r', 4));
    expectSuccess(await harness.service.post(PATH, { query: 'cache repeat', results: 4, ...INDEX }));
    expect(harness.upstream.calls()).toBe(5);

    harness.upstream.reset();
    serve('cache repeat', scholarPage('r', 4));
    const again = expectSuccess(await harness.service.post(PATH, { query: 'cache repeat', results: 4, ...INDEX }));
    expect(harness.upstream.calls()).toBe(0);
    expect(lastRequestLog()).toMatchObject({ upstreamCalls: 0, cacheHits: 5 });
    expect(again.citation_count).toBe(4);
    for (const paper of again.papers) expect(Object.keys(paper.citations)).toEqual(FIVE);
  });

  it('costs no cite call for a paper another search already cited', async () => {
    serve('shared one', scholarPage('shared', 3));
    expectSuccess(await harness.service.post(PATH, { query: 'shared one', results: 3, ...INDEX }));

    harness.upstream.reset();
    // Another search whose page holds the same three papers and one new one.
    serve('shared two', scholarPage('shared', 4));
    const data = expectSuccess(await harness.service.post(PATH, { query: 'shared two', results: 4, ...INDEX }));
    expect(harness.upstream.calls('google_scholar')).toBe(1);
    expect(citeIds()).toEqual(['shared-4']);
    expect(data.citation_count).toBe(4);
  });

  it('with no_cache: true, calls the upstream again for the search and every paper', async () => {
    serve('bypass', scholarPage('b', 3));
    expectSuccess(await harness.service.post(PATH, { query: 'bypass', results: 3, ...INDEX }));

    harness.upstream.reset();
    serve('bypass', scholarPage('b', 3));
    expectSuccess(await harness.service.post(PATH, { query: 'bypass', results: 3, no_cache: true, ...INDEX }));
    expect(harness.upstream.calls('google_scholar')).toBe(1);
    expect(citeIds().sort()).toEqual(['b-1', 'b-2', 'b-3']);
    expect(lastRequestLog().cacheHits).toBe(0);
  });

  it('does not cache a failed cite: the repeated request retries only that paper, and gets it', async () => {
    serve('failed cite', scholarPage('x', 3), (id) => (id === 'x-2' ? 'errorBody' : undefined));
    const first = expectSuccess(await harness.service.post(PATH, { query: 'failed cite', results: 3, ...INDEX }));
    expect(first.papers[1].citations_source).toBe('index-record');

    harness.upstream.reset();
    serve('failed cite', scholarPage('x', 3));
    const second = expectSuccess(await harness.service.post(PATH, { query: 'failed cite', results: 3, ...INDEX }));
    expect(harness.upstream.calls('google_scholar')).toBe(0);
    expect(citeIds()).toEqual(['x-2']);
    expect(Object.keys(second.papers[1].citations)).toEqual(FIVE);
    expect(second.papers[1].citations_source).toBe('index');
    expect(second.citation_count).toBe(3);
  });

  it('does not cache an answer that holds no citations: the repeated request asks for that paper again', async () => {
    const empty = { search_metadata: { status: 'Success' }, citations: [], links: [] };
    serve('empty cite', scholarPage('e', 3), (id) => (id === 'e-3' ? { json: empty } : undefined));
    const first = expectSuccess(await harness.service.post(PATH, { query: 'empty cite', results: 3, ...INDEX }));
    expect(first.papers[2].citations_source).toBe('index-record');
    expect(first.citation_details[2].fallback_reason).toBe("The index's cite answer held no citations");

    harness.upstream.reset();
    serve('empty cite', scholarPage('e', 3));
    const second = expectSuccess(await harness.service.post(PATH, { query: 'empty cite', results: 3, ...INDEX }));
    expect(citeIds()).toEqual(['e-3']);
    expect(second.papers[2].citations_source).toBe('index');
    expect(second.citation_count).toBe(3);
  });

  it('does not cache an empty search page: the repeated request searches again', async () => {
    harness.upstream.respond((q) => (q.get('engine') === 'google_scholar' ? 'noResults' : undefined));
    expectSuccess(await harness.service.post(PATH, { query: 'empty page once' }));
    harness.upstream.reset();
    const second = expectSuccess(await harness.service.post(PATH, { query: 'empty page once' }));
    expect(harness.upstream.calls('google_scholar')).toBe(1);
    expect(second.total_found).toBeGreaterThan(0);
  });
});
