import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../config.js';
import { emfLine, type MetricValue } from '../emf.js';
import { logger } from '../logger.js';
import { CLIENT_DIMENSION, METRIC } from '../metric-names.js';
import { type ApiContext, cacheHits, cacheMetricValues } from '../request-state.js';
import { ROUTES } from '../routes.js';

// The values Powertools reads as true in POWERTOOLS_METRICS_DISABLED and POWERTOOLS_DEV.
const TRUTHY = new Set(['1', 'y', 'yes', 't', 'true', 'on']);

/**
 * Metrics are written where a namespace is configured (the stack sets POWERTOOLS_METRICS_NAMESPACE) and
 * not switched off (POWERTOOLS_METRICS_DISABLED=true). A local run sets no namespace, so its stdout holds
 * the request log only; set the namespace to see the EMF lines locally.
 */
export function metricsEnabled(env: Readonly<Record<string, unknown>>): boolean {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  // As Powertools Metrics read them: POWERTOOLS_METRICS_DISABLED decides when set, else Powertools' dev
  // mode (POWERTOOLS_DEV) turns metrics off.
  const switchedOff = text(env.POWERTOOLS_METRICS_DISABLED) !== '' ? env.POWERTOOLS_METRICS_DISABLED : env.POWERTOOLS_DEV;
  return text(env.POWERTOOLS_METRICS_NAMESPACE) !== '' && !TRUTHY.has(text(switchedOff).toLowerCase());
}

// Route path → route name: the `endpoint` dimension, which the dashboard graphs one line per value of.
const ENDPOINTS = new Map(ROUTES.map((route) => [route.path, route.name]));

/** The service dimension every record carries, as Powertools Metrics named it. */
const SERVICE_DIMENSION = 'service';

/**
 * Writes a request's records to standard output, one line each, in one write: Lambda sends standard output
 * to CloudWatch Logs one line per log event, so each record is still an event of its own, and the request
 * pays one system call instead of one per record.
 */
function writeRecords(lines: readonly string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * One CloudWatch EMF record per request (lib/emf.ts), with dimensions service and endpoint: Requests, Errors
 * (0 or 1, so its average is the error rate), UpstreamCalls, UpstreamLatency (only when the upstream was
 * called, so requests that never reach it do not drag the average down), CacheHits and Latency. A failure
 * also writes ErrorsByCode under service, endpoint and errorCode, as a record of its own so that the other
 * metrics are not multiplied by every code. It runs just inside the access log and sees the final status.
 *
 * A second, small record says who spends what: Requests and UpstreamCalls under service + client (the
 * key's name) and under service alone (the totals the spend alarm reads). It is a record of its own, not
 * a client dimension on the first one: every metric × endpoint × client would be billed as a custom
 * metric; this way a client costs two. Requests with no client (refused before the key was known) count
 * in the totals only, so nothing a caller sends can add a dimension value.
 *
 * `namespace` defaults to POWERTOOLS_METRICS_NAMESPACE (the name Powertools gave the setting, kept).
 */
export function metrics(
  options: { enabled?: boolean; namespace?: string } = {},
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  const enabled = options.enabled ?? metricsEnabled(config);
  // Powertools' own fallback when none was configured.
  const namespace = options.namespace ?? config.POWERTOOLS_METRICS_NAMESPACE ?? 'default_namespace';
  const service = config.POWERTOOLS_SERVICE_NAME;

  const write = ({ context }: { context: ApiContext }) => {
    const state = context.api;
    if (!enabled || !state) return;
    try {
      // Built and written at once, so concurrent requests in one process never mix their records.
      const endpoint = ENDPOINTS.get(state.path) ?? 'unknown';
      const metadata = { requestId: state.requestId };
      const { calls, latencyMs } = state.upstream;
      const perRequest: MetricValue[] = [
        { name: METRIC.requests, unit: 'Count', value: 1 },
        { name: METRIC.errors, unit: 'Count', value: state.errorCode ? 1 : 0 },
        { name: METRIC.upstreamCalls, unit: 'Count', value: calls },
      ];
      if (calls > 0) perRequest.push({ name: METRIC.upstreamLatency, unit: 'Milliseconds', value: Math.round(latencyMs) });
      perRequest.push({ name: METRIC.cacheHits, unit: 'Count', value: cacheHits(state.cache) });
      for (const [name, value] of cacheMetricValues(state.cache)) perRequest.push({ name, unit: 'Count', value });
      perRequest.push({ name: METRIC.latency, unit: 'Milliseconds', value: Math.round(Date.now() - state.startedAt) });
      const lines = [
        emfLine({
          namespace,
          dimensionSets: [[SERVICE_DIMENSION, 'endpoint']],
          dimensions: { [SERVICE_DIMENSION]: service, endpoint },
          metrics: perRequest,
          metadata,
        }),
      ];
      if (state.errorCode) {
        lines.push(
          emfLine({
            namespace,
            dimensionSets: [[SERVICE_DIMENSION, 'endpoint', 'errorCode']],
            dimensions: { [SERVICE_DIMENSION]: service, endpoint, errorCode: state.errorCode },
            metrics: [{ name: METRIC.errorsByCode, unit: 'Count', value: 1 }],
            metadata,
          }),
        );
      }
      const usage: MetricValue[] = [
        { name: METRIC.requests, unit: 'Count', value: 1 },
        { name: METRIC.upstreamCalls, unit: 'Count', value: calls },
      ];
      // The budget's fail-open alarm reads the total (dimension service alone).
      if (state.budgetCounterErrors)
        usage.push({ name: METRIC.budgetCounterErrors, unit: 'Count', value: state.budgetCounterErrors });
      // Dimension sets [service, client] and [service]; with no client only [service].
      const client = state.client;
      lines.push(
        emfLine({
          namespace,
          dimensionSets:
            client === undefined ? [[SERVICE_DIMENSION]] : [[SERVICE_DIMENSION, CLIENT_DIMENSION], [SERVICE_DIMENSION]],
          dimensions:
            client === undefined
              ? { [SERVICE_DIMENSION]: service }
              : { [SERVICE_DIMENSION]: service, [CLIENT_DIMENSION]: client },
          metrics: usage,
          metadata,
        }),
      );
      // Every record is built before any is written: a failure leaves none half written.
      writeRecords(lines);
    } catch (error) {
      // A lost data point must never turn an answer into an error.
      logger.warn('metrics not recorded', { requestId: state.requestId, error: error as Error });
    }
  };
  return { after: write, onError: write };
}
