/**
 * The budget through an outage of its counter, and refusals that tell the truth (docs/budget-and-caching.md,
 * "While the counter is down"): the service counting in a dynalite table that is stopped and started again
 * under it. Failing open keeps each key's own daily limit (a key at its limit makes no paid call; a key
 * with a limit of its own is refused until the counter answers, its count heard or not); the container's own allowance
 * refuses with the wait until the counter is tried again; what was searched meanwhile is written once the
 * table is back, by the container itself, with no further request. Then, with the counter answering, a
 * full hour is named as such to every request of a key whose own day has room, however many at once.
 * The tests run in order, as one hour of one container.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hourWindow } from '../../lib/budget/windows.js';
import { storedCount } from '../support/budget-proxy.js';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';
import { clearOfWindowEdges } from '../support/window-edges.js';

const HOURLY = 8;
const RETRY_MS = 1_000;
const KEYS = { two: 'key-with-two-a-day-0123456789', seven: 'key-with-seven-a-day-012345', never: 'key-never-heard-0123456789' };

let table: CacheTableServer;
// Registered before useService's own: the table must exist when the service starts.
beforeAll(async () => {
  table = await startCacheTable('budget-outage');
}, 120_000);
afterAll(async () => {
  await table.close();
});
// The tests of this file share one process's counts, in one hour: none may start with the hour about to
// end (test/support/window-edges.ts).
beforeAll(() => clearOfWindowEdges(120_000), 150_000);
const running = useService({
  // Read when the service starts, after the table below is up.
  get AWS_ENDPOINT_URL_DYNAMODB() {
    return table.endpoint;
  },
  get BUDGET_TABLE_NAME() {
    return table.tableName;
  },
  API_KEYS: `${TEST_CLIENT_KEY},two:${KEYS.two}:daily=2,seven:${KEYS.seven}:daily=7,never:${KEYS.never}:daily=5`,
  SEARCHES_PER_HOUR: String(HOURLY),
  BUDGET_BACKSTOP_PER_HOUR: '1',
  BUDGET_RETRY_MS: String(RETRY_MS),
  BUDGET_TIMEOUT_MS: '5000',
} as Record<string, string>);

const as = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });
const search = (q: string, key = TEST_CLIENT_KEY) => running.service.post('/v1/web-search/alpha', { q }, as(key));
const hourCount = async () => (await storedCount(table.endpoint, table.tableName, hourWindow(Date.now(), HOURLY).key)) ?? 0;
const endOfHour = (at: number) => hourWindow(at, HOURLY).endsAt;

describe('while the counter is down', () => {
  it('the container hears the counts while the counter answers', async () => {
    expect((await search('two 1', KEYS.two)).status).toBe(200);
    expect((await search('two 2', KEYS.two)).status).toBe(200);
    expect((await search('main 1')).status).toBe(200);
    expect(await hourCount()).toBe(3);
    await table.stop();
  });

  it('a key at its daily limit gets 0 paid calls, told its own limit is used up, until the day ends', async () => {
    const before = Date.now();
    const reply = await search('two 3', KEYS.two);
    expect(reply.status).toBe(429);
    expect(reply.json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(reply.json.error.details).toMatch(
      /^Your key's own limit of 2 searches today is used up \(as this container last heard it/,
    );
    const day = Date.UTC(new Date(before).getUTCFullYear(), new Date(before).getUTCMonth(), new Date(before).getUTCDate() + 1);
    expect(Number(reply.headers.get('retry-after'))).toBeLessThanOrEqual(Math.ceil((day - before) / 1000));
    expect(running.upstream.calls()).toBe(0);
  });

  it('a key with a daily limit whose count this container never heard is refused, 503 with the counter’s next try', async () => {
    const reply = await search('never 1', KEYS.never);
    expect(reply.status).toBe(503);
    expect(reply.json.error.code).toBe('BUDGET_UNAVAILABLE');
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(reply.headers.get('retry-after'))).toBeLessThanOrEqual(Math.ceil(RETRY_MS / 1000));
    expect(running.upstream.calls()).toBe(0);
  });

  it('a key without a limit searches within the container’s allowance; past it, the wait is the counter’s next try, not the hour', async () => {
    expect((await search('main 2')).status).toBe(200);
    expect(running.upstream.calls()).toBe(1);
    const refused = await search('main 3');
    expect(refused.status).toBe(429);
    expect(refused.json.error.details).toMatch(/this container's own allowance of 1 searches this hour for that case is used up/);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(Math.ceil(RETRY_MS / 1000));
    expect(running.upstream.calls()).toBe(1);
  });

  it('/v1/usage says it cannot read the counter, and what this container holds', async () => {
    const reply = await running.service.post('/v1/usage', {});
    expect(reply.status).toBe(503);
    expect(reply.json.error.details).toMatch(/this container holds 1 searches made and not yet counted/);
  });

  it('writes the search made meanwhile once the table is back, with no further request', async () => {
    await table.start();
    const back = performance.now();
    const calls = running.upstream.calls();
    let count = await hourCount();
    while (count < 4 && performance.now() - back < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      count = await hourCount();
    }
    expect(count).toBe(4);
    expect(running.upstream.calls()).toBe(calls);
    // The guide's figure: the container's own timer tries every BUDGET_RETRY_MS.
    console.info(`counted ${Math.round(performance.now() - back)} ms after the table came back (BUDGET_RETRY_MS ${RETRY_MS})`);
    const usage = await running.service.post('/v1/usage', {});
    expect(usage.json.data.hour.used).toBe(4);
    expect(usage.json.data.unsettled).toEqual({ searches_not_counted: 0, searches_not_given_back: 0 });
  }, 90_000);
});

describe('refusals that name the budget that is full', () => {
  it('names the hour, with Retry-After to its end, to every request of a key whose own day has room, however many at once', async () => {
    for (let i = 0; i < 3; i++) expect((await search(`seven ${i}`, KEYS.seven)).status).toBe(200);
    expect((await search('main 4')).status).toBe(200);
    expect(await hourCount()).toBe(HOURLY);
    const before = Date.now();
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => search(`seven at once ${i}`, KEYS.seven)));
    const after = Date.now();
    for (const reply of replies) {
      expect(reply.status).toBe(429);
      expect(reply.json.error.details).toMatch(/^The deployment's budget of 8 searches this hour is used up/);
      // The real wait is to the end of the hour: within the time the requests took, far within 10 %.
      const seconds = Number(reply.headers.get('retry-after'));
      expect(seconds).toBeGreaterThanOrEqual(Math.ceil((endOfHour(after) - after) / 1000));
      expect(seconds).toBeLessThanOrEqual(Math.ceil((endOfHour(before) - before) / 1000));
    }
    const usage = await running.service.post('/v1/usage', {}, as(KEYS.seven));
    expect(usage.json.data.client.today).toMatchObject({ limit: 7, used: 3, left: 4 });
  });
});
