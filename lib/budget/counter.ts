/**
 * The budget's counter: one number per window (lib/budget/windows.ts), raised only while it stays within
 * the window's limit. Two implementations with one behaviour: DynamoDB (shared by every function and
 * container of a deployment) and memory (one process: the local server, and the allowance while the table
 * cannot be reached).
 *
 * DynamoDB: one `UpdateItem` per window, `ADD used :n` under the condition `used <= limit - n`, so the
 * check and the increment are one atomic step on the server: however many containers race, a window's
 * count never passes its limit. A request's windows are reserved one after the other, the deployment's
 * (hour, month) before the client's day, so that a full hour is refused before the day is touched; when a
 * later one refuses, the earlier ones are given back. Between the two steps another request may see the
 * earlier window fuller than it ends up: the race can only refuse a search that would have fitted, never
 * admit one that does not.
 *
 * A reservation is a hold: `n` units under one random token. When the request is over it is closed with
 * what it kept (the searches the provider bills, docs/budget-and-caching.md): the rest is given back.
 *
 * Plans in flight. A hold of several units that says when it is closed at the latest (its request's
 * deadline) is a plan, and its token says both; it is removed from the item when the plan is closed, used
 * in full or not. A refusal reads the plans still in flight in the windows that cannot take the request,
 * and names the one to wait for with the time by which their giving back could leave room (mustWaitFor),
 * so that a window full of reservations in flight is not waited for until it resets.
 *
 * Exact when slow. A write whose answer does not come in time may still land. So each reservation carries
 * its token, added to the window's item in the same atomic step (a string set per minute, `s0`…`sf`), and
 * the write is conditional on the token not being there yet: sending it again is harmless, it lands at
 * most once. A reservation whose outcome is unknown is sent once more; if the second answer is "condition
 * failed", a probe (`contains(s…, token)`) tells a landed reservation from a full window. Closing a hold
 * whose outcome is unknown makes the window hold exactly what was kept: the difference given back where it
 * landed, the kept searches counted where it did not, and the token marked closed (`c0`…`cf`) so that a
 * copy still on its way can no longer land. A reservation answered at the first attempt has no copy on its
 * way, so giving it back only removes its token: a flood of refused requests leaves nothing in an item.
 *
 * Down. A call without an answer twice marks the table down for `retryMs`: reservations then fail at once
 * (the caller fails open or refuses, lib/budget/budget.ts) and what is owed (closings that could not be
 * written) is written by the container's own timer at the end of that time, and at once whenever the table
 * answers again. A window a call never reached (the connection refused, or an error of the request's
 * answered) holds nothing of it, so what is owed there is kept until written, however long the outage;
 * searches never sent are merged into one closing per set of windows, and at most MAX_OWED closings are
 * kept. Only a window sent to without an answer, whose token may have been removed since (older than
 * SETTLE_HORIZON_MS, tokens are kept 8 minutes), is dropped, with a log line that says which way its count
 * is off.
 *
 * Time budget. Each call's timeout follows what the table has been answering: twice the 99th percentile
 * of the last answers' latencies, between `timeoutMs` and `maxTimeoutMs` (docs/budget-and-caching.md, "Why
 * these timeouts"), so that a slow but working table is not taken for a down one.
 *
 * Reads (`/v1/usage`, and the other windows of a refusal) are a strongly consistent `GetItem`, so that a
 * role that only reads the budget (/v1/usage's) holds no action that could change a count. No item is a
 * window never used (0); an item without a numeric `used` is an error, never 0: every write adds to it.
 */
import { randomFillSync } from 'node:crypto';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type BudgetWindow, expiresAtSeconds } from './windows.js';

/**
 * What is known of a hold in one window: `held` it landed (answered at the first attempt, so no copy is
 * on its way), `held-retried` it landed but a copy of it may still be on its way, `unknown` it was sent
 * without an answer, `unsent` it was never sent (the table was down, or an earlier window failed), and
 * `closed` it has been settled in that window.
 */
export type WindowState = 'held' | 'held-retried' | 'unknown' | 'unsent' | 'closed';

/** `n` units reserved under one token in each of `windows` (as far as `states` say). */
export interface Hold {
  token: string;
  n: number;
  windows: readonly BudgetWindow[];
  states: WindowState[];
  /** Epoch ms of the minute whose token sets hold the token, per window (set when first sent). */
  minutes: (number | undefined)[];
  createdAt: number;
}

/** A plan in flight: `n` units held by a request of several searches, closed by `by` (epoch ms) at the latest. */
export interface Returning {
  n: number;
  by: number;
}

export type Reservation =
  | { ok: true; hold: Hold }
  /**
   * `used`: the refusing window's count, when known (it tells a request of several searches what is left).
   * `inFlight`: when plans still in flight there hold enough that, were they given back, the request would
   * fit: how many units they hold, and by when they are closed at the latest.
   */
  | { ok: false; refused: BudgetWindow; used?: number; inFlight?: { held: number; by: number } };

/** What this container owes the counter: searches made but not counted, and units to give back. */
export interface Unsettled {
  /** Searches made while the counter did not answer, not yet written (the counter is low by them). */
  uncounted: number;
  /** Units reserved and not used, not yet given back (the counter is high by them). */
  notGivenBack: number;
}

export interface Counter {
  /**
   * Adds `n` to every window if each stays within its limit, and answers the hold; otherwise adds nothing
   * (what landed is given back) and names the window that refused. Rejects with CounterUnavailable, whose
   * `hold` says what may have landed. `until` (epoch ms): when the hold will be closed at the latest (its
   * request's deadline); a hold of several units that says so is a plan, which a refusal can wait for.
   */
  reserve(windows: readonly BudgetWindow[], n: number, until?: number): Promise<Reservation>;
  /** Each window's count (0 for one not used yet), in order. */
  read(windows: readonly BudgetWindow[]): Promise<number[]>;
  /**
   * Makes every window of the hold count exactly `kept` of its `n` units: the rest is given back where it
   * landed, the kept searches counted where it did not (limit or not: they were made). What cannot be
   * written now is owed and written later; the promise never rejects.
   */
  close(hold: Hold, kept: number): Promise<void>;
  /** Writes the closings still owed, if the table answers. */
  flush(): Promise<void>;
  /**
   * The window's count as this container last heard it, with what it holds there and has not written
   * yet; undefined when it never heard it (a fresh container while the table is down).
   */
  known(window: BudgetWindow): number | undefined;
  /** What this container owes the counter, in the hour window's terms. */
  unsettled(): Unsettled;
  /** Epoch ms of the next attempt to reach the table while it is down; undefined while it answers. */
  retryAt(): number | undefined;
}

/** The counter could not be reached in time: the caller decides between failing open and refusing. */
export class CounterUnavailable extends Error {
  override name = 'CounterUnavailable';
  /** Set by reserve(): what may have been reserved, for close(). */
  hold?: Hold;
  /**
   * Whether a copy of the call may have reached the table (no answer came): false when it surely did not
   * (the connection was refused, or the table answered that it did nothing), so that what it carried is
   * known never to have been written.
   */
  sent = true;
}

// Failures of the connection itself: the request was never sent (a reset, by contrast, may follow a request).
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether a failed call surely changed nothing in the table: no connection was made (refused, no such
 * host, no route), or the table answered an error of the request's (HTTP 4xx: throttled, denied, invalid),
 * which DynamoDB applies nothing of. A timeout, a reset or a server error (5xx) may follow a write that
 * landed. A pure function, so the rule is tested on its own.
 */
export function surelyNotWritten(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const failure = error as Error & { code?: string; syscall?: string; $metadata?: { httpStatusCode?: number } };
  if (NOT_CONNECTED.has(failure.code ?? '') || failure.syscall === 'connect') return true;
  const status = failure.$metadata?.httpStatusCode ?? 0;
  return status >= 400 && status < 500;
}

/** Random bytes drawn 4 KiB at a time: one system call per 455 tokens, not one per token (~8 µs a request). */
const tokenPool = Buffer.alloc(4_096);
let tokenOffset = tokenPool.length;

export function newToken(): string {
  if (tokenOffset + 9 > tokenPool.length) {
    randomFillSync(tokenPool);
    tokenOffset = 0;
  }
  tokenOffset += 9;
  return tokenPool.toString('base64url', tokenOffset - 9, tokenOffset);
}

/**
 * The token of a plan (a hold of several units that says when it is closed at the latest): it carries its
 * units and that time, so that a refusal read from a window's item can tell what may come back, and when.
 */
export function planToken(n: number, until: number): string {
  return `${newToken()}.${n.toString(36)}.${Math.ceil(until / 1000).toString(36)}`;
}

/** The plan a token stands for, or undefined for a hold of one unit, or one that said no time. */
export function planOf(token: string): Returning | undefined {
  const match = /^[A-Za-z0-9_-]{12}\.([0-9a-z]{1,8})\.([0-9a-z]{1,10})$/.exec(token);
  if (!match) return undefined;
  return { n: Number.parseInt(match[1] as string, 36), by: Number.parseInt(match[2] as string, 36) * 1000 };
}

function newHold(windows: readonly BudgetWindow[], n: number, createdAt: number, until?: number): Hold {
  return {
    token: n > 1 && until !== undefined ? planToken(n, until) : newToken(),
    n,
    windows,
    states: windows.map(() => 'unsent'),
    minutes: windows.map(() => undefined),
    createdAt,
  };
}

/**
 * Of the windows that cannot take a request, the one it must wait for: the last to reset (a key's day
 * over the hour, the month over both). A refusal names it, and its reset is the real wait. Windows that
 * reset at the same instant (the hour and the day in a day's last hour, all three in a month's) name the
 * longest: the same wait, and the limit a caller can plan by.
 */
export function lastToReset(windows: readonly BudgetWindow[]): BudgetWindow | undefined {
  const later = (a: BudgetWindow, b: BudgetWindow) =>
    a.endsAt !== b.endsAt ? a.endsAt > b.endsAt : a.endsAt - a.startsAt >= b.endsAt - b.startsAt;
  return windows.reduce<BudgetWindow | undefined>((last, window) => (last && later(last, window) ? last : window), undefined);
}

/** A window that cannot take a request, as a refusal read it: its count and the plans in flight there. */
export interface FullWindow {
  window: BudgetWindow;
  used?: number;
  returning?: readonly Returning[];
}

/**
 * When the plans in flight in a window, were they given back, would leave room for `n` more: the soonest
 * time by which enough of them are closed at the latest (`now` when the count read has room already, as
 * after a give-back that raced the refusal); undefined when all of them would not (or the count is
 * unknown), so that only the window's reset can. A pure function, so the rule is tested on its own.
 */
export function roomBy(full: FullWindow, n: number, now: number): { held: number; by: number } | undefined {
  const plans = full.returning ?? [];
  if (full.used === undefined || plans.length === 0) return undefined;
  const held = plans.reduce((sum, plan) => sum + plan.n, 0);
  const over = full.used + n - full.window.limit;
  if (over <= 0) return { held, by: now };
  let back = 0;
  for (const plan of [...plans].sort((a, b) => a.by - b.by)) {
    back += plan.n;
    if (back >= over) return { held, by: plan.by };
  }
  return undefined;
}

/**
 * Of the windows a request cannot have now, the one it must wait for longest: a window that plans in flight
 * may free by some time is waited for until then, any other until it resets; of equal waits, as
 * lastToReset. The refusal names it, with its count and what is in flight there.
 */
export function mustWaitFor(candidates: readonly FullWindow[], n: number, now: number): Reservation & { ok: false } {
  const waits = candidates.map((full) => ({ full, room: roomBy(full, n, now) }));
  const waitOf = (entry: (typeof waits)[number]) => entry.room?.by ?? entry.full.window.endsAt;
  const longest = Math.max(...waits.map(waitOf));
  const chosen = lastToReset(waits.filter((entry) => waitOf(entry) === longest).map((entry) => entry.full.window));
  const entry = waits.find((w) => w.full.window === chosen) as (typeof waits)[number];
  return {
    ok: false,
    refused: entry.full.window,
    ...(entry.full.used === undefined ? {} : { used: entry.full.used }),
    ...(entry.room ? { inFlight: entry.room } : {}),
  };
}

/** The memory counter: exact within one process, always answering. */
export function createMemoryCounter(now: () => number = Date.now): Counter {
  const counts = new Map<string, { used: number; endsAt: number }>();
  const current = (window: BudgetWindow) => {
    const entry = counts.get(window.key);
    return entry && entry.endsAt > now() ? entry.used : 0;
  };
  const add = (window: BudgetWindow, n: number) => {
    counts.set(window.key, { used: current(window) + n, endsAt: window.endsAt });
  };
  /** Plans not closed yet, by window and token; one past its time is no longer in flight (its request died). */
  const plans = new Map<string, Map<string, Returning>>();
  const returning = (window: BudgetWindow) => {
    const open = plans.get(window.key);
    for (const [token, plan] of open ?? []) if (plan.by <= now()) open?.delete(token);
    return [...(open?.values() ?? [])];
  };
  return {
    async reserve(windows, n, until) {
      // Synchronous from the check to the increment: no other request of this process can come between.
      const full = windows.filter((window) => current(window) + n > window.limit);
      if (full.length > 0) {
        return mustWaitFor(
          full.map((window) => ({ window, used: current(window), returning: returning(window) })),
          n,
          now(),
        );
      }
      const hold = newHold(windows, n, now(), until);
      for (const window of windows) add(window, n);
      hold.states.fill('held');
      const plan = planOf(hold.token);
      if (plan) for (const window of windows) plans.set(window.key, (plans.get(window.key) ?? new Map()).set(hold.token, plan));
      // Old windows are dropped as new ones start: the map holds a handful of keys per client.
      if (counts.size > 10_000) for (const [key, entry] of counts) if (entry.endsAt <= now()) counts.delete(key);
      return { ok: true, hold };
    },
    async read(windows) {
      return windows.map(current);
    },
    async close(hold, kept) {
      hold.windows.forEach((window, i) => {
        if (hold.states[i] === 'held' && kept < hold.n) add(window, kept - hold.n);
        hold.states[i] = 'closed';
        const open = plans.get(window.key);
        open?.delete(hold.token);
        if (open?.size === 0) plans.delete(window.key);
      });
    },
    // Memory always answers: nothing is ever owed.
    async flush() {},
    known: current,
    unsettled: () => ({ uncounted: 0, notGivenBack: 0 }),
    retryAt: () => undefined,
  };
}

/** Timers the counter uses for its own retries; tests pass their own. */
export interface CounterTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const NODE_TIMERS: CounterTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface DynamoCounterOptions {
  tableName: string;
  /** The shortest time a call is given (BUDGET_TIMEOUT_MS); a slower one is sent once more, then fails. */
  timeoutMs: number;
  /** The longest time a call is given, however slow the table has been answering (BUDGET_TIMEOUT_MAX_MS). */
  maxTimeoutMs?: number;
  /** How long the table is left alone after it failed to answer (BUDGET_RETRY_MS). */
  retryMs?: number;
  /** The SDK client (created and connected at cold start, lib/budget/budget.ts). */
  client: () => Promise<{ client: DynamoDBClient; commands: typeof import('@aws-sdk/client-dynamodb') }>;
  now?: () => number;
  timers?: CounterTimers;
  /**
   * Called for each window of an owed closing that is dropped, and why: its token may be gone (sent more
   * than SETTLE_HORIZON_MS before), or more closings are owed than the container keeps (MAX_OWED); with
   * which way that window's count stays off, and by how much.
   */
  onAbandoned?: (dropped: Abandoned) => void;
  /**
   * Called when closings owed through an outage have all been written: how many searches were written
   * that had never reached the table, and how long the oldest of them was owed.
   */
  onSettled?: (settled: { searches: number; owedMs: number }) => void;
}

/** An owed closing's window given up on, and why: see DynamoCounterOptions.onAbandoned. */
export interface Abandoned {
  hold: Hold;
  kept: number;
  window: BudgetWindow;
  reason: 'token-may-be-gone' | 'too-many-owed';
  off: Unsettled;
}

/**
 * The most closings a container keeps owed. Searches never sent while the table was down are merged into
 * one closing per set of windows (a client's hour, say), so an outage of days stays far below it; past it
 * the oldest is dropped, and said so.
 */
export const MAX_OWED = 10_000;

/** Tokens are kept in 16 one-minute sets; each reservation removes the set 8 minutes ahead (8 minutes old). */
const TOKEN_SETS = 16;
const TOKEN_MINUTES_KEPT = 8;
/** A closing owed longer than this is dropped when its token may have been removed (the count stays off). */
export const SETTLE_HORIZON_MS = 6 * 60_000;
/** Latencies of the last answers the time budget is computed from. */
const LATENCY_SAMPLES = 100;
export const DEFAULT_MAX_TIMEOUT_MS = 5_000;
export const DEFAULT_RETRY_MS = 2_000;

/**
 * The time a counter call is given: twice the 99th percentile of the recent answers' latencies, within
 * [min, max]; `min` until anything has been measured. A pure function, so the rule is tested on its own.
 */
export function counterTimeout(latencies: readonly number[], min: number, max: number): number {
  if (latencies.length === 0) return min;
  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] as number;
  return Math.min(max, Math.max(min, Math.ceil(2 * p99)));
}

function tokenSets(minuteMs: number) {
  const minute = Math.floor(minuteMs / 60_000);
  const set = (minute % TOKEN_SETS).toString(16);
  const old = ((minute + TOKEN_SETS - TOKEN_MINUTES_KEPT) % TOKEN_SETS).toString(16);
  return { '#s': `s${set}`, '#c': `c${set}`, '#os': `s${old}`, '#oc': `c${old}` };
}

type Outcome = 'done' | 'condition-failed';

/**
 * What an owed closing means for one window's count: searches made and not counted (the count is low by
 * them), units not given back (high by them). A hold sent without an answer may have landed or not: it is
 * reported at the most either way could be.
 */
export function offIn(hold: Hold, i: number, kept: number): Unsettled {
  const state = hold.states[i];
  if (state === undefined || state === 'closed') return { uncounted: 0, notGivenBack: 0 };
  if (state === 'unsent') return { uncounted: kept, notGivenBack: 0 };
  if (state === 'unknown') return { uncounted: kept, notGivenBack: hold.n - kept };
  return { uncounted: 0, notGivenBack: hold.n - kept };
}

/** What an owed closing means for the hour window's count (every hold of a request has the hour window). */
export function offBy(hold: Hold, kept: number): Unsettled {
  return offIn(
    hold,
    hold.windows.findIndex((window) => window.kind === 'hour'),
    kept,
  );
}

/** Whether any window of the hold still needs a write to hold exactly `kept` (an unsent window with nothing kept does not). */
function needsWrite(hold: Hold, kept: number): boolean {
  return hold.states.some((state) => state !== 'closed' && !(state === 'unsent' && kept === 0));
}

export function createDynamoCounter(options: DynamoCounterOptions): Counter {
  const now = options.now ?? Date.now;
  const timers = options.timers ?? NODE_TIMERS;
  const maxTimeoutMs = Math.max(options.timeoutMs, options.maxTimeoutMs ?? DEFAULT_MAX_TIMEOUT_MS);
  const retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  const owed: { hold: Hold; kept: number }[] = [];
  /** When the closings owed now began to be owed, and how many searches of them were written since. */
  let owedSince: number | undefined;
  let writtenSince = 0;
  /** The owed closing being written now. */
  let writing: { hold: Hold; kept: number } | undefined;
  /** Owed closings of searches never sent, by their windows: another such search is added to its windows' one. */
  const mergeable = new Map<string, { hold: Hold; kept: number }>();
  /** Holds not yet written everywhere: what `known` adds to the last count heard. */
  const open = new Map<Hold, number>();
  const heard = new Map<string, { used: number; endsAt: number }>();
  const latencies: number[] = [];
  let downUntil = 0;
  let timer: unknown;

  const hear = (window: BudgetWindow, item: Record<string, AttributeValue> | undefined) => {
    const used = Number(item?.used?.N);
    if (Number.isFinite(used)) remember(window, used);
  };
  /** A count heard; windows that have ended are forgotten now and then, so that a long-lived process keeps a handful. */
  const remember = (window: BudgetWindow, used: number) => {
    heard.set(window.key, { used, endsAt: window.endsAt });
    if (heard.size > 1_000) for (const [key, last] of heard) if (last.endsAt <= now()) heard.delete(key);
  };

  function markDown(): void {
    downUntil = now() + retryMs;
    schedule();
  }

  function markUp(): void {
    if (downUntil === 0) return;
    downUntil = 0;
    // The table answers again: what is owed is written now, not on some later request.
    if (owed.length > 0) void flush();
  }

  /** The container's own retry of what it owes, when the table may answer again. */
  function schedule(): void {
    if (timer !== undefined || owed.length === 0) return;
    timer = timers.setTimeout(
      () => {
        timer = undefined;
        void flush();
      },
      Math.max(0, downUntil - now()),
    );
  }

  /**
   * The call, its latency recorded whenever it answers, even after its caller stopped waiting (up to
   * `maxTimeoutMs`): a table slower than the time it is given is measured all the same, so that the time
   * grows to fit it. An answer of any kind means the table is back.
   */
  function measured<T>(call: Promise<T>): Promise<T> {
    const started = performance.now();
    const answered = () => {
      latencies.push(performance.now() - started);
      if (latencies.length > LATENCY_SAMPLES) latencies.shift();
      markUp();
    };
    call.then(answered, (error: unknown) => {
      if ((error as Error).name === 'ConditionalCheckFailedException') answered();
    });
    return call;
  }

  /**
   * One UpdateItem (or, for `{ read: true }`, one consistent GetItem) within the time budget:
   * 'condition-failed', the item, or CounterUnavailable.
   */
  async function send(
    window: BudgetWindow,
    input:
      | {
          update: string;
          condition?: string;
          names?: Record<string, string>;
          values: Record<string, AttributeValue>;
          returnValues?: 'ALL_NEW' | 'UPDATED_NEW';
        }
      | { read: true },
  ): Promise<{ outcome: Outcome; item?: Record<string, AttributeValue> }> {
    const budgetMs = counterTimeout(latencies, options.timeoutMs, maxTimeoutMs);
    let handle: NodeJS.Timeout | undefined;
    // Until the call is handed to the SDK nothing can reach the table.
    let dispatched = false;
    const timeout = new Promise<never>((_, reject) => {
      handle = setTimeout(() => {
        const error = new CounterUnavailable(`no answer within ${budgetMs} ms`);
        error.sent = dispatched;
        reject(error);
      }, budgetMs);
    });
    try {
      // Loading the SDK is a one-off per container, not the table's slowness: not in the latencies.
      const { client, commands } = await Promise.race([options.client(), timeout]);
      dispatched = true;
      const key = { pk: { S: window.key } };
      const abort = { abortSignal: AbortSignal.timeout(maxTimeoutMs) };
      if ('read' in input) {
        const got = client.send(
          new commands.GetItemCommand({ TableName: options.tableName, Key: key, ConsistentRead: true }),
          abort,
        );
        return { outcome: 'done', item: (await Promise.race([measured(got), timeout])).Item };
      }
      const call = client.send(
        new commands.UpdateItemCommand({
          TableName: options.tableName,
          Key: key,
          UpdateExpression: input.update,
          ...(input.condition ? { ConditionExpression: input.condition } : {}),
          ...(input.names ? { ExpressionAttributeNames: input.names } : {}),
          ExpressionAttributeValues: input.values,
          ReturnValues: input.returnValues ?? 'NONE',
        }),
        abort,
      );
      const answer = await Promise.race([measured(call), timeout]);
      return { outcome: 'done', item: answer.Attributes };
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return { outcome: 'condition-failed' };
      if (error instanceof CounterUnavailable) throw error;
      const unavailable = new CounterUnavailable(`${(error as Error).name}: ${(error as Error).message}`.slice(0, 300), {
        cause: error,
      });
      unavailable.sent = dispatched && !surelyNotWritten(error);
      throw unavailable;
    } finally {
      clearTimeout(handle);
    }
  }

  /** Sends once more when the first attempt had no answer (every call here is idempotent); marks the table down after two. */
  async function sendTwice(
    ...args: Parameters<typeof send>
  ): Promise<{ outcome: Outcome; retried: boolean; item?: Record<string, AttributeValue> }> {
    let firstSent: boolean;
    try {
      return { ...(await send(...args)), retried: false };
    } catch (error) {
      if (!(error instanceof CounterUnavailable)) throw error;
      firstSent = error.sent;
    }
    try {
      return { ...(await send(...args)), retried: true };
    } catch (error) {
      if (error instanceof CounterUnavailable) {
        markDown();
        // Either attempt may be the one that landed.
        error.sent ||= firstSent;
      }
      throw error;
    }
  }

  const exp = (window: BudgetWindow) => ({ N: String(expiresAtSeconds(window)) });
  const tok = (token: string) => ({ SS: [token] });

  /** Whether the token's reservation is in the window. */
  async function holds(window: BudgetWindow, token: string, minute: number): Promise<boolean> {
    const { '#s': s } = tokenSets(minute);
    const probe = await sendTwice(window, {
      update: 'SET expires_at = if_not_exists(expires_at, :exp)',
      condition: 'contains(#s, :t)',
      names: { '#s': s },
      values: { ':exp': exp(window), ':t': { S: token } },
    });
    return probe.outcome === 'done';
  }

  /**
   * The call's outcome; when it failed without a copy that could have reached the table, the hold's window
   * is marked unsent again (nothing of it is in the table, and none can land), so that what is owed there is
   * kept until written, however long the table is down.
   */
  async function unlessNeverSent<T>(hold: Hold, i: number, call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (error instanceof CounterUnavailable && !error.sent) {
        hold.states[i] = 'unsent';
        hold.minutes[i] = undefined;
      }
      throw error;
    }
  }

  /**
   * Reserves in one window: the state of the hold there, or 'full' (the window's state then says whether
   * a copy of the refused reservation may still be on its way: `unknown`, or nothing landed: `closed`).
   */
  async function reserveOne(hold: Hold, i: number): Promise<WindowState | 'full'> {
    const window = hold.windows[i] as BudgetWindow;
    const minute = hold.createdAt;
    hold.minutes[i] = minute;
    hold.states[i] = 'unknown';
    const attempt = await unlessNeverSent(
      hold,
      i,
      sendTwice(window, {
        update: 'ADD used :n, #s :tok SET expires_at = if_not_exists(expires_at, :exp) REMOVE #os, #oc',
        condition: 'NOT contains(#s, :t) AND NOT contains(#c, :t) AND (attribute_not_exists(used) OR used <= :room)',
        names: tokenSets(minute),
        values: {
          ':n': { N: String(hold.n) },
          ':tok': tok(hold.token),
          ':t': { S: hold.token },
          ':exp': exp(window),
          ':room': { N: String(window.limit - hold.n) },
        },
        returnValues: 'UPDATED_NEW',
      }),
    );
    if (attempt.outcome === 'done') {
      hear(window, attempt.item);
      return attempt.retried ? 'held-retried' : 'held';
    }
    // Refused on the first attempt: the token is new, so the window is full and nothing landed. Refused on
    // the second: the first may have landed after all, or may still land (it is barred when closed).
    if (!attempt.retried) {
      hold.states[i] = 'closed';
      return 'full';
    }
    if (await holds(window, hold.token, minute)) return 'held-retried';
    return 'full';
  }

  /** Gives back `back` units of the token where it landed; `bar`: also mark it closed against a late copy. */
  async function giveBack(window: BudgetWindow, back: number, token: string, minute: number, bar: boolean) {
    const { '#s': s, '#c': c } = tokenSets(minute);
    return sendTwice(window, {
      update: `ADD used :neg${bar ? ', #c :tok' : ''} DELETE #s :tok`,
      condition: 'contains(#s, :t)',
      names: bar ? { '#s': s, '#c': c } : { '#s': s },
      values: { ':neg': { N: String(-back) }, ':tok': tok(token), ':t': { S: token } },
      returnValues: 'UPDATED_NEW',
    });
  }

  /** Counts `kept` under the token where it never landed, and marks it closed so that a late copy cannot land. */
  async function countClosed(window: BudgetWindow, kept: number, token: string, minute: number) {
    const { '#s': s, '#c': c } = tokenSets(minute);
    return sendTwice(window, {
      // `used` even when 0: every item has its count, so that none is ever read as a missing one.
      update: 'ADD used :kept, #c :tok SET expires_at = if_not_exists(expires_at, :exp)',
      condition: 'NOT contains(#s, :t) AND NOT contains(#c, :t)',
      names: { '#s': s, '#c': c },
      values: { ':kept': { N: String(kept) }, ':tok': tok(token), ':t': { S: token }, ':exp': exp(window) },
      returnValues: 'UPDATED_NEW',
    });
  }

  /** Settles one window of the hold; throws CounterUnavailable when the table does not answer. */
  async function closeOne(hold: Hold, i: number, kept: number): Promise<void> {
    const window = hold.windows[i] as BudgetWindow;
    const state = hold.states[i];
    const { token, n } = hold;
    if (state === 'closed') return;
    if (state === 'held' || state === 'held-retried') {
      // Nothing to give back, and a copy still on its way finds the token there and cannot land; but a
      // plan's token is removed all the same, so that no refusal waits for it as if still in flight.
      if (kept < n || planOf(token)) {
        const back = await giveBack(window, n - kept, token, hold.minutes[i] as number, state === 'held-retried');
        // Refused: a closing whose answer was lost already gave it back.
        if (back.outcome === 'done') hear(window, back.item);
      }
      hold.states[i] = 'closed';
      return;
    }
    if (state === 'unsent') {
      // Never sent: nothing landed, nothing can land; only kept searches are counted. From this write on a
      // copy may be on its way (unknown), under the minute it is sent in; a write that surely never left is
      // unsent again.
      if (kept > 0) {
        const minute = now();
        hold.minutes[i] = minute;
        hold.states[i] = 'unknown';
        const counted = await unlessNeverSent(hold, i, countClosed(window, kept, token, minute));
        if (counted.outcome === 'done') hear(window, counted.item);
      }
      hold.states[i] = 'closed';
      return;
    }
    // Sent without an answer: it may have landed, or land later.
    const minute = hold.minutes[i] as number;
    for (let round = 0; round < 2; round++) {
      const back = await giveBack(window, n - kept, token, minute, true);
      if (back.outcome === 'done') {
        hear(window, back.item);
        break;
      }
      const counted = await countClosed(window, kept, token, minute);
      if (counted.outcome === 'done') {
        hear(window, counted.item);
        break;
      }
      // Refused both ways: closed already (by a closing whose answer was lost), or the reservation landed
      // between the two calls; the next round tells which.
    }
    hold.states[i] = 'closed';
  }

  async function closeNow(hold: Hold, kept: number): Promise<void> {
    if (now() < downUntil) throw new CounterUnavailable('the counter is not answering');
    for (let i = 0; i < hold.windows.length; i++) await closeOne(hold, i, kept);
    open.delete(hold);
  }

  async function close(hold: Hold, kept: number): Promise<void> {
    if (!needsWrite(hold, kept)) {
      // Nothing of it reached the table and nothing was kept: there is nothing to write, now or later.
      hold.states.fill('closed');
      open.delete(hold);
      return;
    }
    if (open.has(hold)) open.set(hold, kept);
    try {
      await closeNow(hold, kept);
    } catch (error) {
      if (!(error instanceof CounterUnavailable)) throw error;
      owe(hold, kept);
    }
  }

  /** Unsent in every window: no token of it is in the table, so it can be written as part of any other. */
  const neverSent = (hold: Hold) => hold.states.every((state) => state === 'unsent');
  const windowsKey = (hold: Hold) => hold.windows.map((window) => window.key).join('\n');

  /**
   * Keeps a closing to write when the table answers. Searches never sent are added to a closing owed for the
   * same windows, if any, so that what is owed grows with the windows an outage spans, not with its
   * requests; past MAX_OWED closings the oldest is dropped, and said so.
   */
  function owe(hold: Hold, kept: number): void {
    owedSince ??= now();
    const windows = windowsKey(hold);
    const into = neverSent(hold) ? mergeable.get(windows) : undefined;
    if (into && into !== writing && neverSent(into.hold)) {
      into.kept += kept;
      into.hold.n = into.kept;
      open.set(into.hold, into.kept);
      open.delete(hold);
    } else {
      const entry = { hold, kept };
      open.set(hold, kept);
      owed.push(entry);
      if (neverSent(hold)) mergeable.set(windows, entry);
    }
    while (owed.length > MAX_OWED) {
      const oldest = owed.shift() as { hold: Hold; kept: number };
      forget(oldest);
      abandon(oldest, () => true, 'too-many-owed');
    }
    schedule();
  }

  /** An owed closing no longer owed (written, or dropped): nothing more is added to it. */
  function forget(entry: { hold: Hold; kept: number }): void {
    const windows = windowsKey(entry.hold);
    if (mergeable.get(windows) === entry) mergeable.delete(windows);
  }

  /** Gives up the windows of an owed closing that `which` picks, reporting each; the rest stay owed. */
  function abandon(entry: { hold: Hold; kept: number }, which: (i: number) => boolean, reason: Abandoned['reason']): void {
    const { hold, kept } = entry;
    hold.windows.forEach((window, i) => {
      if (hold.states[i] === 'closed' || !which(i)) return;
      options.onAbandoned?.({ hold, kept, window, reason, off: offIn(hold, i, kept) });
      hold.states[i] = 'closed';
    });
    if (hold.states.every((state) => state === 'closed')) open.delete(hold);
  }

  /**
   * A window whose closing may meet a removed token (sent there long enough ago) can no longer be written
   * exactly. A window never sent to has no token to lose: it is written whenever the table answers.
   */
  const expiredIn = (hold: Hold, i: number) =>
    hold.states[i] !== 'unsent' && hold.minutes[i] !== undefined && now() - (hold.minutes[i] as number) > SETTLE_HORIZON_MS;

  /**
   * The refusal of a request the first of `windows` refused: the windows after it are read too, so that
   * the one named is the one the request must wait for (the last to reset of those that cannot take it),
   * with its count, which tells a request of several searches how many are left. A read that fails leaves
   * the first refusal as it was.
   */
  async function refusal(windows: readonly BudgetWindow[], n: number): Promise<Reservation> {
    const [first] = windows as [BudgetWindow, ...BudgetWindow[]];
    const items = await readItems(windows).catch(() => undefined);
    if (!items) return { ok: false, refused: first };
    const full = items.filter(({ window, used }, i) => i === 0 || used + n > window.limit);
    return mustWaitFor(
      full.map(({ window, used, item }) => ({ window, used, returning: returningIn(item) })),
      n,
      now(),
    );
  }

  /** The plans in flight an item holds: plan tokens still in its sets, not yet past their time. */
  function returningIn(item: Record<string, AttributeValue> | undefined): Returning[] {
    const plans: Returning[] = [];
    for (const [name, value] of Object.entries(item ?? {})) {
      if (!/^s[0-9a-f]$/.test(name)) continue;
      for (const token of value.SS ?? []) {
        const plan = planOf(token);
        if (plan && plan.by > now()) plans.push(plan);
      }
    }
    return plans;
  }

  /** Each window's item (a consistent read) and its count. */
  function readItems(windows: readonly BudgetWindow[]) {
    return Promise.all(
      windows.map(async (window) => {
        const { item } = await sendTwice(window, { read: true });
        // No item: a window never used. An item without `used` is not a zero: every write adds to it.
        const used = item === undefined ? 0 : Number(item.used?.N);
        if (!Number.isFinite(used)) throw new CounterUnavailable('the counter answered without a count');
        remember(window, used);
        return { window, used, item };
      }),
    );
  }

  async function read(windows: readonly BudgetWindow[]): Promise<number[]> {
    return (await readItems(windows)).map(({ used }) => used);
  }

  /** Writes the owed closings in order, until one cannot be written. */
  async function drain(): Promise<void> {
    while (owed.length > 0) {
      const entry = owed[0] as { hold: Hold; kept: number };
      abandon(entry, (i) => expiredIn(entry.hold, i), 'token-may-be-gone');
      const written = offBy(entry.hold, entry.kept).uncounted;
      // While it is being written nothing is added to it: what is added would not be written.
      writing = entry;
      try {
        await closeNow(entry.hold, entry.kept);
      } catch (error) {
        if (!(error instanceof CounterUnavailable)) throw error;
        return;
      } finally {
        writing = undefined;
      }
      forget(owed.shift() as { hold: Hold; kept: number });
      writtenSince += written;
    }
    if (owedSince !== undefined) {
      options.onSettled?.({ searches: writtenSince, owedMs: now() - owedSince });
      owedSince = undefined;
      writtenSince = 0;
    }
  }

  let flushing: Promise<void> | undefined;
  function flush(): Promise<void> {
    if (now() < downUntil) {
      schedule();
      return Promise.resolve();
    }
    // `.finally` runs after the assignment even when nothing is owed: one flush at a time, never a stale one.
    flushing ??= drain().finally(() => {
      flushing = undefined;
      schedule();
    });
    return flushing;
  }

  return {
    async reserve(windows, n, until) {
      const hold = newHold(windows, n, now(), until);
      if (now() < downUntil) {
        const error = new CounterUnavailable('the counter did not answer recently; it is tried again shortly');
        error.hold = hold;
        open.set(hold, n);
        throw error;
      }
      for (let i = 0; i < windows.length; i++) {
        const window = windows[i] as BudgetWindow;
        let state: WindowState | 'full';
        try {
          // A limit below the request cannot be met, whatever the count: no call needed.
          state = window.limit >= n ? await reserveOne(hold, i) : 'full';
        } catch (error) {
          if (!(error instanceof CounterUnavailable)) throw error;
          error.hold = hold;
          open.set(hold, n);
          throw error;
        }
        if (state === 'full') {
          // Given back by token, exactly, so that the refused request costs nothing; what cannot be given
          // back now is given back later.
          await close(hold, 0);
          return refusal(windows.slice(i), n);
        }
        hold.states[i] = state;
      }
      return { ok: true, hold };
    },
    read,
    close,
    flush,
    known(window) {
      const last = heard.get(window.key);
      if (!last || last.endsAt <= now()) return undefined;
      let held = 0;
      for (const [hold, kept] of open) {
        const i = hold.windows.findIndex((w) => w.key === window.key);
        // Unsent or unanswered there: not in the count heard, and counted here as what it will be.
        if (i >= 0 && (hold.states[i] === 'unsent' || hold.states[i] === 'unknown')) held += kept;
      }
      return last.used + held;
    },
    unsettled() {
      const total: Unsettled = { uncounted: 0, notGivenBack: 0 };
      for (const { hold, kept } of owed) {
        const off = offBy(hold, kept);
        total.uncounted += off.uncounted;
        total.notGivenBack += off.notGivenBack;
      }
      return total;
    },
    retryAt: () => (downUntil === 0 ? undefined : downUntil),
  };
}
