/**
 * The shared budget counter when the table is slow, in service processes (each a container) counting in
 * dynalite behind a proxy that loses answers or holds requests until the service has given up. Nothing
 * here depends on the machine's speed: a held request never answers, a passed one has seconds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BudgetProxy, startBudgetProxy } from '../support/budget-proxy.js';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.js';
import { clearOfWindowEdges } from '../support/window-edges.js';

let upstream: FakeSerpApi;
let table: CacheTableServer;
let proxy: BudgetProxy;
const started: ServiceProcess[] = [];

beforeAll(async () => {
  upstream = await startFakeSerpApi();
  table = await startCacheTable('search-citation-budget-slow');
  proxy = await startBudgetProxy(table.endpoint);
});
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  await proxy.close();
  await table.close();
  await upstream.close();
});
// A window ending mid-test would reset the counts it compares (test/support/window-edges.ts).
beforeEach(async () => {
  upstream.reset();
  await clearOfWindowEdges();
});

async function container(env: Record<string, string>): Promise<ServiceProcess> {
  const { CACHE_TABLE_NAME: _cache, ...tableEnv } = table.env;
  const service = await startServiceProcess({
    ...tableEnv,
    AWS_ENDPOINT_URL_DYNAMODB: proxy.url,
    SERPAPI_BASE_URL: upstream.url,
    BUDGET_TABLE_NAME: table.tableName,
    SEARCHES_PER_HOUR: '100',
    BUDGET_TIMEOUT_MS: '2000',
    ...env,
  });
  started.push(service);
  return service;
}

async function usage(service: ServiceProcess): Promise<{ hour: number; today: number }> {
  const reply = await service.post('/v1/usage', {});
  expect(reply.status).toBe(200);
  return { hour: reply.json.data.hour.used, today: reply.json.data.client.today.used };
}

describe('a slow budget counter', () => {
  it('fail-closed: sends an unanswered reservation once more, and answers 503 only when both go unanswered, giving back what landed', async () => {
    const service = await container({ BUDGET_FAIL_CLOSED: 'true' });
    const before = await usage(service);

    // The first answer is lost after the reservation landed: the second attempt finds it, one search, counted once.
    proxy.queue('drop');
    expect((await service.post('/v1/web-search/alpha', { q: 'slow closed 1' })).status).toBe(200);
    expect(upstream.calls()).toBe(1);
    expect(await usage(service)).toEqual({ hour: before.hour + 1, today: before.today + 1 });

    // Neither attempt answered: 503, no search; the copies land after the service gave up.
    const mark = proxy.operations.length;
    proxy.queue('hold', 'hold');
    const refused = await service.post('/v1/web-search/alpha', { q: 'slow closed 2' });
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe('BUDGET_UNAVAILABLE');
    expect(upstream.calls()).toBe(1);
    // The two held attempts, then the give-back by token (its two steps) that bars them.
    await proxy.received(mark + 4);
    await proxy.idle();
    await proxy.release();
    expect(await usage(service)).toEqual({ hour: before.hour + 1, today: before.today + 1 });
  }, 120_000);

  it('fail-open: a search made while the counter did not answer is counted once in the shared counter', async () => {
    const service = await container({});
    const before = await usage(service);
    const mark = proxy.operations.length;
    proxy.queue('hold', 'hold');
    expect((await service.post('/v1/web-search/alpha', { q: 'slow open 1' })).status).toBe(200);
    expect(upstream.calls()).toBe(1);
    // The two held attempts on the day's item, then the search counted by token in the day and the hour.
    await proxy.received(mark + 4);
    await proxy.idle();
    await proxy.release();
    expect(await usage(service)).toEqual({ hour: before.hour + 1, today: before.today + 1 });
  }, 120_000);
});
