/**
 * Google's AI overview when the search answer holds only a token for it (SerpApi `google_ai_overview`,
 * https://serpapi.com/google-ai-overview-api): fetched only when the request asks (`fetch_ai_overview`),
 * right after the search, counted as a second paid search, cached like any answer, and asked for only when
 * the budget has room for both searches before the first is made. The tests run in order, as in one real
 * hour of a budget of 9 searches: each one's spending is the next one's starting point.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Fault } from '../support/fake-serpapi.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';
import { clearOfWindowEdges } from '../support/window-edges.js';

const HOURLY = 9;
const LIMITED_KEY = 'limited-key-0123456789';
// The tests of this file share one process's counts, in one hour: none may start with the hour about to
// end (test/support/window-edges.ts).
beforeAll(() => clearOfWindowEdges(120_000), 150_000);
const harness = useService({
  SEARCHES_PER_HOUR: String(HOURLY),
  SEARCHES_PER_MONTH: '1000',
  ANSWER_CACHE_TTL_SECONDS: '3600',
  // The main key has no limits of its own, not even its share of the two keys' deployment: it spends the hour.
  API_KEYS: `main:${TEST_CLIENT_KEY}:hourly=none:daily=none,limited:${LIMITED_KEY}:daily=1`,
});

type Json = Record<string, unknown>;
const GOOGLE = JSON.parse(
  readFileSync(new URL('../fixtures/serpapi/google-2026-01-03-ai-overview.json', import.meta.url), 'utf8'),
) as Json;
// The real answer's "People also ask" overview, served as the google_ai_overview engine's answer (the shape
// SerpApi documents: search_metadata, search_parameters, ai_overview {text_blocks, references}).
const overview = (GOOGLE.related_questions as Json[])[2] as Json;
const TOKEN = 'eyJvbnMiOiIxMDA0MSIsImZjIjoiRXFFQkNtSkJUR3QwWDNaRlUxaHpZ';
/** The search answer with only a token for its overview (each real search gets a token of its own). */
const searchWithToken = (token: string) => ({
  ...GOOGLE,
  ai_overview: {
    page_token: token,
    serpapi_link: `https://serpapi.com/search.json?engine=google_ai_overview&page_token=${token}`,
  },
});
const SEARCH_WITH_TOKEN = searchWithToken(TOKEN);
const FOLLOW_UP = {
  search_metadata: { status: 'Success', created_at: '2026-01-03 14:20:02 UTC' },
  search_parameters: { engine: 'google_ai_overview', page_token: TOKEN },
  ai_overview: { text_blocks: overview.text_blocks, references: overview.references },
};

/** The search answers `search`; the overview engine answers `followUp` for `token`, and refuses any other. */
function upstreamWith(search: Json, followUp: Fault = { json: FOLLOW_UP }, token = TOKEN) {
  harness.upstream.respond((query) => {
    if (query.get('engine') !== 'google_ai_overview') return { json: search };
    return query.get('page_token') === token ? followUp : { json: { error: 'Invalid page_token' } };
  });
}

const engines = () => harness.upstream.requests.map((query) => query.get('engine'));
const hourUsed = async () => (await harness.service.post('/v1/usage', {})).json.data.hour.used as number;

describe('the AI overview Google holds back for a second request (web search alpha)', () => {
  it('is not fetched by default: one paid search, and the answer says how to ask for the overview', async () => {
    upstreamWith(SEARCH_WITH_TOKEN);
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee a' });
    expect(reply.status, reply.text).toBe(200);
    expect(engines()).toEqual(['google']);
    expect(reply.json.data.ai_overview).toEqual({
      state: 'not_fetched',
      text_blocks: [],
      references: [],
      note: expect.stringContaining('"fetch_ai_overview": true'),
      error: null,
    });
    expect(reply.json.message).toBe('9 results');
    expect(await hourUsed()).toBe(1);
  });

  it("checks a key's own daily limit the same way, before any paid search", async () => {
    upstreamWith(SEARCH_WITH_TOKEN);
    const refused = await harness.service.post(
      '/v1/web-search/alpha',
      { q: 'coffee f', fetch_ai_overview: true },
      { headers: { Authorization: `Bearer ${LIMITED_KEY}` } },
    );
    expect(refused.status).toBe(429);
    // The deployment's hour has room; the key's own day does not.
    expect(refused.json.error.details).toMatch(
      /^Your key's own limit: 1 of 1 searches left today, fewer than the 2 this request can make/,
    );
    expect(harness.upstream.calls()).toBe(0);
  });

  it('with fetch_ai_overview: a second paid search with the answer’s token, right after; 7 text blocks, 11 references', async () => {
    upstreamWith(SEARCH_WITH_TOKEN);
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee b', fetch_ai_overview: true });
    expect(reply.status, reply.text).toBe(200);
    expect(engines()).toEqual(['google', 'google_ai_overview']);
    const followUp = harness.upstream.requests[1];
    expect(followUp?.get('page_token')).toBe(TOKEN);
    // Only what SerpApi documents for the engine: its engine, the token and the key.
    expect([...(followUp?.keys() ?? [])].sort()).toEqual(['api_key', 'engine', 'page_token']);
    const { ai_overview: fetched } = reply.json.data;
    expect(fetched.state).toBe('fetched');
    expect(fetched.text_blocks).toHaveLength(7);
    expect(fetched.references).toHaveLength(11);
    expect(fetched.text_blocks[0].text).toBe((overview.text_blocks as Json[])[0]?.snippet);
    expect([fetched.note, fetched.error]).toEqual([null, null]);
    expect(reply.json.message).toBe('9 results');
    expect(await hourUsed()).toBe(3);
  });

  it('asked again: both answers come from the cache, and nothing is paid', async () => {
    upstreamWith(SEARCH_WITH_TOKEN);
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee b', fetch_ai_overview: true });
    expect(reply.status).toBe(200);
    expect(harness.upstream.calls()).toBe(0);
    expect(reply.headers.get('x-cache')).toBe('hit');
    expect(reply.json.data.ai_overview.state).toBe('fetched');
    expect(await hourUsed()).toBe(3);
  });

  it('with no_cache: both afresh, SerpApi asked not to answer from its own cache either', async () => {
    upstreamWith(SEARCH_WITH_TOKEN);
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee b', fetch_ai_overview: true, no_cache: true });
    expect(reply.status).toBe(200);
    expect(engines()).toEqual(['google', 'google_ai_overview']);
    expect(harness.upstream.requests.map((query) => query.get('no_cache'))).toEqual(['true', 'true']);
    expect(await hourUsed()).toBe(5);
  });

  it('costs nothing more when the search answer holds the overview itself', async () => {
    upstreamWith({ ...GOOGLE, ai_overview: FOLLOW_UP.ai_overview });
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee e', fetch_ai_overview: true });
    expect(reply.status).toBe(200);
    expect(engines()).toEqual(['google']);
    expect(reply.json.data.ai_overview.state).toBe('inline');
    expect(reply.json.data.ai_overview.text_blocks).toHaveLength(7);
    expect(await hourUsed()).toBe(6);
  });

  it('a failed follow-up still answers the search: the overview says failed, with the code, and the message says so', async () => {
    upstreamWith(searchWithToken('another-token'), { json: { error: 'The page_token has expired.' } }, 'another-token');
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee d', fetch_ai_overview: true });
    expect(reply.status, reply.text).toBe(200);
    expect(engines()).toEqual(['google', 'google_ai_overview']);
    expect(reply.json.data.organic_results).toHaveLength(9);
    expect(reply.json.data.ai_overview).toMatchObject({
      state: 'failed',
      text_blocks: [],
      error: { code: 'UPSTREAM_ERROR', details: expect.stringContaining('The page_token has expired.') },
      note: expect.stringContaining('2026-01-03 14:20:00 UTC'),
    });
    expect(reply.json.message).toBe('9 results; AI overview not fetched (UPSTREAM_ERROR)');
    // The follow-up the provider answered with an error is not billed, so not counted: the search is.
    expect(await hourUsed()).toBe(7);
  });

  it('with room for one search only: 429 before any paid search when asked for the overview; without, the search goes on', async () => {
    upstreamWith(SEARCH_WITH_TOKEN);
    expect((await harness.service.post('/v1/web-search/alpha', { q: 'coffee g' })).status).toBe(200);
    harness.upstream.reset();
    upstreamWith(SEARCH_WITH_TOKEN);
    const refused = await harness.service.post('/v1/web-search/alpha', { q: 'coffee c', fetch_ai_overview: true });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(refused.json.error.details).toMatch(
      /^The deployment's budget: 1 of 9 searches left this hour, fewer than the 2 this request can make \(the search and, when Google holds it back, the AI overview \(fetch_ai_overview\)\); it resets at \d{4}-\d\d-\d\dT\d\d:00:00Z\. Ask for less: without "fetch_ai_overview" the search costs 1\. Answers already in the cache are still served\.$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(harness.upstream.calls()).toBe(0);
    expect(await hourUsed()).toBe(8);
    // Both the hour and the limited key's day are short now: the day, the last to reset (the real wait), is named.
    const limited = await harness.service.post(
      '/v1/web-search/alpha',
      { q: 'coffee c', fetch_ai_overview: true },
      { headers: { Authorization: `Bearer ${LIMITED_KEY}` } },
    );
    expect(limited.json.error.details).toMatch(
      /^Your key's own limit: 1 of 1 searches left today, fewer than the 2 this request can make/,
    );
    expect(harness.upstream.calls()).toBe(0);

    const plain = await harness.service.post('/v1/web-search/alpha', { q: 'coffee c' });
    expect(plain.status).toBe(200);
    expect(engines()).toEqual(['google']);
    expect(await hourUsed()).toBe(HOURLY);
  });
});
