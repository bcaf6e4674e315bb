/**
 * The DynamoDB budget counter against dynalite, behind a proxy that loses answers or holds requests until
 * the caller has given up: a reservation lands at most once, whatever happens to its answer; one whose
 * outcome is unknown is settled exactly (counted once when the search was made, given back when it was
 * not, even if a copy lands later); a refused later window gives the earlier ones back once; a window
 * whose limit is 0 admits nothing; reads are exact. No assertion depends on time: a held request never
 * answers before the counter's timeout, and a passed one has seconds to spare.
 */

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as commands from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Counter,
  type CounterTimers,
  CounterUnavailable,
  counterTimeout,
  createDynamoCounter,
  createMemoryCounter,
  type Hold,
  MAX_OWED,
  SETTLE_HORIZON_MS,
} from '../../lib/budget/counter.js';
import { type BudgetWindow, dayWindow, hourWindow, monthWindow } from '../../lib/budget/windows.js';
import {
  type BudgetProxy,
  type CounterHarness,
  startCounterHarness,
  storedCount,
  storedItem,
  storedItemBytes,
} from '../support/budget-proxy.js';
import type { CacheTableServer } from '../support/cache-table.js';

const TABLE = 'budget-counter-exact';
// Seconds for an answer that passes (a busy machine stays well within it); held requests never answer.
const TIMEOUT_MS = 1_500;

let harness: CounterHarness;
let table: CacheTableServer;
let proxy: BudgetProxy;
let client: DynamoDBClient;
let counter: Counter;
let clientNumber = 0;

beforeAll(async () => {
  harness = await startCounterHarness(TABLE);
  ({ table, proxy, client } = harness);
  counter = createDynamoCounter({
    tableName: TABLE,
    timeoutMs: TIMEOUT_MS,
    client: async () => ({ client, commands }),
    // The same time for every call: these tests hold requests past it on purpose.
    maxTimeoutMs: TIMEOUT_MS,
    // No rest after a failure here: each test below sends what it means to (test/unit/lib/budget-counter-down.test.ts
    // covers the rest a down table gets).
    retryMs: 0,
  });
});
afterAll(() => harness.close());

/** A day window of a client of its own, so that each test starts at zero. */
let day: (limit: number) => BudgetWindow;
beforeEach(() => {
  clientNumber += 1;
  const name = `client-${clientNumber}`;
  day = (limit) => dayWindow(Date.now(), name, limit);
});

const stored = (window: BudgetWindow) => storedCount(table.endpoint, TABLE, window.key);

/** The CounterUnavailable a call rejects with; a reservation's carries what may have landed. */
async function unavailable(promise: Promise<unknown>, reservation = true): Promise<CounterUnavailable & { hold: Hold }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CounterUnavailable);
  if (reservation) expect((error as CounterUnavailable).hold).toBeDefined();
  return error as CounterUnavailable & { hold: Hold };
}

describe('a reservation whose answer is lost or late', () => {
  it('is sent once more and counted once when the first answer is lost after it landed', async () => {
    const window = day(5);
    const before = proxy.operations.length;
    proxy.queue('drop');
    expect(await counter.reserve([window], 1)).toMatchObject({ ok: true });
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
    expect(error.hold).toMatchObject({ n: 1, states: ['unknown'] });
    await proxy.release();
    // Both copies reached the table after the caller gave up; the token let one land.
    expect(await stored(window)).toBe(1);
    await counter.close(error.hold, 1);
    expect(await stored(window)).toBe(1);
  });

  it('counts a search made while the counter did not answer once, in every window, even if nothing landed', async () => {
    const first = day(5);
    const hour = hourWindow(Date.now(), 1_000_000);
    const before = (await counter.read([hour]))[0] ?? 0;
    proxy.queue('hold', 'hold');
    const error = await unavailable(counter.reserve([first, hour], 1));
    // Settled before the held copies land: counted once; the late copies then find the token.
    await counter.close(error.hold, 1);
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
    await counter.close(error.hold, 0);
    expect(await stored(window)).toBe(0);
    // Settling twice gives back nothing more.
    await counter.close(error.hold, 0);
    expect(await stored(window)).toBe(0);
  });

  it('bars a copy still on its way when the reservation is given back first', async () => {
    const window = day(5);
    proxy.queue('hold', 'hold');
    const error = await unavailable(counter.reserve([window], 1));
    await counter.close(error.hold, 0);
    await proxy.release();
    expect(await stored(window)).toBe(0);
  });

  it('never lets timeouts eat a day limit: five unanswered refused requests, then the two allowed', async () => {
    const window = day(2);
    for (let i = 0; i < 5; i++) {
      proxy.queue('hold', 'hold');
      const error = await unavailable(counter.reserve([window], 1));
      if (i % 2) await proxy.release();
      await counter.close(error.hold, 0);
    }
    await proxy.release();
    expect(await stored(window)).toBe(0);
    expect(await counter.reserve([window], 1)).toMatchObject({ ok: true });
    expect(await counter.reserve([window], 1)).toMatchObject({ ok: true });
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
    await counter.close(error.hold, 0);
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
    expect(await counter.reserve([first, hourOfOne], 1)).toMatchObject({ ok: true });
    expect(await counter.reserve([first, hourOfOne], 1)).toMatchObject({ ok: false, refused: { key: hourOfOne.key } });
    expect(await stored(first)).toBe(1);
    expect(await stored(hourOfOne)).toBe(1);
    // A window whose limit is 0 refuses without a call, and the earlier ones are given back.
    const before = proxy.operations.length;
    expect(await counter.reserve([first, full], 1)).toMatchObject({ ok: false, refused: { kind: 'month' } });
    expect(await stored(first)).toBe(1);
    // The day reserved, given back, and the month read to name it with its count.
    expect(proxy.operations.length - before).toBe(3);
  });

  it('gives back exactly even when the give-back answer is lost', async () => {
    const first = day(10);
    const hourOfOne = { ...hourWindow(Date.now(), 1), key: `hour-of-one-${clientNumber}` };
    expect(await counter.reserve([first, hourOfOne], 1)).toMatchObject({ ok: true });
    // The day reserves, the hour refuses, the give-back lands but its answer is lost.
    proxy.queue('pass', 'pass', 'drop');
    expect(await counter.reserve([first, hourOfOne], 1)).toMatchObject({ ok: false });
    expect(await stored(first)).toBe(1);
  });

  it('admits nothing in a window whose limit is 0, first search included (both counters)', async () => {
    const none = day(0);
    expect(await counter.reserve([none], 1)).toMatchObject({ ok: false, refused: { key: none.key } });
    // Read to name it (a count of 0), never written: no item.
    expect(await stored(none)).toBeUndefined();
    expect(await counter.read([none])).toEqual([0]);
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

describe('closing a hold with what the request kept', () => {
  it('gives back exactly what was not kept, once, however often it is closed', async () => {
    const window = day(10);
    const reserved = await counter.reserve([window], 3);
    if (!reserved.ok) throw new Error('refused');
    expect(await stored(window)).toBe(3);
    await counter.close(reserved.hold, 1);
    expect(await stored(window)).toBe(1);
    await counter.close(reserved.hold, 1);
    expect(await stored(window)).toBe(1);
    // What the counter heard is what the table holds.
    expect(counter.known(window)).toBe(1);
  });

  it('makes no call when everything reserved was kept', async () => {
    const window = day(10);
    const reserved = await counter.reserve([window], 2);
    if (!reserved.ok) throw new Error('refused');
    const before = proxy.operations.length;
    await counter.close(reserved.hold, 2);
    expect(proxy.operations.length).toBe(before);
    expect(await stored(window)).toBe(2);
  });

  it('tells a request of several searches how many are left when it refuses it', async () => {
    const window = day(4);
    expect(await counter.reserve([window], 3)).toMatchObject({ ok: true });
    expect(await counter.reserve([window], 2)).toMatchObject({ ok: false, refused: { key: window.key }, used: 3 });
    expect(await counter.reserve([{ ...day(0), key: `${window.key}-none` }], 1)).toMatchObject({ ok: false, used: 0 });
  });

  it('tells a refusal what plans in flight hold and by when, read from the item, and forgets a plan once closed, used in full or not', async () => {
    const window = day(10);
    const until = Date.now() + 25_000;
    const by = Math.ceil(until / 1000) * 1000;
    const first = await counter.reserve([window], 6, until);
    if (!first.ok) throw new Error('refused');
    // The plan's token is in the item: a second plan is told the first may give back in time.
    expect(await counter.reserve([window], 6, until)).toEqual({
      ok: false,
      refused: window,
      used: 6,
      inFlight: { held: 6, by },
    });
    // Used in full, its token is removed (one write), so that nothing waits for it any more.
    const before = proxy.operations.length;
    await counter.close(first.hold, 6);
    expect(proxy.operations.length - before).toBe(1);
    expect(await counter.reserve([window], 6, until)).toEqual({ ok: false, refused: window, used: 6 });
    // A plan given back in part is forgotten too, and what it gave back is room.
    const other = { ...day(10), key: `${day(10).key}-other` };
    const partly = await counter.reserve([other], 6, until);
    if (!partly.ok) throw new Error('refused');
    await counter.close(partly.hold, 2);
    expect(await counter.reserve([other], 9, until)).toEqual({ ok: false, refused: other, used: 2 });
    expect(await counter.reserve([other], 8, until)).toMatchObject({ ok: true });
  });

  it('names the window the request must wait for when several cannot take it: the last to reset', async () => {
    const hour = { ...hourWindow(Date.now(), 1), key: `last-hour-${clientNumber}` };
    const fullDay = day(1);
    expect(await counter.reserve([hour, fullDay], 1)).toMatchObject({ ok: true });
    // Both full: the hour refuses first, the day (reset later) is named.
    expect(await counter.reserve([hour, fullDay], 1)).toMatchObject({ ok: false, refused: { kind: 'day' }, used: 1 });
    // Only the hour full: the hour.
    expect(await counter.reserve([hour, day(5)], 1)).toMatchObject({ ok: false, refused: { kind: 'hour' }, used: 1 });
    // A read that fails (both reads, twice each) leaves the first refusal as it was.
    proxy.queue('pass', 'cut', 'cut', 'cut', 'cut');
    expect(await counter.reserve([hour, fullDay], 1)).toEqual({ ok: false, refused: hour });
  });
});

describe('a flood of refused requests', () => {
  it('leaves nothing in any item: the worst item stays the size it had before the flood', async () => {
    const hour = { ...hourWindow(Date.now(), 5), key: `flood-hour-${clientNumber}` };
    const fullDay = { ...day(2), key: `${day(2).key}-full` };
    const roomyDay = { ...day(1_000_000), key: `${day(2).key}-roomy` };
    // The hour filled by five searches, the key's day by two: their tokens stay for 8 minutes, as they should.
    for (let i = 0; i < 2; i++) expect(await counter.reserve([hour, fullDay], 1)).toMatchObject({ ok: true });
    for (let i = 0; i < 3; i++) expect(await counter.reserve([hour, roomyDay], 1)).toMatchObject({ ok: true });
    const sizes = async () => Promise.all([hour, fullDay, roomyDay].map((w) => storedItemBytes(table.endpoint, TABLE, w.key)));
    const before = await sizes();
    // 300 refused: the hour refuses (nothing is written), and, once the hour has room, the day refuses after
    // the hour was reserved (the hour is given back, its token removed).
    for (let i = 0; i < 150; i++) expect(await counter.reserve([hour, roomyDay], 1)).toMatchObject({ ok: false });
    const roomyHour = { ...hour, limit: 1_000 };
    for (let i = 0; i < 150; i++) {
      expect(await counter.reserve([roomyHour, fullDay], 1)).toMatchObject({ ok: false, refused: { key: fullDay.key } });
    }
    const after = await sizes();
    expect(after).toEqual(before);
    expect(await stored(hour)).toBe(5);
    expect(await stored(fullDay)).toBe(2);
    // The figure the budget guide quotes: the largest of these items, before and after the flood.
    console.info(`largest counter item after 300 refused requests: ${Math.max(...after)} bytes (before: ${Math.max(...before)})`);
  }, 120_000);
});

describe('the time a counter call is given', () => {
  it('is the minimum until anything was measured, then twice the 99th percentile of the answers, within the bounds', () => {
    expect(counterTimeout([], 1_000, 5_000)).toBe(1_000);
    expect(counterTimeout(Array(100).fill(5), 1_000, 5_000)).toBe(1_000);
    // A slow table (the fault runs' p50 336 ms, p90 904 ms, p99 about 1.4 s): twice its p99.
    const slow = [...Array(50).fill(336), ...Array(40).fill(700), ...Array(9).fill(904), 1_400];
    expect(counterTimeout(slow, 1_000, 5_000)).toBe(1_808);
    expect(counterTimeout([...Array(98).fill(336), 1_400, 1_400], 1_000, 5_000)).toBe(2_800);
    expect(counterTimeout([...Array(99).fill(10), 4_000], 1_000, 5_000)).toBe(1_000);
    expect(counterTimeout(Array(10).fill(4_000), 1_000, 5_000)).toBe(5_000);
    expect(counterTimeout([700], 1_000, 5_000)).toBe(1_400);
  });

  it('grows to fit a table that answers slower than it: answers that come after it are measured too', async () => {
    const own = createDynamoCounter({
      tableName: TABLE,
      timeoutMs: 100,
      maxTimeoutMs: 5_000,
      client: async () => ({ client, commands }),
      retryMs: 0,
    });
    const window = day(5);
    table.setMode({ kind: 'slow', delayMs: 400 });
    try {
      // Two attempts of 100 ms each: no answer in time.
      const first = await unavailable(own.reserve([window], 1));
      // Their answers come after ~400 ms, and are measured: the next calls are given twice that or more.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await own.reserve([window], 1)).toMatchObject({ ok: true });
      await own.close(first.hold, 0);
      expect(await stored(window)).toBe(1);
    } finally {
      table.setMode({ kind: 'ok' });
    }
  });
});

describe('a counter that does not answer', () => {
  /**
   * A counter on a hand-moved clock whose retry timer the test runs itself. `sdk`: a client of its own,
   * for a test that takes the table away (one with no connection open yet is refused at once; one whose
   * open connection is cut meets a reset, which may follow a request sent).
   */
  function downable(retryMs = 5_000, sdk = client) {
    let clock = Date.now();
    const scheduled: { run: () => void; ms: number }[] = [];
    const timers: CounterTimers = {
      setTimeout: (run, ms) => {
        const entry = { run, ms };
        scheduled.push(entry);
        return entry;
      },
      clearTimeout: (entry) => {
        scheduled.splice(scheduled.indexOf(entry as (typeof scheduled)[number]), 1);
      },
    };
    const abandoned: unknown[] = [];
    const own = createDynamoCounter({
      tableName: TABLE,
      timeoutMs: TIMEOUT_MS,
      client: async () => ({ client: sdk, commands }),
      retryMs,
      now: () => clock,
      timers,
      onAbandoned: (entry) => abandoned.push(entry.off),
    });
    return {
      counter: own,
      scheduled,
      abandoned,
      advance: (ms: number) => {
        clock += ms;
      },
      /** Runs the retry the counter scheduled, as its timer would. */
      async fire() {
        const next = scheduled.shift();
        if (!next) throw new Error('no retry scheduled');
        next.run();
        await own.flush();
      },
    };
  }
  const hourOf = (limit: number) => ({ ...hourWindow(Date.now(), limit), key: `down-hour-${clientNumber}` });
  const ownClients: DynamoDBClient[] = [];
  afterAll(() => {
    for (const own of ownClients) own.destroy();
  });
  /** An SDK client through the proxy with no connection open yet, one attempt per call as the harness's. */
  function freshClient(): DynamoDBClient {
    const own = new commands.DynamoDBClient({
      endpoint: proxy.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
    });
    ownClients.push(own);
    return own;
  }

  it('is left alone for the retry time: requests fail at once, without a call', async () => {
    const { counter: own, advance } = downable();
    proxy.queue('cut', 'cut');
    const first = await unavailable(own.reserve([hourOf(10)], 1));
    expect(first.hold.states).toEqual(['unknown']);
    const before = proxy.operations.length;
    const second = await unavailable(own.reserve([hourOf(10)], 1));
    expect(second.hold.states).toEqual(['unsent']);
    expect(proxy.operations.length).toBe(before);
    expect(own.retryAt()).toBeGreaterThan(Date.now());
    advance(5_000);
    expect(await own.reserve([hourOf(10)], 1)).toMatchObject({ ok: true });
    expect(own.retryAt()).toBeUndefined();
  });

  it('writes what it owes by its own timer, retryMs after the failure, with no other traffic', async () => {
    const { counter: own, scheduled, advance, fire } = downable(5_000);
    const hour = hourOf(10);
    const window = day(5);
    // A flush with nothing owed (as /v1/usage makes) must not stand in the way of the later ones.
    await own.flush();
    proxy.queue('cut', 'cut');
    const failed = await unavailable(own.reserve([hour, window], 1));
    // The search was made (failing open): counted once it can be.
    await own.close(failed.hold, 1);
    expect(own.unsettled()).toEqual({ uncounted: 1, notGivenBack: 0 });
    expect(scheduled.map((s) => s.ms)).toEqual([5_000]);
    expect(await stored(window)).toBeUndefined();
    advance(5_000);
    await fire();
    expect(await stored(hour)).toBe(1);
    expect(await stored(window)).toBe(1);
    expect(own.unsettled()).toEqual({ uncounted: 0, notGivenBack: 0 });
    expect(scheduled).toHaveLength(0);
  });

  it('writes what it owes as soon as the table answers again, before the timer', async () => {
    const { counter: own, advance } = downable(5_000);
    const window = day(5);
    proxy.queue('cut', 'cut');
    const failed = await unavailable(own.reserve([hourOf(10), window], 1));
    await own.close(failed.hold, 1);
    advance(5_000);
    // Any answer (here a read for /v1/usage) brings the owed writes along, before any timer runs.
    expect(await own.read([window])).toEqual([0]);
    for (let i = 0; i < 100 && (await stored(window)) !== 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await stored(window)).toBe(1);
  });

  it('tries again on its timer while the table stays down, and keeps what it owes', async () => {
    const { counter: own, scheduled, advance, fire } = downable(1_000);
    const window = day(5);
    proxy.queue('cut', 'cut');
    const failed = await unavailable(own.reserve([hourOf(10), window], 1));
    await own.close(failed.hold, 1);
    advance(1_000);
    proxy.queue('cut', 'cut');
    await fire();
    expect(own.unsettled()).toEqual({ uncounted: 1, notGivenBack: 0 });
    expect(scheduled.map((s) => s.ms)).toEqual([1_000]);
    advance(1_000);
    await fire();
    expect(await stored(window)).toBe(1);
  });

  it('counts what it reserved while down in what it knows of a window, until written', async () => {
    const { counter: own, advance } = downable();
    const window = day(5);
    expect(await own.reserve([window], 2)).toMatchObject({ ok: true });
    expect(own.known(window)).toBe(2);
    proxy.queue('cut', 'cut');
    const failed = await unavailable(own.reserve([window], 1));
    expect(own.known(window)).toBe(3);
    await own.close(failed.hold, 0);
    advance(5_000);
    await own.flush();
    expect(own.known(window)).toBe(2);
    // A window never heard is not known.
    expect(own.known({ ...window, key: `${window.key}-never` })).toBeUndefined();
  });

  it('drops a closing whose token may be gone after the horizon, saying which way the count is off', async () => {
    const { counter: own, abandoned, advance } = downable(1_000);
    const hour = hourOf(10);
    proxy.queue('cut', 'cut');
    const failed = await unavailable(own.reserve([hour], 2));
    await own.close(failed.hold, 1);
    advance(SETTLE_HORIZON_MS + 1);
    await own.flush();
    expect(abandoned).toEqual([{ uncounted: 1, notGivenBack: 1 }]);
    expect(own.unsettled()).toEqual({ uncounted: 0, notGivenBack: 0 });
  });

  it('keeps a token 8 minutes: the reservations of the 8th minute after it remove its set', async () => {
    const { counter: own, advance } = downable();
    const window = day(100);
    const minute = 60_000;
    const first = await own.reserve([window], 1);
    if (!first.ok) throw new Error('refused');
    const sets = async () =>
      Object.entries((await storedItem(table.endpoint, TABLE, window.key)) ?? {})
        .filter(([name]) => /^s[0-9a-f]$/.test(name))
        .flatMap(([, value]) => value.SS ?? []);
    expect(await sets()).toEqual([first.hold.token]);
    advance(7 * minute);
    const seventh = await own.reserve([window], 1);
    if (!seventh.ok) throw new Error('refused');
    expect((await sets()).sort()).toEqual([first.hold.token, seventh.hold.token].sort());
    advance(minute);
    const eighth = await own.reserve([window], 1);
    if (!eighth.ok) throw new Error('refused');
    expect((await sets()).sort()).toEqual([seventh.hold.token, eighth.hold.token].sort());
    expect(await stored(window)).toBe(3);
  });

  it('keeps a search made while every connection was refused, however long the outage, and writes it once the table answers', async () => {
    const { counter: own, abandoned, advance, fire } = downable(1_000, freshClient());
    const hour = hourOf(10);
    const window = day(5);
    await proxy.stop();
    try {
      // Refused twice before anything was sent: never in the table, in no window.
      const failed = await unavailable(own.reserve([hour, window], 1));
      expect(failed.hold.states).toEqual(['unsent', 'unsent']);
      // Failing open, the search is made.
      await own.close(failed.hold, 1);
      // Twenty minutes of refused connections, the container trying every second minute.
      for (let minute = 0; minute < 20; minute += 2) {
        advance(2 * 60_000);
        await fire();
      }
      expect(own.unsettled()).toEqual({ uncounted: 1, notGivenBack: 0 });
    } finally {
      await proxy.start();
    }
    advance(1_000);
    await fire();
    expect(abandoned).toEqual([]);
    expect(await stored(hour)).toBe(1);
    expect(await stored(window)).toBe(1);
    expect(own.unsettled()).toEqual({ uncounted: 0, notGivenBack: 0 });
  }, 120_000);

  it('past the horizon drops only the windows it sent to without an answer; the windows never sent to are still written', async () => {
    const { counter: own, abandoned, advance } = downable(1_000);
    const hour = hourOf(10);
    const window = day(5);
    // The hour's reservation is sent and never answered; the day's is never sent.
    proxy.queue('hold', 'hold');
    const failed = await unavailable(own.reserve([hour, window], 1));
    expect(failed.hold.states).toEqual(['unknown', 'unsent']);
    await own.close(failed.hold, 1);
    advance(SETTLE_HORIZON_MS + 1);
    await own.flush();
    expect(abandoned).toEqual([{ uncounted: 1, notGivenBack: 0 }]);
    expect(await stored(window)).toBe(1);
    expect(own.unsettled()).toEqual({ uncounted: 0, notGivenBack: 0 });
    await proxy.release();
  });

  it('adds the searches of an outage to one closing per set of windows: written with one call per window, refused requests leaving nothing', async () => {
    const { counter: own, advance, fire } = downable(1_000, freshClient());
    const hour = hourOf(100);
    const window = day(50);
    await proxy.stop();
    try {
      for (let i = 0; i < 30; i++) {
        const failed = await unavailable(own.reserve([hour, window], 1));
        // Two of every three searched (failing open); the third refused, which leaves nothing to write.
        await own.close(failed.hold, i % 3 === 2 ? 0 : 1);
      }
    } finally {
      await proxy.start();
    }
    expect(own.unsettled()).toEqual({ uncounted: 20, notGivenBack: 0 });
    expect(own.known(hour)).toBeUndefined();
    const before = proxy.operations.length;
    advance(1_000);
    await fire();
    expect(proxy.operations.length - before).toBe(2);
    expect(await stored(hour)).toBe(20);
    expect(await stored(window)).toBe(20);
    expect(own.known(window)).toBe(20);
  }, 120_000);

  it(`keeps at most ${MAX_OWED} closings, dropping the oldest and saying so`, async () => {
    const { counter: own, abandoned } = downable(60_000);
    // Down: no call reaches the table from here on.
    proxy.queue('cut', 'cut');
    await unavailable(own.reserve([hourOf(10)], 1));
    // Each search in windows of its own (as many clients' days would be), so none can be merged.
    for (let i = 0; i <= MAX_OWED; i++) {
      const failed = await unavailable(own.reserve([{ ...day(5), key: `owed-${clientNumber}-${i}` }], 1));
      await own.close(failed.hold, 1);
    }
    expect(abandoned).toEqual([{ uncounted: 1, notGivenBack: 0 }]);
    expect(own.unsettled()).toEqual({ uncounted: 0, notGivenBack: 0 });
  });

  it('never drops a search made while the table was down and never sent: it is written whenever the table answers', async () => {
    const { counter: own, abandoned, advance } = downable(1_000);
    const window = day(5);
    proxy.queue('cut', 'cut');
    await unavailable(own.reserve([window], 1));
    // Down: this one is never sent.
    const unsent = await unavailable(own.reserve([hourOf(10), window], 1));
    await own.close(unsent.hold, 1);
    advance(SETTLE_HORIZON_MS * 3);
    await own.flush();
    expect(abandoned).toEqual([]);
    expect(await stored(window)).toBe(1);
  });
});
