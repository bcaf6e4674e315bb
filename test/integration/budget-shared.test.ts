/**
 * The spending budget as deployed: one counter in a DynamoDB table (dynalite on loopback) shared by
 * service processes, each a container of its own. Exactness across processes and under concurrency, the
 * fail-open rule (and fail-closed), and a fresh process's first request answered by the shared cache.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dayWindow } from '../../lib/budget/windows.js';
import { storedCount } from '../support/budget-proxy.js';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { TEST_CLIENT_KEY } from '../support/service.js';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.js';
import { clearOfWindowEdges } from '../support/window-edges.js';

let upstream: FakeSerpApi;
let table: CacheTableServer;
const started: ServiceProcess[] = [];

beforeAll(async () => {
  upstream = await startFakeSerpApi();
  table = await startCacheTable('search-citation-budget');
});
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  await table.close();
  await upstream.close();
});
// A window ending mid-test would reset the counts it compares (test/support/window-edges.ts).
beforeEach(async () => {
  upstream.reset();
  table.setMode({ kind: 'ok' });
  await clearOfWindowEdges();
});

/** A service process counting in the shared table; every process of one `budget` shares its windows. */
async function container(env: Record<string, string | undefined>): Promise<ServiceProcess> {
  const { CACHE_TABLE_NAME: _cache, ...tableEnv } = table.env;
  const service = await startServiceProcess({
    ...tableEnv,
    SERPAPI_BASE_URL: upstream.url,
    BUDGET_TABLE_NAME: table.tableName,
    // A working counter gets seconds (the deployed default is 1000 ms): on a machine busy with other work
    // a slower update would be sent twice and could fail open, which the tests of exact counting here do
    // not mean to exercise (test/integration/budget-slow.test.ts does). The test of a slow counter sets its own.
    BUDGET_TIMEOUT_MS: '5000',
    ...env,
  });
  started.push(service);
  return service;
}

/** One process per month key is impossible, so each test uses its own hourly limit on a table of its own. */
async function freshTable(name: string): Promise<Record<string, string>> {
  const own = await startCacheTable(name);
  closeLater.push(own);
  const { CACHE_TABLE_NAME: _cache, ...env } = own.env;
  return { ...env, BUDGET_TABLE_NAME: own.tableName };
}
const closeLater: CacheTableServer[] = [];
const closeProxies: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(closeProxies.map((p) => p.close()));
  await Promise.all(closeLater.map((t) => t.close()));
});

/** A pass-through to `target` that holds back the first answer on each new connection by `delayMs`. */
async function slowFirstAnswerProxy(target: string, delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const seen = new WeakSet<Socket>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const first = !seen.has(req.socket);
    seen.add(req.socket);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const forward = () => {
        const upstreamRequest = request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstreamRequest.on('error', () => res.destroy());
        upstreamRequest.end(Buffer.concat(chunks));
      };
      if (first) setTimeout(forward, delayMs);
      else forward();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('the shared budget counter (DynamoDB)', () => {
  it('two processes share one budget exactly: N allowed across both, the next refused in either', async () => {
    const env = { SEARCHES_PER_HOUR: '5', SEARCHES_PER_MONTH: '0' };
    const [a, b] = await Promise.all([container(env), container(env)]);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await (i % 2 ? b : a).post('/v1/web-search/alpha', { q: `shared ${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const refusedB = await b.post('/v1/web-search/alpha', { q: 'shared 5' });
    const refusedA = await a.post('/v1/web-search/alpha', { q: 'shared 6' });
    expect([refusedA.status, refusedB.status]).toEqual([429, 429]);
    expect(refusedA.json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(Number(refusedA.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(upstream.calls()).toBe(5);
    const usage = await a.post('/v1/usage', {});
    expect(usage.json.data.hour).toMatchObject({ limit: 5, used: 5, left: 0 });
    expect(table.operations.every((op) => op === 'UpdateItem' || op === 'GetItem')).toBe(true);
  });

  it('20 concurrent requests against a budget of 10 make exactly 10 paid calls', async () => {
    const service = await container({ ...(await freshTable('budget-concurrent')), SEARCHES_PER_HOUR: '10' });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => service.post('/v1/web-search/alpha', { q: `concurrent ${i}` })),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(10);
    expect(replies.filter((r) => r.status === 429 && r.json.error.code === 'BUDGET_EXHAUSTED')).toHaveLength(10);
    expect(upstream.calls()).toBe(10);
  });

  it('fails open while the counter is down: answers still come, within the per-container backstop', async () => {
    const own = await freshTable('budget-down');
    const service = await container({ ...own, SEARCHES_PER_HOUR: '100', BUDGET_BACKSTOP_PER_HOUR: '2' });
    const down = closeLater.at(-1) as CacheTableServer;
    await down.stop();
    expect((await service.post('/v1/web-search/alpha', { q: 'down 1' })).status).toBe(200);
    expect((await service.post('/v1/web-search/alpha', { q: 'down 2' })).status).toBe(200);
    const third = await service.post('/v1/web-search/alpha', { q: 'down 3' });
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(upstream.calls()).toBe(2);
    await down.start();
  });

  it('never lets a key pass its own daily limit while the counter is down, whatever each container last heard: 503 with the counter’s next try, no paid call', async () => {
    const own = await freshTable('budget-down-daily');
    const down = closeLater.at(-1) as CacheTableServer;
    const BOB = 'bob-key-with-seven-a-day-0123';
    const env = { ...own, API_KEYS: `${TEST_CLIENT_KEY},bob:${BOB}:daily=7`, BUDGET_RETRY_MS: '1000' };
    const [a, b] = await Promise.all([container(env), container(env)]);
    const asBob = { headers: { Authorization: `Bearer ${BOB}` } };
    // Five of bob's seven, across both containers: A last hears 5, B 4.
    for (let i = 0; i < 5; i++)
      expect((await (i % 2 ? b : a).post('/v1/web-search/alpha', { q: `bob ${i}` }, asBob)).status).toBe(200);
    await down.stop();
    const replies = [];
    for (let i = 0; i < 3; i++) {
      replies.push(await a.post('/v1/web-search/alpha', { q: `bob on a ${i}` }, asBob));
      replies.push(await b.post('/v1/web-search/alpha', { q: `bob on b ${i}` }, asBob));
    }
    for (const reply of replies) {
      expect(reply.status).toBe(503);
      expect(reply.json.error.code).toBe('BUDGET_UNAVAILABLE');
      expect(reply.json.error.details).toMatch(/your key's own limit of 7 searches today cannot be kept/);
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(reply.headers.get('retry-after'))).toBeLessThanOrEqual(1);
    }
    expect(upstream.calls()).toBe(5);
    // A key without a limit of its own fails open meanwhile, within the container's allowance.
    expect((await a.post('/v1/web-search/alpha', { q: 'no limit while down' })).status).toBe(200);
    await down.start();
    const day = dayWindow(Date.now(), 'bob', 7).key;
    expect(await storedCount(down.endpoint, down.tableName, day)).toBe(5);
    // Counting again once each container has tried the counter again (after the Retry-After it said): the two
    // searches left, in either container, then the limit.
    const once = async (service: ServiceProcess, q: string) => {
      let reply = await service.post('/v1/web-search/alpha', { q }, asBob);
      for (let tries = 0; reply.status === 503 && tries < 10; tries++) {
        await new Promise((resolve) => setTimeout(resolve, Number(reply.headers.get('retry-after')) * 1000));
        reply = await service.post('/v1/web-search/alpha', { q }, asBob);
      }
      return reply;
    };
    expect((await once(b, 'bob back 1')).status).toBe(200);
    expect((await once(a, 'bob back 2')).status).toBe(200);
    expect((await b.post('/v1/web-search/alpha', { q: 'bob back 3' }, asBob)).json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(await storedCount(down.endpoint, down.tableName, day)).toBe(7);
  }, 180_000);

  it('fails open when the counter is slower than its budget', async () => {
    const own = await freshTable('budget-slow');
    const slow = closeLater.at(-1) as CacheTableServer;
    const service = await container({ ...own, BUDGET_TIMEOUT_MS: '50' });
    // Twenty times the counter's budget: the answer must not wait for it.
    slow.setMode({ kind: 'slow', delayMs: 1_000 });
    const reply = await service.post('/v1/web-search/alpha', { q: 'slow counter' });
    expect(reply.status).toBe(200);
    expect(upstream.calls()).toBe(1);
  });

  it('with budgetFailClosed, refuses while the counter is down (503 BUDGET_UNAVAILABLE, no paid call)', async () => {
    const own = await freshTable('budget-closed');
    const down = closeLater.at(-1) as CacheTableServer;
    const service = await container({ ...own, BUDGET_FAIL_CLOSED: 'true' });
    await down.stop();
    const reply = await service.post('/v1/web-search/alpha', { q: 'closed' });
    expect(reply.status).toBe(503);
    expect(reply.json.error.code).toBe('BUDGET_UNAVAILABLE');
    expect(upstream.calls()).toBe(0);
    await down.start();
  });

  it("a fresh process's first request is answered by the shared cache, however slow its first connection", async () => {
    const cache = await startCacheTable('budget-cold-cache');
    closeLater.push(cache);
    // Every new connection's first answer comes late, as a cold container's first table call does (client
    // set-up, credentials, TLS): longer than the read budget, shorter than the cold start may wait.
    const slowFirst = await slowFirstAnswerProxy(cache.endpoint, 4_000);
    closeProxies.push(slowFirst);
    const env = {
      ...cache.env,
      AWS_ENDPOINT_URL_DYNAMODB: slowFirst.url,
      ANSWER_CACHE_TTL_SECONDS: '3600',
      // The late answer always misses a read budget shorter than its delay; the cold start waits for it.
      // (Seconds of margin each way, so that a busy machine cannot turn a hit into a miss.)
      CACHE_READ_TIMEOUT_MS: '2500',
      CACHE_WRITE_TIMEOUT_MS: '5000',
      TABLE_PREPARE_TIMEOUT_MS: '10000',
    };
    const first = await container(env);
    expect((await first.post('/v1/web-search/alpha', { q: 'cold start' })).status).toBe(200);
    expect(upstream.calls()).toBe(1);
    await first.stop();
    const fresh = await container(env);
    const reply = await fresh.post('/v1/web-search/alpha', { q: 'cold start' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-cache')).toBe('hit');
    expect(upstream.calls()).toBe(1);
    // Two processes started and two slow first connections: minutes on a busy machine.
  }, 180_000);
});
