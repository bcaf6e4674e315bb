/**
 * The DynamoDB budget counter's narrow cases, against dynalite behind the fault proxy, in this process:
 * a reservation whose second attempt landed while its first is still on its way, given back (the late copy
 * must not land); a reservation that lands between its give-back and the mark that bars it; a search made
 * during an outage counted even in a window that is full by then; what is owed written as soon as the
 * table answers a reservation; the horizon of an owed closing, to the millisecond; what `unsettled` and `known` say.
 * The clock is the test's where the counter's own timing matters.
 */

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as commands from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Counter, CounterUnavailable, createDynamoCounter, type Hold, SETTLE_HORIZON_MS } from '../../lib/budget/counter.js';
import { type BudgetWindow, dayWindow, hourWindow } from '../../lib/budget/windows.js';
import { type BudgetProxy, type CounterHarness, startCounterHarness, storedCount } from '../support/budget-proxy.js';
import type { CacheTableServer } from '../support/cache-table.js';

const TABLE = 'budget-counter-races';
// Seconds for an answer that passes; held requests never answer in time.
const TIMEOUT_MS = 1_500;

let harness: CounterHarness;
let table: CacheTableServer;
let proxy: BudgetProxy;
let client: DynamoDBClient;
let clock = Date.now();
let abandoned: unknown[] = [];
let counter: Counter;
let n = 0;

beforeAll(async () => {
  harness = await startCounterHarness(TABLE);
  ({ table, proxy, client } = harness);
});
afterAll(() => harness.close());
/** A counter on the test's clock; `retryMs` 0: never left alone after a failure (the clock stands still). */
function make(retryMs: number): Counter {
  return createDynamoCounter({
    tableName: TABLE,
    timeoutMs: TIMEOUT_MS,
    maxTimeoutMs: TIMEOUT_MS,
    retryMs,
    client: async () => ({ client, commands }),
    now: () => clock,
    // Timers the test never runs: each test writes what is owed itself.
    timers: { setTimeout: () => undefined, clearTimeout: () => undefined },
    onAbandoned: (entry) => abandoned.push(entry.off),
  });
}

beforeEach(() => {
  n += 1;
  clock = Date.now();
  abandoned = [];
  counter = make(0);
});

const day = (limit: number): BudgetWindow => dayWindow(clock, `race-${n}`, limit);
const hourOf = (limit: number): BudgetWindow => ({ ...hourWindow(clock, limit), key: `race-hour-${n}` });
const stored = (window: BudgetWindow) => storedCount(table.endpoint, TABLE, window.key);

async function unavailable(promise: Promise<unknown>): Promise<{ hold: Hold }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CounterUnavailable);
  return error as { hold: Hold };
}

describe('copies on their way', () => {
  it('bars the late first copy of a reservation whose second attempt landed, when it is given back', async () => {
    const window = day(5);
    // The first attempt is held past the timeout; the second lands.
    proxy.queue('hold');
    const reserved = await counter.reserve([window], 1);
    if (!reserved.ok) throw new Error('refused');
    expect(reserved.hold.states).toEqual(['held-retried']);
    await counter.close(reserved.hold, 0);
    expect(await stored(window)).toBe(0);
    await proxy.release();
    expect(await stored(window)).toBe(0);
  });

  it('gives back a reservation that lands between its give-back and the mark that bars it', async () => {
    const window = day(5);
    proxy.queue('hold', 'hold');
    const failed = await unavailable(counter.reserve([window], 1));
    // The give-back finds nothing (the reservation is still held); the bar is held in turn, and the
    // reservation's copies go first when the proxy lets them: the bar then finds the token and is refused.
    proxy.queue('pass', 'hold', 'hold');
    const closing = counter.close(failed.hold, 0);
    await proxy.received(proxy.operations.length + 2);
    await proxy.release();
    await closing;
    expect(counter.unsettled()).toEqual({ uncounted: 0, notGivenBack: 0 });
    await proxy.release();
    await counter.flush();
    expect(await stored(window)).toBe(0);
  }, 60_000);
});

describe('what is owed', () => {
  it('counts a search made during an outage even in a window full by then', async () => {
    const hour = hourOf(1);
    proxy.queue('cut', 'cut');
    const failed = await unavailable(counter.reserve([hour], 1));
    // Someone else fills the hour meanwhile.
    expect(await counter.reserve([hour], 1)).toMatchObject({ ok: true });
    await counter.close(failed.hold, 1);
    expect(await stored(hour)).toBe(2);
  });

  it('is written as soon as a reservation is answered again, with no flush asked for', async () => {
    const window = day(5);
    const reserved = await counter.reserve([window], 2);
    if (!reserved.ok) throw new Error('refused');
    proxy.queue('cut', 'cut');
    await counter.close(reserved.hold, 0);
    expect(counter.unsettled()).toEqual({ uncounted: 0, notGivenBack: 0 });
    expect(await stored(window)).toBe(2);
    // Not the hour's: the owed give-back of a day window is not counted against the hour.
    expect(await counter.reserve([{ ...day(100), key: `other-${n}` }], 1)).toMatchObject({ ok: true });
    for (let i = 0; i < 100 && (await stored(window)) !== 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await stored(window)).toBe(0);
  });

  it('reports a give-back owed in the hour as units not given back, and a search never sent as not counted', async () => {
    counter = make(1_000);
    const hour = hourOf(10);
    const reserved = await counter.reserve([hour], 3);
    if (!reserved.ok) throw new Error('refused');
    proxy.queue('cut', 'cut');
    await counter.close(reserved.hold, 1);
    expect(counter.unsettled()).toEqual({ uncounted: 0, notGivenBack: 2 });
    // Down: a reservation is not even sent.
    const unsent = await unavailable(counter.reserve([hour], 1));
    expect(unsent.hold.states).toEqual(['unsent']);
    expect(counter.known(hour)).toBe(3 + 1);
    await counter.close(unsent.hold, 1);
    expect(counter.unsettled()).toEqual({ uncounted: 1, notGivenBack: 2 });
    clock += 1_000;
    await counter.flush();
    expect(counter.unsettled()).toEqual({ uncounted: 0, notGivenBack: 0 });
    expect(await stored(hour)).toBe(2);
    expect(counter.known(hour)).toBe(2);
  });

  it('still writes a closing owed exactly the horizon long, and drops one a millisecond older', async () => {
    counter = make(1_000);
    const first = hourOf(10);
    const second = { ...hourOf(10), key: `${hourOf(10).key}-2` };
    proxy.queue('cut', 'cut');
    const a = await unavailable(counter.reserve([first], 1));
    await counter.close(a.hold, 1);
    clock += SETTLE_HORIZON_MS;
    await counter.flush();
    expect(abandoned).toEqual([]);
    expect(await stored(first)).toBe(1);
    proxy.queue('cut', 'cut');
    const b = await unavailable(counter.reserve([second], 1));
    await counter.close(b.hold, 1);
    clock += SETTLE_HORIZON_MS + 1;
    await counter.flush();
    expect(abandoned).toEqual([{ uncounted: 1, notGivenBack: 0 }]);
    expect(await stored(second)).toBeUndefined();
  });
});
