/**
 * The budget counts what the provider bills (docs/budget-and-caching.md, "What the provider bills"): the
 * service counting in dynalite behind the fault proxy, the fake SerpApi failing on cue. An upstream 500,
 * SerpApi's own 503, a 429, a hang, and a 200 that says the search failed leave the counter where it was,
 * retries included; a success counts one, whatever failed before it; a search that found nothing counts one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hourWindow } from '../../lib/budget/windows.js';
import { type BudgetProxy, startBudgetProxy, storedCount } from '../support/budget-proxy.js';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';
import { type FakeSerpApi, type Fault, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type Service, startService } from '../support/service.js';
import { clearOfWindowEdges } from '../support/window-edges.js';

let upstream: FakeSerpApi;
let table: CacheTableServer;
let proxy: BudgetProxy;
let service: Service;

beforeAll(async () => {
  upstream = await startFakeSerpApi();
  table = await startCacheTable('budget-billing');
  proxy = await startBudgetProxy(table.endpoint);
  const { CACHE_TABLE_NAME: _cache, ...tableEnv } = table.env;
  service = await startService({
    ...tableEnv,
    AWS_ENDPOINT_URL_DYNAMODB: proxy.url,
    SERPAPI_BASE_URL: upstream.url,
    BUDGET_TABLE_NAME: table.tableName,
    SEARCHES_PER_HOUR: '1000',
    // A working counter gets seconds; this file is about the upstream failing, not the counter.
    BUDGET_TIMEOUT_MS: '5000',
    // A hang is given up quickly, and retried (twice) as any failure is.
    UPSTREAM_TIMEOUT_MS: '300',
  });
});
afterAll(async () => {
  await service.close();
  await proxy.close();
  await table.close();
  await upstream.close();
});
// A window ending mid-test would reset the counts it compares (test/support/window-edges.ts).
beforeEach(async () => {
  upstream.reset();
  await clearOfWindowEdges();
});

/** The deployment's hour as the table holds it (the service's requests have all been answered by then). */
const counted = async () => (await storedCount(table.endpoint, table.tableName, hourWindow(Date.now(), 1000).key)) ?? 0;

describe('what the provider bills is what is counted', () => {
  it.each<[string, Fault, number, string]>([
    ['an HTTP 500', 'status500', 502, 'UPSTREAM_ERROR'],
    ["SerpApi's 503 for a search that failed", 'searchError503', 502, 'UPSTREAM_ERROR'],
    ['a 429 (rate)', 'rate429', 503, 'UPSTREAM_QUOTA_EXCEEDED'],
    ['a connection reset', 'reset', 502, 'UPSTREAM_ERROR'],
    ['no answer at all', 'hang', 504, 'UPSTREAM_TIMEOUT'],
  ])('%s, three times (the try and two retries), leaves the counter where it was', async (_name, fault, status, code) => {
    const before = await counted();
    upstream.respond(() => fault);
    const reply = await service.post('/v1/web-search/alpha', { q: `failing ${String(fault)}`, no_cache: true });
    expect(reply.status).toBe(status);
    expect(reply.json.error.code).toBe(code);
    expect(upstream.calls()).toBe(3);
    expect(await counted()).toBe(before);
  });

  it("SerpApi's 503 passes its own words on", async () => {
    upstream.respond(() => 'searchError503');
    const reply = await service.post('/v1/web-search/alpha', { q: 'serpapi 503', no_cache: true });
    expect(reply.json.error.details).toMatch(/HTTP 503: We couldn't get valid results for this search/);
  });

  it.each<[string, Fault]>([
    ['a 200 whose search status is Error', { json: { search_metadata: { status: 'Error' } } }],
    ['a 200 with an error of its own', 'errorBody'],
  ])('%s is not counted either (and not retried)', async (_name, fault) => {
    const before = await counted();
    upstream.queue(fault);
    const reply = await service.post('/v1/web-search/alpha', { q: `error answer ${_name}`, no_cache: true });
    expect(reply.status).toBe(502);
    expect(upstream.calls()).toBe(1);
    expect(await counted()).toBe(before);
  });

  it('a success after two failures counts one: the retries of one search share its one unit', async () => {
    const before = await counted();
    upstream.queue('status500', 'hang');
    const reply = await service.post('/v1/web-search/alpha', { q: 'third time lucky', no_cache: true });
    expect(reply.status).toBe(200);
    expect(upstream.calls()).toBe(3);
    expect(await counted()).toBe(before + 1);
  });

  it('a search that found nothing counts one: the provider bills it ("Success", empty)', async () => {
    const before = await counted();
    upstream.queue('noResults');
    const reply = await service.post('/v1/web-search/alpha', { q: 'nothing at all', no_cache: true });
    expect(reply.json.message).toBe('No results');
    expect(await counted()).toBe(before + 1);
  });

  it('a 200 that is not JSON counts one: nothing in it says the search failed', async () => {
    const before = await counted();
    upstream.queue('garbage');
    expect((await service.post('/v1/web-search/alpha', { q: 'garbled', no_cache: true })).status).toBe(502);
    expect(await counted()).toBe(before + 1);
  });

  it('/v1/usage agrees with the table and shows nothing unsettled', async () => {
    const usage = await service.post('/v1/usage', {});
    expect(usage.json.data.hour.used).toBe(await counted());
    expect(usage.json.data.unsettled).toEqual({ searches_not_counted: 0, searches_not_given_back: 0 });
  });
});
