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

/** The per-endpoint record, the per-client usage record and the error-code record of one request. */
function byKind(reply: Reply): { request?: Emf; usage?: Emf; byCode?: Emf; count: number } {
  const written = records(reply);
  const kind = (record: Emf) => {
    const dimensions = JSON.stringify(definition(record).Dimensions);
    if (dimensions.includes('errorCode')) return 'byCode';
    return dimensions.includes('endpoint') ? 'request' : 'usage';
  };
  return {
    request: written.find((r) => kind(r) === 'request'),
    usage: written.find((r) => kind(r) === 'usage'),
    byCode: written.find((r) => kind(r) === 'byCode'),
    count: written.length,
  };
}

describe('EMF metrics', () => {
  it('writes one record for a success: Requests, Errors 0, upstream calls and latency, cache hits, latency', async () => {
    const reply = await harness.service.post('/v1/web-search/bravo', { q: 'coffee' });
    expect(reply.status).toBe(200);
    const { request: record, count } = byKind(reply);
    // This one, and the usage record below.
    expect(count).toBe(2);
    expect(record?._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'SearchCitationApi',
        Dimensions: [['service', 'endpoint']],
        Metrics: expect.arrayContaining([
          { Name: 'Requests', Unit: 'Count' },
          { Name: 'Errors', Unit: 'Count' },
          { Name: 'UpstreamCalls', Unit: 'Count' },
          { Name: 'UpstreamLatency', Unit: 'Milliseconds' },
          { Name: 'CacheHits', Unit: 'Count' },
          { Name: 'Latency', Unit: 'Milliseconds' },
        ]),
      },
    ]);
    expect(record).toMatchObject({
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
    // No client on the per-endpoint record: it would multiply every metric by every key.
    expect(record).not.toHaveProperty('client');
    expect(record?._aws.Timestamp).toEqual(expect.any(Number));
  });

  it('writes Errors 1 and a separate ErrorsByCode record by endpoint and error code for a failure', async () => {
    harness.upstream.queue('status500', 'status500', 'status500');
    const reply = await harness.service.post('/v1/web-search/delta', { q: '咖啡' });
    expect(reply.status).toBe(502);
    const { request, byCode, count } = byKind(reply) as { request: Emf; byCode: Emf; count: number };
    expect(count).toBe(3);
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
    const { request, byCode } = byKind(reply) as { request: Emf; byCode: Emf };
    expect(request).toMatchObject({ endpoint: 'web-search-alpha', Errors: 1, UpstreamCalls: 0 });
    expect(request).not.toHaveProperty('UpstreamLatency');
    expect(definition(request).Metrics.map((m: { Name: string }) => m.Name)).not.toContain('UpstreamLatency');
    expect(byCode).toMatchObject({ errorCode: 'UNAUTHORIZED', ErrorsByCode: 1 });
    expect(harness.upstream.calls()).toBe(0);
  });

  it("writes a usage record per request by the client key's name and in total, the spend alarm's and dashboard's source", async () => {
    harness.upstream.queue('status500');
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'usage by client' });
    expect(reply.status).toBe(200);
    const { usage } = byKind(reply);
    expect(usage?._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'SearchCitationApi',
        // Per client, and the same figures under service alone: the totals one alarm can read.
        Dimensions: [['service', 'client'], ['service']],
        Metrics: [
          { Name: 'Requests', Unit: 'Count' },
          { Name: 'UpstreamCalls', Unit: 'Count' },
        ],
      },
    ]);
    expect(usage).toEqual({
      _aws: expect.any(Object),
      requestId: reply.headers.get('x-request-id'),
      service: 'search-citation-api',
      // API_KEYS names its keys by position; the client key secret's entries carry their own names.
      client: 'local-1',
      Requests: 1,
      // A failed attempt and its retry: both are upstream calls.
      UpstreamCalls: 2,
    });
  });

  it('counts a request refused before its key is known in the totals only, with no client value from the caller', async () => {
    const reply = await harness.service.post(
      '/v1/cite/search',
      { query: 'x' },
      { headers: { Authorization: 'Bearer someone-else' } },
    );
    expect(reply.status).toBe(401);
    const { usage } = byKind(reply);
    expect(definition(usage as Emf).Dimensions).toEqual([['service']]);
    expect(usage).toMatchObject({ Requests: 1, UpstreamCalls: 0 });
    expect(usage).not.toHaveProperty('client');
    expect(JSON.stringify(usage)).not.toContain('someone-else');
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
