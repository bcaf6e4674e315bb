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

import { gunzipSync, gzipSync } from 'node:zlib';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../config.js';
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
}

export interface CacheTableOptions {
  tableName: string;
  readTimeoutMs: number;
  writeTimeoutMs: number;
  cooldownMs: number;
  /** Start loading the SDK now (at cold start, where Lambda gives the most CPU) rather than on the first read. */
  preload?: boolean;
  /** The longest `prepare()` waits for the first connection (TABLE_PREPARE_TIMEOUT_MS). */
  prepareTimeoutMs?: number;
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
  let sdk: Promise<{ client: DynamoDBClient; commands: Sdk }> | undefined;
  let failuresInARow = 0;
  let restingUntil = 0;

  const connect = () => {
    sdk ??= import('@aws-sdk/client-dynamodb')
      .then((commands) => ({
        commands,
        // One attempt: a retry would not fit in the budget, and a miss costs only an upstream call.
        client: new commands.DynamoDBClient({
          maxAttempts: 1,
          requestHandler: {
            connectionTimeout: options.readTimeoutMs,
            requestTimeout: Math.max(options.readTimeoutMs, options.writeTimeoutMs),
          },
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

  /** Runs one table call within its budget; undefined when it failed, timed out or the table is resting. */
  async function attempt<T>(
    operation: string,
    budgetMs: number,
    context: TableContext,
    call: (sdk: { client: DynamoDBClient; commands: Sdk }, signal: AbortSignal) => Promise<T>,
  ): Promise<T | undefined> {
    if (now() < restingUntil) {
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
      const result = await Promise.race([call(loaded, controller.signal), timeout]);
      failuresInARow = 0;
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

  return {
    async prepare() {
      try {
        const { client, commands } = await connect();
        await client.send(
          new commands.GetItemCommand({ TableName: options.tableName, Key: { pk: { S: `${prefix}prepare#connection` } } }),
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
          const items = await attempt('read', options.readTimeoutMs, context, async ({ client, commands }, abortSignal) => {
            if (batch.length === 1) {
              const answer = await client.send(
                new commands.GetItemCommand({ TableName: options.tableName, Key: { pk: { S: `${prefix}${batch[0]}` } } }),
                { abortSignal },
              );
              return { items: answer.Item ? [answer.Item] : [], unprocessed: 0 };
            }
            const answer = await client.send(
              new commands.BatchGetItemCommand({
                RequestItems: { [options.tableName]: { Keys: batch.map((key) => ({ pk: { S: `${prefix}${key}` } })) } },
              }),
              { abortSignal },
            );
            return {
              items: answer.Responses?.[options.tableName] ?? [],
              unprocessed: answer.UnprocessedKeys?.[options.tableName]?.Keys?.length ?? 0,
            };
          });
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
        const item = toItem({ ...entry, key: `${prefix}${entry.key}` }, now());
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
        preload: true,
        prepareTimeoutMs: config.TABLE_PREPARE_TIMEOUT_MS,
        keyPrefix: config.CACHE_KEY_PREFIX,
      })
    : null;
  return shared;
}
