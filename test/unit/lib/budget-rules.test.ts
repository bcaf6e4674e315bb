/**
 * The budget's rules that no request-level test pins down: the default per-container allowance, each
 * window's refusal wording, /v1/usage's arithmetic, what a failed counter call may have written, the
 * counter keys' zero padding, which windows a client's search counts in, the Account API reader's refresh and retry, and the client keys' parsing
 * that decides a client's day window (a daily limit of 0, a digest's anchors, an entry without a name,
 * the bearer scheme's anchor).
 */
import { describe, expect, it } from 'vitest';
import { createPlanReader, type PlanNumbers, parseAccount, RETRY_AFTER_FAILURE_MS } from '../../../lib/budget/account.js';
import {
  type BudgetSettings,
  defaultBackstop,
  exhausted,
  KEY_SHARE,
  keyShare,
  NO_LIMIT,
  usageReport,
  usageWindows,
  windowsFor,
} from '../../../lib/budget/budget.js';
import { lastToReset, mustWaitFor, newToken, planOf, planToken, roomBy, surelyNotWritten } from '../../../lib/budget/counter.js';
import { dayWindow, hourWindow, keyHourWindow, monthWindow } from '../../../lib/budget/windows.js';
import { parseClientKeySecret } from '../../../lib/credentials/client-keys.js';
import { SecretShapeError } from '../../../lib/credentials/secrets.js';
import { bearerToken } from '../../../lib/middleware/auth.js';

const at = (iso: string) => Date.parse(iso);
const NOW = at('2026-01-05T03:04:05.000Z');
const SETTINGS: BudgetSettings = { searchesPerHour: () => 250, searchesPerMonth: 5000, failClosed: false, backstopPerHour: 25 };

describe('the fail-open allowance per container', () => {
  it('defaults to a tenth of the hourly budget, rounded up, at least 1', () => {
    expect(defaultBackstop(250)).toBe(25);
    expect(defaultBackstop(11)).toBe(2);
    expect(defaultBackstop(5)).toBe(1);
    expect(defaultBackstop(1)).toBe(1);
    expect(defaultBackstop(10_000)).toBe(1_000);
  });
});

describe('refusals', () => {
  const details = (error: { details?: unknown }) => String(error.details);

  it('names the window that ran out: the hour, the month, the key’s day', () => {
    expect(details(exhausted(hourWindow(NOW, 250), NOW))).toMatch(
      /^The deployment's budget of 250 searches this hour is used up; it resets at 2026-01-05T04:00:00Z\./,
    );
    expect(details(exhausted(monthWindow(NOW, 5000), NOW))).toMatch(
      /^The deployment's budget of 5000 searches this month is used up; it resets at 2026-02-01T00:00:00Z\./,
    );
    expect(details(exhausted(dayWindow(NOW, 'ci', 50), NOW))).toMatch(/^Your key's own limit of 50 searches today is used up/);
    expect(exhausted(monthWindow(NOW, 5000), NOW).headers).toEqual({
      'Retry-After': String((at('2026-02-01T00:00:00Z') - NOW) / 1000),
    });
  });

  it("names a key's own hour as its own, and a key's share as a share of the deployment's, saying the other keys can still search", () => {
    expect(details(exhausted(keyHourWindow(NOW, 'ci', 40), NOW))).toMatch(
      /^Your key's own limit of 40 searches this hour is used up \(other clients are not affected\); it resets at 2026-01-05T04:00:00Z\./,
    );
    const share = { ...keyHourWindow(NOW, 'ci', 125), shareOf: 250 };
    expect(details(exhausted(share, NOW))).toMatch(
      /^Your key's share of the deployment's budget, 125 of its 250 searches this hour, is used up \(the deployment's other keys can still search; a key's own limit is set in its entry\); it resets at 2026-01-05T04:00:00Z\./,
    );
    expect(exhausted(share, NOW).headers).toEqual({ 'Retry-After': String((at('2026-01-05T04:00:00Z') - NOW) / 1000) });
    const dayShare = { ...dayWindow(NOW, 'ci', 81), shareOf: 162 };
    expect(details(exhausted(dayShare, NOW, { needed: 3, used: 80 }))).toMatch(
      /^Your key's share of the deployment's budget: 1 of 81 searches left today, fewer than the 3 this request can make/,
    );
  });

  it('names the window the request must wait for: the last to reset, and of windows resetting together the longest', () => {
    const midDay = at('2026-01-05T12:30:00Z');
    expect(lastToReset([hourWindow(midDay, 9), dayWindow(midDay, 'ci', 1)])?.kind).toBe('day');
    expect(lastToReset([dayWindow(midDay, 'ci', 1), hourWindow(midDay, 9)])?.kind).toBe('day');
    // In a day's last hour the hour and the day reset at the same instant; in a month's, all three.
    const lastHour = at('2026-01-05T23:30:00Z');
    expect(lastToReset([hourWindow(lastHour, 9), dayWindow(lastHour, 'ci', 1)])?.kind).toBe('day');
    expect(lastToReset([dayWindow(lastHour, 'ci', 1), hourWindow(lastHour, 9)])?.kind).toBe('day');
    const monthsLastHour = at('2026-01-31T23:30:00Z');
    const three = [hourWindow(monthsLastHour, 9), dayWindow(monthsLastHour, 'ci', 1), monthWindow(monthsLastHour, 100)];
    expect(lastToReset(three)?.kind).toBe('month');
    expect(lastToReset([...three].reverse())?.kind).toBe('month');
    expect(lastToReset([])).toBeUndefined();
  });

  it("names the per-container allowance as such, never as the deployment's budget", () => {
    const refusal = exhausted(hourWindow(NOW, 25), NOW, { allowance: true, retryAfter: 2 });
    const text = details(refusal);
    expect(text).toMatch(/this container's own allowance of 25 searches this hour/);
    expect(text).toMatch(/counter cannot be reached/);
    expect(text).toMatch(/tried again in 2 s/);
    expect(text).not.toMatch(/deployment's budget/);
    // The wait is until the counter is tried again, never the end of the hour.
    expect(refusal.headers).toEqual({ 'Retry-After': '2' });
  });
});

describe('/v1/usage arithmetic', () => {
  it('reports left as the limit less the count in every window, and never below 0', () => {
    const windows = usageWindows(SETTINGS, { client: 'ci', dailySearches: 50, hourlySearches: 20 }, NOW);
    expect(windows.map((w) => [w.kind, w.limit])).toEqual([
      ['hour', 250],
      ['day', 50],
      ['key-hour', 20],
      ['month', 5000],
    ]);
    const report = usageReport({ client: 'ci' }, windows, [38, 12, 9, 912]);
    expect(report.hour).toEqual({ limit: 250, used: 38, left: 212, resets_at: '2026-01-05T04:00:00Z' });
    expect(report.month).toEqual({ limit: 5000, used: 912, left: 4088, resets_at: '2026-02-01T00:00:00Z' });
    expect(report.client).toEqual({
      name: 'ci',
      today: { limit: 50, share: false, used: 12, left: 38, resets_at: '2026-01-06T00:00:00Z' },
      this_hour: { limit: 20, share: false, used: 9, left: 11, resets_at: '2026-01-05T04:00:00Z' },
    });
    const over = usageReport({ client: 'ci' }, windows, [251, 51, 21, 5001]);
    expect([over.hour.left, over.month?.left, over.client.today.left, over.client.this_hour.left]).toEqual([0, 0, 0, 0]);
  });

  it('shows a key without limits its counts, with no limit and nothing left to compute', () => {
    const settings = { ...SETTINGS, searchesPerMonth: 0 };
    const report = usageReport({ client: 'free' }, usageWindows(settings, { client: 'free' }, NOW), [1, 1, 1]);
    expect(report.client.today).toMatchObject({ limit: null, share: false, used: 1, left: null });
    expect(report.client.this_hour).toMatchObject({ limit: null, share: false, used: 1, left: null });
    expect(report.month).toBeNull();
  });

  it('shows a key of a shared deployment its shares, and says they are shares', () => {
    const report = usageReport({ client: 'ci' }, usageWindows(SETTINGS, { client: 'ci', shared: true }, NOW), [0, 3, 2, 0]);
    // January: 5,000 over 31 days is 162 a day, of which half.
    expect(report.client.today).toMatchObject({ limit: 81, share: true, used: 3, left: 78 });
    expect(report.client.this_hour).toMatchObject({ limit: 125, share: true, used: 2, left: 123 });
  });
});

describe('plans in flight', () => {
  const hour = hourWindow(NOW, 10);
  const day = dayWindow(NOW, 'ci', 20);

  it('carry their units and when they are closed at the latest in their token, and nothing else does', () => {
    const token = planToken(21, NOW + 25_000);
    expect(planOf(token)).toEqual({ n: 21, by: Math.ceil((NOW + 25_000) / 1000) * 1000 });
    // More units than one base-36 digit holds.
    expect(planOf(planToken(1_000, NOW))).toEqual({ n: 1_000, by: Math.ceil(NOW / 1000) * 1000 });
    expect(token).toMatch(/^[A-Za-z0-9_-]{12}\.l\./);
    expect(planOf(newToken())).toBeUndefined();
    for (const bad of [`${newToken()}.5`, `${newToken()}.5.x.y`, `x${token}`, `${token}.`, token.replace('.l.', '.L.')]) {
      expect(planOf(bad), bad).toBeUndefined();
    }
  });

  it('free a window by the time enough of them are closed, soonest first; never when all would not be enough', () => {
    const returning = [
      { n: 3, by: NOW + 9_000 },
      { n: 2, by: NOW + 4_000 },
      { n: 4, by: NOW + 20_000 },
    ];
    // 10 counted, 9 of them in plans: 1 more needs 1 back (the 4 s plan), 4 more 4 (by 9 s), 8 more all.
    expect(roomBy({ window: hour, used: 10, returning }, 1, NOW)).toEqual({ held: 9, by: NOW + 4_000 });
    expect(roomBy({ window: hour, used: 10, returning }, 5, NOW)).toEqual({ held: 9, by: NOW + 9_000 });
    expect(roomBy({ window: hour, used: 10, returning }, 9, NOW)).toEqual({ held: 9, by: NOW + 20_000 });
    expect(roomBy({ window: hour, used: 10, returning }, 10, NOW)).toBeUndefined();
    expect(roomBy({ window: hour, used: 10, returning: [] }, 1, NOW)).toBeUndefined();
    expect(roomBy({ window: hour, returning }, 1, NOW)).toBeUndefined();
    // Room already (a give-back since the refusal), or exactly: at once.
    expect(roomBy({ window: hour, used: 8, returning }, 1, NOW)).toEqual({ held: 9, by: NOW });
    expect(roomBy({ window: hour, used: 9, returning }, 1, NOW)).toEqual({ held: 9, by: NOW });
  });

  it('make a refusal name the window waited for longest: one they free waits for them, any other for its reset', () => {
    const plans = [{ n: 5, by: NOW + 25_000 }];
    // The hour freed by a plan, the day full for good: the day.
    expect(
      mustWaitFor(
        [
          { window: hour, used: 10, returning: plans },
          { window: day, used: 20, returning: [] },
        ],
        1,
        NOW,
      ),
    ).toEqual({ ok: false, refused: day, used: 20 });
    // Both freed by plans: the later of the two.
    expect(
      mustWaitFor(
        [
          { window: hour, used: 10, returning: [{ n: 5, by: NOW + 30_000 }] },
          { window: day, used: 20, returning: plans },
        ],
        1,
        NOW,
      ),
    ).toEqual({ ok: false, refused: hour, used: 10, inFlight: { held: 5, by: NOW + 30_000 } });
    // A count not read: its reset, as before.
    expect(mustWaitFor([{ window: hour }], 1, NOW)).toEqual({ ok: false, refused: hour });
    // Full for good, both: the last to reset, as lastToReset.
    expect(
      mustWaitFor(
        [
          { window: hour, used: 10 },
          { window: day, used: 20 },
        ],
        1,
        NOW,
      ),
    ).toMatchObject({ refused: day });
  });
});

describe('what a failed counter call may have written', () => {
  const failure = (fields: Record<string, unknown>) => Object.assign(new Error('failed'), fields);

  it('nothing when no connection was made, or the table answered an error of the request (4xx)', () => {
    expect(surelyNotWritten(failure({ code: 'ECONNREFUSED', syscall: 'connect' }))).toBe(true);
    expect(surelyNotWritten(failure({ code: 'ENOTFOUND', syscall: 'getaddrinfo' }))).toBe(true);
    expect(surelyNotWritten(failure({ code: 'EAI_AGAIN' }))).toBe(true);
    expect(surelyNotWritten(failure({ code: 'EHOSTUNREACH' }))).toBe(true);
    expect(surelyNotWritten(failure({ code: 'ENETUNREACH' }))).toBe(true);
    // A connection that timed out before it was made.
    expect(surelyNotWritten(failure({ code: 'ETIMEDOUT', syscall: 'connect' }))).toBe(true);
    expect(surelyNotWritten(failure({ name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } }))).toBe(true);
    expect(surelyNotWritten(failure({ name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } }))).toBe(true);
    expect(surelyNotWritten(failure({ $metadata: { httpStatusCode: 499 } }))).toBe(true);
  });

  it('perhaps, after a reset, a timeout, a server error or anything unknown', () => {
    expect(surelyNotWritten(failure({ code: 'ECONNRESET', syscall: 'read' }))).toBe(false);
    expect(surelyNotWritten(failure({ code: 'ETIMEDOUT', syscall: 'read' }))).toBe(false);
    expect(surelyNotWritten(failure({ code: 'EPIPE', syscall: 'write' }))).toBe(false);
    expect(surelyNotWritten(failure({ name: 'InternalServerError', $metadata: { httpStatusCode: 500 } }))).toBe(false);
    expect(surelyNotWritten(failure({ $metadata: { httpStatusCode: 399 } }))).toBe(false);
    expect(surelyNotWritten(failure({ $metadata: { attempts: 1 } }))).toBe(false);
    expect(surelyNotWritten(new Error('no answer within 1000 ms'))).toBe(false);
    expect(surelyNotWritten({ code: 'ECONNREFUSED' })).toBe(false);
  });
});

describe('counter keys', () => {
  it('pads the month, day and hour with zeros', () => {
    expect(hourWindow(NOW, 1).key).toBe('hour#2026-01-05T03');
    expect(monthWindow(NOW, 1).key).toBe('month#2026-01');
    expect(dayWindow(NOW, 'ci', 1).key).toBe('day#2026-01-05#client#ci');
  });
});

describe('the windows of a search', () => {
  const limits = (scope: Parameters<typeof windowsFor>[1], settings = SETTINGS) =>
    windowsFor(settings, scope, NOW).map((w) => [w.kind, w.limit, w.shareOf]);

  it("counts a client's search in the hour, the month, and its own hour and day (with its limits, or none)", () => {
    expect(limits({ client: 'ci', dailySearches: 0, hourlySearches: 9 })).toEqual([
      ['hour', 250, undefined],
      ['month', 5000, undefined],
      ['key-hour', 9, undefined],
      ['day', 0, undefined],
    ]);
    expect(limits({ client: 'free' }).slice(2)).toEqual([
      ['key-hour', NO_LIMIT, undefined],
      ['day', NO_LIMIT, undefined],
    ]);
    expect(windowsFor(SETTINGS, {}, NOW).map((w) => w.kind)).toEqual(['hour', 'month']);
    expect(windowsFor({ ...SETTINGS, searchesPerMonth: 0 }, { client: 'ci' }, NOW).map((w) => w.kind)).toEqual([
      'hour',
      'key-hour',
      'day',
    ]);
    expect(windowsFor(SETTINGS, { client: 'ci' }, NOW)[2]?.key).toBe('hour#2026-01-05T03#client#ci');
  });

  it('gives a key of a shared deployment, without limits of its own, half the hour and half the day (the month spread over its days)', () => {
    // January: 5,000 over 31 days is 162 a day (rounded up), of which half is 81.
    expect(limits({ client: 'ci', shared: true }).slice(2)).toEqual([
      ['key-hour', 125, 250],
      ['day', 81, 162],
    ]);
    // February 2026 has 28 days: 179 a day.
    const february = Date.parse('2026-02-10T10:00:00Z');
    expect(windowsFor(SETTINGS, { client: 'ci', shared: true }, february).at(-1)).toMatchObject({ limit: 90, shareOf: 179 });
    // No monthly cap: a day is 24 hours of the hourly budget.
    expect(limits({ client: 'ci', shared: true }, { ...SETTINGS, searchesPerMonth: 0 }).slice(1)).toEqual([
      ['key-hour', 125, 250],
      ['day', 3000, 6000],
    ]);
    // An odd limit is rounded up, and a share is never 0.
    expect(limits({ client: 'ci', shared: true }, { ...SETTINGS, searchesPerHour: () => 1 })[2]).toEqual(['key-hour', 1, 1]);
    expect(keyShare(5)).toBe(3);
    expect(KEY_SHARE).toBe(0.5);
  });

  it('keeps a key’s own limits, or none (null), in a shared deployment, each window on its own', () => {
    expect(limits({ client: 'ci', shared: true, hourlySearches: 40, dailySearches: null }).slice(2)).toEqual([
      ['key-hour', 40, undefined],
      ['day', NO_LIMIT, undefined],
    ]);
    expect(limits({ client: 'ci', shared: true, hourlySearches: null, dailySearches: 0 }).slice(2)).toEqual([
      ['key-hour', NO_LIMIT, undefined],
      ['day', 0, undefined],
    ]);
    // A deployment of one key: no share.
    expect(limits({ client: 'ci', shared: false }).slice(2)).toEqual([
      ['key-hour', NO_LIMIT, undefined],
      ['day', NO_LIMIT, undefined],
    ]);
  });
});

describe('client keys and the day window', () => {
  const digest = 'ab'.repeat(32);

  it('accepts a daily limit of 0 (the key can only read the cache) without failing the other keys', () => {
    const keys = parseClientKeySecret({
      keys: [
        { name: 'blocked', sha256: digest, dailySearches: 0 },
        { name: 'ci', sha256: 'cd'.repeat(32) },
      ],
    });
    expect(keys.map((k) => [k.name, k.dailySearches])).toEqual([
      ['blocked', 0],
      ['ci', undefined],
    ]);
  });

  it('takes a digest of exactly 64 hex digits, nothing around them', () => {
    for (const bad of [`x${digest}`, `${digest}x`, `${digest}00`, ` ${digest}`]) {
      expect(() => parseClientKeySecret({ keys: [{ name: 'ci', sha256: bad }] }), bad).toThrow(SecretShapeError);
    }
  });

  it('names an entry without a name, so that its daily limit has a day window and is enforced', () => {
    const [key] = parseClientKeySecret({ keys: [{ sha256: digest, dailySearches: 3 }] });
    expect(key).toMatchObject({ name: 'unnamed', dailySearches: 3 });
    const day = windowsFor(SETTINGS, { client: key?.name, dailySearches: key?.dailySearches }, NOW).at(-1);
    expect(day).toMatchObject({ kind: 'day', limit: 3 });
  });

  it('reads the bearer scheme only at the start of the header', () => {
    expect(bearerToken('Bearer key-0123456789abcdef')).toBe('key-0123456789abcdef');
    expect(bearerToken('xbearer key-0123456789abcdef')).toBeUndefined();
    expect(bearerToken('Basic Bearer key-0123456789abcdef')).toBeUndefined();
  });
});

describe('the Account API numbers', () => {
  it('keeps only whole, non-negative, finite counts (fractions rounded down); anything else is null', () => {
    const fields = [
      'searches_per_month',
      'plan_searches_left',
      'this_month_usage',
      'this_hour_searches',
      'last_hour_searches',
      'account_rate_limit_per_hour',
    ] as const;
    for (const field of fields) {
      for (const bad of [-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY, '12', null, true, [3], { n: 3 }]) {
        expect(parseAccount({ [field]: bad }, NOW)?.[field], `${field} ${String(bad)}`).toBeNull();
      }
      expect(parseAccount({ [field]: 12.9 }, NOW)?.[field]).toBe(12);
      expect(parseAccount({ [field]: 0 }, NOW)?.[field]).toBe(0);
    }
    expect(parseAccount([], NOW)).toBeUndefined();
    expect(parseAccount(null, NOW)).toBeUndefined();
    expect(parseAccount('x'.repeat(10), NOW)).toBeUndefined();
  });

  const numbers = (n: number): PlanNumbers => ({
    plan_name: `plan ${n}`,
    searches_per_month: n,
    plan_searches_left: null,
    this_month_usage: null,
    this_hour_searches: null,
    last_hour_searches: null,
    account_rate_limit_per_hour: null,
    read_at: new Date(NOW).toISOString(),
  });

  /** A reader over scripted answers and a hand-moved clock. */
  function scripted(answers: (PlanNumbers | undefined | Error)[], ttlMs = 600_000) {
    let clock = NOW;
    let reads = 0;
    const reader = createPlanReader({
      ttlMs,
      now: () => clock,
      read: async () => {
        const answer = answers[reads++];
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    return {
      reader,
      reads: () => reads,
      advance: (ms: number) => {
        clock += ms;
      },
    };
  }

  it('reads again only once the last answer is older than its lifetime', async () => {
    const { reader, reads, advance } = scripted([numbers(1), numbers(2)]);
    await reader.refresh();
    expect(reader.numbers()?.searches_per_month).toBe(1);
    advance(600_000 - 1);
    await reader.refresh();
    expect(reads()).toBe(1);
    advance(1);
    await reader.refresh();
    expect(reads()).toBe(2);
    expect(reader.numbers()?.searches_per_month).toBe(2);
  });

  it('keeps the last good numbers through failed reads, retried a minute apart, not on every request', async () => {
    expect(RETRY_AFTER_FAILURE_MS).toBe(60_000);
    const { reader, reads, advance } = scripted([numbers(1), undefined, new Error('boom'), numbers(3)]);
    await reader.refresh();
    advance(600_000);
    await reader.refresh();
    expect(reads()).toBe(2);
    expect(reader.numbers()?.searches_per_month).toBe(1);
    advance(RETRY_AFTER_FAILURE_MS - 1);
    await reader.refresh();
    expect(reads()).toBe(2);
    advance(1);
    await reader.refresh();
    expect(reads()).toBe(3);
    expect(reader.numbers()?.searches_per_month).toBe(1);
    advance(RETRY_AFTER_FAILURE_MS);
    await reader.refresh();
    expect(reader.numbers()?.searches_per_month).toBe(3);
  });

  it('makes one read at a time, and none with a lifetime of 0', async () => {
    const { reader, reads } = scripted([numbers(1)]);
    const first = reader.refresh();
    expect(reader.refresh()).toBe(first);
    await first;
    expect(reads()).toBe(1);
    const never = scripted([numbers(1)], 0);
    expect(never.reader.refresh()).toBeUndefined();
    expect(never.reads()).toBe(0);
  });
});
