/**
 * The six alpha-services endpoints over real HTTP against the fake upstream: the exact upstream query of
 * each, every spec field and its type, one validation failure per rule (with no upstream call), and the
 * partial-failure rules of trends, author-citation and profile enrichment.
 */
import { describe, expect, it } from 'vitest';
import { responseSchema as imagesContract } from '../../lib/contract/alpha-images.js';
import { responseSchema as newsContract } from '../../lib/contract/alpha-news.js';
import { responseSchema as trendsContract } from '../../lib/contract/alpha-trends.js';
import { responseSchema as authorContract } from '../../lib/contract/scholar-author.js';
import { responseSchema as citationContract } from '../../lib/contract/scholar-author-citation.js';
import { responseSchema as profilesContract } from '../../lib/contract/scholar-profiles.js';
import { type Reply, TEST_UPSTREAM_KEY, useService } from '../support/service.js';

// A short attempt timeout, so that a hanging upstream gives up quickly.
const harness = useService({ UPSTREAM_TIMEOUT_MS: '400' });

/** Every query the upstream received for this engine (and data type, for trends), as plain objects. */
function queries(engine: string, filter: (q: URLSearchParams) => boolean = () => true): Record<string, string>[] {
  return harness.upstream.requests.filter((q) => q.get('engine') === engine && filter(q)).map((q) => Object.fromEntries(q));
}

function expectSuccess(reply: Reply) {
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(reply.json.success).toBe(true);
  expect(typeof reply.json.message).toBe('string');
  expect(reply.json.error).toBeUndefined();
}

function expectFailure(reply: Reply, status: number, code: string) {
  expect(reply.status).toBe(status);
  expect(reply.json).toMatchObject({ success: false, data: null, error: { code } });
  expect(typeof reply.json.message).toBe('string');
  expect(typeof reply.json.error.details).toBe('string');
}

describe('POST /v1/alpha/scholar/profiles', () => {
  const PATH = '/v1/alpha/scholar/profiles';
  const used = async () => (await harness.service.post('/v1/usage', {})).json.data.hour.used as number;

  it('discovers authors with one google_scholar author: search, enriches 5 by default, and never calls the retired engine', async () => {
    const reply = await harness.service.post(PATH, { query: ' Honglak Lee ', country: 'us' });
    expectSuccess(reply);
    expect(queries('google_scholar')).toEqual([
      { engine: 'google_scholar', q: 'author:"Honglak Lee"', num: '20', api_key: TEST_UPSTREAM_KEY },
    ]);
    expect(harness.upstream.calls('google_scholar_profiles')).toBe(0);
    const authorCalls = queries('google_scholar_author');
    expect(authorCalls).toHaveLength(5);
    const { profiles } = reply.json.data;
    expect(() => profilesContract.parse(reply.json.data)).not.toThrow();
    expect(profiles).toHaveLength(10);
    expect(reply.json.message).toBe('10 profiles of 15 authors found');
    // The name that matches the query ranks first, and the enriched ones are the top of the page.
    expect(authorCalls.map((q) => q.author_id)).toEqual(profiles.slice(0, 5).map((p: { author_id: string }) => p.author_id));
    expect(profiles[0]).toMatchObject({ author_id: 'fmSHtE8AAAAJ', cited_by: 38511 });
    expect(profiles[0].interests[0]).toEqual({ title: expect.any(String), link: expect.stringMatching(/^https:/) });
    expect(profiles[5]).toMatchObject({ affiliations: '', cited_by: 0, interests: [], email: null });
    // Its 0 is "not read", and it says so beside it; a filled profile carries no such field.
    expect(profiles[5].unfilled).toEqual({
      fields: ['affiliations', 'affiliation', 'email', 'cited_by', 'interests', 'thumbnail'],
      reason: 'not_requested',
      details:
        'Only the first 5 profiles of the page are filled from their profile page ("enrich": 5, at most 10, one paid search each)',
    });
    expect(profiles[0]).not.toHaveProperty('unfilled');
  });

  it('counts each enrichment in the budget: one search call plus one per enriched profile', async () => {
    const before = await used();
    const reply = await harness.service.post(PATH, { query: 'Nebel', enrich: 3, no_cache: true });
    expectSuccess(reply);
    expect((await used()) - before).toBe(4);
    expect(reply.json.data.profiles[0]).toMatchObject({ author_id: '_WTrwUwAAAAJ' });
  });

  it('pages over the discovered authors, and enrich 0 costs only the search', async () => {
    const first = await harness.service.post(PATH, { query: 'Rey', num: 4, enrich: 0 });
    const second = await harness.service.post(PATH, { query: 'Rey', num: 4, page: 1, enrich: 0 });
    const last = await harness.service.post(PATH, { query: 'Rey', num: 4, page: 4, enrich: 0 });
    expect(harness.upstream.calls('google_scholar_author')).toBe(0);
    const ids = (reply: Reply) => reply.json.data.profiles.map((p: { author_id: string }) => p.author_id);
    expect(ids(first)).toHaveLength(4);
    expect(ids(second)).toHaveLength(4);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(8);
    expect(last.json).toMatchObject({ message: 'No results', data: { profiles: [] } });
  });

  it('keeps a profile whose enrichment failed, with the empty values, and says so', async () => {
    harness.upstream.respond((q) => (q.get('author_id') === 'fmSHtE8AAAAJ' ? { status: 500, body: '{}' } : undefined));
    const reply = await harness.service.post(PATH, { query: 'Lee', enrich: 2, no_cache: true });
    harness.upstream.respond(undefined);
    expectSuccess(reply);
    expect(reply.json.message).toMatch(/1 could not be filled from their profile page/);
    expect(reply.json.data.profiles[0]).toMatchObject({
      author_id: 'fmSHtE8AAAAJ',
      affiliations: '',
      cited_by: 0,
      unfilled: {
        reason: 'upstream_error',
        code: 'UPSTREAM_ERROR',
        details: expect.stringMatching(/^Its profile page could not be read: /),
      },
    });
    expect(() => profilesContract.parse(reply.json.data)).not.toThrow();
    expect(reply.json.data.profiles[1].cited_by).toBe(38511);
  });

  it('answers 502 UPSTREAM_ENGINE_RETIRED when the provider answers with its deprecation message', async () => {
    harness.upstream.queue({ json: { error: 'Google Scholar API is discontinued.' } });
    const reply = await harness.service.post(PATH, { query: 'Mike', no_cache: true });
    expectFailure(reply, 502, 'UPSTREAM_ENGINE_RETIRED');
    expect(reply.json.error.details).toContain('Google Scholar API is discontinued.');
  });

  it('answers success with no profiles when the search found none', async () => {
    harness.upstream.queue('noResults');
    const reply = await harness.service.post(PATH, { query: 'Zzyzx Qwerty' });
    expectSuccess(reply);
    expect(reply.json).toMatchObject({ message: 'No results', data: { profiles: [] } });
  });
});

describe('POST /v1/alpha/scholar/author', () => {
  const PATH = '/v1/alpha/scholar/author';

  it('sends author_id, hl, sort, start = page × num and num to engine google_scholar_author', async () => {
    const reply = await harness.service.post(PATH, {
      author_id: 'LSsXyncAAAAJ',
      language: 'en',
      sort: 'pubdate',
      page: 2,
      num: 10,
    });
    expectSuccess(reply);
    expect(queries('google_scholar_author')).toEqual([
      {
        engine: 'google_scholar_author',
        author_id: 'LSsXyncAAAAJ',
        hl: 'en',
        sort: 'pubdate',
        start: '20',
        num: '10',
        api_key: TEST_UPSTREAM_KEY,
      },
    ]);
  });

  it('sends the defaults (page 0, num 20) and no sort for cited, the upstream default order', async () => {
    await harness.service.post(PATH, { author_id: 'LSsXyncAAAAJ', sort: 'cited' });
    expect(queries('google_scholar_author')).toEqual([
      { engine: 'google_scholar_author', author_id: 'LSsXyncAAAAJ', start: '0', num: '20', api_key: TEST_UPSTREAM_KEY },
    ]);
  });

  it('answers author, articles, cited_by with h-index, i10-index and graph, co_authors and public_access (constructed sample: no recorded answer holds these fields)', async () => {
    const reply = await harness.service.post(PATH, { author_id: 'LSsXyncAAAAJ' });
    expectSuccess(reply);
    expect(reply.json.message).toBe('3 articles');
    const { data } = reply.json;
    expect(() => authorContract.parse(data)).not.toThrow();
    expect(data.author).toMatchObject({ name: 'Cliff Meyer', email: expect.any(String), thumbnail: expect.any(String) });
    expect(data.author.interests[0]).toEqual({ title: 'Computational Biology', link: expect.any(String) });
    expect(data.articles).toHaveLength(3);
    expect(data.articles[0]).toMatchObject({
      title: expect.any(String),
      citation_id: 'LSsXyncAAAAJ:2osOgNQ5qMEC',
      year: 2008,
      cited_by: { count: 15712, cites_id: '7996412425536165830' },
    });
    expect(data.cited_by).toMatchObject({
      citations: { all: 38511, since: 16134 },
      h_index: { all: 61, since: 44 },
      i10_index: { all: 111, since: 97 },
      since_year: 2019,
    });
    expect(data.cited_by.graph).toHaveLength(6);
    expect(data.cited_by.graph[0]).toEqual({ year: 2019, citations: 2750 });
    expect(data.co_authors[0]).toMatchObject({ name: 'X. Shirley Liu', author_id: 'example1AAAAJ' });
    expect(data.public_access).toEqual({ available: 117, not_available: 5, link: expect.any(String) });
    expect(data.pagination).toEqual({ current_page: 0, next_page: 1, has_more: true, page_size: 20 });
  });
});

describe('POST /v1/alpha/scholar/author-citation', () => {
  const PATH = '/v1/alpha/scholar/author-citation';

  it('sends view_op=view_citation, then cites=<id from the cited-by link> to engine google_scholar', async () => {
    const reply = await harness.service.post(PATH, { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C', language: 'en' });
    expectSuccess(reply);
    expect(queries('google_scholar_author')).toEqual([
      {
        engine: 'google_scholar_author',
        author_id: 'LSsXyncAAAAJ',
        view_op: 'view_citation',
        citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C',
        hl: 'en',
        api_key: TEST_UPSTREAM_KEY,
      },
    ]);
    expect(queries('google_scholar')).toEqual([
      { engine: 'google_scholar', cites: '1234567890', hl: 'en', api_key: TEST_UPSTREAM_KEY },
    ]);
    expect(harness.upstream.requests).toHaveLength(2);
  });

  it('answers citations with title, authors, publication_date, total_citations and the citing articles (constructed sample: no recorded answer holds these fields)', async () => {
    const reply = await harness.service.post(PATH, { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C', author_id: 'LSsXyncAAAAJ' });
    expectSuccess(reply);
    expect(reply.json.message).toBe('Citation details found, with 2 citing documents');
    const { data } = reply.json;
    expect(() => citationContract.parse(data)).not.toThrow();
    expect(data.unavailable).toEqual([]);
    expect(data.citations).toMatchObject({
      title: 'Genome-wide analysis of estrogen receptor binding sites',
      authors: expect.stringContaining('Jason S Carroll'),
      publication_date: '2006/11',
      total_citations: {
        count: 1630,
        link: 'https://scholar.google.com/scholar?oi=bibs&hl=en&cites=1234567890&as_sdt=5',
        cites_id: '1234567890',
      },
    });
    expect(data.citations.articles.map((a: { rank: number; title: string }) => [a.rank, typeof a.title])).toEqual([
      [1, 'string'],
      [2, 'string'],
    ]);
  });

  it('still answers the citation, with empty articles and a message that says so, when the second call fails', async () => {
    harness.upstream.respond((q) => (q.get('engine') === 'google_scholar' ? 'errorBody' : undefined));
    const reply = await harness.service.post(PATH, { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C' });
    expectSuccess(reply);
    expect(reply.json.message).toMatch(/^Citation details found; the documents citing it could not be fetched \(/);
    expect(reply.json.data.citations.title).toBe('Genome-wide analysis of estrogen receptor binding sites');
    expect(reply.json.data.citations.articles).toEqual([]);
    expect(reply.json.data.unavailable).toEqual([
      { part: 'citations.articles', code: 'UPSTREAM_ERROR', details: expect.any(String) },
    ]);
    expect(() => citationContract.parse(reply.json.data)).not.toThrow();
  });

  it('fails with the upstream error when the citation itself cannot be fetched, without a second call', async () => {
    harness.upstream.queue('errorBody');
    const reply = await harness.service.post(PATH, { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C' });
    expectFailure(reply, 502, 'UPSTREAM_ERROR');
    expect(harness.upstream.calls('google_scholar')).toBe(0);
  });
});

describe('POST /v1/alpha/trends', () => {
  const PATH = '/v1/alpha/trends';
  const isTimeseries = (q: URLSearchParams) => q.get('data_type') === 'TIMESERIES';
  const isRegions = (q: URLSearchParams) => q.get('data_type')?.startsWith('GEO_MAP') ?? false;

  it('sends two google_trends calls, TIMESERIES and GEO_MAP_0 for one term, with q, geo, date and cat', async () => {
    const reply = await harness.service.post(PATH, { queries: ['coffee'], geo: 'US-CA', timeframe: 'today 3-m', category: 71 });
    expectSuccess(reply);
    const common = {
      engine: 'google_trends',
      q: 'coffee',
      geo: 'US-CA',
      date: 'today 3-m',
      cat: '71',
      api_key: TEST_UPSTREAM_KEY,
    };
    expect(queries('google_trends', isTimeseries)).toEqual([{ ...common, data_type: 'TIMESERIES' }]);
    expect(queries('google_trends', isRegions)).toEqual([{ ...common, data_type: 'GEO_MAP_0' }]);
    expect(harness.upstream.requests).toHaveLength(2);
  });

  it('sends the terms comma-joined and GEO_MAP for several terms', async () => {
    await harness.service.post(PATH, { queries: ['vpn', 'antivirus', 'ad blocker'], timeframe: '2025-05-01 2025-05-01' });
    const common = {
      engine: 'google_trends',
      q: 'vpn,antivirus,ad blocker',
      date: '2025-05-01 2025-05-01',
      api_key: TEST_UPSTREAM_KEY,
    };
    expect(queries('google_trends', isTimeseries)).toEqual([{ ...common, data_type: 'TIMESERIES' }]);
    expect(queries('google_trends', isRegions)).toEqual([{ ...common, data_type: 'GEO_MAP' }]);
  });

  it('answers timeline_data, averages and interest_by_region merged from the two calls', async () => {
    const reply = await harness.service.post(PATH, { queries: ['coffee'] });
    expectSuccess(reply);
    expect(reply.json.message).toBe('1 time point, 3 regions');
    const { data } = reply.json;
    expect(() => trendsContract.parse(data)).not.toThrow();
    expect(data.interest_over_time.timeline_data[0]).toMatchObject({ date: 'May 1, 2025', timestamp: 1746057600 });
    expect(data.interest_over_time.timeline_data[0].values[0]).toEqual({ query: 'vpn', value: 100, formatted_value: '100' });
    expect(data.interest_over_time.averages).toHaveLength(4);
    expect(data.interest_over_time.averages[0]).toEqual({ query: 'vpn', value: 100 });
    expect(data.interest_by_region[0]).toEqual({
      geo: 'SG',
      location: 'Singapore',
      max_value_index: 0,
      values: [{ query: 'coffee', value: 100, formatted_value: '100' }],
    });
    expect(data.unavailable).toEqual([]);
  });

  it('returns interest over time and says interest by region is missing when the region call fails', async () => {
    harness.upstream.respond((q) => (isRegions(q) ? 'errorBody' : undefined));
    const reply = await harness.service.post(PATH, { queries: ['coffee'] });
    expectSuccess(reply);
    expect(reply.json.message).toMatch(/^1 time point, 0 regions; interest by region could not be fetched \(/);
    expect(reply.json.data.interest_over_time.timeline_data).toHaveLength(1);
    expect(reply.json.data.interest_by_region).toEqual([]);
    expect(reply.json.data.unavailable).toEqual([
      { part: 'interest_by_region', code: 'UPSTREAM_ERROR', details: expect.any(String) },
    ]);
  });

  it("stops at a failed time series call: no second, paid, region call, and the first call's error", async () => {
    harness.upstream.respond((q) => (isTimeseries(q) ? 'hang' : undefined));
    const before = (await harness.service.post('/v1/usage', {})).json.data.hour.used as number;
    const reply = await harness.service.post(PATH, { queries: ['coffee'], no_cache: true });
    expectFailure(reply, 504, 'UPSTREAM_TIMEOUT');
    expect(queries('google_trends', isTimeseries).length).toBeGreaterThan(0);
    expect(queries('google_trends', isRegions)).toEqual([]);
    // Nothing was counted: a search that never answered is not billed (its retries neither), and the region
    // call reserved with it was never made.
    const after = (await harness.service.post('/v1/usage', {})).json.data.hour.used as number;
    expect(after - before).toBe(0);
  });

  it('stops at a failed time series call with an upstream error, passing its words on', async () => {
    harness.upstream.respond((q) => (isTimeseries(q) ? 'errorBody' : 'invalidKey'));
    const reply = await harness.service.post(PATH, { queries: ['coffee'] });
    expectFailure(reply, 502, 'UPSTREAM_ERROR');
    expect(reply.json.error.details).toContain('Unsupported `xx` location');
    expect(queries('google_trends', isRegions)).toEqual([]);
  });

  it('stops at a rejected upstream key on the time series call', async () => {
    harness.upstream.respond((q) => (isTimeseries(q) ? 'invalidKey' : undefined));
    const reply = await harness.service.post(PATH, { queries: ['coffee'] });
    expectFailure(reply, 500, 'SERVICE_MISCONFIGURED');
    expect(harness.upstream.requests).toHaveLength(1);
  });
});

describe('POST /v1/alpha/news', () => {
  const PATH = '/v1/alpha/news';

  it('sends q, tbm=nws, location, hl and start = page × 10 to engine google', async () => {
    const reply = await harness.service.post(PATH, { q: 'coffee', location: 'Austin, Texas', language: 'en', page: 2 });
    expectSuccess(reply);
    expect(queries('google')).toEqual([
      { engine: 'google', q: 'coffee', tbm: 'nws', location: 'Austin, Texas', hl: 'en', start: '20', api_key: TEST_UPSTREAM_KEY },
    ]);
  });

  it('answers news_results with title, snippet, source, url and lastUpdated as strings (constructed sample: no recorded answer holds these fields)', async () => {
    const reply = await harness.service.post(PATH, { q: 'coffee' });
    expectSuccess(reply);
    expect(reply.json.message).toBe('5 results');
    expect(() => newsContract.parse(reply.json.data)).not.toThrow();
    expect(harness.upstream.requests.map((q) => q.get('start'))).toEqual(['0']);
    for (const item of reply.json.data.news_results) {
      for (const field of ['title', 'snippet', 'source', 'url', 'lastUpdated']) expect(typeof item[field]).toBe('string');
    }
    expect(reply.json.data.news_results[0]).toMatchObject({ source: 'Example Markets', lastUpdated: '2 hours ago' });
  });

  it('answers source as a string when the upstream gives an object with a name', async () => {
    harness.upstream.queue({
      json: { news_results: [{ title: 'T', link: 'https://n.example/1', source: { name: 'Example Wire' }, date: '1 day ago' }] },
    });
    const reply = await harness.service.post(PATH, { q: 'coffee' });
    expect(reply.json.data.news_results[0]).toMatchObject({
      source: 'Example Wire',
      url: 'https://n.example/1',
      lastUpdated: '1 day ago',
    });
  });
});

describe('POST /v1/alpha/images', () => {
  const PATH = '/v1/alpha/images';

  it('maps size, color, type, license, aspect_ratio, location and page to the upstream names on engine google_images', async () => {
    const reply = await harness.service.post(PATH, {
      q: 'coffee',
      size: 'xxlarge',
      color: 'transparent',
      type: 'clipart',
      license: 'commercial',
      aspect_ratio: 'panoramic',
      location: 'Austin, Texas',
      page: 3,
    });
    expectSuccess(reply);
    expect(queries('google_images')).toEqual([
      {
        engine: 'google_images',
        q: 'coffee',
        imgsz: '10mp',
        image_color: 'trans',
        image_type: 'clipart',
        licenses: 'ol',
        imgar: 'xw',
        location: 'Austin, Texas',
        ijn: '3',
        api_key: TEST_UPSTREAM_KEY,
      },
    ]);
  });

  it('sends only q and ijn=0 when no filter is given', async () => {
    await harness.service.post(PATH, { q: 'coffee' });
    expect(queries('google_images')).toEqual([{ engine: 'google_images', q: 'coffee', ijn: '0', api_key: TEST_UPSTREAM_KEY }]);
  });

  it('answers images_results with string fields and integer dimensions (constructed sample: no recorded answer holds these fields)', async () => {
    const reply = await harness.service.post(PATH, { q: 'coffee', size: 'large' });
    expectSuccess(reply);
    expect(reply.json.message).toBe('5 results');
    expect(() => imagesContract.parse(reply.json.data)).not.toThrow();
    for (const item of reply.json.data.images_results) {
      for (const field of ['title', 'image', 'original', 'source', 'link']) expect(typeof item[field]).toBe('string');
      expect(Number.isInteger(item.original_width)).toBe(true);
      expect(Number.isInteger(item.original_height)).toBe(true);
    }
    expect(reply.json.data.images_results[0]).toMatchObject({
      image: expect.stringMatching(/^https:\/\/encrypted-tbn0/),
      original_width: 1600,
    });
  });
});

describe('validation of the alpha services', () => {
  const cases: [string, string, unknown, string][] = [
    // profiles
    ['/v1/alpha/scholar/profiles', 'query missing', {}, 'query: is required'],
    ['/v1/alpha/scholar/profiles', 'query blank', { query: '   ' }, 'query: must not be empty'],
    ['/v1/alpha/scholar/profiles', 'query not a string', { query: 42 }, 'query: must be a string'],
    ['/v1/alpha/scholar/profiles', 'query too long', { query: 'a'.repeat(2049) }, 'query: must be at most 2048 characters'],
    [
      '/v1/alpha/scholar/profiles',
      'query with a control character',
      { query: 'Mike\u0000' },
      'query: must not contain control characters',
    ],
    // The engine has no country parameter (no gl), so the field went.
    ['/v1/alpha/scholar/profiles', 'country not a code', { query: 'Mike', country: 'usa' }, 'country: must be a two-letter'],
    ['/v1/alpha/scholar/profiles', 'enrich over 10', { query: 'Mike', enrich: 11 }, 'enrich: must be an integer from 0 to 10'],
    ['/v1/alpha/scholar/profiles', 'unknown field', { query: 'Mike', mauthors: 'Mike' }, 'mauthors: unknown field'],
    // author
    ['/v1/alpha/scholar/author', 'author_id missing', {}, 'author_id: is required'],
    [
      '/v1/alpha/scholar/author',
      'author_id with other characters',
      { author_id: 'LSsX yncAAAAJ' },
      'author_id: must be a Google Scholar author id',
    ],
    ['/v1/alpha/scholar/author', 'author_id too long', { author_id: 'a'.repeat(65) }, 'author_id: must be at most 64 characters'],
    [
      '/v1/alpha/scholar/author',
      'sort unknown',
      { author_id: 'x', sort: 'newest' },
      'sort: must be one of: cited, pubdate, title',
    ],
    [
      '/v1/alpha/scholar/author',
      'language malformed',
      { author_id: 'x', language: 'English' },
      "language: must be one of Google's language codes",
    ],
    ['/v1/alpha/scholar/author', 'page over 99', { author_id: 'x', page: 100 }, 'page: must be an integer from 0 to 99'],
    ['/v1/alpha/scholar/author', 'page not an integer', { author_id: 'x', page: 1.5 }, 'page: must be an integer from 0 to 99'],
    ['/v1/alpha/scholar/author', 'num 0', { author_id: 'x', num: 0 }, 'num: must be an integer from 1 to 100'],
    ['/v1/alpha/scholar/author', 'num over 100', { author_id: 'x', num: 101 }, 'num: must be an integer from 1 to 100'],
    ['/v1/alpha/scholar/author', 'num as text', { author_id: 'x', num: '10' }, 'num: must be an integer from 1 to 100'],
    // author-citation
    ['/v1/alpha/scholar/author-citation', 'citation_id missing', {}, 'citation_id: is required'],
    [
      '/v1/alpha/scholar/author-citation',
      'citation_id without author part',
      { citation_id: 'u5HHmVD_uO8C' },
      'citation_id: must be <author_id>:<article_id>',
    ],
    [
      '/v1/alpha/scholar/author-citation',
      'author_id not the author part',
      { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C', author_id: 'other' },
      'author_id: must be the part of citation_id before the colon',
    ],
    [
      '/v1/alpha/scholar/author-citation',
      'author_id malformed',
      { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C', author_id: 'a/b' },
      'author_id: must be a Google Scholar author id',
    ],
    [
      '/v1/alpha/scholar/author-citation',
      'language malformed',
      { citation_id: 'a:b', language: 'en_US' },
      "language: must be one of Google's language codes",
    ],
    // trends
    ['/v1/alpha/trends', 'queries missing', {}, 'queries: is required'],
    ['/v1/alpha/trends', 'queries not an array', { queries: 'coffee' }, 'queries: must be an array of search terms'],
    ['/v1/alpha/trends', 'queries empty', { queries: [] }, 'queries: at least 1 item'],
    ['/v1/alpha/trends', 'six terms', { queries: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'queries: at most 5 items'],
    ['/v1/alpha/trends', 'a blank term', { queries: ['coffee', ' '] }, 'queries.1: must not be empty'],
    ['/v1/alpha/trends', 'a term not a string', { queries: [7] }, 'queries.0: must be a string'],
    ['/v1/alpha/trends', 'a term too long', { queries: ['a'.repeat(101)] }, 'queries.0: must be at most 100 characters'],
    ['/v1/alpha/trends', 'a term with a comma', { queries: ['salt, pepper'] }, 'queries.0: must be free of commas'],
    ['/v1/alpha/trends', 'geo malformed', { queries: ['x'], geo: 'U.S.' }, "geo: must be one of Google Trends' location codes"],
    ['/v1/alpha/trends', 'geo not listed', { queries: ['x'], geo: 'US-ZZ' }, "geo: must be one of Google Trends' location codes"],
    [
      '/v1/alpha/trends',
      'timeframe before 2004',
      { queries: ['x'], timeframe: '2003-12-01 2004-01-31' },
      'timeframe: must be one of',
    ],
    ['/v1/alpha/trends', 'timeframe unknown', { queries: ['x'], timeframe: 'last week' }, 'timeframe: must be one of now 1-H'],
    [
      '/v1/alpha/trends',
      'timeframe not a date',
      { queries: ['x'], timeframe: '2024-02-30 2024-03-01' },
      'timeframe: must be one of',
    ],
    [
      '/v1/alpha/trends',
      'timeframe backwards',
      { queries: ['x'], timeframe: '2024-03-01 2024-01-01' },
      'timeframe: must be one of',
    ],
    [
      '/v1/alpha/trends',
      'category negative',
      { queries: ['x'], category: -1 },
      "category: must be one of Google Trends' category ids",
    ],
    [
      '/v1/alpha/trends',
      'category not an integer',
      { queries: ['x'], category: 1.5 },
      "category: must be one of Google Trends' category ids",
    ],
    [
      '/v1/alpha/trends',
      'category not listed',
      { queries: ['x'], category: 1 },
      "category: must be one of Google Trends' category ids",
    ],
    // news
    ['/v1/alpha/news', 'q missing', {}, 'q: is required'],
    ['/v1/alpha/news', 'location too long', { q: 'x', location: 'a'.repeat(257) }, 'location: must be at most 256 characters'],
    ['/v1/alpha/news', 'language malformed', { q: 'x', language: 'en_GB' }, "language: must be one of Google's language codes"],
    ['/v1/alpha/news', 'page negative', { q: 'x', page: -1 }, 'page: must be an integer from 0 to 99'],
    // images
    ['/v1/alpha/images', 'q missing', {}, 'q: is required'],
    [
      '/v1/alpha/images',
      'size unknown',
      { q: 'x', size: 'huge' },
      'size: must be one of: icon, small, medium, large, xlarge, xxlarge',
    ],
    [
      '/v1/alpha/images',
      'color unknown',
      { q: 'x', color: 'magenta' },
      'color: must be one of: red, orange, yellow, green, teal, blue, purple, pink, white, gray, black, brown, black_and_white, transparent',
    ],
    [
      '/v1/alpha/images',
      'type unknown',
      { q: 'x', type: 'vector' },
      'type: must be one of: face, photo, clipart, lineart, animated',
    ],
    [
      '/v1/alpha/images',
      'license unknown',
      { q: 'x', license: 'free' },
      'license: must be one of: creative_commons, commercial, free_to_share, free_to_share_commercially, free_to_modify, free_to_modify_commercially',
    ],
    [
      '/v1/alpha/images',
      'aspect_ratio unknown',
      { q: 'x', aspect_ratio: '16:9' },
      'aspect_ratio: must be one of: square, tall, wide, panoramic',
    ],
    ['/v1/alpha/images', 'location too long', { q: 'x', location: 'a'.repeat(257) }, 'location: must be at most 256 characters'],
    ['/v1/alpha/images', 'page over 99', { q: 'x', page: 100 }, 'page: must be an integer from 0 to 99'],
  ];

  it.each(cases)(
    '%s: answers 400 INVALID_REQUEST for %s, naming the field, with no upstream call',
    async (path, _rule, body, details) => {
      const reply = await harness.service.post(path, body);
      expectFailure(reply, 400, 'INVALID_REQUEST');
      expect(reply.json.error.details).toContain(details);
      expect(harness.upstream.requests).toHaveLength(0);
    },
  );
});
