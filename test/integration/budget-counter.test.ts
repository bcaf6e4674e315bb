/**
 * The DynamoDB budget counter against dynalite, behind a proxy that loses answers or holds requests until
 * the caller has given up: a reservation lands at most once, whatever happens to its answer; one whose
 * outcome is unknown is settled exactly (counted once when the search was made, given back when it was
 * not, even if a copy lands later); a refused later window gives the earlier ones back once; a window
 * whose limit is 0 admits nothing; reads are exact. No assertion depends on time: a held request never
 * answers before the counter's timeout, and a passed one has seconds to spare.
 */

import * as commands from '@aws-sdk/client-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Counter,
  CounterUnavailable,
  createDynamoCounter,
  createMemoryCounter,
  type PendingReservation,
} from '../../lib/budget/counter.js';
import { type BudgetWindow, dayWindow, hourWindow, monthWindow } from '../../lib/budget/windows.js';
import { type BudgetProxy, startBudgetProxy, storedCount } from '../support/budget-proxy.js';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';

const TABLE = 'budget-counter-exact';
// Seconds for an answer that passes (a busy machine stays well within it); held requests never answer.
const TIMEOUT_MS = 1_500;

let table: CacheTableServer;
let proxy: BudgetProxy;
let client: DynamoDBClient;
let counter: Counter;
let clientNumber = 0;

beforeAll(async () => {
  table = await startCacheTable(TABLE);
  proxy = await startBudgetProxy(table.endpoint);
  client = new DynamoDBClient({
    endpoint: proxy.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  counter = createDynamoCounter({
    tableName: TABLE,
    timeoutMs: TIMEOUT_MS,
    client: async () => ({ client, commands }),
  });
});
afterAll(async () => {
  client.destroy();
  await proxy.close();
  await table.close();
});

/** A day window of a client of its own, so that each test starts at zero. */
let day: (limit: number) => BudgetWindow;
beforeEach(() => {
  clientNumber += 1;
  const name = `client-${clientNumber}`;
  day = (limit) => dayWindow(Date.now(), name, limit);
});

const stored = (window: BudgetWindow) => storedCount(table.endpoint, TABLE, window.key);

/** The CounterUnavailable a call rejects with; a reservation's carries what may have landed. */
async function unavailable(
  promise: Promise<unknown>,
  reservation = true,
): Promise<CounterUnavailable & { pending: PendingReservation }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CounterUnavailable);
  if (reservation) expect((error as CounterUnavailable).pending).toBeDefined();
  return error as CounterUnavailable & { pending: PendingReservation };
}

describe('a reservation whose answer is lost or late', () => {
  it('is sent once more and counted once when the first answer is lost after it landed', async () => {
    const window = day(5);
    const before = proxy.operations.length;
    proxy.queue('drop');
    expect(await counter.reserve([window], 1)).toEqual({ ok: true });
    expect(await stored(window)).toBe(1);
    // The lost one, the second attempt (refused: the token is there), and the probe that found the token.
    expect(proxy.operations.length - before).toBe(3);
  });

  it('is retried once, then reported unavailable with what may have landed', async () => {
    const window = day(5);
    const before = proxy.operations.length;
    proxy.queue('hold', 'hold');
    const error = await unavailable(counter.reserve([window], 1));
    expect(proxy.operations.length - before).toBe(2);
    expect(error.pending).toMatchObject({ n: 1, tried: [window] });
    await proxy.release();
    // Both copies reached the table after the caller gave up; the token let one land.
    expect(await stored(window)).toBe(1);
    await counter.settle(error.pending, true);
    expect(await stored(window)).toBe(1);
  });

  it('counts a search made while the counter did not answer once, in every window, even if nothing landed', async () => {
    const first = day(5);
    const hour = hourWindow(Date.now(), 1_000_000);
    const before = (await counter.read([hour]))[0] ?? 0;
    proxy.queue('hold', 'hold');
    const error = await unavailable(counter.reserve([first, hour], 1));
    // Settled before the held copies land: counted once; the late copies then find the token.
    await counter.settle(error.pending, true);
    await proxy.release();
    expect(await stored(first)).toBe(1);
    expect((await counter.read([hour]))[0]).toBe(before + 1);
  });

  it('gives back a reservation that landed after the caller gave up, when no search was made', async () => {
    const window = day(5);
    proxy.queue('hold', 'hold');
    const error = await unavailable(counter.reserve([window], 1));
    await proxy.release();
    expect(await stored(window)).toBe(1);
    await counter.settle(error.pending, false);
    expect(await stored(window)).toBe(0);
    // Settling twice gives back nothing more.
    await counter.settle(error.pending, false);
    expect(await stored(window)).toBe(0);
  });

  it('bars a copy still on its way when the reservation is given back first', async () => {
    const window = day(5);
    proxy.queue('hold', 'hold');
    const error = await unavailable(counter.reserve([window], 1));
    await counter.settle(error.pending, false);
    await proxy.release();
    expect(await stored(window)).toBe(0);
  });

  it('never lets timeouts eat a day limit: five unanswered refused requests, then the two allowed', async () => {
    const window = day(2);
    for (let i = 0; i < 5; i++) {
      proxy.queue('hold', 'hold');
      const error = await unavailable(counter.reserve([window], 1));
      if (i % 2) await proxy.release();
      await counter.settle(error.pending, false);
    }
    await proxy.release();
    expect(await stored(window)).toBe(0);
    expect(await counter.reserve([window], 1)).toEqual({ ok: true });
    expect(await counter.reserve([window], 1)).toEqual({ ok: true });
    expect(await counter.reserve([window], 1)).toMatchObject({ ok: false, refused: { key: window.key } });
    expect(await stored(window)).toBe(2);
    // Ten unanswered attempts of the counter's timeout each.
  }, 120_000);

  it('keeps a give-back it could not make and makes it on a later call', async () => {
    const window = day(5);
    proxy.queue('hold', 'hold');
    const error = await unavailable(counter.reserve([window], 1));
    await proxy.release();
    expect(await stored(window)).toBe(1);
    // The give-back never reaches the table (twice): it is owed.
    proxy.queue('cut', 'cut');
    await counter.settle(error.pending, false);
    expect(await stored(window)).toBe(1);
    await counter.flush();
    expect(await stored(window)).toBe(0);
    // Owed no more.
    await counter.flush();
    expect(await stored(window)).toBe(0);
  });
});

describe('windows refused', () => {
  it('gives the earlier windows back exactly once when a later window refuses', async () => {
    const first = day(10);
    const full = monthWindow(Date.now(), 0);
    const hourOfOne = { ...hourWindow(Date.now(), 1), key: `hour-of-one-${clientNumber}` };
    expect(await counter.reserve([first, hourOfOne], 1)).toEqual({ ok: true });
    expect(await counter.reserve([first, hourOfOne], 1)).toMatchObject({ ok: false, refused: { key: hourOfOne.key } });
    expect(await stored(first)).toBe(1);
    expect(await stored(hourOfOne)).toBe(1);
    // A window whose limit is 0 refuses without a call, and the earlier ones are given back.
    const before = proxy.operations.length;
    expect(await counter.reserve([first, full], 1)).toMatchObject({ ok: false, refused: { kind: 'month' } });
    expect(await stored(first)).toBe(1);
    expect(proxy.operations.length - before).toBe(2);
  });

  it('gives back exactly even when the give-back answer is lost', async () => {
    const first = day(10);
    const hourOfOne = { ...hourWindow(Date.now(), 1), key: `hour-of-one-${clientNumber}` };
    expect(await counter.reserve([first, hourOfOne], 1)).toEqual({ ok: true });
    // The day reserves, the hour refuses, the give-back lands but its answer is lost.
    proxy.queue('pass', 'pass', 'drop');
    expect(await counter.reserve([first, hourOfOne], 1)).toMatchObject({ ok: false });
    expect(await stored(first)).toBe(1);
  });

  it('admits nothing in a window whose limit is 0, first search included (both counters)', async () => {
    const none = day(0);
    expect(await counter.reserve([none], 1)).toMatchObject({ ok: false, refused: { key: none.key } });
    expect(await stored(none)).toBeUndefined();
    const memory = createMemoryCounter();
    expect(await memory.reserve([none], 1)).toMatchObject({ ok: false });
  });
});

describe('reads', () => {
  it('reads 0 for a window never used and the exact count after reservations', async () => {
    const window = day(5);
    expect(await counter.read([window])).toEqual([0]);
    await counter.reserve([window], 1);
    await counter.reserve([window], 2);
    expect(await counter.read([window])).toEqual([3]);
  });

  it('never reads an answer without the count as 0', async () => {
    const window = day(5);
    await counter.reserve([window], 1);
    // Answered without `used`, as an implementation that leaves it out would.
    proxy.queue({ strip: 'used' });
    await unavailable(counter.read([window]), false);
    expect(await counter.read([window])).toEqual([1]);
  });
});
