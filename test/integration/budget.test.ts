/**
 * The spending budget in one process (the local server's in-memory counter), over real HTTP: strangers
 * never counted, cache hits never counted, a key's own daily limit, a citation fan-out that runs out
 * mid-page, the 429 with Retry-After, and POST /v1/usage. The tests run in order: each one's spending is
 * the next one's starting point, as in one real hour.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ACCOUNT } from '../support/fake-serpapi.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';
import { clearOfWindowEdges } from '../support/window-edges.js';

const HOURLY = 4;
const LIMITED_KEY = 'limited-key-0123456789';

// The tests of this file share one process's counts, in one hour: none may start with the hour about to
// end (test/support/window-edges.ts).
beforeAll(() => clearOfWindowEdges(120_000), 150_000);
const running = useService({
  SEARCHES_PER_HOUR: String(HOURLY),
  SEARCHES_PER_MONTH: '1000',
  // The main key has no limits of its own (none: not even its share of the two keys' deployment), so that it
  // can spend the whole hour; test/integration/budget-shares.test.ts is about the shares.
  API_KEYS: `main:${TEST_CLIENT_KEY}:hourly=none:daily=none,limited:${LIMITED_KEY}:daily=1`,
  ANSWER_CACHE_TTL_SECONDS: '3600',
  ACCOUNT_API_TTL_SECONDS: '600',
});

const upstream = {
  calls: () => running.upstream.calls(),
  get accountReads() {
    return running.upstream.accountReads;
  },
};
const service = { post: (...args: Parameters<typeof running.service.post>) => running.service.post(...args) };
const asLimited = { headers: { Authorization: `Bearer ${LIMITED_KEY}` } };

/** Retry-After must be the seconds from the answer to the window's end, within the time the request took. */
async function expectRetryAfter(send: () => Promise<{ headers: Headers }>, endOf: (now: Date) => number) {
  const before = Date.now();
  const reply = await send();
  const after = Date.now();
  const seconds = Number(reply.headers.get('retry-after'));
  expect(seconds).toBeGreaterThanOrEqual(Math.ceil((endOf(new Date(after)) - after) / 1000));
  expect(seconds).toBeLessThanOrEqual(Math.ceil((endOf(new Date(before)) - before) / 1000));
}

const endOfHour = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
const endOfDay = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);

describe('the spending budget (one process, memory counter)', () => {
  it('never counts a request without a valid key: strangers cannot spend or block the budget', async () => {
    for (const headers of [
      { Authorization: '' },
      { Authorization: 'Bearer wrong-key-0123456789' },
      { Authorization: 'Basic x' },
    ]) {
      for (let i = 0; i < 3; i++) {
        const reply = await service.post('/v1/web-search/alpha', { q: `stranger ${i}` }, { headers });
        expect(reply.status).toBe(401);
      }
    }
    expect(upstream.calls()).toBe(0);
    const usage = await service.post('/v1/usage', {});
    expect(usage.status).toBe(200);
    expect(usage.json.data.hour).toMatchObject({ limit: HOURLY, used: 0, left: HOURLY });
  });

  it('refuses a key over its own daily limit with 429 naming that limit, while other clients go on', async () => {
    expect((await service.post('/v1/web-search/alpha', { q: 'limited one' }, asLimited)).status).toBe(200);
    const refused = await service.post('/v1/web-search/alpha', { q: 'limited two' }, asLimited);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(refused.json.error.details).toMatch(/your key's own limit of 1 searches today/i);
    await expectRetryAfter(() => service.post('/v1/web-search/alpha', { q: 'limited three' }, asLimited), endOfDay);
    expect(upstream.calls()).toBe(1);

    expect((await service.post('/v1/web-search/alpha', { q: 'main one' })).status).toBe(200);
    expect(upstream.calls()).toBe(2);
    const limitedUsage = await service.post('/v1/usage', {}, asLimited);
    expect(limitedUsage.json.data.client).toMatchObject({ name: 'limited', today: { limit: 1, used: 1, left: 0 } });
    const mainUsage = await service.post('/v1/usage', {});
    expect(mainUsage.json.data.client.today).toMatchObject({ limit: null, used: 1, left: null });
    expect(mainUsage.json.data.hour).toMatchObject({ used: 2, left: HOURLY - 2 });
  });

  it('never counts an answer from the cache', async () => {
    const again = await service.post('/v1/web-search/alpha', { q: 'main one' });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-cache')).toBe('hit');
    expect(upstream.calls()).toBe(0);
    expect((await service.post('/v1/usage', {})).json.data.hour.used).toBe(2);
  });

  it('refuses a citation search from the index that the budget cannot cover whole, before any paid call, saying how to ask for less', async () => {
    // Two searches left: the scholarly search and two cite calls would be three.
    const refused = await service.post('/v1/cite/search', { query: 'budget run out', results: 2, citation_source: 'index' });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(refused.json.error.details).toMatch(/2 of 4 searches left this hour, fewer than the 3 this request can make/);
    expect(refused.json.error.details).toMatch(
      /Ask for less: "citation_source": "auto" makes 1 .*, or "results": 1 with "index"/,
    );
    await expectRetryAfter(
      () => service.post('/v1/cite/search', { query: 'budget run out', results: 2, citation_source: 'index' }),
      endOfHour,
    );
    expect(upstream.calls()).toBe(0);
    // What it says fits: one paper from the index is the search and one cite call.
    const fits = await service.post('/v1/cite/search', { query: 'budget run out', results: 1, citation_source: 'index' });
    expect(fits.status).toBe(200);
    expect(upstream.calls()).toBe(2);
    expect((fits.json.data.papers as { citations_source: string }[]).map((p) => p.citations_source)).toEqual(['index']);
  });

  it('refuses the next paid search with 429 BUDGET_EXHAUSTED and Retry-After to the end of the hour', async () => {
    const refused = await service.post('/v1/web-search/alpha', { q: 'one too many' });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ success: false, data: null, error: { code: 'BUDGET_EXHAUSTED' } });
    expect(refused.json.error.details).toMatch(/deployment's budget of 4 searches this hour is used up/);
    await expectRetryAfter(() => service.post('/v1/web-search/bravo', { q: 'one too many' }), endOfHour);
    expect(upstream.calls()).toBe(0);
    // The cache still answers.
    expect((await service.post('/v1/web-search/alpha', { q: 'main one' })).status).toBe(200);
  });

  it("POST /v1/usage shows the hour, the month, the caller's day and the plan's own numbers", async () => {
    const usage = await service.post('/v1/usage', {});
    expect(usage.status).toBe(200);
    expect(upstream.calls()).toBe(0);
    const { data } = usage.json;
    expect(data.hour).toMatchObject({ limit: HOURLY, used: HOURLY, left: 0 });
    expect(data.hour.resets_at).toBe(new Date(endOfHour(new Date())).toISOString().replace('.000Z', 'Z'));
    expect(data.month).toMatchObject({ limit: 1000, used: HOURLY, left: 1000 - HOURLY });
    expect(data.plan).toMatchObject({
      plan_name: FAKE_ACCOUNT.plan_name,
      searches_per_month: FAKE_ACCOUNT.searches_per_month,
      account_rate_limit_per_hour: FAKE_ACCOUNT.account_rate_limit_per_hour,
    });
    expect(upstream.accountReads).toBeGreaterThanOrEqual(1);
    // The Account API's key and e-mail never reach a client.
    expect(usage.text).not.toContain(FAKE_ACCOUNT.account_email);
  });
});
