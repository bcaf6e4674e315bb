/**
 * A small warm-container cache: an LRU bounded by entry count with a time to live (lru-cache does the
 * bookkeeping). A Lambda container serves one request at a time and lives minutes to hours, so what one
 * request paid the upstream for can save the next one the call.
 */
import { LRUCache } from 'lru-cache';

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
  set(key: string, value: V): void;
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
  const lru =
    options.max > 0 && options.ttlMs > 0
      ? new LRUCache<string, V>({
          max: options.max,
          ttl: options.ttlMs,
          // With its own clock, read it on every lookup rather than lru-cache's 1 ms memo of the time.
          ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
        })
      : null;
  const cache: Cache<V> = {
    get: (key) => lru?.get(key),
    set: (key, value) => {
      lru?.set(key, value);
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
    clear: () => lru?.clear(),
    get size() {
      return lru?.size ?? 0;
    },
  };
  return cache;
}
