/**
 * A request that can make several paid searches reserves them all before the first (docs/decisions.md §8):
 * with fewer left, trends, profiles with `enrich` and a citation search from the index answer 429
 * BUDGET_EXHAUSTED before any upstream call, saying how many are left and how to ask for less; what such a
 * request reserved and did not use (a profile page not needed, a call that failed) is given back. Profiles
 * whose page was not read say so beside them. One process, memory counter, the fake SerpApi counting calls.
 * The tests run in order: each one's spending is the next one's starting point, as in one real hour.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useService } from '../support/service.js';
import { clearOfWindowEdges } from '../support/window-edges.js';

const HOURLY = 9;
// The tests of this file share one process's counts, in one hour: none may start with the hour about to
// end (test/support/window-edges.ts).
beforeAll(() => clearOfWindowEdges(120_000), 150_000);
const running = useService({ SEARCHES_PER_HOUR: String(HOURLY), SEARCHES_PER_MONTH: '0' });
const post = (path: string, body: unknown) => running.service.post(path, body);
const used = async () => (await post('/v1/usage', {})).json.data.hour.used as number;

describe('a request refused whole before its first paid search', () => {
  it('gives back what a profiles request reserved and did not use: 1 + enrich reserved, the pages of found authors used', async () => {
    // 'Nebel' is one search and 3 profile pages at enrich 3; reserving enrich 8 holds 9, uses 4.
    const reply = await post('/v1/alpha/scholar/profiles', { query: 'Nebel', num: 3, enrich: 8 });
    expect(reply.status).toBe(200);
    expect(running.upstream.calls()).toBe(4);
    expect(await used()).toBe(4);
  });

  it('gives back the units of calls the provider did not bill', async () => {
    running.upstream.respond((q) => (q.get('engine') === 'google_scholar_author' ? 'status500' : undefined));
    // Every page failing fails the request; nothing of the 3 pages (9 attempts) is counted, the search is.
    const reply = await post('/v1/alpha/scholar/profiles', { query: 'Lee', enrich: 3 });
    expect(reply.status).toBe(502);
    expect(await used()).toBe(5);
  });

  it('spends all but one: 2 searches and 1 search', async () => {
    expect((await post('/v1/alpha/scholar/profiles', { query: 'Rey', num: 2, enrich: 1 })).status).toBe(200);
    expect((await post('/v1/web-search/alpha', { q: 'one more' })).status).toBe(200);
    expect(await used()).toBe(HOURLY - 1);
  });

  it('refuses trends with 1 search left: 429, no upstream call, the two calls named', async () => {
    const reply = await post('/v1/alpha/trends', { queries: ['coffee'] });
    expect(reply.status).toBe(429);
    expect(reply.json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(reply.json.error.details).toMatch(
      /^The deployment's budget: 1 of 9 searches left this hour, fewer than the 2 this request can make \(interest over time, then interest by region\); it resets at /,
    );
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(running.upstream.calls()).toBe(0);
  });

  it('refuses profiles with enrich ≥ 1 with 1 search left, saying to ask for enrich 0, with no upstream call', async () => {
    for (const enrich of [1, 5]) {
      const reply = await post('/v1/alpha/scholar/profiles', { query: 'Honglak Lee', enrich });
      expect(reply.status).toBe(429);
      expect(reply.json.error.details).toMatch(
        new RegExp(
          `fewer than the ${1 + enrich} this request can make \\(the search and up to ${enrich} profile pages \\("enrich"\\)\\)`,
        ),
      );
      expect(reply.json.error.details).toMatch(/Ask for less: "enrich": 0 makes 1 \(the search and 0 profile pages/);
    }
    expect(running.upstream.calls()).toBe(0);
    expect(await used()).toBe(HOURLY - 1);
  });

  it('refuses a citation search from the index it cannot cover, and answers the same search with "citation_source": "auto"', async () => {
    const refused = await post('/v1/cite/search', { query: 'coffee', results: 3, citation_source: 'index' });
    expect(refused.status).toBe(429);
    expect(refused.json.error.details).toMatch(/Ask for less: "citation_source": "auto" makes 1/);
    expect(running.upstream.calls()).toBe(0);
    expect((await post('/v1/cite/search', { query: 'coffee', results: 3 })).status).toBe(200);
    expect(running.upstream.calls()).toBe(1);
  });

  it('refuses a single search once nothing is left, without advice', async () => {
    const reply = await post('/v1/alpha/scholar/profiles', { query: 'Honglak Lee', enrich: 0 });
    expect(reply.status).toBe(429);
    expect(reply.json.error.details).toMatch(/^The deployment's budget of 9 searches this hour is used up; it resets at /);
    expect(running.upstream.calls()).toBe(0);
  });
});
