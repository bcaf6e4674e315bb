/**
 * The budget's counter: one number per window (lib/budget/windows.ts), raised only while it stays within
 * the window's limit. Two implementations with one behaviour: DynamoDB (shared by every function and
 * container of a deployment) and memory (one process: the local server, and the backstop while the table
 * cannot be reached).
 *
 * DynamoDB: one `UpdateItem` per window, `ADD used :n` under the condition `used <= limit - n`, so the
 * check and the increment are one atomic step on the server: however many containers race, a window's
 * count never passes its limit. A request's windows (its client's day, the hour, the month) are reserved
 * one after the other; when a later one refuses, the earlier ones are given back. Between the two steps
 * another request may see the earlier window fuller than it ends up: the race can only refuse a search
 * that would have fitted, never admit one that does not.
 *
 * Exact when slow. A write whose answer does not come in time may still land. So each reservation carries
 * a random token, added to the window's item in the same atomic step (a string set per minute, `s0`…`sf`),
 * and the write is conditional on the token not being there yet: sending it again is harmless, it lands
 * at most once. A reservation whose outcome is unknown is sent once more; if the second answer is "condition
 * failed", a probe (`contains(s…, token)`) tells a landed reservation from a full window. When the caller
 * does not search after all, the reservation is cancelled by token: given back only if it landed, and the
 * token marked cancelled (`c0`…`cf`) so that a copy still on its way can no longer land. A give-back that
 * cannot be made at once is kept and retried by the container's next counter calls for
 * SETTLE_HORIZON_MS. Tokens older than 8 minutes are removed by the writes that come after them, so an
 * item holds at most 8 minutes of tokens (about 13 bytes each).
 *
 * Reads for `/v1/usage` are `UpdateItem ADD used 0` returning the whole new item, so the functions' role
 * needs no other action on the table than `UpdateItem`; an answer without `used` is an error, never 0.
 */
import { randomBytes } from 'node:crypto';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type BudgetWindow, expiresAtSeconds } from './windows.js';

export type Reservation = { ok: true } | { ok: false; refused: BudgetWindow };

/** A reservation whose outcome is unknown (the counter did not answer): settled later, by token. */
export interface PendingReservation {
  token: string;
  n: number;
  /** Every window of the request. */
  windows: readonly BudgetWindow[];
  /** The windows that may hold the reservation (reserved, or tried without an answer). */
  tried: readonly BudgetWindow[];
  /** Epoch ms of the token. */
  createdAt: number;
}

export interface Counter {
  /** Adds `n` to every window if each stays within its limit; otherwise adds nothing and names the window that refused. */
  reserve(windows: readonly BudgetWindow[], n: number): Promise<Reservation>;
  /** Each window's count (0 for one not used yet), in order. */
  read(windows: readonly BudgetWindow[]): Promise<number[]>;
  /**
   * Settles a reservation that failed with CounterUnavailable: `searched` counts it once in every window
   * (the search went ahead), otherwise it is given back wherever it landed. What cannot be written now is
   * retried by later calls; the promise never rejects.
   */
  settle(pending: PendingReservation, searched: boolean): Promise<void>;
  /** Retries the settlements still owed (each later call starts this without waiting for it). */
  flush(): Promise<void>;
}

/** The counter could not be reached in time: the caller decides between failing open and refusing. */
export class CounterUnavailable extends Error {
  override name = 'CounterUnavailable';
  /** Set by reserve(): what may have been reserved, for settle(). */
  pending?: PendingReservation;
}

export function createMemoryCounter(now: () => number = Date.now): Counter {
  const counts = new Map<string, { used: number; endsAt: number }>();
  const current = (window: BudgetWindow) => {
    const entry = counts.get(window.key);
    return entry && entry.endsAt > now() ? entry.used : 0;
  };
  return {
    async reserve(windows, n) {
      // Synchronous from the check to the increment: no other request of this process can come between.
      const refused = windows.find((window) => current(window) + n > window.limit);
      if (refused) return { ok: false, refused };
      for (const window of windows) {
        counts.set(window.key, { used: current(window) + n, endsAt: window.endsAt });
        // Old windows are dropped as new ones start: the map holds a handful of keys per client.
        if (counts.size > 10_000) for (const [key, entry] of counts) if (entry.endsAt <= now()) counts.delete(key);
      }
      return { ok: true };
    },
    async read(windows) {
      return windows.map(current);
    },
    // Memory always answers: nothing is ever pending.
    async settle() {},
    async flush() {},
  };
}

export interface DynamoCounterOptions {
  tableName: string;
  /** Each call's budget; a slower one is sent once more, then rejects with CounterUnavailable. */
  timeoutMs: number;
  /** The SDK client (created and connected at cold start, lib/budget/budget.ts). */
  client: () => Promise<{ client: DynamoDBClient; commands: typeof import('@aws-sdk/client-dynamodb') }>;
  now?: () => number;
  /** Called when a settlement is abandoned (older than SETTLE_HORIZON_MS). */
  onAbandoned?: (pending: PendingReservation) => void;
}

/** Tokens are kept in 16 one-minute sets; each write removes the set 8 minutes ahead (8 minutes old). */
const TOKEN_SETS = 16;
const TOKEN_MINUTES_KEPT = 8;
/** A settlement owed longer than this is dropped: its token may have been removed (the count stays high). */
export const SETTLE_HORIZON_MS = 6 * 60_000;

export function newToken(): string {
  return randomBytes(9).toString('base64url');
}

function tokenSets(createdAt: number) {
  const minute = Math.floor(createdAt / 60_000);
  const set = (minute % TOKEN_SETS).toString(16);
  const old = ((minute + TOKEN_SETS - TOKEN_MINUTES_KEPT) % TOKEN_SETS).toString(16);
  return { '#s': `s${set}`, '#c': `c${set}`, '#os': `s${old}`, '#oc': `c${old}` };
}

type Outcome = 'done' | 'condition-failed';

export function createDynamoCounter(options: DynamoCounterOptions): Counter {
  const now = options.now ?? Date.now;
  const owed: { pending: PendingReservation; searched: boolean }[] = [];

  /** One UpdateItem within the time budget: 'condition-failed', the new item, or CounterUnavailable. */
  async function send(
    window: BudgetWindow,
    input: {
      update: string;
      condition?: string;
      names?: Record<string, string>;
      values: Record<string, AttributeValue>;
      returnAll?: boolean;
    },
  ): Promise<{ outcome: Outcome; item?: Record<string, AttributeValue> }> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new CounterUnavailable(`no answer within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
    });
    try {
      const { client, commands } = await Promise.race([options.client(), timeout]);
      const answer = await Promise.race([
        client.send(
          new commands.UpdateItemCommand({
            TableName: options.tableName,
            Key: { pk: { S: window.key } },
            UpdateExpression: input.update,
            ...(input.condition ? { ConditionExpression: input.condition } : {}),
            ...(input.names ? { ExpressionAttributeNames: input.names } : {}),
            ExpressionAttributeValues: input.values,
            ReturnValues: input.returnAll ? 'ALL_NEW' : 'NONE',
          }),
          { abortSignal: controller.signal },
        ),
        timeout,
      ]);
      return { outcome: 'done', item: answer.Attributes };
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return { outcome: 'condition-failed' };
      if (error instanceof CounterUnavailable) throw error;
      throw new CounterUnavailable(`${(error as Error).name}: ${(error as Error).message}`.slice(0, 300), { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends once more when the first attempt had no answer (every call here is idempotent). */
  async function sendTwice(
    ...args: Parameters<typeof send>
  ): Promise<{ outcome: Outcome; retried: boolean; item?: Record<string, AttributeValue> }> {
    try {
      return { ...(await send(...args)), retried: false };
    } catch (error) {
      if (!(error instanceof CounterUnavailable)) throw error;
      return { ...(await send(...args)), retried: true };
    }
  }

  const exp = (window: BudgetWindow) => ({ N: String(expiresAtSeconds(window)) });
  const tok = (token: string) => ({ SS: [token] });

  /** Adds n under the token unless the token is there (or cancelled); `limited`: also within the limit. */
  async function add(window: BudgetWindow, n: number, token: string, createdAt: number, limited: boolean) {
    return sendTwice(window, {
      update: 'ADD used :n, #s :tok SET expires_at = if_not_exists(expires_at, :exp) REMOVE #os, #oc',
      condition: `NOT contains(#s, :t) AND NOT contains(#c, :t)${limited ? ' AND (attribute_not_exists(used) OR used <= :room)' : ''}`,
      names: tokenSets(createdAt),
      values: {
        ':n': { N: String(n) },
        ':tok': tok(token),
        ':t': { S: token },
        ':exp': exp(window),
        ...(limited ? { ':room': { N: String(window.limit - n) } } : {}),
      },
    });
  }

  /** Whether the token's reservation is in the window (counted, not cancelled). */
  async function holds(window: BudgetWindow, token: string, createdAt: number): Promise<boolean> {
    const { '#s': s } = tokenSets(createdAt);
    const probe = await sendTwice(window, {
      update: 'SET expires_at = if_not_exists(expires_at, :exp)',
      condition: 'contains(#s, :t)',
      names: { '#s': s },
      values: { ':exp': exp(window), ':t': { S: token } },
    });
    return probe.outcome === 'done';
  }

  /** Reserves in one window: true when it holds the reservation, false when the window is full. */
  async function reserveOne(window: BudgetWindow, n: number, token: string, createdAt: number): Promise<boolean> {
    const attempt = await add(window, n, token, createdAt, true);
    if (attempt.outcome === 'done') return true;
    // Refused on the first attempt: the token is new, so the window is full. Refused on the second: the
    // first may have landed after all.
    return attempt.retried ? holds(window, token, createdAt) : false;
  }

  /** Gives the token's reservation back where it landed, and makes sure a late copy can never land. */
  async function cancel(window: BudgetWindow, n: number, token: string, createdAt: number): Promise<void> {
    const { '#s': s, '#c': c } = tokenSets(createdAt);
    const names = { '#s': s, '#c': c };
    for (let i = 0; i < 3; i++) {
      const back = await sendTwice(window, {
        update: 'ADD used :neg, #c :tok DELETE #s :tok',
        condition: 'contains(#s, :t)',
        names,
        values: { ':neg': { N: String(-n) }, ':tok': tok(token), ':t': { S: token } },
      });
      if (back.outcome === 'done') return;
      const barred = await sendTwice(window, {
        // `used` too: every item has its count, so that none is ever read as a missing one.
        update: 'ADD used :zero, #c :tok SET expires_at = if_not_exists(expires_at, :exp)',
        condition: 'NOT contains(#s, :t)',
        names,
        values: { ':zero': { N: '0' }, ':tok': tok(token), ':t': { S: token }, ':exp': exp(window) },
      });
      if (barred.outcome === 'done') return;
      // The reservation landed between the two: give it back.
    }
    throw new CounterUnavailable('the reservation could not be given back');
  }

  async function settleNow(pending: PendingReservation, searched: boolean): Promise<void> {
    const { token, n, createdAt } = pending;
    if (searched) {
      // Counted once in every window, limit or not: the search was made.
      for (const window of pending.windows) await add(window, n, token, createdAt, false);
    } else {
      for (const window of pending.tried) await cancel(window, n, token, createdAt);
    }
  }

  async function settle(pending: PendingReservation, searched: boolean): Promise<void> {
    try {
      await settleNow(pending, searched);
    } catch (error) {
      if (!(error instanceof CounterUnavailable)) throw error;
      owed.push({ pending, searched });
    }
  }

  let flushing: Promise<void> | undefined;
  function flush(): Promise<void> {
    flushing ??= (async () => {
      try {
        for (const entry of owed.splice(0)) {
          if (now() - entry.pending.createdAt > SETTLE_HORIZON_MS) {
            options.onAbandoned?.(entry.pending);
            continue;
          }
          await settle(entry.pending, entry.searched);
        }
      } finally {
        flushing = undefined;
      }
    })();
    return flushing;
  }

  return {
    async reserve(windows, n) {
      if (owed.length > 0) void flush().catch(() => undefined);
      const token = newToken();
      const createdAt = now();
      const taken: BudgetWindow[] = [];
      for (const window of windows) {
        let granted: boolean;
        try {
          // A limit below the request cannot be met, whatever the count: no call needed.
          granted = window.limit >= n && (await reserveOne(window, n, token, createdAt));
        } catch (error) {
          if (!(error instanceof CounterUnavailable)) throw error;
          error.pending = { token, n, windows, tried: [...taken, window], createdAt };
          throw error;
        }
        if (!granted) {
          // Given back by token, exactly, so that the refused request costs nothing; what cannot be given
          // back now is given back by a later call.
          await settle({ token, n, windows, tried: taken, createdAt }, false);
          return { ok: false, refused: window };
        }
        taken.push(window);
      }
      return { ok: true };
    },
    read: (windows) =>
      Promise.all(
        windows.map(async (window) => {
          const { item } = await sendTwice(window, {
            update: 'ADD used :zero SET expires_at = if_not_exists(expires_at, :exp)',
            values: { ':zero': { N: '0' }, ':exp': exp(window) },
            returnAll: true,
          });
          // The item exists after ADD: an answer without `used` is not a zero.
          const used = Number(item?.used?.N);
          if (!Number.isFinite(used)) throw new CounterUnavailable('the counter answered without a count');
          return used;
        }),
      ),
    settle,
    flush,
  };
}
