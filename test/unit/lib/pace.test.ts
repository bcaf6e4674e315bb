/**
 * The pace (lib/pace/), on times the test gives: the configured rate whoever asks, the stricter pace an
 * answer states, a 429's pause for its Retry-After (seconds or an HTTP date), no call started past its
 * deadline, first come first served, the calls waiting at once given their turns in one change of the
 * store, and this container's own memory while the store does not answer.
 */

import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Pace, type PaceOptions } from '../../../lib/pace/pace.js';
import {
  EMPTY_STATE,
  earliestStart,
  inFlightInForce,
  intervalMs,
  keptRule,
  noted,
  type PaceState,
  rateRule,
  released,
  retryAfterMs,
  STARTS_KEPT,
  takeTurns,
  WINDOW_MARGIN,
} from '../../../lib/pace/rules.js';
import { createMemoryPaceStore, type PaceChange, type PaceStore, PaceStoreUnavailable } from '../../../lib/pace/store.js';

/** A pace on the test's clock, in a memory store of its own. */
function paceOf(perSecond: number, options: Partial<PaceOptions> = {}): Pace {
  return new Pace({ key: 'crossref', source: 'Crossref', perSecond, store: createMemoryPaceStore(), now: () => 0, ...options });
}

/** The start times `n` calls asked for at `at` get, one after the other, or their refusals' codes. */
async function starts(pace: Pace, n: number, at = 0, deadline = Number.POSITIVE_INFINITY): Promise<(number | string)[]> {
  const turns: (number | string)[] = [];
  for (let i = 0; i < n; i++) {
    const turn = await pace.slot(deadline, at);
    turns.push('startAt' in turn ? turn.startAt : turn.refused.code);
  }
  return turns;
}

describe('the pace’s rules', () => {
  it('reads a rate as whole starts per window: 5/s is 5 per second, 1.5/s one per 667 ms, 0.5/s one per 2 s', () => {
    expect(rateRule(5)).toEqual({ limit: 5, ms: 1_000 });
    expect(rateRule(10)).toEqual({ limit: 10, ms: 1_000 });
    expect(rateRule(1.5)).toEqual({ limit: 1, ms: (1 / 1.5) * 1_000 });
    expect(rateRule(0.5)).toEqual({ limit: 1, ms: 2_000 });
    expect(rateRule(3.3).limit).toBe(3);
  });

  it('keeps a rule of more starts than a state holds as the same rate over a shorter window', () => {
    expect(keptRule({ limit: 5, ms: 1_000 })).toEqual({ limit: 5, ms: 1_000 });
    expect(keptRule({ limit: STARTS_KEPT * 2, ms: 10_000 })).toEqual({ limit: STARTS_KEPT, ms: 5_000 });
  });

  it('gives a start no earlier than the last one given, the pause’s end, or the limit-th last start plus the window and its margin', () => {
    const rule = { limit: 2, ms: 1_000 };
    expect(WINDOW_MARGIN).toBe(0.03);
    expect(earliestStart(EMPTY_STATE, [rule], 300)).toBe(300);
    // First come, first served: a call asking now comes after one already waiting for 700.
    expect(earliestStart({ starts: [700], pausedUntil: 0 }, [rule], 300)).toBe(700);
    // The window kept 3 % wider than the rule's: 30 ms a second for the jitter between a start and its arrival.
    expect(earliestStart({ starts: [0, 100], pausedUntil: 0 }, [rule], 300)).toBe(1_030);
    expect(earliestStart({ starts: [0, 100], pausedUntil: 0 }, [rule], 1_200)).toBe(1_200);
    expect(earliestStart({ starts: [], pausedUntil: 5_000 }, [rule], 300)).toBe(5_000);
    // Whole milliseconds, rounded up: 1.5 a second is one start per 666.67 ms, kept as 686.67.
    expect(earliestStart({ starts: [0], pausedUntil: 0 }, [rateRule(1.5)], 0)).toBe(687);
  });

  it('never gives more than `limit` starts in any window, whatever the order and the times asked', () => {
    const rule = rateRule(3);
    let state: PaceState = EMPTY_STATE;
    const given: number[] = [];
    // Asks at scattered times, some before starts already given.
    for (const at of [0, 10, 900, 950, 20, 1_500, 1_500, 1_501, 3_000, 2_999, 5_000, 5_001, 5_002, 5_003]) {
      const { next, turns } = takeTurns(state, rule, [{ at, deadline: Number.POSITIVE_INFINITY }]);
      state = next ?? state;
      given.push((turns[0] as { startAt: number }).startAt);
    }
    expect(given).toEqual([...given].sort((a, b) => a - b));
    // Nor in any window 3 % wider: a call arriving up to 30 ms after its start still arrives within the rule.
    for (const start of given) expect(given.filter((s) => s >= start && s < start + 1_030).length).toBeLessThanOrEqual(3);
  });
});

describe('a pace', () => {
  it('starts at most the configured number of calls in any window, whoever asks', async () => {
    expect(await starts(paceOf(5), 12)).toEqual([0, 0, 0, 0, 0, 1_030, 1_030, 1_030, 1_030, 1_030, 2_060, 2_060]);
    // A call asked later than its window's start keeps the spacing from the starts before it.
    const later = paceOf(2);
    expect(await starts(later, 2, 0)).toEqual([0, 0]);
    expect(await starts(later, 1, 300)).toEqual([1_030]);
    expect(await starts(later, 1, 2_500)).toEqual([2_500]);
  });

  it('keeps the stricter of the configured rate and the pace an answer states', async () => {
    const pace = paceOf(10);
    await pace.note(200, { 'x-rate-limit-limit': '2', 'x-rate-limit-interval': '1s' }, 0);
    expect(await starts(pace, 4)).toEqual([0, 0, 1_030, 1_030]);
    const generous = paceOf(2);
    await generous.note(200, { 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '1s' }, 0);
    expect(await starts(generous, 3)).toEqual([0, 0, 1_030]);
    // A header it cannot read changes nothing.
    const unread = paceOf(1);
    await unread.note(200, { 'x-rate-limit-limit': 'many', 'x-rate-limit-interval': '1s' }, 0);
    await unread.note(200, { 'x-rate-limit-limit': '0', 'x-rate-limit-interval': '1s' }, 0);
    await unread.note(200, { 'x-rate-limit-limit': '5', 'x-rate-limit-interval': 'soon' }, 0);
    expect(await starts(unread, 2)).toEqual([0, 1_030]);
  });

  it('pauses every call for Retry-After after a 429: one that cannot start before its deadline is refused, a later one waits', async () => {
    const pace = paceOf(5);
    await pace.note(429, { 'retry-after': '30' }, 1_000);
    expect(pace.pausedUntil).toBe(31_000);
    const refused = await pace.slot(31_000, 30_999);
    expect(refused).toMatchObject({ refused: { code: 'UPSTREAM_QUOTA_EXCEEDED' } });
    // The upstream's Retry-After is passed on: when to ask again, in words and as the header.
    expect('refused' in refused && refused.refused.details).toBe(
      'Crossref asked for a pause (HTTP 429); not looked up (Retry-After: ask again after 1970-01-01T00:00:31Z)',
    );
    expect('refused' in refused && refused.refused.headers).toEqual({ 'Retry-After': '1' });
    expect(pace.retryAfter(1_000)).toEqual({
      said: ' (Retry-After: ask again after 1970-01-01T00:00:31Z)',
      headers: { 'Retry-After': '30' },
    });
    expect(pace.refusal(30_999)?.details).toBe(
      'Crossref asked for a pause (HTTP 429); not looked up (Retry-After: ask again after 1970-01-01T00:00:31Z)',
    );
    expect(pace.refusal(31_000)).toBeUndefined();
    // A call whose deadline lies past the pause starts when it ends, then at the configured rate.
    expect(await starts(pace, 6, 2_000)).toEqual([31_000, 31_000, 31_000, 31_000, 31_000, 32_030]);
    expect(pace.retryAfter(31_000)).toEqual({ said: '' });
  });

  it('says no time to ask again when the 429 gave no Retry-After (its pause is the stated interval, or a second)', async () => {
    const pace = paceOf(5, { source: 'DataCite', key: 'datacite' });
    await pace.note(429, { 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '1s' }, 0);
    expect(pace.pausedUntil).toBe(1_000);
    const refused = pace.refusal(500);
    expect(refused?.details).toBe('DataCite asked for a pause (HTTP 429); not looked up');
    expect(refused?.headers).toEqual({});
  });

  it('keeps the Retry-After a 429 gave in the store, for every container that shares it', async () => {
    const store = createMemoryPaceStore();
    await paceOf(5, { store }).note(429, { 'retry-after': '30' }, 1_000);
    const other = paceOf(5, { store });
    await other.slot(Number.POSITIVE_INFINITY, 2_000);
    expect(other.retryAfter(2_000)).toEqual({
      said: ' (Retry-After: ask again after 1970-01-01T00:00:31Z)',
      headers: { 'Retry-After': '29' },
    });
  });

  it('reads Retry-After as seconds or as an HTTP date, and pauses one stated interval (else a second) without it', async () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 26 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Thu, 26 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect([retryAfterMs('soon', now), retryAfterMs(undefined, now), retryAfterMs('-5', now)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const stated = paceOf(5);
    await stated.note(429, { 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '2s' }, 100);
    expect(stated.pausedUntil).toBe(2_100);
    const bare = paceOf(1.5);
    await bare.note(429, {}, 100);
    expect(bare.pausedUntil).toBe(1_100);
    // A shorter pause never cuts a longer one short.
    await bare.note(429, { 'retry-after': '60' }, 200);
    await bare.note(429, { 'retry-after': '1' }, 300);
    expect(bare.pausedUntil).toBe(60_200);
  });

  it('sends no call that could only start at or past its deadline, and takes no start for it', async () => {
    const pace = paceOf(1);
    expect(await starts(pace, 1, 0, 500)).toEqual([0]);
    expect(await starts(pace, 1, 0, 1_030)).toEqual(['UPSTREAM_TIMEOUT']);
    expect(await starts(pace, 1, 0, 1_031)).toEqual([1_030]);
    expect(pace.starts()).toEqual([0, 1_030]);
  });

  it('says of a call its deadline left unsent that it was not asked, never that the upstream did not answer', async () => {
    const pace = paceOf(1, { source: 'DataCite', key: 'datacite' });
    await pace.slot(Number.POSITIVE_INFINITY, 0);
    const turn = await pace.slot(1_000, 0);
    expect('refused' in turn && turn.refused.details).toBe(
      "DataCite was not asked: the request's time ran out before its turn at DataCite's pace",
    );
  });

  it('reads the interval header in its forms', () => {
    expect([intervalMs('1s'), intervalMs('60s'), intervalMs('1m'), intervalMs('500ms'), intervalMs('soon')]).toEqual([
      1_000,
      60_000,
      60_000,
      500,
      undefined,
    ]);
  });

  it('forgets every start, stated pace and pause on reset, in the store too, and takes a new rate', async () => {
    const store = createMemoryPaceStore();
    const pace = paceOf(1, { store });
    await pace.note(429, { 'x-rate-limit-limit': '1', 'x-rate-limit-interval': '10s', 'retry-after': '5' }, 0);
    await pace.reset(2);
    expect(pace.rate).toBe(2);
    expect(pace.pausedUntil).toBe(0);
    expect(await starts(pace, 3)).toEqual([0, 0, 1_030]);
    // Another pace on the same store sees the reset too.
    expect(await starts(paceOf(2, { store }), 1)).toEqual([1_030]);
  });

  it('shares its state with every pace of the same store and key: two containers together keep one rate', async () => {
    const store = createMemoryPaceStore();
    const [a, b] = [paceOf(2, { store }), paceOf(2, { store })];
    const given = [...(await starts(a, 2)), ...(await starts(b, 2)), ...(await starts(a, 1))];
    expect(given).toEqual([0, 0, 1_030, 1_030, 2_060]);
    // A pause one container heard holds the other's calls too.
    await b.note(429, { 'retry-after': '10' }, 0);
    expect(await a.slot(5_000, 0)).toMatchObject({ refused: { code: 'UPSTREAM_QUOTA_EXCEEDED' } });
    // Another key is another upstream.
    expect(await starts(paceOf(2, { store, key: 'datacite' }), 1)).toEqual([0]);
  });

  it('gives the calls waiting at once their turns in one change of the store, in the order they asked', async () => {
    const memory = createMemoryPaceStore();
    const changes: number[] = [];
    const counted: PaceStore = {
      update: <T>(key: string, change: PaceChange<T>) => {
        changes.push(1);
        return memory.update(key, change);
      },
    };
    const pace = paceOf(3, { store: counted });
    const turns = await Promise.all(Array.from({ length: 5 }, () => pace.slot(Number.POSITIVE_INFINITY, 0)));
    expect(turns.map((turn) => ('startAt' in turn ? turn.startAt : turn.refused.code))).toEqual([0, 0, 0, 1_030, 1_030]);
    // The first ask's change, then one for the four that waited meanwhile.
    expect(changes).toHaveLength(2);
  });

  it('writes to the store only what an answer changes', async () => {
    const memory = createMemoryPaceStore();
    let writes = 0;
    const counted: PaceStore = {
      update: <T>(key: string, change: PaceChange<T>) =>
        memory.update(key, (state) => {
          const outcome = change(state);
          if (outcome.next) writes++;
          return outcome;
        }),
    };
    const pace = paceOf(5, { store: counted });
    const stated = { 'x-rate-limit-limit': '5', 'x-rate-limit-interval': '1s' };
    await pace.note(200, stated, 0);
    await pace.note(200, stated, 10);
    await pace.note(200, {}, 20);
    expect(writes).toBe(1);
  });

  it('keeps the pace in its own memory while the store does not answer, says so once, and tries the store again later', async () => {
    let clock = 0;
    let down = true;
    const memory = createMemoryPaceStore();
    const flaky: PaceStore = {
      update: <T>(key: string, change: PaceChange<T>) =>
        down ? Promise.reject(new PaceStoreUnavailable('no answer within 500 ms')) : memory.update(key, change),
    };
    const said: string[] = [];
    const pace = paceOf(2, {
      store: flaky,
      retryMs: 10_000,
      now: () => clock,
      onUnavailable: (error) => said.push(error.message),
    });
    expect(await starts(pace, 3)).toEqual([0, 0, 1_030]);
    expect(said).toEqual(['no answer within 500 ms']);
    down = false;
    clock = 9_999;
    // Still resting: its own memory, which remembers its own starts.
    expect(await starts(pace, 1, 9_999)).toEqual([9_999]);
    clock = 10_000;
    expect(await starts(pace, 2, 10_000)).toEqual([10_000, 10_000]);
    expect(await starts(pace, 1, 10_000)).toEqual([11_030]);
  });

  it('waits for its start when acquired, and asks again past a pause heard while it waited', async () => {
    let clock = 0;
    const slept: number[] = [];
    const store = createMemoryPaceStore();
    const other = paceOf(1, { store, now: () => clock });
    const pace = paceOf(1, {
      store,
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        // While this call waits, another container meets a 429 asking for 5 s.
        if (slept.length === 1) await other.note(429, { 'retry-after': '5' }, clock + 500);
        clock += ms;
      },
    });
    expect(await pace.acquire()).toBe(0);
    expect(await pace.acquire()).toBe(5_500);
    // 1 s (and the margin) for its turn, then past the pause it heard of when it woke.
    expect(slept).toEqual([1_030, 4_470]);
    await expect(pace.acquire(6_000)).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
  });

  it('never answers an acquired start before it comes, even when a timer fires early', async () => {
    let clock = 0;
    const pace = paceOf(1, {
      now: () => clock,
      // A timer that fires a millisecond early, as Node's may against the wall clock.
      sleep: async (ms) => {
        clock += Math.max(1, ms - 1);
      },
    });
    expect(await pace.acquire()).toBe(0);
    expect(await pace.acquire()).toBe(1_030);
    expect(clock).toBe(1_030);
  });

  it('asks for a new turn when its timer fired past the window’s margin, a few times at most, and goes late rather than not at all', async () => {
    let clock = 0;
    let late = 0;
    const pace = paceOf(2, {
      now: () => clock,
      // An event loop busy for `late` ms past each timer.
      sleep: async (ms) => {
        clock += ms + late;
      },
    });
    expect([await pace.acquire(), await pace.acquire()]).toEqual([0, 0]);
    // 30 ms late is within the margin: it goes on its turn.
    late = 30;
    expect(await pace.acquire()).toBe(1_030);
    expect(clock).toBe(1_060);
    // 31 ms late is not: sent then, it would arrive with the next window's calls. It asks again, and gets
    // the room left at once (the rule counts the start it left unused).
    expect(await pace.acquire()).toBe(1_060);
    late = 31;
    expect(await pace.acquire()).toBe(2_091);
    expect(clock).toBe(2_091);
    // The start it left is still taken (2_091, not 2_060, came next), but no call of this container went on it.
    expect(pace.starts()).toEqual([0, 0, 1_030, 1_060, 2_091]);
    // A loop busy for good: after three new turns it goes on the last one, late.
    late = 500;
    const busyLoop = {
      now: () => clock,
      sleep: async (ms: number) => {
        clock += ms + late;
      },
    };
    const busy = paceOf(1, busyLoop);
    clock = 0;
    expect(await busy.acquire()).toBe(0);
    expect(await busy.acquire()).toBe(4_120);
    expect(clock).toBe(4_620);
    expect(busy.starts()).toEqual([0, 4_120]);
    // With a deadline no new turn comes before, it goes on the turn it overslept.
    const due = paceOf(1, busyLoop);
    clock = 0;
    expect(await due.acquire(1_100)).toBe(0);
    expect(await due.acquire(1_100)).toBe(1_030);
    expect(clock).toBe(1_530);
    expect(due.starts()).toEqual([0, 1_030]);
  });
});

describe('calls in flight, under a concurrency limit (Crossref’s public pool allows one)', () => {
  const ask = (at: number, id: string, deadline = Number.POSITIVE_INFINITY) => ({ at, deadline, hold: { id, ms: 4_000 } });

  it('gives no start while every room is held, frees a room when its call ends or its hold runs out', () => {
    const rule = rateRule(10);
    const { next, turns } = takeTurns(EMPTY_STATE, rule, [ask(0, 'a'), ask(0, 'b'), ask(0, 'c'), ask(0, 'd')], 2);
    // The rate would start all four at once; two rooms do not. The first hold's end is when to ask again at the latest.
    expect(turns).toEqual([{ startAt: 0 }, { startAt: 0 }, { full: 4_000 }, { full: 4_000 }]);
    const held = next as PaceState;
    expect(held.held).toEqual([
      { id: 'a', start: 0, until: 4_000 },
      { id: 'b', start: 0, until: 4_000 },
    ]);
    expect(held.starts).toEqual([0, 0]);
    // A call ended: its room is free, for the next to ask.
    const free = released(held, 'a') as PaceState;
    expect(free.held?.map((hold) => hold.id)).toEqual(['b']);
    expect(released(free, 'a')).toBeUndefined();
    expect(takeTurns(free, rule, [ask(300, 'c'), ask(300, 'd')], 2).turns).toEqual([{ startAt: 300 }, { full: 4_000 }]);
    // A hold past its call's timeout is dropped: a container gone mid-call never holds the room for good.
    const expired = takeTurns(held, rule, [ask(4_000, 'e')], 2);
    expect(expired.turns).toEqual([{ startAt: 4_000 }]);
    expect(expired.next?.held).toEqual([{ id: 'e', start: 4_000, until: 8_000 }]);
    // Waiting, not refused, when the first hold's latest end is past the deadline: a call mostly ends well before.
    expect(takeTurns(held, rule, [ask(100, 'f', 500)], 2).turns).toEqual([{ full: 4_000 }]);
    // Refused when the rate alone puts its start past the deadline, as before.
    expect(takeTurns({ ...held, pausedUntil: 600 }, rule, [ask(100, 'f', 500)], 2).turns).toEqual([{ refused: 'paused' }]);
    // A call asking again under its id (its turn came too late to use) does not wait on its own room.
    const again = takeTurns(held, rule, [ask(100, 'a')], 2);
    expect(again.turns).toEqual([{ startAt: 100 }]);
    expect(again.next?.held).toEqual([
      { id: 'b', start: 0, until: 4_000 },
      { id: 'a', start: 100, until: 4_100 },
    ]);
    // No limit, no wait.
    expect(takeTurns(held, rule, [ask(0, 'g'), ask(0, 'h'), ask(0, 'i')]).turns).toEqual([
      { startAt: 0 },
      { startAt: 0 },
      { startAt: 0 },
    ]);
  });

  it('keeps the stricter of the configured limit and the one an answer states (x-concurrency-limit)', () => {
    expect(noted(EMPTY_STATE, 200, { 'x-concurrency-limit': '1' }, 0)).toEqual({ ...EMPTY_STATE, statedInFlight: 1 });
    expect(noted({ ...EMPTY_STATE, statedInFlight: 1 }, 200, { 'x-concurrency-limit': '1' }, 0)).toBeUndefined();
    expect(noted(EMPTY_STATE, 200, { 'x-concurrency-limit': 'many' }, 0)).toBeUndefined();
    expect(noted(EMPTY_STATE, 200, { 'x-concurrency-limit': '0' }, 0)).toBeUndefined();
    expect(inFlightInForce(5, { ...EMPTY_STATE, statedInFlight: 1 })).toBe(1);
    expect(inFlightInForce(1, { ...EMPTY_STATE, statedInFlight: 5 })).toBe(1);
    expect(inFlightInForce(undefined, { ...EMPTY_STATE, statedInFlight: 3 })).toBe(3);
    expect(inFlightInForce(undefined, EMPTY_STATE)).toBeUndefined();
    // A stated limit holds where none is configured.
    const stated = { ...EMPTY_STATE, statedInFlight: 1 };
    expect(takeTurns(stated, rateRule(10), [ask(0, 'a'), ask(0, 'b')]).turns).toEqual([{ startAt: 0 }, { full: 4_000 }]);
  });

  it('has a call find no room wait for a call of this container to end, and start then, never before', async () => {
    let clock = 0;
    // No poll, and no hold's end, before the test's time runs out: only the end of the call can wake the one waiting.
    const pace = paceOf(10, { inFlight: 1, now: () => clock, pollMs: 1_000_000 });
    expect(await pace.acquire(Number.POSITIVE_INFINITY, { id: 'a', ms: 1_000_000 })).toBe(0);
    let second: number | undefined;
    const waiting = pace.acquire(Number.POSITIVE_INFINITY, { id: 'b', ms: 1_000_000 }).then((start) => {
      second = start;
      return start;
    });
    // Turns of the event loop come and go: no start while the room is held.
    await delay(60);
    expect(second).toBeUndefined();
    clock = 250;
    await pace.finish('a');
    // Asked again when the room came free: started then, not at the time it first asked.
    expect(await waiting).toBe(250);
    expect(pace.starts()).toEqual([0, 250]);
  });

  it('hears at its next poll that another container’s call ended (one store for both)', async () => {
    let clock = 0;
    const store = createMemoryPaceStore();
    const options = { inFlight: 1, now: () => clock, pollMs: 5, store };
    const first = paceOf(10, options);
    const second = paceOf(10, options);
    expect(await first.acquire(Number.POSITIVE_INFINITY, { id: 'a', ms: 60_000 })).toBe(0);
    const waiting = second.acquire(Number.POSITIVE_INFINITY, { id: 'b', ms: 60_000 });
    clock = 400;
    await first.finish('a', { status: 200, headers: { 'x-concurrency-limit': '1' } });
    expect(await waiting).toBe(400);
    // The answer's stated limit was learnt in the same change.
    expect(second.limitsInFlight).toBe(true);
  });

  it('gives a room that came free to the call that waited longest, not to one that asked since', async () => {
    let clock = 0;
    const store = createMemoryPaceStore();
    const first = paceOf(10, { inFlight: 1, now: () => clock, store });
    // No poll in the test's time: this container hears of the room only when one of its own calls ends.
    const second = paceOf(10, { inFlight: 1, now: () => clock, store, pollMs: 1_000_000 });
    await first.acquire(Number.POSITIVE_INFINITY, { id: 'a', ms: 1_000_000 });
    const starts: string[] = [];
    const waited = second.acquire(Number.POSITIVE_INFINITY, { id: 'b', ms: 1_000_000 }).then(() => starts.push('b'));
    clock = 100;
    await first.finish('a');
    // The room is free in the store; a call asking now still comes after the one waiting for it.
    const later = second.acquire(Number.POSITIVE_INFINITY, { id: 'c', ms: 1_000_000 }).then(() => starts.push('c'));
    await second.finish(undefined);
    await waited;
    expect(starts).toEqual(['b']);
    clock = 200;
    await second.finish('b');
    await later;
    expect(starts).toEqual(['b', 'c']);
  });

  it('refuses a call still finding no room at its deadline as not asked, never as not answering', async () => {
    let clock = 0;
    const pace = paceOf(10, { inFlight: 1, now: () => clock, pollMs: 5 });
    await pace.acquire(Number.POSITIVE_INFINITY, { id: 'a', ms: 60_000 });
    const refused = pace.acquire(200, { id: 'b', ms: 60_000 });
    clock = 200;
    await expect(refused).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      details: expect.stringMatching(/^Crossref was not asked/),
    });
    // The room stays with the call that holds it.
    const third = pace.acquire(Number.POSITIVE_INFINITY, { id: 'c', ms: 60_000 });
    clock = 300;
    await pace.finish('a');
    expect(await third).toBe(300);
  });
});
