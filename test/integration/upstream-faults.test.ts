/** What a client gets for each way the upstream can fail, over real HTTP, with short deadlines. */
import { describe, expect, it } from 'vitest';
import { seenBodies, TEST_UPSTREAM_KEY, useService } from '../support/service.js';
import { watchTimerLag } from '../support/timer-lag.js';

const harness = useService({
  UPSTREAM_TIMEOUT_MS: '300',
  REQUEST_DEADLINE_MS: '1500',
  MAX_RETRY_AFTER_MS: '1500',
});

const search = () => harness.service.post('/v1/web-search/alpha', { q: 'coffee' });

function expectError(reply: Awaited<ReturnType<typeof search>>, status: number, code: string) {
  expect(reply.status).toBe(status);
  expect(reply.json).toMatchObject({ success: false, data: null, error: { code } });
}

describe('upstream faults', () => {
  it('answers 504 UPSTREAM_TIMEOUT when the upstream hangs past the deadline, without waiting longer', async () => {
    harness.upstream.respond(() => 'hang');
    const lag = watchTimerLag();
    const started = performance.now();
    const reply = await search();
    const elapsedMs = performance.now() - started;
    expectError(reply, 504, 'UPSTREAM_TIMEOUT');
    // The 1.5 s deadline and as much again, plus the time this process was not run (the service runs in it,
    // so a busy machine delays its deadline timer as much): a verdict that does not depend on the machine.
    expect(elapsedMs).toBeLessThan(3000 + lag.stop().total);
    expect(harness.upstream.calls()).toBeGreaterThanOrEqual(1);
    expect(harness.upstream.calls()).toBeLessThanOrEqual(3);
  });

  it('answers 502 UPSTREAM_ERROR after 3 attempts when the connection is reset every time', async () => {
    harness.upstream.respond(() => 'reset');
    expectError(await search(), 502, 'UPSTREAM_ERROR');
    expect(harness.upstream.calls()).toBe(3);
  });

  it('answers 502 UPSTREAM_ERROR for an HTML 502, after retrying', async () => {
    harness.upstream.respond(() => 'html502');
    const reply = await search();
    expectError(reply, 502, 'UPSTREAM_ERROR');
    expect(reply.json.error.details).toBe('The search provider answered HTTP 502');
    expect(harness.upstream.calls()).toBe(3);
  });

  it('retries a 500 and answers 200 when the next attempt succeeds', async () => {
    harness.upstream.queue('status500');
    const reply = await search();
    expect(reply.status).toBe(200);
    expect(reply.json.data.organic_results).toHaveLength(8);
    expect(harness.upstream.calls()).toBe(2);
  });

  it('honours Retry-After within the deadline and succeeds on the retry', async () => {
    harness.upstream.queue('rate429');
    const started = Date.now();
    const reply = await search();
    expect(reply.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(harness.upstream.calls()).toBe(2);
  });

  it('answers 503 UPSTREAM_QUOTA_EXCEEDED with Retry-After when the upstream keeps refusing', async () => {
    harness.upstream.respond(() => 'rate429');
    const reply = await search();
    expectError(reply, 503, 'UPSTREAM_QUOTA_EXCEEDED');
    expect(reply.headers.get('retry-after')).toBe('1');
  });

  it('answers 503 UPSTREAM_QUOTA_EXCEEDED at once, without retrying, when the plan has run out of searches', async () => {
    harness.upstream.respond(() => ({ status: 429, body: '{"error":"Your account has run out of searches."}' }));
    const reply = await search();
    expectError(reply, 503, 'UPSTREAM_QUOTA_EXCEEDED');
    expect(reply.json.error.details).toContain('plan for this service is used up');
    expect(harness.upstream.calls()).toBe(1);
  });

  it("passes SerpApi's own words of a 5xx on in details, after retrying", async () => {
    harness.upstream.respond(() => ({ status: 503, body: '{"error":"Something went wrong, please try again later."}' }));
    const reply = await search();
    expectError(reply, 502, 'UPSTREAM_ERROR');
    expect(reply.json.error.details).toBe('The search provider answered HTTP 503: Something went wrong, please try again later.');
    expect(harness.upstream.calls()).toBe(3);
  });

  it('answers 400 INVALID_REQUEST naming q, with no upstream call, for search terms too long once URL-encoded', async () => {
    const reply = await harness.service.post('/v1/web-search/delta', { q: '咖'.repeat(456) });
    expectError(reply, 400, 'INVALID_REQUEST');
    expect(reply.json.error.details).toMatch(/^q: must take at most 4096 bytes once URL-encoded/);
    expect(harness.upstream.calls()).toBe(0);
  });

  it('answers 400 INVALID_REQUEST naming location when the upstream knows no such place, without retrying', async () => {
    harness.upstream.queue('errorBody');
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee', location: 'Nowhere at all' });
    expectError(reply, 400, 'INVALID_REQUEST');
    expect(reply.json.error.details).toMatch(/^location: the search provider knows no such place/);
    expect(harness.upstream.calls()).toBe(1);
  });

  it('refuses, as INVALID_REQUEST and before any call, an upstream URL over 8 KiB', async () => {
    const { serpApiSearch, UPSTREAM_URL_MAX } = await import('../../lib/upstream/serpapi.js');
    const stats = { calls: 0, latencyMs: 0 };
    const call = serpApiSearch('webAlpha', { q: '咖'.repeat(1000) }, { deadline: Date.now() + 1000, stats: stats as never });
    await expect(call).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: expect.stringMatching(
        new RegExp(`^q: too long for the search provider once URL-encoded .* at most ${UPSTREAM_URL_MAX}\\)$`),
      ),
    });
    expect(harness.upstream.calls()).toBe(0);
  });

  it('does not wait for a Retry-After longer than the deadline allows', async () => {
    harness.upstream.respond(() => ({ status: 429, body: '{"error":"slow down"}', headers: { 'Retry-After': '60' } }));
    const reply = await search();
    expectError(reply, 503, 'UPSTREAM_QUOTA_EXCEEDED');
    expect(reply.headers.get('retry-after')).toBe('60');
    expect(harness.upstream.calls()).toBe(1);
  });

  it('asks for gzip and unpacks a gzip answer', async () => {
    harness.upstream.queue('gzip');
    const reply = await search();
    expect(reply.status).toBe(200);
    expect(reply.json.data.organic_results).toHaveLength(8);
  });

  it('answers 502 UPSTREAM_ERROR for invalid JSON, without retrying', async () => {
    harness.upstream.queue('garbage');
    expectError(await search(), 502, 'UPSTREAM_ERROR');
    expect(harness.upstream.calls()).toBe(1);
  });

  it('answers 502 UPSTREAM_ERROR naming the upstream error of a 200 with an error field', async () => {
    harness.upstream.queue('errorBody');
    const reply = await search();
    expectError(reply, 502, 'UPSTREAM_ERROR');
    expect(reply.json.error.details).toContain('Unsupported `xx` location');
  });

  it("answers 500 SERVICE_MISCONFIGURED for SerpApi's invalid-key answer, without echoing the key", async () => {
    harness.upstream.queue('invalidKey');
    const reply = await search();
    expectError(reply, 500, 'SERVICE_MISCONFIGURED');
    expect(reply.text).not.toContain(TEST_UPSTREAM_KEY);
    expect(harness.upstream.calls()).toBe(1);
  });

  it('answers success with empty arrays and "No results" for the upstream\'s no-results body', async () => {
    harness.upstream.queue('noResults');
    const reply = await search();
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ success: true, message: 'No results' });
    expect(reply.json.data.organic_results).toEqual([]);
    expect(reply.json.data.relatedSearches).toEqual([]);
  });

  it('sends the upstream key to the upstream but never in any response', async () => {
    // The fake's request list is emptied before each test: this test makes its own requests to check.
    harness.upstream.queue('status500');
    expect((await search()).status).toBe(200);
    expect(harness.upstream.requests.map((q) => q.get('api_key'))).toEqual([TEST_UPSTREAM_KEY, TEST_UPSTREAM_KEY]);
    for (const body of seenBodies) expect(body).not.toContain(TEST_UPSTREAM_KEY);
    expect(seenBodies.length).toBeGreaterThan(5);
  });
});
