/**
 * One call per question across containers when the shared table is slow (docs/decisions.md §18): the
 * claim, not the 150 ms lookup, decides who pays. Two "containers" here are two shared caches in this
 * process, each with its own table client, against one dynalite table whose front can answer slowly; the
 * loads are promises the test holds, so that what each container does is decided by the code, not by the
 * machine's speed. The last test runs two service processes against the slow table.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CacheTable, createCacheTable } from '../../lib/cache/dynamo-table.js';
import { type CacheScope, createSharedCache } from '../../lib/cache/shared.js';
import type { CacheActivity } from '../../lib/request-state.js';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.js';

// The deployed lookup budget; a slow table answers every call after twice as long.
const READ_TIMEOUT_MS = 150;
const SLOW_TABLE_MS = 2 * READ_TIMEOUT_MS;
// Writes (claims, values) get all the time they need here (the most CACHE_WRITE_TIMEOUT_MS takes): the point is the lookups' budget.
const WRITE_TIMEOUT_MS = 5_000;

let table: CacheTableServer;
let upstream: FakeSerpApi;
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  table = await startCacheTable('cache-claims');
  upstream = await startFakeSerpApi();
  // The table clients below are this process's: they find the table as a deployed function does, by env.
  for (const [name, value] of Object.entries(table.env)) vi.stubEnv(name, value);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all(processes.map((p) => p.stop()));
  await upstream.close();
  await table.close();
});
beforeEach(() => {
  table.setMode({ kind: 'ok' });
  table.resetLog();
  upstream.reset();
});

function tableClient(cooldownMs = 10_000, writeTimeoutMs = WRITE_TIMEOUT_MS): CacheTable {
  return createCacheTable({
    tableName: table.tableName,
    readTimeoutMs: READ_TIMEOUT_MS,
    writeTimeoutMs,
    cooldownMs,
    pollMs: 20,
  });
}

/** One container's answer cache: its own memory and table client, sharing calls in flight as the answer cache does. */
function container(client = tableClient()) {
  return createSharedCache<string>({
    name: 'claims-v1',
    ttlSeconds: 3_600,
    memoryMax: 10,
    table: client,
    inFlight: { sharesFailure: () => false, reserveMs: 0 },
  });
}

function scope(waitMs = 60_000): CacheScope & { activity: CacheActivity } {
  return {
    fresh: false,
    deadline: Date.now() + waitMs,
    activity: activity(),
  };
}

const activity = (): CacheActivity => ({
  memoryHits: 0,
  tableHits: 0,
  misses: 0,
  tableErrors: 0,
  duplicateCalls: 0,
  pendingWrites: [],
});

/** Three failed lookups in a row: the client leaves the table alone for its (long) cooldown. */
async function rest(client: CacheTable): Promise<void> {
  table.setMode({ kind: 'error' });
  for (let i = 0; i < 3; i++) await client.getMany(['failed lookup'], { activity: activity() });
  table.setMode({ kind: 'ok' });
}

/** A load the test finishes when it chooses, and a promise that says when it started. */
function heldLoad<V>() {
  let started!: () => void;
  let finish!: { resolve: (value: V) => void; reject: (error: Error) => void };
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const result = new Promise<V>((resolve, reject) => {
    finish = { resolve, reject };
  });
  const load = vi.fn(() => {
    started();
    return result;
  });
  return { load, started: startedPromise, finish };
}

/** Waits until the table has seen `count` calls of `operation`: a container's step, seen from the table. */
async function tableSaw(operation: string, count: number): Promise<void> {
  while (table.calls.filter((call) => call.operation === operation).length < count) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a claim on a slow table', () => {
  it('is waited for, though every read takes longer than CACHE_READ_TIMEOUT_MS: one load, the other container answered from the table', async () => {
    table.setMode({ kind: 'slow', delayMs: SLOW_TABLE_MS });
    const [a, b] = [container(), container()];
    const first = heldLoad<string>();
    const second = vi.fn(async () => 'answer from B');
    const [scopeA, scopeB] = [scope(), scope()];
    const answerA = a.remember('the same question', first.load, { scope: scopeA });
    // A loads once it holds the claim.
    await first.started;
    const answerB = b.remember('the same question', second, { scope: scopeB });
    // B's lookup, its claim (refused: A holds it), then the first read of its wait.
    await tableSaw('PutItem', 2);
    const getsBeforeWait = table.calls.filter((call) => call.operation === 'GetItem').length;
    await tableSaw('GetItem', getsBeforeWait + 1);
    first.finish.resolve('answer from A');
    expect(await answerA).toBe('answer from A');
    expect(await answerB).toBe('answer from A');
    expect(second).not.toHaveBeenCalled();
    expect(scopeB.activity).toMatchObject({ tableHits: 1, misses: 0, duplicateCalls: 0 });
  });

  it('is not sent again when its connection closed after it landed: the container loads at once, not waiting on its own claim', async () => {
    const a = container();
    const held = heldLoad<string>();
    table.dropNext(1, { after: true, operation: 'PutItem' });
    const answer = a.remember('a claim whose answer was lost', held.load, { scope: scope() });
    await held.started;
    expect(table.calls.filter((call) => call.operation === 'PutItem')).toHaveLength(1);
    held.finish.resolve('loaded');
    expect(await answer).toBe('loaded');
  });

  it('is waited for though the table slows down mid-wait past every call’s budget (the deployed 150 and 300 ms)', async () => {
    const [a, b] = [container(), container(tableClient(10_000, 300))];
    const first = heldLoad<string>();
    const second = vi.fn(async () => 'answer from B');
    const answerA = a.remember('slowed down while waiting', first.load, { scope: scope() });
    await first.started;
    const scopeB = scope();
    const answerB = b.remember('slowed down while waiting', second, { scope: scopeB });
    // B has found A's claim and waits: its next read meets a table answering in 400 ms.
    await tableSaw('PutItem', 2);
    const gets = table.calls.filter((call) => call.operation === 'GetItem').length;
    table.setMode({ kind: 'slow', delayMs: 400 });
    await tableSaw('GetItem', gets + 1);
    table.setMode({ kind: 'ok' });
    first.finish.resolve('answer from A');
    expect(await answerA).toBe('answer from A');
    expect(await answerB).toBe('answer from A');
    expect(second).not.toHaveBeenCalled();
  });

  it('is made even while the table rests after failed lookups, and its answer ends the rest', async () => {
    const client = tableClient(600_000);
    const context = { activity: activity() };
    await rest(client);
    table.resetLog();
    await client.getMany(['resting lookup'], context);
    // Resting: the lookup was not even sent.
    expect(table.calls).toEqual([]);
    const claim = await client.claim?.('claims-v1#resting', Date.now() + 60_000, context);
    expect(claim?.outcome).toBe('claimed');
    await client.putMany([{ key: 'claims-v1#resting', value: 'stored', ttlSeconds: 60 }], context);
    expect((await client.getMany(['claims-v1#resting'], context)).get('claims-v1#resting')?.value).toBe('stored');
  });
});

describe('a table client resting after failed lookups', () => {
  it('still reads for a wait: a value stored by another container is found', async () => {
    const [resting, other] = [tableClient(600_000), tableClient()];
    await other.putMany([{ key: 'claims-v1#stored while resting', value: 'stored', ttlSeconds: 60 }], { activity: activity() });
    await rest(resting);
    const waited = await resting.waitFor?.('claims-v1#stored while resting', Date.now() + 30_000, { activity: activity() });
    expect(waited).toEqual({ outcome: 'stored', stored: { value: 'stored', expiresAtMs: expect.any(Number) } });
  });

  it('still gives its claim up, so that the next container may claim the key at once', async () => {
    const [resting, other] = [tableClient(600_000), tableClient()];
    const claim = await resting.claim?.('claims-v1#given up while resting', Date.now() + 60_000, { activity: activity() });
    if (claim?.outcome !== 'claimed') throw new Error(`not claimed: ${claim?.outcome}`);
    await rest(resting);
    await resting.release?.('claims-v1#given up while resting', claim.owner, { activity: activity() });
    const next = await other.claim?.('claims-v1#given up while resting', Date.now() + 60_000, { activity: activity() });
    expect(next?.outcome).toBe('claimed');
  });
});

describe('the duplicate calls metric', () => {
  it('counts a call made while another container’s claim on the question was still live', async () => {
    const [a, b] = [container(), container()];
    const first = heldLoad<string>();
    const answerA = a.remember('asked while still loading', first.load, { scope: scope() });
    await first.started;
    // B waits a second at most, then asks for itself while A's call is still on its way.
    const scopeB = scope(1_000);
    expect(await b.remember('asked while still loading', async () => 'answer from B', { scope: scopeB })).toBe('answer from B');
    expect(scopeB.activity).toMatchObject({ misses: 1, duplicateCalls: 1 });
    first.finish.resolve('answer from A');
    expect(await answerA).toBe('answer from A');
  });

  it('counts nothing when the other container gave its claim up (its call failed): there was nothing to share', async () => {
    const [a, b] = [container(), container()];
    const first = heldLoad<string>();
    const scopeA = scope();
    const answerA = a.remember('the other call failed', first.load, { scope: scopeA });
    await first.started;
    const scopeB = scope();
    const answerB = b.remember('the other call failed', async () => 'answer from B', { scope: scopeB });
    await tableSaw('PutItem', 2);
    first.finish.reject(new Error('upstream failed'));
    await expect(answerA).rejects.toThrow('upstream failed');
    await settle(scopeA);
    expect(await answerB).toBe('answer from B');
    expect(scopeB.activity).toMatchObject({ misses: 1, duplicateCalls: 0 });
  });
});

describe('two service processes on a slow table', () => {
  it('make one upstream call for the same question asked three times on each', async () => {
    table.setMode({ kind: 'slow', delayMs: SLOW_TABLE_MS });
    const env = {
      ...table.env,
      SERPAPI_BASE_URL: upstream.url,
      ANSWER_CACHE_TTL_SECONDS: '3600',
      CACHE_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS),
      CACHE_WRITE_TIMEOUT_MS: String(WRITE_TIMEOUT_MS),
    };
    const pair = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    processes.push(...pair);
    upstream.latencyMs = 1_000;
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (pair[i % 2] as ServiceProcess).post('/v1/web-search/alpha', { q: 'slow table, one call' }),
      ),
    );
    expect(replies.map((reply) => reply.status)).toEqual(Array(6).fill(200));
    expect(upstream.calls()).toBe(1);
  }, 120_000);
});

/** Waits for the writes a scope started (the value over the claim, or the claim's release). */
async function settle(s: CacheScope & { activity: CacheActivity }): Promise<void> {
  await Promise.all(s.activity.pendingWrites.splice(0));
}
