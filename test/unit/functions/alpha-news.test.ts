import { describe, expect, it } from 'vitest';
import { requestSchema, reshapeNews, toSerpApiParams } from '../../../functions/alpha-news.js';
import { responseSchema } from '../../../lib/contract/alpha-news.js';
import { sample } from '../../../lib/local/samples.js';

const request = requestSchema.parse({ q: 'coffee' });

describe('news request', () => {
  it('sends tbm=nws, location, hl and start = page × 10', () => {
    expect(request).toEqual({ q: 'coffee', page: 0, no_cache: false });
    expect(toSerpApiParams({ ...request, location: 'Austin, Texas', language: 'en', page: 3 })).toEqual({
      q: 'coffee',
      tbm: 'nws',
      location: 'Austin, Texas',
      hl: 'en',
      start: 30,
    });
  });
});

describe('reshapeNews', () => {
  it('gives title, snippet, source, url and lastUpdated as the upstream gave the date (constructed sample: no recorded answer holds these fields)', () => {
    const data = reshapeNews(sample('google_nws'), request);
    expect(data.news_results).toHaveLength(5);
    expect(data.news_results[0]).toEqual({
      rank: 1,
      title: 'Coffee prices hit a record as harvests shrink',
      snippet: "Arabica futures rose again on Friday as poor weather in Brazil cut the outlook for next year's harvest.",
      source: 'Example Markets',
      url: 'https://www.example-news.com/markets/coffee-prices-record',
      lastUpdated: '2 hours ago',
      thumbnail: 'https://example.invalid/thumb/0.jpg',
    });
    expect(data.news_results[4]?.lastUpdated).toBe('Nov 12, 2024');
    expect(data.pagination).toEqual({ current_page: 0, next_page: 1, has_more: true });
    expect(() => responseSchema.parse(data)).not.toThrow();
  });

  it('ranks page 2 from 21 (constructed sample: no recorded answer holds these fields)', () => {
    const data = reshapeNews(sample('google_nws'), { ...request, page: 2 });
    expect(data.news_results.map((item) => item.rank)).toEqual([21, 22, 23, 24, 25]);
  });

  it('reads the source from an object with a name, and stories grouped under a headline', () => {
    const data = reshapeNews(
      {
        news_results: [
          { title: 'One', link: 'https://a.example/1', source: { name: 'Example Wire', icon: 'https://a.example/i.png' } },
          {
            highlight: { title: 'Top story' },
            stories: [{ title: 'Two', link: 'https://b.example/2', source: 'B', date: '1 hour ago' }],
          },
        ],
      },
      request,
    );
    expect(data.news_results.map((item) => [item.rank, item.title, item.source, item.url])).toEqual([
      [1, 'One', 'Example Wire', 'https://a.example/1'],
      [2, 'Two', 'B', 'https://b.example/2'],
    ]);
  });

  it('still returns the contract shape when the upstream omits optional fields (constructed sample: no recorded answer holds these fields)', () => {
    const json = sample('google_nws');
    const sparse = { news_results: (json.news_results as Record<string, unknown>[]).map((item) => ({ link: item.link })) };
    const data = reshapeNews(sparse, request);
    expect(data.news_results[0]).toEqual({
      rank: 1,
      title: '',
      snippet: '',
      source: '',
      url: 'https://www.example-news.com/markets/coffee-prices-record',
      lastUpdated: '',
      thumbnail: null,
    });
    expect(data.pagination).toEqual({ current_page: 0, next_page: null, has_more: false });
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(reshapeNews({}, request).news_results).toEqual([]);
  });
});
