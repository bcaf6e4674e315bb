import { describe, expect, it } from 'vitest';
import { sample } from '../../lib/local/samples.js';
import { TEST_UPSTREAM_KEY, useService } from '../support/service.js';

const harness = useService();

const RECORDED_DISPLAYED_LINKS = (sample('google') as { organic_results: { displayed_link?: string }[] }).organic_results.map(
  (result) => result.displayed_link,
);

function lastQuery(): Record<string, string> {
  const query = harness.upstream.requests.at(-1);
  if (!query) throw new Error('no upstream call was made');
  return Object.fromEntries(query);
}

describe('POST /v1/web-search/alpha', () => {
  it('sends q, location, hl (lower-cased, as Google lists it) and start = page × num to engine google, and no num', async () => {
    const reply = await harness.service.post('/v1/web-search/alpha', {
      q: ' coffee ',
      location: 'Austin, Texas',
      language: 'EN',
      page: 2,
      num: 5,
    });
    expect(reply.status).toBe(200);
    expect(lastQuery()).toEqual({
      engine: 'google',
      q: 'coffee',
      location: 'Austin, Texas',
      hl: 'en',
      start: '10',
      api_key: TEST_UPSTREAM_KEY,
    });
  });

  it('answers the envelope with every spec field typed as the contract says', async () => {
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const { success, message, data, error } = reply.json;
    expect(success).toBe(true);
    expect(message).toBe('8 results');
    expect(error).toBeUndefined();
    expect(data.search_information.total_results).toBe(4_340_000_000);
    expect(data.organic_results).toHaveLength(8);
    data.organic_results.forEach((r: Record<string, unknown>, i: number) => {
      expect(r).toMatchObject({ rank: i + 1, position: i + 1 });
      for (const field of ['title', 'link', 'snippet']) expect(typeof r[field]).toBe('string');
      // The recorded page's own displayed link, passed on as it came (null only where the page has none).
      expect(r.displayed_link).toBe(RECORDED_DISPLAYED_LINKS[i] ?? null);
    });
    expect(data.people_also_ask.length).toBeGreaterThan(0);
    expect(typeof data.people_also_ask[0].question).toBe('string');
    expect(data.relatedSearches[0]).toEqual({ query: 'coffee near me', link: expect.any(String) });
    expect(data.pagination).toEqual({ current_page: 0, next_page: 1, has_more: true, page_size: 10 });
  });

  it('ranks page 1 from num + 1', async () => {
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee', page: 1, num: 3 });
    expect(reply.json.data.organic_results.map((r: { rank: number }) => r.rank)).toEqual([4, 5, 6]);
  });

  it('answers 400 for num over 10, which Google cannot serve in one page, with no upstream call', async () => {
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee', num: 11 });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toEqual({ code: 'INVALID_REQUEST', details: 'num: must be an integer from 1 to 10' });
    expect(harness.upstream.calls()).toBe(0);
  });
});

describe('POST /v1/web-search/bravo', () => {
  it('maps region, date, safe_search and page to kl, df, safe, start and m on engine duckduckgo (constructed sample: no recorded answer holds these fields)', async () => {
    const reply = await harness.service.post('/v1/web-search/bravo', {
      q: 'coffee',
      region: 'US-en',
      date: 'week',
      safe_search: 'off',
      page: 1,
    });
    expect(reply.status).toBe(200);
    expect(lastQuery()).toEqual({
      engine: 'duckduckgo',
      q: 'coffee',
      kl: 'us-en',
      df: 'w',
      safe: '-2',
      start: '30',
      m: '30',
      api_key: TEST_UPSTREAM_KEY,
    });
    expect(reply.json.data.organic_results[0]).toEqual({
      rank: 31,
      title: 'Coffee - Wikipedia',
      link: 'https://en.wikipedia.org/wiki/Coffee',
      snippet: expect.any(String),
      favicon: 'https://external-content.duckduckgo.com/ip3/en.wikipedia.org.ico',
    });
    expect(reply.json.data.related_searches[0]).toEqual({ query: 'coffee near me', link: expect.any(String) });
  });

  it.each([
    ['a region DuckDuckGo does not list', { q: 'coffee', region: 'us-fr' }, "region: must be one of DuckDuckGo's region codes"],
    ['q over 500 characters, which DuckDuckGo refuses', { q: 'x'.repeat(501) }, 'q: must be at most 500 characters'],
  ])('answers 400 for %s, with no upstream call', async (_name, body, details) => {
    const reply = await harness.service.post('/v1/web-search/bravo', body);
    expect(reply.status).toBe(400);
    expect(reply.json.error.details).toContain(details);
    expect(harness.upstream.calls()).toBe(0);
  });
});

describe('POST /v1/web-search/charlie', () => {
  it('sends mkt as Bing lists it (lower case), safeSearch, and first = page × 10 + 1 to engine bing (constructed sample: no recorded answer holds these fields)', async () => {
    const reply = await harness.service.post('/v1/web-search/charlie', {
      q: 'coffee',
      market: 'en-US',
      safe_search: 'strict',
      page: 1,
    });
    expect(reply.status).toBe(200);
    expect(lastQuery()).toEqual({
      engine: 'bing',
      q: 'coffee',
      mkt: 'en-us',
      safeSearch: 'strict',
      first: '11',
      api_key: TEST_UPSTREAM_KEY,
    });
    const first = reply.json.data.charlie_data[0];
    expect(first).toEqual({
      rank: 11,
      title: expect.any(String),
      link: expect.any(String),
      snippet: expect.any(String),
      displayed_link: expect.any(String),
    });
  });

  it('sends cc as Bing lists it (upper case)', async () => {
    await harness.service.post('/v1/web-search/charlie', { q: 'coffee', cc: 'gb' });
    expect(lastQuery()).toMatchObject({ cc: 'GB', first: '1' });
    expect(lastQuery()).not.toHaveProperty('mkt');
  });

  it.each([
    [
      'market and cc together (Bing takes one or the other)',
      { market: 'en-US', cc: 'us' },
      'cc: must not be given together with market',
    ],
    ['a market Bing does not list', { market: 'en-XX' }, "market: must be one of Bing's market codes"],
    ['a country Bing does not list (uk: Bing calls it GB)', { cc: 'uk' }, "cc: must be one of Bing's country codes"],
  ])('answers 400 for %s, with no upstream call', async (_name, fields, details) => {
    const reply = await harness.service.post('/v1/web-search/charlie', { q: 'coffee', ...fields });
    expect(reply.status).toBe(400);
    expect(reply.json.error.details).toContain(details);
    expect(harness.upstream.calls()).toBe(0);
  });
});

describe('POST /v1/web-search/delta', () => {
  it('sends pn = page × 10 when pn is absent, on engine baidu', async () => {
    const reply = await harness.service.post('/v1/web-search/delta', { q: '咖啡', page: 2 });
    expect(reply.status).toBe(200);
    expect(lastQuery()).toEqual({ engine: 'baidu', q: '咖啡', pn: '20', api_key: TEST_UPSTREAM_KEY });
    expect(reply.json.data.Delta_data[0].rank).toBe(21);
    expect(reply.json.data.Delta_data).toHaveLength(10);
  });

  it('lets pn win over page and maps ct, site and the date range', async () => {
    const reply = await harness.service.post('/v1/web-search/delta', {
      q: 'ospp',
      page: 3,
      pn: 7,
      ct: 'traditional',
      site: 'example.com',
      date_from: '2024-01-01',
      date_to: '2024-01-31',
    });
    expect(reply.status).toBe(200);
    expect(lastQuery()).toEqual({
      engine: 'baidu',
      q: 'ospp',
      pn: '7',
      ct: '3',
      q6: 'example.com',
      gpc: 'stf=1704067200,1706745599|stftype=1',
      api_key: TEST_UPSTREAM_KEY,
    });
    expect(reply.json.data.Delta_data[0].rank).toBe(8);
  });
});
