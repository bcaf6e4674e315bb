/**
 * The shared cache's table: one DynamoDB item per cached value, `pk` the key, `v` the value as gzipped
 * JSON, `expires_at` (epoch seconds) for DynamoDB's TTL. Every container of every function sees it, so a
 * paper's citations are paid for once per deployment rather than once per warm container.
 *
 * A cache must never make a request worse than no cache: every read and write here has a small time
 * budget, never throws, and after a few failures in a row the table is left alone for a cooldown, so an
 * outage costs a request nothing but a log line and a metric. The SDK is imported on first use, as in
 * secrets.ts: the Lambda runtime provides it, and a local run without a table never loads it.
 */

import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../config.js';
import { connectionDropped } from '../dynamo-client.js';
import { logger } from '../logger.js';
import type { CacheActivity } from '../request-state.js';

/** DynamoDB's item size limit; a larger value is simply not stored. */
export const ITEM_LIMIT_BYTES = 400 * 1024;
// Attribute names and the number's digits, counted generously.
const ITEM_OVERHEAD_BYTES = 64;
// BatchGetItem takes at most 100 keys per call and BatchWriteItem 25 items.
const READ_BATCH = 100;
const WRITE_BATCH = 25;
// Failures in a row after which the table is given a rest.
const FAILURES_BEFORE_COOLDOWN = 3;

export interface TableEntry {
  key: string;
  value: unknown;
  ttlSeconds: number;
}

/** Whose request a table call serves: its counters and its request id for log lines. */
export interface TableContext {
  activity: CacheActivity;
  requestId?: string;
}

/** A value found in the table, with the moment its item expires (epoch ms), so a copy lives no longer. */
export interface StoredValue {
  value: unknown;
  expiresAtMs: number;
}

export interface CacheTable {
  /** The live values found for these keys; a slow or failing table finds none. Never throws. */
  getMany(keys: readonly string[], context: TableContext): Promise<Map<string, StoredValue>>;
  /** Stores the entries that fit in an item. Never throws; settles within the write budget. */
  putMany(entries: readonly TableEntry[], context: TableContext): Promise<void>;
  /**
   * Makes the SDK client and opens its first connection (credentials, TLS) with one small read, at cold
   * start: a fresh container's first read would otherwise spend its 150 ms on set-up and miss. Never throws.
   */
  prepare?(): Promise<void>;
  /**
   * Marks the key as being loaded by this container until `untilMs` (an item without a value at the key,
   * written only where no live item is): `claimed` when this container is the one to load it, `taken` when
   * another is loading it, `unavailable` when the table did not answer. Never throws.
   */
  claim?(
    key: string,
    untilMs: number,
    context: TableContext,
  ): Promise<{ outcome: 'claimed'; owner: string } | { outcome: 'taken' | 'unavailable' }>;
  /** Gives a claim up (the load failed or gave nothing worth storing), so that those waiting stop. Never throws. */
  release?(key: string, owner: string, context: TableContext): Promise<void>;
  /**
   * Waits for another container's load of the key, reading its item every `pollMs`: `stored` with the value
   * once stored, `released` once the claim is given up or has expired (there is nothing to share), else
   * `unanswered` (`untilMs` passed, or the table failed, while the claim was still live). Each read may take
   * what is left of the wait, never the read budget alone: a slow table still answers a wait. Never throws.
   */
  waitFor?(key: string, untilMs: number, context: TableContext): Promise<WaitOutcome>;
}

/** How a wait for another container's load ended (CacheTable.waitFor). */
export type WaitOutcome = { outcome: 'stored'; stored: StoredValue } | { outcome: 'released' } | { outcome: 'unanswered' };

export interface CacheTableOptions {
  tableName: string;
  readTimeoutMs: number;
  writeTimeoutMs: number;
  cooldownMs: number;
  /** Start loading the SDK now (at cold start, where Lambda gives the most CPU) rather than on the first read. */
  preload?: boolean;
  /** The longest `prepare()` waits for the first connection (TABLE_PREPARE_TIMEOUT_MS). */
  prepareTimeoutMs?: number;
  /** How often `waitFor` reads the item of a key another container is loading (CACHE_WAIT_POLL_MS). */
  pollMs?: number;
  /**
   * Put before every key this table reads or writes (CACHE_KEY_PREFIX: the route's own, the only keys its
   * role may write); callers never see it. Default: none.
   */
  keyPrefix?: string;
  now?: () => number;
}

type Sdk = typeof import('@aws-sdk/client-dynamodb');

class TableTimeout extends Error {
  override name = 'TableTimeout';
}

/** Encodes one entry as an item, or undefined when it would exceed the item limit. */
export function toItem(entry: TableEntry, nowMs: number) {
  const packed = gzipSync(JSON.stringify(entry.value));
  if (Buffer.byteLength(entry.key) + packed.length + ITEM_OVERHEAD_BYTES > ITEM_LIMIT_BYTES) return undefined;
  return {
    pk: { S: entry.key },
    v: { B: packed },
    expires_at: { N: String(Math.ceil(nowMs / 1000) + entry.ttlSeconds) },
  };
}

/** The value an item holds, or undefined when it has expired (DynamoDB deletes expired items only eventually). */
export function fromItem(item: Record<string, { S?: string; B?: Uint8Array; N?: string }>, nowMs: number): unknown {
  const expiresAt = Number(item.expires_at?.N);
  if (!Number.isFinite(expiresAt) || expiresAt * 1000 <= nowMs || !item.v?.B) return undefined;
  return JSON.parse(gunzipSync(item.v.B).toString('utf8'));
}

export function createCacheTable(options: CacheTableOptions): CacheTable {
  const now = options.now ?? Date.now;
  const prefix = options.keyPrefix ?? '';
  // Every key this table sends, read or written, claims included: the role may touch no other (IAM's
  // dynamodb:LeadingKeys; infra/api-function.ts, cacheKeyCondition).
  const prefixed = (key: string) => `${prefix}${key}`;
  let sdk: Promise<{ client: DynamoDBClient; commands: Sdk }> | undefined;
  let failuresInARow = 0;
  let restingUntil = 0;

  const connect = () => {
    sdk ??= import('@aws-sdk/client-dynamodb')
      .then((commands) => ({
        commands,
        // One attempt: a retry would not fit in the budget, and a miss costs only an upstream call. Each
        // call's own budget aborts it (attempt). No requestTimeout: the SDK's only warns (or, told to throw,
        // would cut a wait's read, which may take longer than any one lookup).
        client: new commands.DynamoDBClient({
          maxAttempts: 1,
          requestHandler: { connectionTimeout: Math.max(options.readTimeoutMs, options.writeTimeoutMs) },
        }),
      }))
      .catch((error: unknown) => {
        sdk = undefined;
        throw error;
      });
    return sdk;
  };
  // A failed preload is retried by the first read, which then reports it.
  if (options.preload) connect().catch(() => undefined);

  /**
   * Runs one table call within its budget; undefined when it failed, timed out or the table is resting. A
   * call of the one-call-per-question path (`duringRest`: a claim, its release, a wait's reads) is made even
   * while the table rests: a rest started by slow lookups must not cost a second paid search, and such a
   * call is made only on a miss, by a request about to pay for one (docs/decisions.md §18).
   */
  async function attempt<T>(
    operation: string,
    budgetMs: number,
    context: TableContext,
    call: (sdk: { client: DynamoDBClient; commands: Sdk }, signal: AbortSignal) => Promise<T>,
    { duringRest = false, readOnly = false } = {},
  ): Promise<T | undefined> {
    if (!duringRest && now() < restingUntil) {
      context.activity.tableErrors += 1;
      return undefined;
    }
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    try {
      // Loading the SDK is a one-off per container and not the table's slowness: outside the budget.
      const loaded = await connect();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new TableTimeout(`no answer within ${budgetMs} ms`));
        }, budgetMs);
      });
      const send = () => Promise.race([call(loaded, controller.signal), timeout]);
      let result: T;
      try {
        result = await send();
      } catch (error) {
        // A read whose connection closed before any answer is sent again within its budget: a miss would pay
        // the upstream. A write is not (a claim that landed would then be refused as another's).
        if (!readOnly || !connectionDropped(error)) throw error;
        result = await send();
      }
      // A table that answers is back: the rest, if any, ends.
      failuresInARow = 0;
      restingUntil = 0;
      return result;
    } catch (error) {
      context.activity.tableErrors += 1;
      failuresInARow += 1;
      const resting = failuresInARow >= FAILURES_BEFORE_COOLDOWN && options.cooldownMs > 0;
      if (resting) {
        restingUntil = now() + options.cooldownMs;
        // One more failure after the rest starts the next rest at once.
        failuresInARow = FAILURES_BEFORE_COOLDOWN - 1;
      }
      const { name, message } = error instanceof Error ? error : { name: typeof error, message: '' };
      logger.warn('cache table unavailable; answering from the upstream', {
        requestId: context.requestId,
        operation,
        error: `${name}: ${message}`.slice(0, 300),
        ...(resting ? { restingMs: options.cooldownMs } : {}),
      });
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The item at the key, read once within `budgetMs`: undefined when the table did not answer. */
  const readItem = (key: string, budgetMs: number, context: TableContext) =>
    attempt(
      'wait',
      budgetMs,
      context,
      async ({ client, commands }, abortSignal) => {
        const answer = await client.send(
          new commands.GetItemCommand({ TableName: options.tableName, Key: { pk: { S: prefixed(key) } }, ConsistentRead: true }),
          { abortSignal },
        );
        return answer.Item ?? {};
      },
      { duringRest: true, readOnly: true },
    );

  /**
   * One conditional PutItem of the one-call-per-question path (made while the table rests, like the reads of
   * a wait): true when written, false when its condition failed, undefined when the table did not answer.
   */
  const conditionalPut = (
    operation: string,
    context: TableContext,
    input: { Item: Record<string, { S: string } | { N: string }> } & Record<string, unknown>,
  ) =>
    attempt(
      operation,
      options.writeTimeoutMs,
      context,
      async ({ client, commands }, abortSignal) => {
        try {
          await client.send(new commands.PutItemCommand({ TableName: options.tableName, ...input }), { abortSignal });
          return true;
        } catch (error) {
          if ((error as Error).name === 'ConditionalCheckFailedException') return false;
          throw error;
        }
      },
      { duringRest: true },
    );

  return {
    async claim(key, untilMs, context) {
      const owner = randomBytes(9).toString('base64url');
      const claimed = await conditionalPut('claim', context, {
        Item: {
          pk: { S: prefixed(key) },
          owner: { S: owner },
          loading_until: { N: String(untilMs) },
          expires_at: { N: String(Math.ceil(untilMs / 1000)) },
        },
        // Only where nothing live is: no value and no other container's claim.
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
        ExpressionAttributeValues: { ':now': { N: String(Math.floor(now() / 1000)) } },
      });
      if (claimed === undefined) return { outcome: 'unavailable' };
      return claimed ? { outcome: 'claimed', owner } : { outcome: 'taken' };
    },

    async release(key, owner, context) {
      // A failed condition means someone stored the value over the claim already: nothing to give up.
      await conditionalPut('release', context, {
        // Expired at once: readers find nothing, the next claim takes the key.
        Item: { pk: { S: prefixed(key) }, expires_at: { N: '0' } },
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': { S: owner } },
      });
    },

    async waitFor(key, untilMs, context) {
      const pollMs = options.pollMs ?? 100;
      while (now() < untilMs) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, untilMs - now()))));
        // What is left of the wait, not the read budget: the claim says an answer is coming, and a read
        // cut at 150 ms on a table answering in 200 would pay for the question again (§18).
        const item = await readItem(key, Math.max(1, untilMs - now()), context);
        if (item === undefined) return { outcome: 'unanswered' };
        try {
          const value = fromItem(item as Parameters<typeof fromItem>[0], now());
          if (value !== undefined)
            return { outcome: 'stored', stored: { value, expiresAtMs: Number(item.expires_at?.N) * 1000 } };
        } catch {
          return { outcome: 'unanswered' };
        }
        // No value, and no live claim: the loader gave up; the waiter loads itself.
        if (!(Number(item.loading_until?.N) > now())) return { outcome: 'released' };
      }
      return { outcome: 'unanswered' };
    },

    async prepare() {
      try {
        const { client, commands } = await connect();
        await client.send(
          new commands.GetItemCommand({ TableName: options.tableName, Key: { pk: { S: prefixed('prepare#connection') } } }),
          {
            abortSignal: AbortSignal.timeout(options.prepareTimeoutMs ?? 2_000),
          },
        );
      } catch (error) {
        // The first request's read tries again and reports it.
        logger.info('cache table not reached at start', { error: (error as Error).name });
      }
    },

    async getMany(keys, context) {
      const found = new Map<string, StoredValue>();
      const unique = [...new Set(keys)];
      if (unique.length === 0) return found;
      const batches: string[][] = [];
      for (let i = 0; i < unique.length; i += READ_BATCH) batches.push(unique.slice(i, i + READ_BATCH));
      await Promise.all(
        batches.map(async (batch) => {
          const items = await attempt(
            'read',
            options.readTimeoutMs,
            context,
            async ({ client, commands }, abortSignal) => {
              if (batch.length === 1) {
                const answer = await client.send(
                  new commands.GetItemCommand({ TableName: options.tableName, Key: { pk: { S: prefixed(batch[0] as string) } } }),
                  { abortSignal },
                );
                return { items: answer.Item ? [answer.Item] : [], unprocessed: 0 };
              }
              const answer = await client.send(
                new commands.BatchGetItemCommand({
                  RequestItems: { [options.tableName]: { Keys: batch.map((key) => ({ pk: { S: prefixed(key) } })) } },
                }),
                { abortSignal },
              );
              return {
                items: answer.Responses?.[options.tableName] ?? [],
                unprocessed: answer.UnprocessedKeys?.[options.tableName]?.Keys?.length ?? 0,
              };
            },
            { readOnly: true },
          );
          // Keys the table left unprocessed (throttling) are misses: retrying would not fit in the budget.
          if (items?.unprocessed) context.activity.tableErrors += 1;
          for (const item of items?.items ?? []) {
            try {
              const value = fromItem(item as Parameters<typeof fromItem>[0], now());
              // fromItem has checked expires_at: a value it returns has a finite one.
              const expiresAtMs = Number(item.expires_at?.N) * 1000;
              if (value !== undefined && item.pk?.S?.startsWith(prefix)) {
                found.set(item.pk.S.slice(prefix.length), { value, expiresAtMs });
              }
            } catch (error) {
              logger.warn('cache item unreadable; treated as a miss', {
                requestId: context.requestId,
                key: item.pk?.S,
                error: (error as Error).message,
              });
            }
          }
        }),
      );
      return found;
    },

    async putMany(entries, context) {
      const items = new Map<string, NonNullable<ReturnType<typeof toItem>>>();
      for (const entry of entries) {
        const item = toItem({ ...entry, key: prefixed(entry.key) }, now());
        if (item) items.set(entry.key, item);
        else logger.info('cache item over the size limit; not stored', { requestId: context.requestId, key: entry.key });
      }
      const all = [...items.values()];
      const batches: (typeof all)[] = [];
      for (let i = 0; i < all.length; i += WRITE_BATCH) batches.push(all.slice(i, i + WRITE_BATCH));
      await Promise.all(
        batches.map((batch) =>
          attempt('write', options.writeTimeoutMs, context, async ({ client, commands }, abortSignal) => {
            if (batch.length === 1) {
              await client.send(new commands.PutItemCommand({ TableName: options.tableName, Item: batch[0] }), { abortSignal });
              return;
            }
            const answer = await client.send(
              new commands.BatchWriteItemCommand({
                RequestItems: { [options.tableName]: batch.map((Item) => ({ PutRequest: { Item } })) },
              }),
              { abortSignal },
            );
            // Items left unprocessed (throttling) are simply not cached this time.
            if (answer.UnprocessedItems?.[options.tableName]?.length) context.activity.tableErrors += 1;
          }),
        ),
      );
    },
  };
}

let shared: CacheTable | null | undefined;

/** The deployment's cache table, or null when CACHE_TABLE_NAME is not set (memory caches only). */
export function sharedCacheTable(): CacheTable | null {
  if (shared !== undefined) return shared;
  shared = config.CACHE_TABLE_NAME
    ? createCacheTable({
        tableName: config.CACHE_TABLE_NAME,
        readTimeoutMs: config.CACHE_READ_TIMEOUT_MS,
        writeTimeoutMs: config.CACHE_WRITE_TIMEOUT_MS,
        cooldownMs: config.CACHE_TABLE_COOLDOWN_MS,
        pollMs: config.CACHE_WAIT_POLL_MS,
        preload: true,
        prepareTimeoutMs: config.TABLE_PREPARE_TIMEOUT_MS,
        keyPrefix: config.CACHE_KEY_PREFIX,
      })
    : null;
  return shared;
}
