import { describe, expect, it } from 'vitest';
import { capturedLogLines, capturedMetricLines } from '../support/capture-logs.js';
import { type Reply, TEST_CLIENT_KEY, TEST_UPSTREAM_KEY, useService } from '../support/service.js';

// As `npm start` runs: no metrics namespace, so no EMF records on stdout.
const harness = useService({ POWERTOOLS_METRICS_NAMESPACE: undefined });

// biome-ignore lint/suspicious/noExplicitAny: log lines are arbitrary JSON
type LogLine = Record<string, any>;

function logLines(): LogLine[] {
  return capturedLogLines.map((line) => JSON.parse(line) as LogLine);
}

/** The one access log line of the request that got this reply. */
function accessLine(reply: Reply): LogLine {
  const requestId = reply.headers.get('x-request-id');
  const lines = logLines().filter((line) => line.message === 'request' && line.requestId === requestId);
  expect(lines, `one access log line for request ${requestId}`).toHaveLength(1);
  return lines[0] as LogLine;
}

// Everything the access log may hold: what the service decided, never what the caller or upstream sent.
const ACCESS_LOG_KEYS = [
  'cacheHits',
  'client',
  'latencyMs',
  'level',
  'message',
  'path',
  'requestId',
  'sampling_rate',
  'service',
  'status',
  'timestamp',
  'upstreamCalls',
  'upstreamLatencyMs',
];

describe('the access log', () => {
  it('writes one JSON line for a success with the request id, path, status, client and upstream counters', async () => {
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee' });
    expect(reply.status).toBe(200);
    const line = accessLine(reply);
    expect(line).toEqual({
      level: 'INFO',
      message: 'request',
      timestamp: expect.any(String),
      service: 'search-citation-api',
      sampling_rate: 0,
      requestId: reply.headers.get('x-request-id'),
      path: '/v1/web-search/alpha',
      client: 'local-1',
      status: 200,
      upstreamCalls: 1,
      upstreamLatencyMs: expect.any(Number),
      cacheHits: 0,
      latencyMs: expect.any(Number),
    });
    expect(Number.isInteger(line.upstreamLatencyMs) && line.upstreamLatencyMs >= 0).toBe(true);
    expect(Number.isInteger(line.latencyMs) && line.latencyMs >= 0).toBe(true);
  });

  it('writes the error code, the final status and every attempt for an upstream failure', async () => {
    harness.upstream.queue('status500', 'status500', 'status500');
    const reply = await harness.service.post('/v1/web-search/bravo', { q: 'coffee' });
    expect(reply.status).toBe(502);
    expect(accessLine(reply)).toMatchObject({
      level: 'INFO',
      path: '/v1/web-search/bravo',
      status: 502,
      errorCode: 'UPSTREAM_ERROR',
      upstreamCalls: 3,
      cacheHits: 0,
    });
    const warnings = logLines().filter((line) => line.message === 'upstream attempt failed');
    expect(warnings.slice(-3).map((line) => [line.level, line.code, line.attempt])).toEqual([
      ['WARN', 'UPSTREAM_ERROR', 0],
      ['WARN', 'UPSTREAM_ERROR', 1],
      ['WARN', 'UPSTREAM_ERROR', 2],
    ]);
  });

  it('writes a refused caller with status 401, no client and no upstream call', async () => {
    const reply = await harness.service.post(
      '/v1/web-search/alpha',
      { q: 'coffee' },
      { headers: { Authorization: 'Bearer wrong-key' } },
    );
    expect(reply.status).toBe(401);
    const line = accessLine(reply);
    expect(line).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED', upstreamCalls: 0 });
    expect(line).not.toHaveProperty('client');
  });

  it('holds no field beyond its fixed set, whatever the request carried', async () => {
    const replies = [
      await harness.service.post(
        '/v1/web-search/charlie',
        { q: 'coffee', market: 'en-US' },
        { headers: { 'X-Custom': 'header-value' } },
      ),
      await harness.service.post('/v1/web-search/delta', { q: '咖啡', unknown: 'body-value' }),
    ];
    for (const reply of replies) {
      const line = accessLine(reply);
      for (const key of Object.keys(line)) expect(ACCESS_LOG_KEYS.concat('errorCode')).toContain(key);
      expect(JSON.stringify(line)).not.toMatch(/header-value|body-value|coffee|咖啡/);
    }
  });
});

describe('keys in logs', () => {
  it('never reach a log line, even when the upstream echoes its key in an error', async () => {
    // Only this test's own lines are counted, so that its verdict does not depend on which tests ran before.
    const first = capturedLogLines.length;
    harness.upstream.queue('invalidKey');
    expect((await harness.service.post('/v1/web-search/alpha', { q: 'coffee' })).status).toBe(500);
    harness.upstream.queue({ status: 400, body: JSON.stringify({ error: `Bad request for api_key=${TEST_UPSTREAM_KEY}` }) });
    expect((await harness.service.post('/v1/web-search/alpha', { q: 'coffee' })).status).toBe(502);
    harness.upstream.queue({
      status: 200,
      body: JSON.stringify({ error: `Your key ${TEST_UPSTREAM_KEY} has run out of searches` }),
    });
    expect((await harness.service.post('/v1/web-search/alpha', { q: 'coffee' })).status).toBe(502);
    expect((await harness.service.post('/v1/web-search/alpha', { q: 'coffee' }, { method: 'GET' })).status).toBe(405);

    // The upstream's words did reach the log, with the key taken out.
    const own = capturedLogLines.slice(first).map((line) => JSON.parse(line) as LogLine);
    const warnings = own.filter((line) => line.message === 'upstream attempt failed');
    expect(warnings.some((line) => String(line.details).includes('api_key=[redacted]'))).toBe(true);
    expect(warnings.some((line) => String(line.details).includes('Your key [redacted] has run out'))).toBe(true);
    // One access line per request above, besides the warnings: the lines checked below are really there.
    expect(own.filter((line) => line.message === 'request').map((line) => line.status)).toEqual([500, 502, 502, 405]);

    // Every line the service wrote in this file, this test's and any other's.
    for (const line of capturedLogLines) {
      expect(line).not.toContain(TEST_CLIENT_KEY);
      expect(line).not.toContain(TEST_UPSTREAM_KEY);
    }
  });
});

describe('metrics without a namespace', () => {
  it('write nothing to stdout, so a local run shows the request log only', async () => {
    expect((await harness.service.post('/v1/web-search/alpha', { q: 'coffee' })).status).toBe(200);
    expect(capturedLogLines.length).toBeGreaterThan(0);
    expect(capturedMetricLines).toEqual([]);
  });
});
