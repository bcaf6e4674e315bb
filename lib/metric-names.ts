/**
 * The metric names the functions write and the dashboard and alarms read (namespace SearchCitationApi).
 * A module of its own, importing nothing, so that the CDK app can use it without loading the service's
 * configuration.
 */
export const METRIC = {
  requests: 'Requests',
  errors: 'Errors',
  errorsByCode: 'ErrorsByCode',
  upstreamCalls: 'UpstreamCalls',
  upstreamLatency: 'UpstreamLatency',
  cacheHits: 'CacheHits',
  latency: 'Latency',
  /**
   * Shared cache table calls that failed, timed out, were refused (an access denied included) or skipped
   * during a rest: per endpoint in the request's record, and all endpoints together under `service` alone,
   * which the cache's alarm reads.
   */
  cacheTableErrors: 'CacheTableErrors',
  /**
   * Upstream calls made for a question another container was already asking (its claim in the cache table
   * still live when the request stopped waiting): a question paid for twice. Written as CacheTableErrors is.
   */
  cacheDuplicateCalls: 'CacheDuplicateCalls',
  /** Budget counter updates that failed or timed out (the request went on uncounted, or was refused if fail-closed). */
  budgetCounterErrors: 'BudgetCounterErrors',
  /** Every 429 answer, the gateway's throttling included: counted from the API's access log, not by the functions. */
  rateLimitedAnswers: 'RateLimitedAnswers',
  /** POST requests a function answered (not /mcp): counted from the access log, the metrics' heartbeat. */
  answeredByFunctions: 'AnsweredByFunctions',
} as const;

/**
 * The dimension of the per-client usage record: the client key's name from the client key secret (never
 * the key). Its values are the names an operator chose, one per issued key, so its cardinality is the
 * number of keys, not anything a caller can choose.
 */
export const CLIENT_DIMENSION = 'client';
