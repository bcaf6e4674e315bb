/**
 * One upstream call per question in flight (docs/budget-and-caching.md, "One call per question"): identical
 * requests asked at once share one call, within a container (they wait for its promise) and across
 * containers (a claim in the shared table, the others reading the answer there), and the budget counts it
 * once. The fake upstream answers slowly, so that every request is asked while the first call is on its
 * way; the counter and the cache are dynalite tables, the containers the test's process or processes of
 * their own.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hourWindow } from '../../lib/budget/windows.js';
import { storedCount } from '../support/budget-proxy.js';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type Service, startService } from '../support/service.js';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.js';
import { clearOfWindowEdges } from '../support/window-edges.js';

let upstream: FakeSerpApi;
let tables: CacheTableServer;
let service: Service;
const processes: ServiceProcess[] = [];

/** Another table on the same endpoint, as the stack has the cache's and the budget's. */
async function createTable(name: string): Promise<void> {
  const { CreateTableCommand, DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const client = new DynamoDBClient({
    endpoint: tables.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  await client.send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  client.destroy();
}

/** A container's environment: the shared cache, its budget table, a budget of 10 an hour. */
const containerEnv = (budgetTable: string) => ({
  ...tables.env,
  BUDGET_TABLE_NAME: budgetTable,
  SERPAPI_BASE_URL: upstream.url,
  ANSWER_CACHE_TTL_SECONDS: '3600',
  // Bravo's answers are not cached: only the sharing of a call in flight can spare a call there.
  ANSWER_CACHE_TTL_BY_ENDPOINT: 'web-search-bravo=0',
  SEARCHES_PER_HOUR: '10',
  BUDGET_TIMEOUT_MS: '5000',
});

beforeAll(async () => {
  upstream = await startFakeSerpApi();
  tables = await startCacheTable('one-call-cache');
  await createTable('one-call-budget');
  await createTable('one-call-budget-two');
  service = await startService(containerEnv('one-call-budget'));
});
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await service.close();
  await tables.close();
  await upstream.close();
});
// A window ending mid-test would reset the counts it compares (test/support/window-edges.ts).
beforeEach(async () => {
  upstream.reset();
  await clearOfWindowEdges();
});

const hourCount = async (table: string) => (await storedCount(tables.endpoint, table, hourWindow(Date.now(), 10).key)) ?? 0;

describe('identical questions asked at once', () => {
  it('8 on one container make 1 upstream call, counted once, and all are answered', async () => {
    upstream.latencyMs = 400;
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => service.post('/v1/web-search/alpha', { q: 'asked eight times at once' })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(replies.map((r) => JSON.stringify(r.json.data))).size).toBe(1);
    expect(upstream.calls()).toBe(1);
    expect(await hourCount('one-call-budget')).toBe(1);
    // The others were answered without a call of their own.
    expect(replies.filter((r) => r.headers.get('x-cache') === 'hit')).toHaveLength(7);
  });

  it('8 on one container share the call in flight even where answers are not cached, and the next one calls again', async () => {
    upstream.latencyMs = 400;
    const before = await hourCount('one-call-budget');
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => service.post('/v1/web-search/bravo', { q: 'not cached, asked at once' })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(upstream.calls()).toBe(1);
    expect((await hourCount('one-call-budget')) - before).toBe(1);
    upstream.latencyMs = 0;
    expect((await service.post('/v1/web-search/bravo', { q: 'not cached, asked at once' })).status).toBe(200);
    expect(upstream.calls()).toBe(2);
  });

  it('20 across two containers with a budget of 10 make 1 upstream call, counted once, and all are answered', async () => {
    const env = containerEnv('one-call-budget-two');
    const [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    processes.push(a, b);
    upstream.latencyMs = 600;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).post('/v1/web-search/alpha', { q: 'asked twenty times at once' })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(upstream.calls()).toBe(1);
    expect(await hourCount('one-call-budget-two')).toBe(1);
    const usage = await a.post('/v1/usage', {});
    expect(usage.json.data.hour).toMatchObject({ limit: 10, used: 1, left: 9 });
  }, 120_000);

  it('a failure of the question is shared by those who waited for it; a different question is asked on its own', async () => {
    upstream.latencyMs = 300;
    upstream.respond((q) => (q.get('q') === 'failing at once' ? 'status500' : undefined));
    const replies = await Promise.all([
      ...Array.from({ length: 4 }, () => service.post('/v1/web-search/alpha', { q: 'failing at once' })),
      service.post('/v1/web-search/alpha', { q: 'another question' }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([502, 502, 502, 502, 200]);
    // One search's three attempts, and the other question's one call.
    expect(upstream.calls()).toBe(4);
  });

  it('a request with no_cache asks on its own', async () => {
    upstream.latencyMs = 200;
    const replies = await Promise.all([
      service.post('/v1/web-search/alpha', { q: 'fresh or shared' }),
      service.post('/v1/web-search/alpha', { q: 'fresh or shared', no_cache: true }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(upstream.calls()).toBe(2);
  });
});
