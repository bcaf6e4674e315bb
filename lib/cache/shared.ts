/**
 * The two-level cache: this container's memory (memory.ts) in front, the deployment's table
 * (lib/cache/dynamo-table.ts) behind it when one is configured. A value found in the table is copied to memory
 * for the rest of its item's life at most; a value loaded from the upstream goes to both. Loads that fail, and values the caller calls empty, are
 * stored nowhere, so the next request asks again.
 *
 * Table writes start as soon as a value is loaded and run beside the rest of the request; the handler's
 * answer waits for them at the end (`settleCacheWrites`, at most the write budget), because a Lambda
 * container is frozen once it has answered and a write still in flight would be lost or land much later.
 */
import { createHash } from 'node:crypto';
import { type CacheActivity, cacheActivity, type RequestState } from '../request-state.js';
import { type CacheTable, type StoredValue, sharedCacheTable } from './dynamo-table.js';
import { type Cache, createCache } from './memory.js';

/** One request's view of the caches: whether to bypass them, and where to count what they did. */
export interface CacheScope {
  /** Skip the lookups and load afresh; what is loaded is still stored (the request's `no_cache`). */
  fresh: boolean;
  activity: CacheActivity;
  requestId?: string;
  /** Epoch ms by which the request must be over: the longest it waits for another's load of the same key. */
  deadline?: number;
}

/** Sharing one load of a key among the requests that ask for it at once (lib/cache/answer-cache.ts). */
export interface InFlightOptions {
  /**
   * Whether those who waited for a load that failed share its failure; otherwise (a failure of the loader's
   * own, such as its budget or deadline) each loads for itself. Defaults to no.
   */
  sharesFailure?: (error: unknown) => boolean;
  /**
   * How long before its own deadline a request stops waiting for another container's load and loads for
   * itself (time for one call of its own).
   */
  reserveMs?: number;
}

export interface SharedCacheOptions {
  /** Prefix of every key in the table, with a version: a change of the stored shape changes the name. */
  name: string;
  /** How long a stored value lasts, in seconds; 0 turns the cache off. */
  ttlSeconds: number;
  /** Most values kept in this container's memory; 0 keeps none there. */
  memoryMax: number;
  /** Defaults to the deployment's table (none when CACHE_TABLE_NAME is unset). */
  table?: CacheTable | null;
  /**
   * Whether this cache's hits and misses count in the request's counters, which make the X-Cache header
   * and the hit/miss metrics (defaults to yes). A cache of lookups that are not the search provider's
   * (Crossref) says no, so that its misses never turn a search the provider need not answer into `partial`.
   * Table errors and pending writes are counted and awaited either way.
   */
  countsLookups?: boolean;
  /**
   * `remember` shares one load among the requests that ask for the same key at once: in this container
   * (they wait for its promise), and across containers through a claim in the table (they wait for its
   * value there, bounded by their deadline). Off unless given. Never with `fresh`.
   */
  inFlight?: InFlightOptions;
}

export interface SharedRememberOptions<V> {
  scope?: CacheScope;
  /** Whether a loaded value is worth keeping; an empty answer is not. Defaults to yes. */
  store?: (value: V) => boolean;
  /** This value's time to live, when shorter than the cache's; 0 skips the cache altogether. */
  ttlSeconds?: number;
}

export interface SharedCache<V> {
  /** The cached value, else `load()`'s, which is then stored unless it threw or `store` says no. */
  remember(key: string, load: () => Promise<V>, options?: SharedRememberOptions<V>): Promise<V>;
  /**
   * Every item's value: memory first, then one table read for all the rest, then `loadMissing` once with
   * the items still unknown (it returns their outcomes in the same order, as `mapSettled` does). An item
   * whose key is empty is never looked up or stored. Outcomes come back in the order of `items`.
   */
  rememberMany<T>(
    items: readonly T[],
    keyOf: (item: T) => string,
    loadMissing: (items: T[]) => Promise<PromiseSettledResult<V>[]>,
    options?: SharedRememberOptions<V>,
  ): Promise<PromiseSettledResult<V>[]>;
  readonly memory: Cache<V>;
}

// DynamoDB keys may be 2048 bytes; long keys (a search's parameters) are hashed well below that.
const LONG_KEY_BYTES = 256;

/** The table key for a cache's key: the name, then the key itself, or its SHA-256 when long. */
export function tableKey(name: string, key: string): string {
  const plain = Buffer.byteLength(key) <= LONG_KEY_BYTES;
  return `${name}#${plain ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`}`;
}

function scopeOf(options: SharedRememberOptions<unknown>): CacheScope {
  return (
    options.scope ?? {
      fresh: false,
      activity: { memoryHits: 0, tableHits: 0, misses: 0, tableErrors: 0, duplicateCalls: 0, pendingWrites: [] },
    }
  );
}

export function createSharedCache<V extends NonNullable<unknown>>(options: SharedCacheOptions): SharedCache<V> {
  const table = options.table === undefined ? sharedCacheTable() : options.table;
  const memory = createCache<V>({ max: options.memoryMax, ttlMs: options.ttlSeconds * 1000 });
  const ttlOf = (given?: number) => Math.min(given ?? options.ttlSeconds, options.ttlSeconds);
  const counted = options.countsLookups ?? true;

  const hit = (scope: CacheScope, level: 'memory' | 'table') => {
    if (!counted) return;
    if (level === 'memory') scope.activity.memoryHits += 1;
    else scope.activity.tableHits += 1;
  };
  const miss = (scope: CacheScope, count: number) => {
    if (counted) scope.activity.misses += count;
  };
  // A copy of a table item lives no longer than the item: the rest of its life, or this call's TTL if shorter.
  const copyToMemory = (key: string, stored: StoredValue, ttlSeconds: number) => {
    memory.set(key, stored.value as V, Math.min(ttlSeconds * 1000, stored.expiresAtMs - Date.now()));
  };

  const keep = (scope: CacheScope, entries: { key: string; value: V }[], ttlSeconds: number) => {
    for (const { key, value } of entries) memory.set(key, value, ttlSeconds * 1000);
    if (!table || entries.length === 0) return;
    scope.activity.pendingWrites.push(
      table.putMany(
        entries.map(({ key, value }) => ({ key: tableKey(options.name, key), value, ttlSeconds })),
        { activity: scope.activity, requestId: scope.requestId },
      ),
    );
  };

  const rememberMany: SharedCache<V>['rememberMany'] = async <T>(
    items: readonly T[],
    keyOf: (item: T) => string,
    loadMissing: (items: T[]) => Promise<PromiseSettledResult<V>[]>,
    rememberOptions: SharedRememberOptions<V> = {},
  ) => {
    const ttlSeconds = ttlOf(rememberOptions.ttlSeconds);
    if (ttlSeconds <= 0) return loadMissing([...items]);
    const scope = scopeOf(rememberOptions as SharedRememberOptions<unknown>);
    const keys = items.map(keyOf);
    const known = new Array<V | undefined>(items.length);
    if (!scope.fresh) {
      keys.forEach((key, i) => {
        const remembered = key ? memory.get(key) : undefined;
        if (remembered !== undefined) {
          known[i] = remembered;
          hit(scope, 'memory');
        }
      });
      const itemKeys = keys.map((key) => (key ? tableKey(options.name, key) : ''));
      const wanted = itemKeys.filter((itemKey, i) => itemKey && known[i] === undefined);
      if (table && wanted.length > 0) {
        const found = await table.getMany(wanted, { activity: scope.activity, requestId: scope.requestId });
        keys.forEach((key, i) => {
          if (!key || known[i] !== undefined) return;
          const stored = found.get(itemKeys[i] as string);
          if (stored === undefined) return;
          known[i] = stored.value as V;
          hit(scope, 'table');
          copyToMemory(key, stored, ttlSeconds);
        });
      }
    }
    const missing = items.flatMap((_, i) => (known[i] === undefined ? [i] : []));
    miss(scope, missing.length);
    const loaded = missing.length > 0 ? await loadMissing(missing.map((i) => items[i] as T)) : [];
    const outcomes = known.map((value): PromiseSettledResult<V> | undefined =>
      value === undefined ? undefined : { status: 'fulfilled', value },
    );
    const fresh = new Map<string, V>();
    missing.forEach((i, j) => {
      const outcome = loaded[j] ?? { status: 'rejected', reason: new Error('the loader gave no outcome for this item') };
      outcomes[i] = outcome;
      const key = keys[i];
      if (key && outcome.status === 'fulfilled' && (rememberOptions.store?.(outcome.value) ?? true)) {
        fresh.set(key, outcome.value);
      }
    });
    // One write for the whole batch, started at once; the answer waits for it only at the very end.
    keep(
      scope,
      [...fresh].map(([key, value]) => ({ key, value })),
      ttlSeconds,
    );
    return outcomes as PromiseSettledResult<V>[];
  };

  // One key is a batch of one: the same lookups, counters and writes, with load()'s error thrown as is.
  const rememberOne = async (key: string, load: () => Promise<V>, rememberOptions: SharedRememberOptions<V>) => {
    const [outcome] = await rememberMany(
      [key],
      (k) => k,
      async () => [await load().then(fulfilled, rejected)],
      rememberOptions,
    );
    if (outcome?.status === 'fulfilled') return outcome.value;
    throw outcome?.reason;
  };

  /**
   * Memory, then the table; on a miss, a claim on the key in the table: the claimant loads and stores (its
   * value replaces the claim), the others wait for the value there, and load for themselves only if the
   * claim is given up or their wait would leave them too little time for a call of their own.
   */
  const rememberClaimed = async (
    key: string,
    load: () => Promise<V>,
    rememberOptions: SharedRememberOptions<V>,
    scope: CacheScope,
    sharing: InFlightOptions,
  ): Promise<V> => {
    const ttlSeconds = ttlOf(rememberOptions.ttlSeconds);
    if (ttlSeconds <= 0 || !table?.claim || !table.waitFor || !table.release) return rememberOne(key, load, rememberOptions);
    const itemKey = tableKey(options.name, key);
    const context = { activity: scope.activity, requestId: scope.requestId };
    const found = (await table.getMany([itemKey], context)).get(itemKey);
    if (found !== undefined) {
      hit(scope, 'table');
      copyToMemory(key, found, ttlSeconds);
      return found.value as V;
    }
    const deadline = scope.deadline ?? Date.now() + 30_000;
    // Whatever the read gave (a timeout included), the claim decides who pays: a read past its budget on a
    // slow table must not make every container call (§18).
    const claim = await table.claim(itemKey, deadline, context);
    if (claim.outcome === 'taken') {
      const waited = await table.waitFor(itemKey, deadline - (sharing.reserveMs ?? 0), context);
      if (waited.outcome === 'stored') {
        hit(scope, 'table');
        copyToMemory(key, waited.stored, ttlSeconds);
        return waited.stored.value as V;
      }
      // Another container's call for this question was still on its way when this one stopped waiting:
      // the call below pays for the question a second time (metric CacheDuplicateCalls).
      if (waited.outcome === 'unanswered') scope.activity.duplicateCalls += 1;
    }
    miss(scope, 1);
    const owner = claim.outcome === 'claimed' ? claim.owner : undefined;
    const giveUp = () => {
      if (owner) scope.activity.pendingWrites.push(table.release?.(itemKey, owner, context) ?? Promise.resolve());
    };
    let value: V;
    try {
      value = await load();
    } catch (error) {
      giveUp();
      throw error;
    }
    // The value's write replaces the claim; a value not worth keeping gives the claim up instead.
    if (rememberOptions.store?.(value) ?? true) keep(scope, [{ key, value }], ttlSeconds);
    else giveUp();
    return value;
  };

  /** Loads in flight in this container, by key: a request asking for one of them waits for it. */
  const inFlight = new Map<string, Promise<V>>();

  return {
    memory,
    rememberMany,
    async remember(key, load, rememberOptions = {}) {
      const scope = scopeOf(rememberOptions as SharedRememberOptions<unknown>);
      const sharing = options.inFlight;
      if (!sharing || scope.fresh) return rememberOne(key, load, rememberOptions);
      const remembered = ttlOf(rememberOptions.ttlSeconds) > 0 ? memory.get(key) : undefined;
      if (remembered !== undefined) {
        hit(scope, 'memory');
        return remembered;
      }
      let failed: Promise<V> | undefined;
      for (let flying = inFlight.get(key); flying && flying !== failed; flying = inFlight.get(key)) {
        try {
          const value = await flying;
          // Another request's call answered this one: no call, no search counted.
          hit(scope, 'memory');
          return value;
        } catch (error) {
          if (sharing.sharesFailure?.(error)) throw error;
          // The loader's own failure (its budget, its deadline): the first to get here loads, the rest wait for it.
          failed = flying;
        }
      }
      const own = rememberClaimed(key, load, rememberOptions, scope, sharing);
      inFlight.set(key, own);
      const forget = () => {
        if (inFlight.get(key) === own) inFlight.delete(key);
      };
      own.then(forget, forget);
      return own;
    },
  };
}

const fulfilled = <V>(value: V): PromiseSettledResult<V> => ({ status: 'fulfilled', value });
const rejected = (reason: unknown): PromiseRejectedResult => ({ status: 'rejected', reason });

/** The cache scope of one request: `no_cache` from its validated body, its counters and its request id. */
export function cacheScope(state: RequestState): CacheScope {
  const body = state.body as { no_cache?: unknown } | undefined;
  return {
    fresh: body?.no_cache === true,
    // Created on the first lookup: a request that looked nothing up writes no cache metrics.
    get activity() {
      return cacheActivity(state);
    },
    requestId: state.requestId,
    deadline: state.deadline,
  };
}

/** Waits for this request's table writes; each is bounded by the write budget and never throws. */
export async function settleCacheWrites(state: RequestState): Promise<void> {
  const pending = state.cache?.pendingWrites.splice(0) ?? [];
  if (pending.length > 0) await Promise.all(pending);
}
