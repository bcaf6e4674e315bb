import { describe, expect, it } from 'vitest';
import { capturedMetricLines } from '../support/capture-logs.js';
import { type Reply, TEST_CLIENT_KEY, TEST_UPSTREAM_KEY, useService } from '../support/service.js';

// As the stack configures every function.
const harness = useService({
  POWERTOOLS_SERVICE_NAME: 'search-citation-api',
  POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApi',
  POWERTOOLS_METRICS_DISABLED: undefined,
  POWERTOOLS_DEV: undefined,
});

// biome-ignore lint/suspicious/noExplicitAny: EMF records are arbitrary JSON
type Emf = Record<string, any>;

/** The EMF records written for the request that got this reply (they carry its id as metadata). */
function records(reply: Reply): Emf[] {
  const requestId = reply.headers.get('x-request-id');
  return capturedMetricLines.map((line) => JSON.parse(line) as Emf).filter((record) => record.requestId === requestId);
}

const definition = (record: Emf) => record._aws.CloudWatchMetrics[0];

describe('EMF metrics', () => {
  it('writes one record for a success: Requests, Errors 0, upstream calls and latency, cache hits, latency', async () => {
    const reply = await harness.service.post('/v1/web-search/bravo', { q: 'coffee' });
    expect(reply.status).toBe(200);
    const written = records(reply);
    expect(written).toHaveLength(1);
    const [record] = written as [Emf];
    expect(record._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'SearchCitationApi',
        Dimensions: [['service', 'endpoint']],
        Metrics: [
          { Name: 'Requests', Unit: 'Count' },
          { Name: 'Errors', Unit: 'Count' },
          { Name: 'UpstreamCalls', Unit: 'Count' },
          { Name: 'UpstreamLatency', Unit: 'Milliseconds' },
          { Name: 'CacheHits', Unit: 'Count' },
          { Name: 'Latency', Unit: 'Milliseconds' },
        ],
      },
    ]);
    expect(record).toEqual({
      _aws: expect.any(Object),
      requestId: reply.headers.get('x-request-id'),
      service: 'search-citation-api',
      endpoint: 'web-search-bravo',
      Requests: 1,
      Errors: 0,
      UpstreamCalls: 1,
      UpstreamLatency: expect.any(Number),
      CacheHits: 0,
      Latency: expect.any(Number),
    });
    expect(record._aws.Timestamp).toEqual(expect.any(Number));
  });

  it('writes Errors 1 and a separate ErrorsByCode record by endpoint and error code for a failure', async () => {
    harness.upstream.queue('status500', 'status500', 'status500');
    const reply = await harness.service.post('/v1/web-search/delta', { q: '咖啡' });
    expect(reply.status).toBe(502);
    const written = records(reply);
    expect(written).toHaveLength(2);
    const [request, byCode] = written as [Emf, Emf];
    expect(request).toMatchObject({ endpoint: 'web-search-delta', Requests: 1, Errors: 1, UpstreamCalls: 3, CacheHits: 0 });
    expect(definition(request).Dimensions).toEqual([['service', 'endpoint']]);
    expect(definition(byCode)).toEqual({
      Namespace: 'SearchCitationApi',
      Dimensions: [['service', 'endpoint', 'errorCode']],
      Metrics: [{ Name: 'ErrorsByCode', Unit: 'Count' }],
    });
    expect(byCode).toEqual({
      _aws: expect.any(Object),
      requestId: reply.headers.get('x-request-id'),
      service: 'search-citation-api',
      endpoint: 'web-search-delta',
      errorCode: 'UPSTREAM_ERROR',
      ErrorsByCode: 1,
    });
  });

  it('leaves UpstreamLatency out when the request never reached the upstream', async () => {
    const reply = await harness.service.post(
      '/v1/web-search/alpha',
      { q: 'coffee' },
      { headers: { Authorization: 'Bearer wrong-key' } },
    );
    expect(reply.status).toBe(401);
    const [request, byCode] = records(reply) as [Emf, Emf];
    expect(request).toMatchObject({ endpoint: 'web-search-alpha', Errors: 1, UpstreamCalls: 0 });
    expect(request).not.toHaveProperty('UpstreamLatency');
    expect(definition(request).Metrics.map((m: { Name: string }) => m.Name)).not.toContain('UpstreamLatency');
    expect(byCode).toMatchObject({ errorCode: 'UNAUTHORIZED', ErrorsByCode: 1 });
    expect(harness.upstream.calls()).toBe(0);
  });

  it('names each endpoint by its route name and holds no key', async () => {
    const reply = await harness.service.post('/v1/web-search/charlie', { q: 'coffee' });
    expect(records(reply)[0]).toMatchObject({ endpoint: 'web-search-charlie' });
    for (const line of capturedMetricLines) {
      expect(line).not.toContain(TEST_CLIENT_KEY);
      expect(line).not.toContain(TEST_UPSTREAM_KEY);
    }
  });
});
