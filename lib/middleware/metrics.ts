import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { CLIENT_DIMENSION, METRIC } from '../metric-names.js';
import { type ApiContext, cacheHits, cacheMetricValues } from '../request-state.js';
import { ROUTES } from '../routes.js';

// The values Powertools itself reads as true in POWERTOOLS_METRICS_DISABLED.
const TRUTHY = new Set(['1', 'y', 'yes', 't', 'true', 'on']);

/**
 * Metrics are written where a namespace is configured (the stack sets POWERTOOLS_METRICS_NAMESPACE) and
 * not switched off (POWERTOOLS_METRICS_DISABLED=true). A local run sets no namespace, so its stdout holds
 * the request log only; set the namespace to see the EMF lines locally.
 */
export function metricsEnabled(env: Readonly<Record<string, unknown>>): boolean {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const disabled = TRUTHY.has(text(env.POWERTOOLS_METRICS_DISABLED).toLowerCase());
  return text(env.POWERTOOLS_METRICS_NAMESPACE) !== '' && !disabled;
}

// Route path → route name: the `endpoint` dimension, which the dashboard graphs one line per value of.
const ENDPOINTS = new Map(ROUTES.map((route) => [route.path, route.name]));

let shared: Metrics | undefined;
let usageShared: Metrics | undefined;
let cacheShared: Metrics | undefined;

/**
 * One CloudWatch EMF record per request, with dimensions service and endpoint: Requests, Errors (0 or 1,
 * so its average is the error rate), UpstreamCalls, UpstreamLatency (only when the upstream was called,
 * so requests that never reach it do not drag the average down), CacheHits and Latency. A failure also
 * writes ErrorsByCode under service, endpoint and errorCode, as a record of its own so that the other
 * metrics are not multiplied by every code. It runs just inside the access log and sees the final status.
 *
 * A second, small record says who spends what: Requests and UpstreamCalls under service + client (the
 * key's name) and under service alone (the totals the spend alarm reads). It is a record of its own, not
 * a client dimension on the first one: every metric × endpoint × client would be billed as a custom
 * metric; this way a client costs two. Requests with no client (refused before the key was known) count
 * in the totals only, so nothing a caller sends can add a dimension value.
 */
export function metrics(
  options: { enabled?: boolean } = {},
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  const enabled = options.enabled ?? metricsEnabled(config);
  if (enabled) {
    shared ??= new Metrics({ serviceName: config.POWERTOOLS_SERVICE_NAME });
    usageShared ??= new Metrics({ serviceName: config.POWERTOOLS_SERVICE_NAME });
    cacheShared ??= new Metrics({ serviceName: config.POWERTOOLS_SERVICE_NAME });
  }
  const emf = shared;
  const usage = usageShared;
  const cacheTotals = cacheShared;

  const write = ({ context }: { context: ApiContext }) => {
    const state = context.api;
    if (!enabled || !emf || !usage || !cacheTotals || !state) return;
    try {
      // Everything below is synchronous, so concurrent requests in one process never mix their records.
      const endpoint = ENDPOINTS.get(state.path) ?? 'unknown';
      const { calls, latencyMs } = state.upstream;
      emf.addDimension('endpoint', endpoint);
      emf.addMetadata('requestId', state.requestId);
      emf.addMetric(METRIC.requests, MetricUnit.Count, 1);
      emf.addMetric(METRIC.errors, MetricUnit.Count, state.errorCode ? 1 : 0);
      emf.addMetric(METRIC.upstreamCalls, MetricUnit.Count, calls);
      if (calls > 0) emf.addMetric(METRIC.upstreamLatency, MetricUnit.Milliseconds, Math.round(latencyMs));
      emf.addMetric(METRIC.cacheHits, MetricUnit.Count, cacheHits(state.cache));
      for (const [name, count] of cacheMetricValues(state.cache)) emf.addMetric(name, MetricUnit.Count, count);
      emf.addMetric(METRIC.latency, MetricUnit.Milliseconds, Math.round(Date.now() - state.startedAt));
      emf.publishStoredMetrics();
      if (state.errorCode) {
        const single = emf.singleMetric();
        single.addDimension('endpoint', endpoint);
        single.addDimension('errorCode', state.errorCode);
        single.addMetadata('requestId', state.requestId);
        // A single metric is written as soon as its value is added.
        single.addMetric(METRIC.errorsByCode, MetricUnit.Count, 1);
      }
      // Dimension sets: [service, client] from addDimension, [service] from the empty set; with no
      // client only the default [service].
      if (state.client !== undefined) {
        usage.addDimension(CLIENT_DIMENSION, state.client);
        usage.addDimensions({});
      }
      usage.addMetadata('requestId', state.requestId);
      usage.addMetric(METRIC.requests, MetricUnit.Count, 1);
      usage.addMetric(METRIC.upstreamCalls, MetricUnit.Count, calls);
      // The budget's fail-open alarm reads the total (dimension service alone).
      if (state.budgetCounterErrors) usage.addMetric(METRIC.budgetCounterErrors, MetricUnit.Count, state.budgetCounterErrors);
      usage.publishStoredMetrics();
      // The cache table's failures and the questions paid for twice, every endpoint together (dimension
      // service alone, which the cache's alarm reads); a record only when there are some.
      const tableErrors = state.cache?.tableErrors ?? 0;
      const duplicateCalls = state.cache?.duplicateCalls ?? 0;
      if (tableErrors > 0 || duplicateCalls > 0) {
        cacheTotals.addMetadata('requestId', state.requestId);
        if (tableErrors > 0) cacheTotals.addMetric(METRIC.cacheTableErrors, MetricUnit.Count, tableErrors);
        if (duplicateCalls > 0) cacheTotals.addMetric(METRIC.cacheDuplicateCalls, MetricUnit.Count, duplicateCalls);
        cacheTotals.publishStoredMetrics();
      }
    } catch (error) {
      // A lost data point must never turn an answer into an error.
      for (const metrics of [emf, usage, cacheTotals]) {
        metrics.clearMetrics();
        metrics.clearDimensions();
        metrics.clearMetadata();
      }
      logger.warn('metrics not recorded', { requestId: state.requestId, error: error as Error });
    }
  };
  return { after: write, onError: write };
}
