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
} as const;
