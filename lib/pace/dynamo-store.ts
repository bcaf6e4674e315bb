/**
 * The pace's DynamoDB store: one item per upstream (`pk` the pace's key, "crossref"), read by every container
 * of the deployment, so that together they keep the upstream's published rate. A change is a consistent
 * `GetItem`, the change function (rules.ts), and a `PutItem` conditional on the version read (`v`): when
 * another container wrote in between, the item is read again and the change computed again, so no two
 * containers are ever given the same room. A container asks for the starts of all its waiting calls in one
 * change (pace.ts), so a page's lookups cost one round trip, not one each.
 *
 * The item: `starts` (the first start, then each start's distance from the one before, comma-separated:
 * starts are in order), `stated_limit` and `stated_ms` (the pace the upstream stated), `paused_until`,
 * `held` (the calls in flight under a concurrency limit, `id:start:until` comma-separated) and
 * `stated_in_flight` (the limit the upstream stated), `v`, and `expires_at` a day after its last start or
 * pause (DynamoDB's TTL: an idle upstream leaves no item).
 */
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { connectionDropped } from '../dynamo-client.js';
import type { PaceState } from './rules.js';
import { type PaceChange, type PaceStore, PaceStoreUnavailable } from './store.js';

type Sdk = typeof import('@aws-sdk/client-dynamodb');

export interface DynamoPaceStoreOptions {
  tableName: string;
  /** The SDK client, made once per container. */
  client: () => Promise<{ client: DynamoDBClient; commands: Sdk }>;
  /** One call's time (PACE_TIMEOUT_MS); a slower answer makes the change fail (the caller falls back). */
  timeoutMs: number;
  /** Changes tried before a contended item is given up on. */
  attempts?: number;
}

/** The item's key and TTL attributes: the names infra/pace.ts gives the table. */
export const PACE_ITEM_KEYS = { partitionKey: 'pk', timeToLive: 'expires_at' } as const;

const DAY_SECONDS = 86_400;

/** The state an item holds, and its version; an absent item is the empty state, version 0. */
export function fromPaceItem(item: Record<string, AttributeValue> | undefined): { state: PaceState; version: number } {
  if (!item) return { state: { starts: [], pausedUntil: 0 }, version: 0 };
  const starts: number[] = [];
  for (const part of (item.starts?.S ?? '').split(',').filter(Boolean)) {
    starts.push((starts.at(-1) ?? 0) + Number(part));
  }
  const limit = Number(item.stated_limit?.N);
  const ms = Number(item.stated_ms?.N);
  const inFlight = Number(item.stated_in_flight?.N);
  const held = (item.held?.S ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const parts = entry.split(':');
      const until = Number(parts.pop());
      const start = Number(parts.pop());
      return { id: parts.join(':'), start, until };
    })
    .filter((hold) => hold.id && Number.isFinite(hold.start) && Number.isFinite(hold.until));
  return {
    state: {
      starts: starts.filter(Number.isFinite),
      ...(held.length > 0 ? { held } : {}),
      ...(inFlight > 0 ? { statedInFlight: inFlight } : {}),
      pausedUntil: Number(item.paused_until?.N ?? 0) || 0,
      ...(Number(item.retry_after_until?.N) > 0 ? { retryAfterUntil: Number(item.retry_after_until?.N) } : {}),
      ...(limit > 0 && ms > 0 ? { stated: { limit, ms } } : {}),
    },
    version: Number(item.v?.N ?? 0) || 0,
  };
}

/** The item that holds a state, at a version. */
export function toPaceItem(key: string, state: PaceState, version: number): Record<string, AttributeValue> {
  const deltas = state.starts.map((start, i) => String(Math.round(i === 0 ? start : start - (state.starts[i - 1] as number))));
  const latest = Math.max(state.starts.at(-1) ?? 0, state.pausedUntil);
  return {
    [PACE_ITEM_KEYS.partitionKey]: { S: key },
    v: { N: String(version) },
    starts: { S: deltas.join(',') },
    paused_until: { N: String(Math.round(state.pausedUntil)) },
    ...(state.retryAfterUntil ? { retry_after_until: { N: String(Math.round(state.retryAfterUntil)) } } : {}),
    ...(state.stated ? { stated_limit: { N: String(state.stated.limit) }, stated_ms: { N: String(state.stated.ms) } } : {}),
    ...(state.held?.length
      ? { held: { S: state.held.map((hold) => `${hold.id}:${Math.round(hold.start)}:${Math.round(hold.until)}`).join(',') } }
      : {}),
    ...(state.statedInFlight ? { stated_in_flight: { N: String(state.statedInFlight) } } : {}),
    [PACE_ITEM_KEYS.timeToLive]: { N: String(Math.ceil(latest / 1000) + DAY_SECONDS) },
  };
}

export function createDynamoPaceStore(options: DynamoPaceStoreOptions): PaceStore {
  const attempts = options.attempts ?? 8;

  /**
   * One SDK call within the time budget; rejects with PaceStoreUnavailable, or the SDK's
   * ConditionalCheckFailedException. A connection dropped before any answer is tried once more within the
   * same time (the client keeps one attempt a call). Sent again, a write that did land meets its own version
   * and the change is computed again over the state holding it, its turns then taken later: a second sending
   * can only slow the pace, never give the same room twice.
   */
  async function send<T>(call: (sdk: { client: DynamoDBClient; commands: Sdk }, signal: AbortSignal) => Promise<T>): Promise<T> {
    let handle: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      handle = setTimeout(() => reject(new PaceStoreUnavailable(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    });
    try {
      const sdk = await Promise.race([options.client(), timeout]);
      const signal = AbortSignal.timeout(options.timeoutMs);
      try {
        return await Promise.race([call(sdk, signal), timeout]);
      } catch (error) {
        if (!connectionDropped(error)) throw error;
        return await Promise.race([call(sdk, signal), timeout]);
      }
    } catch (error) {
      if (error instanceof PaceStoreUnavailable || (error as Error).name === 'ConditionalCheckFailedException') throw error;
      throw new PaceStoreUnavailable(`${(error as Error).name}: ${(error as Error).message}`.slice(0, 300), { cause: error });
    } finally {
      clearTimeout(handle);
    }
  }

  return {
    async update<T>(key: string, change: PaceChange<T>): Promise<T> {
      for (let attempt = 0; attempt < attempts; attempt++) {
        const read = await send(({ client, commands }, abortSignal) =>
          client.send(
            new commands.GetItemCommand({
              TableName: options.tableName,
              Key: { [PACE_ITEM_KEYS.partitionKey]: { S: key } },
              ConsistentRead: true,
            }),
            { abortSignal },
          ),
        );
        const { state, version } = fromPaceItem(read.Item);
        const { next, result } = change(state);
        if (!next) return result;
        try {
          await send(({ client, commands }, abortSignal) =>
            client.send(
              new commands.PutItemCommand({
                TableName: options.tableName,
                Item: toPaceItem(key, next, version + 1),
                // Written only over the version read: another container's change in between means a new read.
                ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'v = :v',
                ...(version === 0 ? {} : { ExpressionAttributeValues: { ':v': { N: String(version) } } }),
              }),
              { abortSignal },
            ),
          );
          return result;
        } catch (error) {
          if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        }
      }
      throw new PaceStoreUnavailable(`the pace's item stayed contended for ${attempts} attempts`);
    },
  };
}
