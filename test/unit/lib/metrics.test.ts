import type { Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { metrics, metricsEnabled } from '../../../lib/middleware/metrics.js';
import type { ApiContext } from '../../../lib/request-state.js';
import { capturedMetricLines } from '../../support/capture-logs.js';

describe('metricsEnabled', () => {
  it('is on only where a namespace is configured, as the stack does', () => {
    expect(metricsEnabled({})).toBe(false);
    expect(metricsEnabled({ POWERTOOLS_METRICS_NAMESPACE: '  ' })).toBe(false);
    expect(metricsEnabled({ POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApi' })).toBe(true);
  });

  it('is off when POWERTOOLS_METRICS_DISABLED says true in any of the forms Powertools reads', () => {
    for (const value of ['true', 'TRUE', '1', 'yes', 'on']) {
      expect(
        metricsEnabled({ POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApi', POWERTOOLS_METRICS_DISABLED: value }),
        value,
      ).toBe(false);
    }
    expect(metricsEnabled({ POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApi', POWERTOOLS_METRICS_DISABLED: 'false' })).toBe(
      true,
    );
  });
});

function request(
  path: string,
  cache = { tableErrors: 0, duplicateCalls: 0 },
): Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  const context = {
    api: {
      requestId: `unit-${path}`,
      path,
      startedAt: Date.now(),
      deadline: Date.now() + 1_000,
      upstream: { calls: 1, latencyMs: 12.4 },
      cache: { memoryHits: 1, tableHits: 0, misses: 0, ...cache, pendingWrites: [] },
    },
  } as unknown as ApiContext;
  return {
    event: {} as APIGatewayProxyEvent,
    context,
    response: { statusCode: 200, body: '{}' } as APIGatewayProxyResult,
    error: null,
    internal: {},
  };
}

describe('the metrics middleware', () => {
  it('writes nothing when metrics are off', async () => {
    const before = capturedMetricLines.length;
    await metrics({ enabled: false }).after?.(request('/v1/web-search/alpha'));
    expect(capturedMetricLines.length).toBe(before);
  });

  it('writes the endpoint record and the usage record when on, naming an unknown path "unknown" rather than inventing a route', async () => {
    // Set for this test only: a namespace left behind would turn metrics on for every test after it.
    vi.stubEnv('POWERTOOLS_METRICS_NAMESPACE', 'SearchCitationApi');
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const before = capturedMetricLines.length;
    await metrics({ enabled: true }).after?.(request('/v1/not-a-route'));
    const [record, usage] = capturedMetricLines.slice(before).map((line) => JSON.parse(line));
    expect(capturedMetricLines.length - before).toBe(2);
    expect(record).toMatchObject({ endpoint: 'unknown', Requests: 1, Errors: 0, UpstreamLatency: 12, CacheHits: 1 });
    expect(record._aws.CloudWatchMetrics[0].Namespace).toBe('SearchCitationApi');
    // No client was known: the usage record counts under the service alone, with no client dimension.
    expect(usage).toMatchObject({ Requests: 1, UpstreamCalls: 1 });
    expect(usage.client).toBeUndefined();
    expect(usage._aws.CloudWatchMetrics[0].Namespace).toBe('SearchCitationApi');
  });
});

describe('the cache totals record', () => {
  it('writes the table errors and the questions paid twice, all endpoints together under the service alone, only when there are some', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_NAMESPACE', 'SearchCitationApi');
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const before = capturedMetricLines.length;
    await metrics({ enabled: true }).after?.(request('/v1/web-search/alpha', { tableErrors: 3, duplicateCalls: 1 }));
    const written = capturedMetricLines.slice(before).map((line) => JSON.parse(line));
    expect(written).toHaveLength(3);
    const totals = written.filter((record) => record.endpoint === undefined && record.Requests === undefined);
    expect(totals).toHaveLength(1);
    expect(totals[0]).toMatchObject({ service: expect.any(String), CacheTableErrors: 3, CacheDuplicateCalls: 1 });
    // Read by the cache table's alarm: the service dimension alone, never an endpoint or a client.
    expect(totals[0]._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    // Per endpoint too, in the request's own record.
    expect(written.find((record) => record.endpoint === 'web-search-alpha')).toMatchObject({
      CacheTableErrors: 3,
      CacheDuplicateCalls: 1,
    });
    const quiet = capturedMetricLines.length;
    await metrics({ enabled: true }).after?.(request('/v1/web-search/alpha'));
    expect(capturedMetricLines.length - quiet).toBe(2);
  });
});

describe('the environment after the tests above', () => {
  it('holds no metrics namespace, so that no test runs with metrics it did not ask for', () => {
    expect(process.env.POWERTOOLS_METRICS_NAMESPACE).toBeUndefined();
  });
});
