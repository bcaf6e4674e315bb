/**
 * A small warm-container cache: an LRU bounded by entry count with a time to live. A Lambda container
 * serves one request at a time and lives minutes to hours, so what one request paid the upstream for can
 * save the next one the call. A Map keeps insertion order, which is all an LRU needs; lru-cache did this
 * before and cost ~3 ms of every cold start to load (README, "Performance").
 */

export interface CacheOptions {
  /** Most entries kept; the least recently used goes first. 0 turns the cache off. */
  max: number;
  /** How long an entry stays valid, in ms. 0 turns the cache off. */
  ttlMs: number;
  /** The clock TTLs are measured on, in ms; defaults to performance.now(). Tests pass their own. */
  now?: () => number;
}

export interface RememberOptions<V> {
  /** Skip the lookup and load afresh (the fresh value is still stored). */
  fresh?: boolean;
  /** Called when the value came from the cache, e.g. to count the hit. */
  onHit?: () => void;
  /** Whether a loaded value is worth keeping; an empty answer may not be. Defaults to yes. */
  store?: (value: V) => boolean;
}

/** A string-keyed cache of values that never change within their time to live. */
export interface Cache<V> {
  get(key: string): V | undefined;
  /** Stores a value for the cache's time to live, or for `ttlMs` when given (never longer than the cache's). */
  set(key: string, value: V, ttlMs?: number): void;
  /**
   * The cached value, else `load()`'s. A load that throws stores nothing, so a failure is retried by the
   * next caller instead of being served from the cache.
   */
  remember(key: string, load: () => Promise<V>, options?: RememberOptions<V>): Promise<V>;
  clear(): void;
  readonly size: number;
}

/** Creates a cache; with `max` or `ttlMs` at 0 it holds nothing, so every lookup misses. */
export function createCache<V extends NonNullable<unknown>>(options: CacheOptions): Cache<V> {
  const enabled = options.max > 0 && options.ttlMs > 0;
  const now = options.now ?? (() => performance.now());
  // Oldest use first: a hit moves its entry to the end, so the first key is the one to drop.
  const entries = new Map<string, { value: V; expiresAt: number }>();
  const cache: Cache<V> = {
    get: (key) => {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (now() >= entry.expiresAt) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    set: (key, value, ttlMs = options.ttlMs) => {
      if (!enabled || ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expiresAt: now() + Math.min(ttlMs, options.ttlMs) });
      for (const oldest of entries.keys()) {
        if (entries.size <= options.max) break;
        entries.delete(oldest);
      }
    },
    async remember(key, load, { fresh = false, onHit, store } = {}) {
      if (!fresh) {
        const hit = cache.get(key);
        if (hit !== undefined) {
          onHit?.();
          return hit;
        }
      }
      const value = await load();
      if (store?.(value) ?? true) cache.set(key, value);
      return value;
    },
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
  return cache;
}
