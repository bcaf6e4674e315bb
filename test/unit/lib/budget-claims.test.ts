/**
 * The budget's rules in-process (lib/budget/budget.ts, lib/budget/spend.ts), on a memory counter that can
 * be made to stop answering: what a request reserves and gives back, how a request of several searches is
 * refused whole, what failing open keeps (the counts last heard, a key's daily limit, the container's
 * allowance), fail-closed, and what each refusal names and how long it says to wait.
 */
import { describe, expect, it } from 'vitest';
import {
  type Budget,
  type BudgetSettings,
  createBudget,
  exhausted,
  NO_LIMIT,
  usageReport,
  usageWindows,
} from '../../../lib/budget/budget.js';
import { type Counter, CounterUnavailable, createMemoryCounter, type Hold } from '../../../lib/budget/counter.js';
import { createRequestSpend } from '../../../lib/budget/spend.js';
import { dayWindow, hourWindow, keyHourWindow, monthWindow } from '../../../lib/budget/windows.js';
import { AppError } from '../../../lib/errors.js';

const NOW = Date.parse('2026-01-05T03:04:05.000Z');
const HOUR_END = Date.parse('2026-01-05T04:00:00.000Z');
const DAY_END = Date.parse('2026-01-06T00:00:00.000Z');

/** A memory counter that stops answering on cue, as the table does; it records what is closed. */
function flaky(known: Record<string, number> = {}) {
  const memory = createMemoryCounter(() => NOW);
  const closed: { hold: Hold; kept: number }[] = [];
  let down = false;
  let retryAt: number | undefined;
  const counter: Counter = {
    async reserve(windows, n, until) {
      if (!down) return memory.reserve(windows, n, until);
      const error = new CounterUnavailable('no answer');
      error.hold = {
        token: 't',
        n,
        windows,
        states: windows.map(() => 'unsent'),
        minutes: windows.map(() => undefined),
        createdAt: NOW,
      };
      for (const window of windows) if (known[window.key] !== undefined) known[window.key] = (known[window.key] ?? 0) + n;
      throw error;
    },
    read: async (windows) => {
      if (down) throw new CounterUnavailable('no answer');
      return memory.read(windows);
    },
    async close(hold, kept) {
      closed.push({ hold, kept });
      if (hold.states.every((s) => s === 'unsent')) {
        for (const window of hold.windows)
          if (known[window.key] !== undefined) known[window.key] = (known[window.key] ?? 0) + kept - hold.n;
        return;
      }
      await memory.close(hold, kept);
    },
    flush: async () => undefined,
    known: (window) => known[window.key],
    unsettled: () => ({ uncounted: down ? 2 : 0, notGivenBack: down ? 1 : 0 }),
    retryAt: () => retryAt,
  };
  return {
    counter,
    memory,
    closed,
    goDown(until = NOW + 2_000) {
      down = true;
      retryAt = until;
    },
    comeBack() {
      down = false;
      retryAt = undefined;
    },
  };
}

function budgetOn(counter: Counter, settings: Partial<BudgetSettings> = {}, backstop = createMemoryCounter(() => NOW)): Budget {
  return createBudget({
    counter,
    backstop,
    now: () => NOW,
    retryMs: 2_000,
    settings: { searchesPerHour: () => 10, searchesPerMonth: 100, failClosed: false, backstopPerHour: 3, ...settings },
  });
}

/** The AppError a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const hour = () => hourWindow(NOW, 10);
const client = { client: 'ci', dailySearches: 7 };

describe('a claim', () => {
  it('reserves in the hour, the month and the key’s day, and gives back what it did not keep', async () => {
    const { counter, memory } = flaky();
    const budget = budgetOn(counter);
    const claim = await budget.claim(client, 3);
    const windows = [hour(), monthWindow(NOW, 100), dayWindow(NOW, 'ci', 7)];
    expect(await memory.read(windows)).toEqual([3, 3, 3]);
    await claim.close(1);
    expect(await memory.read(windows)).toEqual([1, 1, 1]);
  });

  it('names the hour when the hour is full, with Retry-After to its end, whatever the key’s day holds', async () => {
    const { counter } = flaky();
    const budget = budgetOn(counter);
    for (let i = 0; i < 10; i++) await budget.claim({ client: `other-${i}` }, 1);
    const error = await refusal(budget.claim(client, 1));
    expect(error.code).toBe('BUDGET_EXHAUSTED');
    expect(error.details).toMatch(
      /^The deployment's budget of 10 searches this hour is used up; it resets at 2026-01-05T04:00:00Z\./,
    );
    expect(error.headers).toEqual({ 'Retry-After': String((HOUR_END - NOW) / 1000) });
  });

  it('names the key’s own limit when its day is full, with Retry-After to the end of the day', async () => {
    const { counter } = flaky();
    const budget = budgetOn(counter, { searchesPerHour: () => 1_000 });
    for (let i = 0; i < 7; i++) await budget.claim(client, 1);
    const error = await refusal(budget.claim(client, 1));
    expect(error.details).toMatch(/^Your key's own limit of 7 searches today is used up/);
    expect(error.headers).toEqual({ 'Retry-After': String((DAY_END - NOW) / 1000) });
  });

  it('names the key’s day when it and the hour are both full: the last to reset is the real wait', async () => {
    const { counter } = flaky();
    const budget = budgetOn(counter, { searchesPerHour: () => 7 });
    for (let i = 0; i < 7; i++) await budget.claim(client, 1);
    const error = await refusal(budget.claim(client, 1));
    expect(error.details).toMatch(/^Your key's own limit of 7 searches today is used up/);
    expect(error.headers).toEqual({ 'Retry-After': String((DAY_END - NOW) / 1000) });
  });

  it('refuses a request of several searches whole when fewer are left, saying how many and how to ask for less', async () => {
    const { counter, memory } = flaky();
    const budget = budgetOn(counter);
    for (let i = 0; i < 9; i++) await budget.claim({}, 1);
    const error = await refusal(
      budget.claim(client, 6, { why: 'the search and 5 profile pages', less: (left) => `"enrich": ${(left ?? 1) - 1}` }),
    );
    expect(error.details).toBe(
      'The deployment\'s budget: 1 of 10 searches left this hour, fewer than the 6 this request can make (the search and 5 profile pages); it resets at 2026-01-05T04:00:00Z. Ask for less: "enrich": 0. Answers already in the cache are still served.',
    );
    expect(error.headers['Retry-After']).toBe(String((HOUR_END - NOW) / 1000));
    // Nothing of it was counted.
    expect(await memory.read([hour()])).toEqual([9]);
  });
});

describe('a refusal caused by reservations still in flight', () => {
  const DEADLINE = NOW + 25_000;
  const planner = { client: 'planner', deadline: DEADLINE };

  it('says to retry in about as long as such a request takes, not at the reset, and when the plans are closed at the latest', async () => {
    const { counter } = flaky();
    const budget = budgetOn(counter);
    const first = await budget.claim(planner, 6);
    const error = await refusal(budget.claim(planner, 6));
    expect(error.code).toBe('BUDGET_EXHAUSTED');
    expect(error.details).toBe(
      "The deployment's budget: 4 of 10 searches left this hour, fewer than the 6 this request can make; 6 of the searches counted are held by requests still in progress, which give back what they do not use by 2026-01-05T03:04:30Z at the latest: retry in 2 s (it resets at 2026-01-05T04:00:00Z). Answers already in the cache are still served.",
    );
    // No plan has been measured yet: 2 s.
    expect(error.headers).toEqual({ 'Retry-After': '2' });
    // What the first request did not use makes room.
    await first.close(1);
    expect((await budget.claim(planner, 6)).n).toBe(6);
  });

  it('waits for the plans’ usual length once measured, never past when they are closed at the latest, at least 1 s', async () => {
    const { counter } = flaky();
    const budget = budgetOn(counter);
    // A plan closed the instant it was made: the usual length is 0, so 1 s.
    await (await budget.claim(planner, 2)).close(2);
    await budget.claim(planner, 6);
    expect((await refusal(budget.claim(planner, 6))).headers).toEqual({ 'Retry-After': '1' });
    // Closed within a second of now at the latest: never later than that.
    const soon = budgetOn(flaky().counter);
    await soon.claim({ client: 'planner', deadline: NOW + 400 }, 6);
    expect((await refusal(soon.claim(planner, 6))).headers).toEqual({ 'Retry-After': '1' });
  });

  it('says the used-up budget of a single search is used up for now, when the plans in flight could free it', async () => {
    const { counter } = flaky();
    const budget = budgetOn(counter);
    await budget.claim(planner, 10);
    const error = await refusal(budget.claim(client, 1));
    expect(error.details).toMatch(
      /^The deployment's budget of 10 searches this hour is used up for now; 10 of the searches counted are held by requests still in progress/,
    );
    expect(error.headers).toEqual({ 'Retry-After': '2' });
  });

  it('waits for the reset when the plans in flight could not free enough, or are past their time, or a single search holds the count', async () => {
    const { counter } = flaky();
    const budget = budgetOn(counter);
    for (let i = 0; i < 5; i++) await budget.claim(client, 1);
    await budget.claim(planner, 4);
    // 9 counted, 4 of them in flight: 6 more cannot fit even if all 4 came back.
    const refused = await refusal(budget.claim(planner, 6));
    expect(refused.headers).toEqual({ 'Retry-After': String((HOUR_END - NOW) / 1000) });
    expect(refused.details).not.toMatch(/in progress/);
    // A plan whose request should have ended is no longer waited for (its request died, or is owed).
    const other = budgetOn(flaky().counter);
    await other.claim({ client: 'planner', deadline: NOW - 1 }, 6);
    expect((await refusal(other.claim(planner, 6))).headers).toEqual({ 'Retry-After': String((HOUR_END - NOW) / 1000) });
    // A request without a deadline reserves no plan.
    const bench = budgetOn(flaky().counter);
    await bench.claim({}, 6);
    expect((await refusal(bench.claim(planner, 6))).headers).toEqual({ 'Retry-After': String((HOUR_END - NOW) / 1000) });
    // Nor does a single search, even with a deadline: it is nearly always billed.
    const singles = budgetOn(flaky().counter);
    for (let i = 0; i < 10; i++) await singles.claim(planner, 1);
    expect((await refusal(singles.claim(planner, 1))).headers).toEqual({ 'Retry-After': String((HOUR_END - NOW) / 1000) });
  });

  it('takes the usual length as the median of the plans this container closed', async () => {
    let clock = NOW;
    const counter = createMemoryCounter(() => clock);
    const budget = createBudget({
      counter,
      backstop: createMemoryCounter(() => clock),
      now: () => clock,
      settings: { searchesPerHour: () => 100, searchesPerMonth: 0, failClosed: false, backstopPerHour: 1 },
    });
    // Three plans held 6 s, 9 s and 4 s (closed in that order): the median is 6 s.
    for (const ms of [6_000, 9_000, 4_000]) {
      const claim = await budget.claim({ client: 'planner', deadline: clock + 25_000 }, 2);
      clock += ms;
      await claim.close(2);
    }
    await budget.claim({ client: 'planner', deadline: clock + 25_000 }, 90);
    expect((await refusal(budget.claim({ client: 'planner', deadline: clock + 25_000 }, 90))).headers).toEqual({
      'Retry-After': '6',
    });
  });
});

describe('refusal wording', () => {
  const day = dayWindow(NOW, 'ci', 7);
  it('says a request of several searches cannot be covered when the count is not known', () => {
    expect(exhausted(day, NOW, { needed: 3 }).details).toMatch(
      /^Your key's own limit of 7 searches today cannot cover the 3 searches this request can make; it resets at 2026-01-06T00:00:00Z\. Answers/,
    );
  });
  it('gives a request of several searches the plain refusal when nothing is left, without advice', () => {
    const text = exhausted(day, NOW, { needed: 3, used: 7, ask: { less: () => 'x' } }).details;
    expect(text).toMatch(/^Your key's own limit of 7 searches today is used up/);
    expect(text).not.toMatch(/Ask for less/);
  });
  it('says when a count is the last this container heard', () => {
    expect(exhausted(hour(), NOW, { lastHeard: true }).details).toMatch(
      /is used up \(as this container last heard it: the counter cannot be reached right now\); it resets/,
    );
  });
  it('leaves out the advice when the request gives none', () => {
    expect(exhausted(day, NOW, { needed: 3, used: 6 }).details).toBe(
      "Your key's own limit: 1 of 7 searches left today, fewer than the 3 this request can make; it resets at 2026-01-06T00:00:00Z. Answers already in the cache are still served.",
    );
  });
});

describe('while the counter cannot be reached', () => {
  it('fails closed when so set: 503 BUDGET_UNAVAILABLE, Retry-After until the counter is tried again, the hold given back', async () => {
    const { counter, goDown, closed } = flaky();
    const budget = budgetOn(counter, { failClosed: true });
    goDown(NOW + 1_500);
    let errors = 0;
    const error = await refusal(budget.claim({ ...client, onCounterError: () => errors++ }, 1));
    expect(error.code).toBe('BUDGET_UNAVAILABLE');
    expect(error.headers).toEqual({ 'Retry-After': '2' });
    expect(error.details).toMatch(/tried again in 2 s/);
    expect(closed.map((c) => c.kept)).toEqual([0]);
    expect(errors).toBe(1);
  });

  it('fails open within the counts last heard: a key at its daily limit is refused, naming its limit', async () => {
    const day = dayWindow(NOW, 'ci', 7);
    const { counter, goDown, closed } = flaky({ [day.key]: 7 });
    const budget = budgetOn(counter);
    goDown();
    const error = await refusal(budget.claim(client, 1));
    expect(error.code).toBe('BUDGET_EXHAUSTED');
    expect(error.details).toMatch(/^Your key's own limit of 7 searches today is used up \(as this container last heard it/);
    expect(error.headers).toEqual({ 'Retry-After': String((DAY_END - NOW) / 1000) });
    expect(closed.map((c) => c.kept)).toEqual([0]);
  });

  it('refuses a key with its own daily limit, heard below it or never heard: 503, Retry-After the counter’s next try (other containers may spend it meanwhile)', async () => {
    const day = dayWindow(NOW, 'ci', 7);
    for (const known of [{ [day.key]: 5 }, {}]) {
      const { counter, goDown, closed } = flaky(known);
      const budget = budgetOn(counter);
      goDown(NOW + 4_000);
      const error = await refusal(budget.claim(client, 1));
      expect(error.code).toBe('BUDGET_UNAVAILABLE');
      expect(error.details).toBe(
        "The budget counter cannot be reached, so your key's own limit of 7 searches today cannot be kept (what other containers spent meanwhile is not known); the counter is tried again in 4 s. Answers already in the cache are still served.",
      );
      expect(error.headers).toEqual({ 'Retry-After': '4' });
      expect(closed.map((c) => c.kept)).toEqual([0]);
      // A key without a limit searches on, within the allowance.
      expect((await budget.claim({ client: 'free' }, 1)).n).toBe(1);
    }
  });

  it('refuses a key with its own hourly limit too, naming its hour', async () => {
    const { counter, goDown } = flaky();
    const budget = budgetOn(counter);
    goDown();
    const error = await refusal(budget.claim({ client: 'ci', hourlySearches: 4 }, 1));
    expect(error.code).toBe('BUDGET_UNAVAILABLE');
    expect(error.details).toMatch(
      /^The budget counter cannot be reached, so your key's own limit of 4 searches this hour cannot be kept/,
    );
  });

  it('lets a key whose limits are its shares search below them, as the deployment’s windows do, and refuses it at a share it knows full', async () => {
    const shared = { client: 'team', shared: true };
    const keyHour = keyHourWindow(NOW, 'team', 5);
    const known = { [keyHour.key]: 3 };
    const { counter, goDown } = flaky(known);
    const budget = budgetOn(counter, { backstopPerHour: 10 });
    goDown();
    for (let i = 0; i < 2; i++) await (await budget.claim(shared, 1)).close(1);
    expect(known[keyHour.key]).toBe(5);
    const error = await refusal(budget.claim(shared, 1));
    expect(error.code).toBe('BUDGET_EXHAUSTED');
    expect(error.details).toMatch(
      /^Your key's share of the deployment's budget, 5 of its 10 searches this hour, is used up \(as this container last heard it/,
    );
  });

  it('names the last to reset of the windows it knows to be full', async () => {
    const day = dayWindow(NOW, 'ci', 7);
    const { counter, goDown } = flaky({ [hour().key]: 10, [day.key]: 7 });
    const budget = budgetOn(counter);
    goDown();
    expect((await refusal(budget.claim(client, 1))).details).toMatch(/^Your key's own limit of 7 searches today is used up/);
  });

  it('refuses a window it knows to be full, the hour too', async () => {
    const { counter, goDown } = flaky({ [hour().key]: 10 });
    const budget = budgetOn(counter);
    goDown();
    const error = await refusal(budget.claim({ client: 'free' }, 1));
    expect(error.details).toMatch(
      /^The deployment's budget of 10 searches this hour is used up \(as this container last heard it/,
    );
  });

  it('keeps within the container’s own allowance, whose refusal waits for the counter, not the end of the hour', async () => {
    const { counter, goDown } = flaky();
    const budget = budgetOn(counter, { backstopPerHour: 2 });
    goDown(NOW + 3_000);
    await budget.claim({ client: 'free' }, 1);
    const two = await budget.claim({ client: 'free' }, 1);
    const error = await refusal(budget.claim({ client: 'free' }, 1));
    expect(error.details).toMatch(
      /this container's own allowance of 2 searches this hour for that case is used up; the counter is tried again in 3 s/,
    );
    expect(error.headers).toEqual({ 'Retry-After': '3' });
    // What a request did not keep goes back to the allowance too.
    await two.close(0);
    expect((await budget.claim({ client: 'free' }, 1)).n).toBe(1);
  });

  it('says when the counter is tried again, at least 1 s, also when the counter does not say', async () => {
    const { counter, goDown } = flaky();
    const budget = budgetOn(counter, { failClosed: true });
    goDown(NOW + 10);
    expect((await refusal(budget.claim({}, 1))).headers).toEqual({ 'Retry-After': '1' });
    const silent: Counter = { ...counter, retryAt: () => undefined };
    expect((await refusal(budgetOn(silent, { failClosed: true }).claim({}, 1))).headers).toEqual({ 'Retry-After': '2' });
  });

  it('passes on an error that is not the counter’s', async () => {
    const broken: Counter = { ...flaky().counter, reserve: async () => Promise.reject(new Error('bug')) };
    await expect(budgetOn(broken).claim({}, 1)).rejects.toThrow('bug');
  });
});

describe('/v1/usage', () => {
  it('reports each window and what the container has not settled', async () => {
    const { counter } = flaky();
    const budget = budgetOn(counter);
    await budget.claim(client, 2);
    const report = await budget.usage(client);
    expect(report.hour).toEqual({ limit: 10, used: 2, left: 8, resets_at: '2026-01-05T04:00:00Z' });
    expect(report.month).toMatchObject({ limit: 100, used: 2 });
    expect(report.client.today).toMatchObject({ limit: 7, used: 2, left: 5 });
    expect(report.unsettled).toEqual({ searches_not_counted: 0, searches_not_given_back: 0 });
  });

  it('answers 503 when the counter cannot be read, saying what this container owes, in either mode', async () => {
    for (const failClosed of [false, true]) {
      const { counter, goDown } = flaky();
      const budget = budgetOn(counter, { failClosed });
      goDown(NOW + 5_000);
      let errors = 0;
      const error = await refusal(budget.usage({ ...client, onCounterError: () => errors++ }));
      expect(error.code).toBe('BUDGET_UNAVAILABLE');
      expect(error.details).toBe(
        'The search budget could not be read; this container holds 2 searches made and not yet counted, and 1 not yet given back; retry in 5 s',
      );
      expect(error.headers).toEqual({ 'Retry-After': '5' });
      expect(errors).toBe(1);
    }
  });

  it('leaves the month out when there is no monthly cap, and reads the hour and day of a key without limits', async () => {
    const settings: BudgetSettings = { searchesPerHour: () => 10, searchesPerMonth: 0, failClosed: false, backstopPerHour: 1 };
    const windows = usageWindows(settings, { client: 'free' }, NOW);
    expect(windows.map((w) => [w.kind, w.limit])).toEqual([
      ['hour', 10],
      ['day', NO_LIMIT],
      ['key-hour', NO_LIMIT],
    ]);
    expect(usageReport({ client: 'free' }, windows, [1, 1, 1]).month).toBeNull();
  });
});

describe("a request's spending", () => {
  it('reserves its planned searches at its first paid search, all or nothing, and gives back what it did not use', async () => {
    const { counter, memory } = flaky();
    const budget = budgetOn(counter);
    const spend = createRequestSpend(budget, client);
    spend.plan(4);
    const first = await spend.take();
    expect(await memory.read([hour()])).toEqual([4]);
    first.done(true);
    const second = await spend.take();
    second.done(true);
    await spend.close();
    expect(await memory.read([hour()])).toEqual([2]);
  });

  it('puts back the unit of a search the provider did not bill, for the next search, and gives it back at the end', async () => {
    const { counter, memory } = flaky();
    const spend = createRequestSpend(budgetOn(counter), {});
    const unit = await spend.take();
    unit.done(false);
    // Twice is once.
    unit.done(true);
    const retry = await spend.take();
    expect(await memory.read([hour()])).toEqual([1]);
    retry.done(false);
    await spend.close();
    expect(await memory.read([hour()])).toEqual([0]);
  });

  it('refuses a planned request whole before its first search, naming what it can cost', async () => {
    const { counter, memory } = flaky();
    const budget = budgetOn(counter);
    for (let i = 0; i < 9; i++) await budget.claim({}, 1);
    const spend = createRequestSpend(budget, {});
    spend.plan(2, { why: 'interest over time, then by region' });
    const error = await refusal(spend.take());
    expect(error.details).toMatch(
      /1 of 10 searches left this hour, fewer than the 2 this request can make \(interest over time, then by region\)/,
    );
    expect(await memory.read([hour()])).toEqual([9]);
  });

  it('does not reserve planned searches the caches answered', async () => {
    const { counter, memory } = flaky();
    let hits = 0;
    const spend = createRequestSpend(budgetOn(counter), {}, () => hits);
    spend.plan(6);
    hits = 1;
    const unit = await spend.take();
    expect(await memory.read([hour()])).toEqual([5]);
    unit.done(true);
    await spend.close();
    expect(await memory.read([hour()])).toEqual([1]);
  });

  it('reserves one unit at a time without a plan, and after the plan is used', async () => {
    const { counter, memory } = flaky();
    const spend = createRequestSpend(budgetOn(counter), {});
    spend.plan(1);
    (await spend.take()).done(true);
    (await spend.take()).done(true);
    expect(await memory.read([hour()])).toEqual([2]);
  });

  it('lets concurrent searches share one reservation, and its refusal', async () => {
    const { counter, memory } = flaky();
    const budget = budgetOn(counter);
    const spend = createRequestSpend(budget, {});
    spend.plan(3);
    const units = await Promise.all([spend.take(), spend.take(), spend.take()]);
    expect(await memory.read([hour()])).toEqual([3]);
    for (const unit of units) unit.done(true);
    const full = createRequestSpend(budget, {});
    full.plan(9);
    const refusals = await Promise.allSettled([full.take(), full.take()]);
    expect(refusals.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await memory.read([hour()])).toEqual([3]);
  });

  it('sends nothing once the request is over, and counts a search still in flight', async () => {
    const { counter, memory } = flaky();
    const spend = createRequestSpend(budgetOn(counter), {});
    const inFlight = await spend.take();
    await spend.close();
    expect(spend.closed).toBe(true);
    const late = await refusal(spend.take());
    expect(late.code).toBe('UPSTREAM_TIMEOUT');
    expect(late.details).toMatch(/already answered/);
    inFlight.done(false);
    expect(await memory.read([hour()])).toEqual([1]);
    // Closing again changes nothing.
    await spend.close();
    expect(await memory.read([hour()])).toEqual([1]);
  });
});
