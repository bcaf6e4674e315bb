import { describe, expect, it } from 'vitest';
import * as alpha from '../../../functions/web-search-alpha.js';
import * as bravo from '../../../functions/web-search-bravo.js';
import * as charlie from '../../../functions/web-search-charlie.js';
import * as delta from '../../../functions/web-search-delta.js';
import { sample } from '../../../lib/local/samples.js';
import { formatIssues } from '../../../lib/middleware/validate.js';

/** The sample with every optional field of every result removed: what a sparse live answer may look like. */
function stripped(name: Parameters<typeof sample>[0], keep: string[]): Record<string, unknown> {
  const json = sample(name);
  const organic = (json.organic_results as Record<string, unknown>[]).map((item) =>
    Object.fromEntries(Object.entries(item).filter(([key]) => keep.includes(key))),
  );
  return { organic_results: organic };
}

describe('alpha (google)', () => {
  const request = alpha.requestSchema.parse({ q: 'coffee' });

  it('defaults page to 0 and num to 10, and maps start = page × num, sending no num (Google has none)', () => {
    expect(request).toEqual({ q: 'coffee', page: 0, num: 10, fetch_ai_overview: false, no_cache: false });
    expect(alpha.toSerpApiParams({ ...request, page: 3, num: 7, language: 'de' })).toEqual({
      q: 'coffee',
      location: undefined,
      hl: 'de',
      start: 21,
    });
  });

  it('takes num from 1 to 10 only: Google serves at most 10 results a page', () => {
    expect(alpha.requestSchema.safeParse({ q: 'x', num: 10 }).success).toBe(true);
    expect(alpha.requestSchema.safeParse({ q: 'x', num: 11 }).success).toBe(false);
  });

  it('reshapes the recorded answer with rank = position, 1-based, and typed search information', () => {
    const data = alpha.reshapeAlpha(sample('google'), request);
    expect(data.search_information).toEqual({
      query: 'Coffee',
      total_results: 4_340_000_000,
      time_taken_seconds: 0.78,
      results_page_url: expect.stringContaining('https://www.google.com/search'),
    });
    expect(data.organic_results[0]).toEqual({
      rank: 1,
      position: 1,
      title: 'Coffee - Wikipedia',
      link: 'https://en.wikipedia.org/wiki/Coffee',
      displayed_link: 'https://en.wikipedia.org › wiki › Coffee',
      snippet: expect.stringMatching(/^Coffee is a brewed drink/),
    });
    expect(data.people_also_ask[0]).toEqual({
      question: 'Does coffee make you poop?',
      snippet: expect.any(String),
      title: expect.any(String),
      link: expect.stringMatching(/^https:/),
      displayed_link: expect.any(String),
    });
    expect(data.relatedSearches.length).toBeGreaterThan(0);
    expect(data.pagination).toEqual({ current_page: 0, next_page: 1, has_more: true, page_size: 10 });
  });

  it('trims to num when the upstream ignores it', () => {
    const data = alpha.reshapeAlpha(sample('google'), { ...request, num: 3 });
    expect(data.organic_results.map((r) => r.rank)).toEqual([1, 2, 3]);
  });

  it('still returns the contract shape when the upstream omits optional fields', () => {
    const data = alpha.reshapeAlpha(stripped('google', ['title']), request);
    expect(data.search_information).toEqual({
      query: 'coffee',
      total_results: null,
      time_taken_seconds: null,
      results_page_url: null,
    });
    expect(data.organic_results[0]).toEqual({
      rank: 1,
      position: 1,
      title: 'Coffee - Wikipedia',
      link: '',
      snippet: '',
      displayed_link: null,
    });
    expect(data.people_also_ask).toEqual([]);
    expect(data.relatedSearches).toEqual([]);
    expect(data.pagination.has_more).toBe(false);
  });

  it('answers an empty page for the upstream "no results" body', () => {
    const data = alpha.reshapeAlpha({ error: "Google hasn't returned any results for this query." }, request);
    expect(data.organic_results).toEqual([]);
    expect(data.people_also_ask).toEqual([]);
  });
});

describe('bravo (duckduckgo)', () => {
  it('maps every filter to the upstream values', () => {
    const request = bravo.requestSchema.parse({ q: 'coffee', region: 'wt-wt', date: 'year', safe_search: 'strict', page: 2 });
    expect(bravo.toSerpApiParams(request)).toEqual({ q: 'coffee', kl: 'wt-wt', df: 'y', safe: '1', start: 60, m: 30 });
    expect(bravo.toSerpApiParams(bravo.requestSchema.parse({ q: 'x', safe_search: 'moderate' }))).toMatchObject({
      safe: '-1',
      start: 0,
    });
  });

  it('reshapes the sample with ranks continuing from the page offset (constructed sample: no recorded answer holds these fields)', () => {
    const data = bravo.reshapeBravo(sample('duckduckgo'), bravo.requestSchema.parse({ q: 'coffee', page: 1 }));
    expect(data.organic_results).toHaveLength(8);
    expect(data.organic_results[0]).toEqual({
      rank: 31,
      title: 'Coffee - Wikipedia',
      link: 'https://en.wikipedia.org/wiki/Coffee',
      snippet: expect.any(String),
      favicon: 'https://external-content.duckduckgo.com/ip3/en.wikipedia.org.ico',
    });
    expect(data.related_searches[0]).toEqual({ query: 'coffee near me', link: expect.any(String) });
  });

  it('tolerates an answer with no related searches and sparse results', () => {
    const data = bravo.reshapeBravo(stripped('duckduckgo', ['link']), bravo.requestSchema.parse({ q: 'coffee' }));
    expect(data.organic_results[0]).toEqual({ rank: 1, title: '', link: 'https://en.wikipedia.org/wiki/Coffee', snippet: '' });
    expect(data.related_searches).toEqual([]);
  });
});

describe('charlie (bing)', () => {
  it('sends market as Bing lists it (lower case); first = page × 10 + 1', () => {
    const request = charlie.requestSchema.parse({ q: 'coffee', market: 'en-GB', page: 4 });
    expect(charlie.toSerpApiParams(request)).toEqual({
      q: 'coffee',
      mkt: 'en-gb',
      cc: undefined,
      safeSearch: undefined,
      first: 41,
    });
  });

  it('refuses market and cc together, naming cc: Bing takes one or the other', () => {
    const result = charlie.requestSchema.safeParse({ q: 'coffee', market: 'en-GB', cc: 'us' });
    expect(result.success).toBe(false);
    expect(formatIssues(result.error?.issues ?? [])).toBe('cc: must not be given together with market');
  });

  it('reshapes into charlie_data with displayed_link and ranks from the page offset (constructed sample: no recorded answer holds these fields)', () => {
    const data = charlie.reshapeCharlie(sample('bing'), charlie.requestSchema.parse({ q: 'coffee', page: 1 }));
    expect(data.charlie_data[0]).toEqual({
      rank: 11,
      title: 'Coffee - Wikipedia',
      link: 'https://en.wikipedia.org/wiki/Coffee',
      snippet: expect.any(String),
      displayed_link: 'en.wikipedia.org › wiki › Coffee',
    });
    expect(data.related_searches.length).toBeGreaterThan(0);
    expect(data.pagination).toEqual({ current_page: 1, next_page: 2, has_more: true });
  });
});

describe('delta (baidu)', () => {
  it('derives pn from page unless pn is given', () => {
    expect(delta.toSerpApiParams(delta.requestSchema.parse({ q: 'x', page: 4 })).pn).toBe(40);
    expect(delta.toSerpApiParams(delta.requestSchema.parse({ q: 'x', page: 4, pn: 5 })).pn).toBe(5);
  });

  it('maps the script and the open-ended date range', () => {
    const params = delta.toSerpApiParams(delta.requestSchema.parse({ q: 'x', ct: 'simplified', date_from: '2024-02-29' }));
    expect(params.ct).toBe('2');
    expect(params.gpc).toMatch(/^stf=1709164800,\d+\|stftype=1$/);
    expect(delta.toTimeFilter()).toBeUndefined();
    expect(delta.toTimeFilter(undefined, '1970-01-01')).toBe('stf=0,86399|stftype=1');
  });

  it('reshapes into Delta_data ranked from pn + 1', () => {
    const data = delta.reshapeDelta(sample('baidu'), delta.requestSchema.parse({ q: 'ospp', pn: 20 }));
    expect(data.Delta_data).toHaveLength(10);
    expect(data.Delta_data[0]).toEqual({
      rank: 21,
      title: expect.any(String),
      link: expect.stringMatching(/^https:/),
      snippet: expect.any(String),
      date: '2022年11月21日',
    });
    // Baidu gives a date to 6 of the recording's 10 results; the others carry none.
    expect(data.Delta_data.map((result) => result.date ?? null)).toEqual([
      '2022年11月21日',
      '2023年3月16日',
      '2022年6月24日',
      null,
      null,
      null,
      null,
      '2023年5月30日',
      '2023年5月6日',
      '2023年6月28日',
    ]);
    expect(data.related_searches[0]).toEqual({ query: '申请OSPP', link: expect.stringMatching(/^https:\/\/www\.baidu\.com/) });
  });

  it('pages from where pn falls and says which pn comes next', () => {
    const data = delta.reshapeDelta(sample('baidu'), delta.requestSchema.parse({ q: 'ospp', pn: 55 }));
    expect(data.pagination).toEqual({ current_page: 5, next_page: 6, has_more: true, next_pn: 65 });
    const first = delta.reshapeDelta(sample('baidu'), delta.requestSchema.parse({ q: 'ospp' }));
    expect(first.pagination).toEqual({ current_page: 0, next_page: 1, has_more: true, next_pn: 10 });
    const last = delta.reshapeDelta({ organic_results: [] }, delta.requestSchema.parse({ q: 'ospp', page: 3 }));
    expect(last.pagination).toEqual({ current_page: 3, next_page: null, has_more: false, next_pn: null });
  });

  it('rejects a date range that ends before it starts, naming date_to', () => {
    const result = delta.requestSchema.safeParse({ q: 'x', date_from: '2024-02-01', date_to: '2024-01-31' });
    expect(result.success).toBe(false);
    expect(result.error && formatIssues(result.error.issues)).toBe('date_to: must not be before date_from');
    expect(delta.requestSchema.safeParse({ q: 'x', date_from: '2024-01-31', date_to: '2024-01-31' }).success).toBe(true);
  });

  it('rejects impossible dates', () => {
    const result = delta.requestSchema.safeParse({ q: 'x', date_from: '2023-02-30' });
    expect(result.success).toBe(false);
  });
});
