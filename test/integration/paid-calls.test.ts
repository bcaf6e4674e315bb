/**
 * The cost table (infra/budget.ts, README "Spending budget"): the most paid upstream calls one request of
 * each endpoint can make. This sends every endpoint its costliest request, caches bypassed, to a fake
 * upstream that answers with SerpApi's real page sizes, and counts the calls: a handler that came to
 * make more calls than the table says would make the published costs wrong, and fails here.
 */
import { describe, expect, it } from 'vitest';
import { PAID_CALLS_PER_REQUEST } from '../../infra/budget.js';
import { ROUTES } from '../../lib/routes.js';
import { SAMPLE_REQUESTS } from '../fixtures/sample-requests.js';
import { realPageSizes } from '../support/fake-serpapi.js';
import { useService } from '../support/service.js';

const harness = useService();

/** Each route's most expensive request: the most papers, terms or pages one body can ask for. */
const COSTLIEST: Readonly<Record<string, Record<string, unknown>>> = {
  'cite-search': { query: 'machine learning', results: 20 },
  'alpha-trends': { queries: ['coffee', 'tea', 'cocoa', 'mate', 'chai'] },
};

describe.each(ROUTES.map((route) => [route.name, route] as const))('%s', (name, route) => {
  it('makes exactly the paid upstream calls the cost table gives it, at most', async () => {
    harness.upstream.respond(realPageSizes);
    const body = { ...((COSTLIEST[name] ?? SAMPLE_REQUESTS[name]) as Record<string, unknown>), no_cache: true };
    const reply = await harness.service.post(route.path, body);
    expect(reply.status, reply.text).toBe(200);
    expect(harness.upstream.calls()).toBe(PAID_CALLS_PER_REQUEST[name]);
  });
});
