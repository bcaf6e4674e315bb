/**
 * The cost table (infra/budget.ts, README "Spending budget"): the most paid upstream calls one request of
 * each endpoint can make. This sends every endpoint its costliest request, caches bypassed, to a fake
 * upstream that answers with SerpApi's real page sizes, and counts the calls: a handler that came to
 * make more calls than the table says would make the published costs wrong, and fails here.
 */
import { describe, expect, it } from 'vitest';
import { PAID_CALLS_PER_REQUEST } from '../../infra/budget.js';
import { ROUTES } from '../../lib/routes.js';
import { COSTLIEST_REQUESTS } from '../fixtures/sample-requests.js';
import { realPageSizes } from '../support/fake-serpapi.js';
import { sampleBody } from '../support/jobs.js';
import { useService } from '../support/service.js';

// Crossref's pace raised: the reference check's costliest list (100 references, each searched in Google
// Scholar) would not fit one request at the public pace; here Crossref does not answer at all.
const harness = useService({ CROSSREF_REQUESTS_PER_SECOND: '1000' });

describe('cite-search by default', () => {
  it('makes one paid call for a page of 20 papers, whatever Crossref knows: every paper is cited from a free record', async () => {
    harness.upstream.respond(realPageSizes);
    const reply = await harness.service.post('/v1/cite/search', { query: 'machine learning', results: 20, no_cache: true });
    expect(reply.status, reply.text).toBe(200);
    expect(harness.upstream.calls()).toBe(1);
    const papers = reply.json.data.papers as { citations: object }[];
    expect(papers.length).toBeGreaterThan(0);
    for (const paper of papers) expect(Object.keys(paper.citations)).toHaveLength(5);
  });
});

describe.each(ROUTES.map((route) => [route.name, route] as const))('%s', (name, route) => {
  it('makes exactly the paid upstream calls the cost table gives it, at most', async () => {
    harness.upstream.respond(realPageSizes);
    const body = {
      ...((COSTLIEST_REQUESTS[name] ?? (await sampleBody(harness.service, name))) as Record<string, unknown>),
      no_cache: true,
    };
    const reply = await harness.service.post(route.path, body);
    expect(reply.status, reply.text).toBe(route.successStatus ?? 200);
    expect(harness.upstream.calls()).toBe(PAID_CALLS_PER_REQUEST[name]);
  });
});
