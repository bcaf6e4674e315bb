/**
 * The spending budget (docs/budget-and-caching.md, "Spending budget"; docs/decisions.md §8, §18): paid
 * SerpApi searches are reserved here right before they are sent, after every cache has missed, and what
 * the provider does not bill is given back when the request is over (lib/budget/spend.ts), so the budget
 * counts what is billed. The windows are the deployment's hour and month and the calling client's hour
 * and day, whose limits are the key's own or, when several keys share the deployment, its default share.
 *
 * A counter that cannot be reached fails open by default: the search goes ahead, within the counts this
 * container last heard and within this container's own allowance (BUDGET_BACKSTOP_PER_HOUR an hour); a
 * key's own limit is kept exactly (its searches are refused until the counter answers, since what other
 * containers spend meanwhile is not known); what it searched is written to the counter when the table
 * answers again. With BUDGET_FAIL_CLOSED=true it is
 * refused instead. Every refusal names the budget that is full, and `Retry-After` is the time until it has
 * room: the window's reset, or the counter's next try while it is down.
 *
 * Pure of configuration: `createBudget` takes its counter, settings and clock, so that every rule runs in
 * tests in-process; lib/budget/deployment.ts makes the one instance of a container from the configuration.
 */
import { AppError } from '../errors.js';
import { type Counter, CounterUnavailable, lastToReset, type Unsettled } from './counter.js';
import {
  type BudgetWindow,
  daysInMonth,
  dayWindow,
  hourWindow,
  isKeyWindow,
  keyHourWindow,
  monthWindow,
  secondsUntilReset,
  windowWords,
} from './windows.js';

/**
 * A client key's limits, as its entry in the client keys sets them (lib/credentials/client-keys.ts): per
 * UTC hour and day, a number of searches (the key's own limit, kept exactly), null (none of its own: only
 * the deployment's budget), or absent: its default share of the deployment's when several keys share it.
 */
export interface KeyLimits {
  hourlySearches?: number | null;
  dailySearches?: number | null;
  /** The deployment has several client keys: a key without a limit of its own gets its share. */
  shared?: boolean;
}

/** Who is spending: set by auth (lib/middleware/auth.ts) and carried by the upstream's call options. */
export interface BudgetScope extends KeyLimits {
  /** The client key's name; undefined only for calls made outside a request (the benchmark). */
  client?: string;
  requestId?: string;
  /**
   * Epoch ms by which what the request reserves is closed at the latest (its deadline): a reservation of
   * several searches carries it, so that a request its in-flight reservation refuses is told how soon it
   * can be given back.
   */
  deadline?: number;
  /** Called when the counter could not be reached (the request's BudgetCounterErrors metric). */
  onCounterError?: () => void;
}

export interface BudgetSettings {
  /** The hourly limit in force (SEARCHES_PER_HOUR, or the plan's lower cap). */
  searchesPerHour: () => number;
  /** 0: no monthly cap. */
  searchesPerMonth: number;
  /** Refuse paid searches while the counter cannot be reached, rather than search within the allowance. */
  failClosed: boolean;
  /** While failing open, the most paid searches this container makes in an hour. */
  backstopPerHour: number;
}

export interface BudgetOptions {
  counter: Counter;
  /** This container's own count while the counter is down: a memory counter. */
  backstop: Counter;
  settings: BudgetSettings;
  now?: () => number;
  /** How long the counter is left alone after it failed, when it does not say (its `retryAt`). */
  retryMs?: number;
  warn?: (message: string, fields: Record<string, unknown>) => void;
}

/** What a request reserved: `n` units, closed with the number it kept (the rest is given back). */
export interface Claim {
  n: number;
  close(kept: number): Promise<void>;
}

/** What a request of several searches tells a refusal: what its searches are, and how to ask for fewer. */
export interface Ask {
  /** What the searches are, e.g. "the search and 5 profile pages (enrich)". */
  why?: string;
  /** How to ask for fewer, given how many are left (when known), e.g. `"enrich": 0 makes 1`. */
  less?: (left: number | undefined) => string | undefined;
}

/** The Retry-After of a refusal by plans in flight before any was measured, and how many are measured. */
export const DEFAULT_PLAN_MS = 2_000;
export const PLAN_SAMPLES = 50;

// A key without a limit in a window: its searches are counted there, never refused.
export const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * A key's default share of the deployment's hour and of its day, when several keys share the deployment
 * and the key sets no limit of its own: so that one client cannot spend everyone's budget, while any key
 * alone can still use half of it (docs/decisions.md §8).
 */
export const KEY_SHARE = 0.5;

/** A key's share of a deployment's limit: KEY_SHARE of it, rounded up, at least 1. */
export function keyShare(limit: number): number {
  return Math.max(1, Math.ceil(limit * KEY_SHARE));
}

/**
 * The deployment's day, which a key's daily share is taken from: its month spread evenly over the month's
 * days (at the month's pace, the whole month lasts the month), or 24 hours when there is no monthly cap.
 */
export function deploymentDay(settings: BudgetSettings, now: number): number {
  return settings.searchesPerMonth > 0
    ? Math.ceil(settings.searchesPerMonth / daysInMonth(now))
    : 24 * settings.searchesPerHour();
}

/** A key's limit in a window: its own, none, or its share of `deployment` when the deployment is shared. */
function keyLimit(own: number | null | undefined, shared: boolean | undefined, deployment: number) {
  if (own !== undefined) return { limit: own ?? NO_LIMIT };
  return shared ? { limit: keyShare(deployment), shareOf: deployment } : { limit: NO_LIMIT };
}

/** The per-container allowance when BUDGET_BACKSTOP_PER_HOUR is unset: a tenth of the hour, at least 1. */
export function defaultBackstop(searchesPerHour: number): number {
  return Math.max(1, Math.ceil(searchesPerHour / 10));
}

/** The client's hour and day windows, with their limits: its own, its share, or none. */
export function keyWindows(settings: BudgetSettings, scope: BudgetScope, client: string, now: number) {
  const hour = keyLimit(scope.hourlySearches, scope.shared, settings.searchesPerHour());
  const day = keyLimit(scope.dailySearches, scope.shared, deploymentDay(settings, now));
  return {
    hour: { ...keyHourWindow(now, client, hour.limit), ...(hour.shareOf ? { shareOf: hour.shareOf } : {}) },
    day: { ...dayWindow(now, client, day.limit), ...(day.shareOf ? { shareOf: day.shareOf } : {}) },
  };
}

/**
 * The windows one search of this scope counts in, in the order they are reserved: the deployment's hour
 * and month first, then the client's hour and day, so that a full hour is refused before a client's
 * windows are touched (a concurrent request of the same client then never sees its own fuller than they
 * are, and is never told its own limit is used up when the deployment's is), and a client's full hour
 * before its day.
 */
export function windowsFor(settings: BudgetSettings, scope: BudgetScope, now: number): BudgetWindow[] {
  const windows: BudgetWindow[] = [hourWindow(now, settings.searchesPerHour())];
  if (settings.searchesPerMonth > 0) windows.push(monthWindow(now, settings.searchesPerMonth));
  // Counted for every client, limit or not, so that each sees its own hour and day in /v1/usage.
  if (scope.client !== undefined) {
    const own = keyWindows(settings, scope, scope.client, now);
    windows.push(own.hour, own.day);
  }
  return windows;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Whose budget a window is, as a refusal names it. */
function owner(window: BudgetWindow): string {
  if (!isKeyWindow(window)) return "The deployment's budget";
  return window.shareOf === undefined ? "Your key's own limit" : "Your key's share of the deployment's budget";
}

export interface Refusal {
  /** The window is this container's own allowance while the counter cannot be reached. */
  allowance?: boolean;
  /** Seconds until the counter is tried again (the allowance's Retry-After). */
  retryAfter?: number;
  /** The searches the refused reservation was for, when more than one. */
  needed?: number;
  /** The window's count, when known. */
  used?: number;
  ask?: Ask;
  /** The count is the last this container heard: the counter cannot be reached right now. */
  lastHeard?: boolean;
  /**
   * Plans of requests still in progress hold `held` of the window's count, and would leave room were they
   * given back; they are closed by `by` (epoch ms) at the latest, and a retry in `retryAfter` seconds (how
   * long such a request usually takes) is likely to find what they did not use.
   */
  inFlight?: { held: number; by: number; retryAfter: number };
}

/** The 429 for a window that cannot take the searches asked for, naming it, with the wait until it can. */
export function exhausted(window: BudgetWindow, now: number, refusal: Refusal = {}): AppError {
  const { inFlight } = refusal;
  // Full for now, by reservations of requests still in progress: the wait is for their give-backs, not the reset.
  const resets = inFlight
    ? `${inFlight.held} of the searches counted are held by requests still in progress, which give back what they do not use by ${iso(inFlight.by)} at the latest: retry in ${inFlight.retryAfter} s (it resets at ${iso(window.endsAt)})`
    : `it resets at ${iso(window.endsAt)}`;
  const cache = 'Answers already in the cache are still served.';
  if (refusal.allowance) {
    const seconds = refusal.retryAfter ?? secondsUntilReset(window, now);
    return new AppError('BUDGET_EXHAUSTED', {
      details: `The budget counter cannot be reached, and this container's own allowance of ${window.limit} searches ${windowWords(window.kind)} for that case is used up; the counter is tried again in ${seconds} s. ${cache}`,
      headers: { 'Retry-After': String(seconds) },
    });
  }
  const headers = { 'Retry-After': String(inFlight?.retryAfter ?? secondsUntilReset(window, now)) };
  const heard = refusal.lastHeard ? ' (as this container last heard it: the counter cannot be reached right now)' : '';
  const { needed = 1, used } = refusal;
  const left = used === undefined ? undefined : Math.max(0, window.limit - used);
  if (needed > 1 && left !== 0) {
    const when = windowWords(window.kind);
    const has =
      left === undefined
        ? `${owner(window)} of ${window.limit} searches ${when} cannot cover the ${needed} searches this request can make`
        : `${owner(window)}: ${left} of ${window.limit} searches left ${when}, fewer than the ${needed} this request can make`;
    const why = refusal.ask?.why ? ` (${refusal.ask.why})` : '';
    const fewer = refusal.ask?.less?.(left);
    const less = fewer ? ` Ask for less: ${fewer}.` : '';
    return new AppError('BUDGET_EXHAUSTED', { details: `${has}${why}${heard}; ${resets}.${less} ${cache}`, headers });
  }
  const when = windowWords(window.kind);
  const up = `used up${inFlight ? ' for now' : ''}${heard}`;
  const whose = !isKeyWindow(window)
    ? `The deployment's budget of ${window.limit} searches ${when} is ${up}`
    : window.shareOf === undefined
      ? `Your key's own limit of ${window.limit} searches ${when} is ${up} (other clients are not affected)`
      : `Your key's share of the deployment's budget, ${window.limit} of its ${window.shareOf} searches ${when}, is ${up} (the deployment's other keys can still search; a key's own limit is set in its entry)`;
  return new AppError('BUDGET_EXHAUSTED', { details: `${whose}; ${resets}. ${cache}`, headers });
}

export interface WindowUsage {
  limit: number;
  used: number;
  left: number;
  resets_at: string;
}

export function usageOf(window: BudgetWindow, used: number): WindowUsage {
  return { limit: window.limit, used, left: Math.max(0, window.limit - used), resets_at: iso(window.endsAt) };
}

/**
 * The windows /v1/usage reads, in order: the deployment's hour, the client's day, the client's hour, the
 * month (if any). The client's are read even without a limit: the client sees its own counts either way.
 */
export function usageWindows(settings: BudgetSettings, scope: BudgetScope, now: number): BudgetWindow[] {
  const hour = hourWindow(now, settings.searchesPerHour());
  const own = keyWindows(settings, scope, scope.client ?? 'unknown', now);
  return [hour, own.day, own.hour, ...(settings.searchesPerMonth > 0 ? [monthWindow(now, settings.searchesPerMonth)] : [])];
}

/** A client's window as /v1/usage shows it: its limit (null: none), and whether that is its default share. */
function keyUsage(window: BudgetWindow, used: number) {
  const limited = window.limit !== NO_LIMIT;
  return {
    limit: limited ? window.limit : null,
    share: window.shareOf !== undefined,
    used,
    left: limited ? Math.max(0, window.limit - used) : null,
    resets_at: iso(window.endsAt),
  };
}

/** /v1/usage's answer from the windows of usageWindows() and their counts. */
export function usageReport(
  scope: BudgetScope,
  windows: readonly BudgetWindow[],
  counts: readonly number[],
  unsettled: Unsettled = { uncounted: 0, notGivenBack: 0 },
) {
  const [hour, day, keyHour, month] = windows as [BudgetWindow, BudgetWindow, BudgetWindow, BudgetWindow | undefined];
  const [hourUsed = 0, dayUsed = 0, keyHourUsed = 0, monthUsed = 0] = counts;
  return {
    hour: usageOf(hour, hourUsed),
    month: month ? usageOf(month, monthUsed) : null,
    client: {
      name: scope.client ?? 'unknown',
      today: keyUsage(day, dayUsed),
      this_hour: keyUsage(keyHour, keyHourUsed),
    },
    unsettled: { searches_not_counted: unsettled.uncounted, searches_not_given_back: unsettled.notGivenBack },
  };
}

export type UsageReport = ReturnType<typeof usageReport>;

export interface Budget {
  /** Reserves `n` paid searches for this scope, or throws the refusal (BUDGET_EXHAUSTED, BUDGET_UNAVAILABLE). */
  claim(scope: BudgetScope, n: number, ask?: Ask): Promise<Claim>;
  /** Where the budget stands for this client; BUDGET_UNAVAILABLE when the counter cannot be read. */
  usage(scope: BudgetScope): Promise<UsageReport>;
}

export function createBudget(options: BudgetOptions): Budget {
  const { counter, backstop, settings } = options;
  const clock = options.now ?? Date.now;
  const retryMs = options.retryMs ?? 2_000;
  const warn = options.warn ?? (() => undefined);

  /** How long this container's recent requests of several searches held their reservations (ms). */
  const planDurations: number[] = [];
  /**
   * The Retry-After of a refusal caused by plans still in flight: how long such a request usually holds its
   * reservation (the median of this container's last ones; 2 s before any), never past when they are
   * closed at the latest, at least 1 s.
   */
  function inFlightWait(by: number, now: number): number {
    const sorted = [...planDurations].sort((a, b) => a - b);
    const typical = sorted.length === 0 ? DEFAULT_PLAN_MS : (sorted[Math.floor(sorted.length / 2)] as number);
    return Math.max(1, Math.ceil(Math.min(typical, by - now) / 1000));
  }

  /** Seconds until the counter is tried again: the Retry-After of a refusal the outage caused. */
  const retryAfter = (now: number) => Math.max(1, Math.ceil(((counter.retryAt() ?? now + retryMs) - now) / 1000));

  /**
   * While failing open: a window the container knows to be full refuses (the last to reset of them, the
   * real wait); else a key's own limit (its entry's, not its default share), which no container can keep
   * while it cannot see what the others spend: 503 until the counter answers, so that the key never passes
   * it, whatever was last heard. The deployment's windows and a key's share fail open, within the
   * container's allowance.
   */
  function failOpenRefusal(windows: readonly BudgetWindow[], now: number): AppError | undefined {
    // Counts include the searches this container holds and has not written (this request's too).
    const limited = windows.filter((window) => window.limit !== NO_LIMIT);
    const full = lastToReset(limited.filter((window) => (counter.known(window) ?? 0) > window.limit));
    if (full) return exhausted(full, now, { lastHeard: true });
    const own = lastToReset(limited.filter((window) => isKeyWindow(window) && window.shareOf === undefined));
    if (!own) return undefined;
    const seconds = retryAfter(now);
    return new AppError('BUDGET_UNAVAILABLE', {
      details: `The budget counter cannot be reached, so your key's own limit of ${own.limit} searches ${windowWords(own.kind)} cannot be kept (what other containers spent meanwhile is not known); the counter is tried again in ${seconds} s. Answers already in the cache are still served.`,
      headers: { 'Retry-After': String(seconds) },
    });
  }

  async function claim(scope: BudgetScope, n: number, ask?: Ask): Promise<Claim> {
    const now = clock();
    const windows = windowsFor(settings, scope, now);
    let outcome: Awaited<ReturnType<Counter['reserve']>>;
    try {
      outcome = await counter.reserve(windows, n, scope.deadline);
    } catch (error) {
      if (!(error instanceof CounterUnavailable) || !error.hold) throw error;
      const hold = error.hold;
      scope.onCounterError?.();
      // From when the counter failed, not from when the claim began: its next try is counted from then.
      const failedAt = clock();
      const seconds = retryAfter(failedAt);
      warn('budget counter unavailable', {
        requestId: scope.requestId,
        error: error.message,
        failClosed: settings.failClosed,
        retryInSeconds: seconds,
      });
      if (settings.failClosed) {
        await counter.close(hold, 0);
        throw new AppError('BUDGET_UNAVAILABLE', {
          details: `The search budget could not be checked: its counter did not answer; it is tried again in ${seconds} s`,
          headers: { 'Retry-After': String(seconds) },
          cause: error,
        });
      }
      // Fail open: within what this container knows of the counts, then within its own allowance.
      const refusal = failOpenRefusal(windows, failedAt);
      const allowance = refusal ? undefined : await backstop.reserve([hourWindow(now, settings.backstopPerHour)], n);
      if (!allowance?.ok) {
        await counter.close(hold, 0);
        throw (
          refusal ?? exhausted((allowance as { refused: BudgetWindow }).refused, now, { allowance: true, retryAfter: seconds })
        );
      }
      return {
        n,
        close: async (kept) => {
          await Promise.all([counter.close(hold, kept), backstop.close(allowance.hold, kept)]);
        },
      };
    }
    if (!outcome.ok) {
      const { refused, used, inFlight } = outcome;
      const wait = inFlight && { ...inFlight, retryAfter: inFlightWait(inFlight.by, now) };
      throw exhausted(refused, now, { needed: n, used, ask, ...(wait ? { inFlight: wait } : {}) });
    }
    const { hold } = outcome;
    return {
      n,
      close: async (kept) => {
        if (n > 1) {
          planDurations.push(clock() - now);
          if (planDurations.length > PLAN_SAMPLES) planDurations.shift();
        }
        await counter.close(hold, kept);
      },
    };
  }

  async function usage(scope: BudgetScope): Promise<UsageReport> {
    const now = clock();
    const windows = usageWindows(settings, scope, now);
    // What this container owes is written first, when the table answers, so that the counts include it.
    await counter.flush();
    let counts: number[];
    try {
      counts = await counter.read(windows);
    } catch (error) {
      if (!(error instanceof CounterUnavailable)) throw error;
      scope.onCounterError?.();
      const { uncounted, notGivenBack } = counter.unsettled();
      const owed =
        uncounted + notGivenBack > 0
          ? `; this container holds ${uncounted} searches made and not yet counted, and ${notGivenBack} not yet given back`
          : '';
      const seconds = retryAfter(now);
      throw new AppError('BUDGET_UNAVAILABLE', {
        details: `The search budget could not be read${owed}; retry in ${seconds} s`,
        headers: { 'Retry-After': String(seconds) },
        cause: error,
      });
    }
    return usageReport(scope, windows, counts, counter.unsettled());
  }

  return { claim, usage };
}
