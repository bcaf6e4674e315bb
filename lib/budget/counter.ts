/**
 * The budget's counter: one number per window (lib/budget/windows.ts), raised only while it stays within
 * the window's limit. Two implementations with one behaviour: DynamoDB (shared by every function and
 * container of a deployment) and memory (one process: the local server, and the backstop while the table
 * cannot be reached).
 *
 * DynamoDB: one `UpdateItem` per window, `ADD used :n` under the condition `used <= limit - n`, so the
 * check and the increment are one atomic step on the server: however many containers race, a window's
 * count never passes its limit. A request's windows (its client's day, the hour, the month) are reserved
 * one after the other; when a later one refuses, the earlier ones are given back (`ADD used -n`, no
 * condition). Between the two steps another request may see the earlier window fuller than it ends up:
 * the race can only refuse a search that would have fitted, never admit one that does not. Reads for
 * `/v1/usage` are `UpdateItem ADD used 0` with the new values returned, so the functions' role needs no
 * other action on the table than `UpdateItem`.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type BudgetWindow, expiresAtSeconds } from './windows.js';

export type Reservation = { ok: true } | { ok: false; refused: BudgetWindow };

export interface Counter {
  /** Adds `n` to every window if each stays within its limit; otherwise adds nothing and names the window that refused. */
  reserve(windows: readonly BudgetWindow[], n: number): Promise<Reservation>;
  /** Each window's count (0 for one not used yet), in order. */
  read(windows: readonly BudgetWindow[]): Promise<number[]>;
}

/** The counter could not be reached in time: the caller decides between failing open and refusing. */
export class CounterUnavailable extends Error {
  override name = 'CounterUnavailable';
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
  };
}

export interface DynamoCounterOptions {
  tableName: string;
  /** Each call's budget; a slower one rejects with CounterUnavailable. */
  timeoutMs: number;
  /** The SDK client (created and connected at cold start, lib/budget/budget.ts). */
  client: () => Promise<{ client: DynamoDBClient; commands: typeof import('@aws-sdk/client-dynamodb') }>;
}

export function createDynamoCounter(options: DynamoCounterOptions): Counter {
  async function update(window: BudgetWindow, n: number, conditional: boolean): Promise<number | undefined> {
    const { client, commands } = await options.client();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new CounterUnavailable(`no answer within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
    });
    try {
      const answer = await Promise.race([
        client.send(
          new commands.UpdateItemCommand({
            TableName: options.tableName,
            Key: { pk: { S: window.key } },
            UpdateExpression: 'ADD used :n SET expires_at = if_not_exists(expires_at, :exp)',
            ...(conditional
              ? {
                  ConditionExpression: 'attribute_not_exists(used) OR used <= :room',
                  ExpressionAttributeValues: {
                    ':n': { N: String(n) },
                    ':exp': { N: String(expiresAtSeconds(window)) },
                    ':room': { N: String(window.limit - n) },
                  },
                }
              : {
                  ExpressionAttributeValues: { ':n': { N: String(n) }, ':exp': { N: String(expiresAtSeconds(window)) } },
                }),
            ReturnValues: 'UPDATED_NEW',
          }),
          { abortSignal: controller.signal },
        ),
        timeout,
      ]);
      return Number(answer.Attributes?.used?.N ?? 0);
    } catch (error) {
      if (conditional && (error as Error).name === 'ConditionalCheckFailedException') return undefined;
      if (error instanceof CounterUnavailable) throw error;
      throw new CounterUnavailable(`${(error as Error).name}: ${(error as Error).message}`.slice(0, 300), { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async reserve(windows, n) {
      const taken: BudgetWindow[] = [];
      for (const window of windows) {
        // A limit below the request cannot be met, whatever the count: no call needed.
        const granted = window.limit >= n ? await update(window, n, true) : undefined;
        if (granted === undefined) {
          // Given back so that the refused request costs nothing; if a give-back fails, the window is
          // merely counted fuller than it is (it refuses early, never late).
          await Promise.all(taken.map((w) => update(w, -n, false).catch(() => undefined)));
          return { ok: false, refused: window };
        }
        taken.push(window);
      }
      return { ok: true };
    },
    read: (windows) => Promise.all(windows.map(async (window) => (await update(window, 0, false)) ?? 0)),
  };
}
