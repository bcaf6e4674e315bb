/**
 * The pace's rules, as pure arithmetic on the times it is given: when the next call to an upstream may
 * start so that at most `limit` calls start in any `ms` milliseconds, under every rule in force (the rate
 * the deployment configures, and a stricter one the upstream states in its answers), with no more calls in
 * flight at once than the upstream allows (its concurrency limit: Crossref's public pool allows one),
 * never during a pause the upstream asked for, and never before a start already given (first come, first
 * served). The state these functions read and return is all a pace keeps, whichever store keeps it
 * (store.ts): one engine, whatever the adapter.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** At most `limit` starts in any `ms` milliseconds. */
export interface Rule {
  limit: number;
  ms: number;
}

/** What a pace keeps for one upstream: the same in every store. */
export interface PaceState {
  /** The last starts given (at most STARTS_KEPT), in order; a start may lie ahead, for a call waiting for it. */
  starts: number[];
  /** The pace the upstream stated in its answers (`x-rate-limit-limit` per `x-rate-limit-interval`), when it did. */
  stated?: Rule;
  /** Until when the upstream asked for a pause (a 429's `Retry-After`); 0 when it never did. */
  pausedUntil: number;
  /**
   * Until when the upstream's own `Retry-After` asked for one (a pause without it is the stated interval,
   * or a second): said in refusals, so that a client knows when to ask again.
   */
  retryAfterUntil?: number;
  /**
   * The calls in flight, when the pace limits them: each holds its room from its start until it ends
   * (released()), or at the latest until `until` (its own timeout), so that a container gone mid-call never
   * holds the room for good.
   */
  held?: Hold[];
  /** The concurrency limit the upstream stated in its answers (`x-concurrency-limit`), when it did. */
  statedInFlight?: number;
}

/** One call in flight: who holds the room (an id its caller releases it by), from when, and until when at most. */
export interface Hold {
  id: string;
  start: number;
  until: number;
}

export const EMPTY_STATE: PaceState = Object.freeze({ starts: [], pausedUntil: 0 }) as PaceState;

/**
 * Starts a state keeps: enough for any rule up to this many starts per window. A rule with more is kept as
 * the same rate over a shorter window (stricter: smaller bursts), so that a state stays one small item.
 */
export const STARTS_KEPT = 50;

/**
 * How much wider than its rule's each window is kept: a call leaves a few milliseconds after its start (a
 * timer, a busy event loop) and arrives when the network lets it, so the upstream counts arrivals, not
 * starts. A limit's worth of starts at exactly one window's interval met a rate limiter that refills at the
 * rule's rate a few milliseconds early (65 refusals in 10,065 lookups, the jobs bench); 3 % of the window
 * (30 ms a second) costs 3 % of the rate and leaves that jitter room.
 */
export const WINDOW_MARGIN = 0.03;

/** The window of a rate: `n` starts per `n / rate` seconds, `n` the whole number of starts a second allows (at least 1). */
export function rateRule(perSecond: number): Rule {
  const limit = Math.max(1, Math.floor(perSecond));
  return { limit, ms: (limit / perSecond) * 1_000 };
}

/** A rule as kept: at most STARTS_KEPT starts a window, the rate unchanged. */
export function keptRule(rule: Rule): Rule {
  return rule.limit <= STARTS_KEPT ? rule : { limit: STARTS_KEPT, ms: (rule.ms * STARTS_KEPT) / rule.limit };
}

/** "1s", "60s", "1m", "500ms" → milliseconds; undefined for anything else. */
export function intervalMs(value: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(value ?? '');
  if (!match) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  return Number(match[1]) * (unit === 'ms' ? 1 : unit === 'm' ? 60_000 : 1_000);
}

/** A `Retry-After` value as milliseconds from `now`: delta-seconds or an HTTP date; undefined when neither. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text) * 1_000;
  const date = Date.parse(text);
  return Number.isNaN(date) || !/[a-z]/i.test(text) ? undefined : Math.max(0, date - now);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The rules in force: the configured one and the stated one, when the upstream stated one. */
export function rulesInForce(configured: Rule, state: PaceState): Rule[] {
  return state.stated ? [configured, keptRule(state.stated)] : [configured];
}

/**
 * The earliest start at or after `at` that keeps every rule, comes after the pause and after every start
 * already given. With starts in order, a new start `s` past the `limit`-th last start plus `ms` (and the
 * margin) leaves in (s − ms, s] only the last `limit − 1` starts: never more than `limit` in any window.
 */
export function earliestStart(state: PaceState, rules: readonly Rule[], at: number): number {
  const { starts } = state;
  let start = Math.max(at, state.pausedUntil, starts.at(-1) ?? at);
  for (const rule of rules) {
    const oldest = starts.length >= rule.limit ? starts[starts.length - rule.limit] : undefined;
    if (oldest !== undefined) start = Math.max(start, oldest + rule.ms * (1 + WINDOW_MARGIN));
  }
  // Whole milliseconds, rounded up (later is always within the rules), so that every store keeps them exactly.
  return Math.ceil(start);
}

/**
 * One call asking for its start: when it asks, and the start past which it is of no use; with `hold`, the
 * call holds a room in flight under its id from its start for at most `ms` (its timeout), until released.
 */
export interface Ask {
  at: number;
  deadline: number;
  hold?: RoomClaim;
}

/** A call's claim on a room in flight: its id, and how long it may hold it at most (its timeout). */
export interface RoomClaim {
  id: string;
  ms: number;
}

/**
 * A call's turn: its start; or that every room in flight is held past the start the rate would give it
 * (`full`: it asks again when a call ends, at the latest when the first hold runs out); or why it has none
 * (a pause, or the rate, reach its deadline).
 */
export type Turn = { startAt: number } | { full: number } | { refused: 'paused' | 'late' };

/** The concurrency limit in force: the stricter of the configured one and the one the upstream stated; undefined when neither. */
export function inFlightInForce(configured: number | undefined, state: PaceState): number | undefined {
  const limits = [configured, state.statedInFlight].filter((limit): limit is number => limit !== undefined && limit > 0);
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

/**
 * Each ask's turn, in order, and the state with the starts given: a start at or past its ask's deadline is
 * not given (nothing is recorded for it), and is refused as `paused` when the pause alone reaches the
 * deadline, else `late`. Under a concurrency limit, an ask whose start would find every room held is not
 * given one (`full`), nor is any ask after it (first come, first served); the holds that ran out by `at` are
 * dropped. Starts are given in order, so a hold given before is never after a new start: the rooms a new
 * start finds held are the holds not over by then.
 */
export function takeTurns(
  state: PaceState,
  configured: Rule,
  asks: readonly Ask[],
  inFlight?: number,
): { next: PaceState | undefined; turns: Turn[] } {
  if (asks.length === 0) return { next: undefined, turns: [] };
  const rules = rulesInForce(configured, state);
  const limit = inFlightInForce(inFlight, state);
  const now = Math.min(...asks.map((ask) => ask.at));
  let current = state;
  if (state.held?.some((hold) => hold.until <= now)) current = { ...state, held: state.held.filter((hold) => hold.until > now) };
  let full: number | undefined;
  const turns = asks.map((ask): Turn => {
    if (current.pausedUntil >= ask.deadline) return { refused: 'paused' };
    const startAt = earliestStart(current, rules, ask.at);
    if (startAt >= ask.deadline) return { refused: 'late' };
    if (full !== undefined) return { full };
    // A call asking again (its turn came too late to use) gives up the room it held.
    const held = (current.held ?? []).filter((hold) => hold.id !== ask.hold?.id);
    const busy = held.filter((hold) => hold.until > startAt);
    if (limit !== undefined && busy.length >= limit) {
      // Not refused for a hold's latest end past the deadline: a call mostly ends well before its timeout.
      full = Math.min(...busy.map((hold) => hold.until));
      return { full };
    }
    current = { ...current, starts: [...current.starts, startAt].slice(-STARTS_KEPT) };
    if (ask.hold) {
      current = { ...current, held: [...held, { id: ask.hold.id, start: startAt, until: startAt + ask.hold.ms }] };
    }
    return { startAt };
  });
  return { next: current === state ? undefined : current, turns };
}

/** The state without the hold `id` (its call ended); undefined when it holds none under that id. */
export function released(state: PaceState, id: string): PaceState | undefined {
  if (!state.held?.some((hold) => hold.id === id)) return undefined;
  return { ...state, held: state.held.filter((hold) => hold.id !== id) };
}

/**
 * What an answer teaches the pace: the pace it states (`x-rate-limit-limit` per `x-rate-limit-interval`, as
 * Crossref sends them), the calls it allows in flight (`x-concurrency-limit`, Crossref's), and for a 429 a pause as long as it asks (`Retry-After`, seconds or an HTTP date;
 * else one stated interval, else a second). The new state, or undefined when the answer changes nothing
 * (a store then writes nothing).
 */
export function noted(state: PaceState, status: number, headers: IncomingHttpHeaders, now: number): PaceState | undefined {
  let next = state;
  const inFlight = Number(header(headers, 'x-concurrency-limit'));
  if (Number.isInteger(inFlight) && inFlight > 0 && state.statedInFlight !== inFlight)
    next = { ...next, statedInFlight: inFlight };
  const limit = Number(header(headers, 'x-rate-limit-limit'));
  const interval = intervalMs(header(headers, 'x-rate-limit-interval'));
  if (Number.isInteger(limit) && limit > 0 && interval !== undefined && interval > 0) {
    if (state.stated?.limit !== limit || state.stated.ms !== interval) next = { ...next, stated: { limit, ms: interval } };
  }
  if (status === 429) {
    const asked = retryAfterMs(header(headers, 'retry-after'), now);
    const pause = asked ?? interval ?? 1_000;
    // A shorter pause never cuts a longer one short.
    if (now + pause > next.pausedUntil) next = { ...next, pausedUntil: now + pause };
    if (asked !== undefined && now + asked > (next.retryAfterUntil ?? 0)) next = { ...next, retryAfterUntil: now + asked };
  }
  return next === state ? undefined : next;
}
