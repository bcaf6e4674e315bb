import type { Context } from 'aws-lambda';
import type { ErrorCode } from './errors.js';
import { METRIC } from './metric-names.js';

/** What the two cache levels did for one request: the X-Cache header, the metrics and the log line read it. */
export interface CacheActivity {
  /** Lookups answered by this container's memory. */
  memoryHits: number;
  /** Lookups answered by the shared table. */
  tableHits: number;
  /** Lookups that went to the upstream (a bypass with no_cache counts as a miss). */
  misses: number;
  /** Table reads or writes that failed, timed out or were skipped while the table was failing. */
  tableErrors: number;
  /**
   * Upstream calls made for a question another container was asking at the same time (its claim still
   * live when this request stopped waiting for it): each pays for the question a second time.
   */
  duplicateCalls: number;
  /** Writes of new answers still under way: the response waits for them, within a small budget. */
  pendingWrites: Promise<void>[];
}

/** What the middleware learns about one request, for the handler and for the request's log line. */
export interface RequestState {
  requestId: string;
  /** API path as routed, e.g. /v1/web-search/alpha. */
  path: string;
  startedAt: number;
  /** Epoch ms by which every upstream call of this request must be over. */
  deadline: number;
  client?: string;
  /** The client key's limits: its own per hour and day, or its share of a shared deployment (lib/budget/budget.ts). */
  clientLimits?: { hourlySearches?: number | null; dailySearches?: number | null; shared?: boolean };
  /** Times the budget's counter could not be reached during this request (the fail-open metric). */
  budgetCounterErrors?: number;
  /** The validated request body. */
  body?: unknown;
  /** Paid calls and their time; lookups the caches answered are counted in `cache` (see `cacheHits`). */
  upstream: { calls: number; latencyMs: number };
  /** Created on the first cache lookup; absent when the request never reached one. */
  cache?: CacheActivity;
  status?: number;
  errorCode?: ErrorCode;
}

/** This request's cache counters, created on first use. */
export function cacheActivity(state: RequestState): CacheActivity {
  state.cache ??= { memoryHits: 0, tableHits: 0, misses: 0, tableErrors: 0, duplicateCalls: 0, pendingWrites: [] };
  return state.cache;
}

/** Lookups a cache answered, either level: derived from the counts per level, so the two cannot disagree. */
export function cacheHits(activity: CacheActivity | undefined): number {
  return (activity?.memoryHits ?? 0) + (activity?.tableHits ?? 0);
}

/**
 * The X-Cache header: `hit` when every lookup was answered by a cache, `miss` when none was (or the
 * endpoint looked nothing up), else `partial; hits=3; misses=2` (a citation search with some papers known).
 */
export function xCacheHeader(activity: CacheActivity | undefined): string {
  const hits = cacheHits(activity);
  const misses = activity?.misses ?? 0;
  if (hits === 0) return 'miss';
  if (misses === 0) return 'hit';
  return `partial; hits=${hits}; misses=${misses}`;
}

/** Cache metrics per level, as name and count, for the request's metric record; none when nothing was looked up. */
export function cacheMetricValues(activity: CacheActivity | undefined): [name: string, count: number][] {
  if (!activity) return [];
  return [
    ['CacheMemoryHits', activity.memoryHits],
    ['CacheTableHits', activity.tableHits],
    ['CacheMisses', activity.misses],
    [METRIC.cacheTableErrors, activity.tableErrors],
    [METRIC.cacheDuplicateCalls, activity.duplicateCalls],
  ];
}

/** The Lambda context with this request's state attached by the request-id middleware. */
export type ApiContext = Context & { api: RequestState };
