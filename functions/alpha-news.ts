/** POST /v1/alpha/news: news search (SerpApi `google` with tbm=nws). */
import type * as z from 'zod/mini';
import type { NewsData } from '../lib/contract/alpha-news.js';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { isRecord, list, text, textOrEmpty } from '../lib/reshape/values.js';
import { reshapePaging } from '../lib/reshape/web.js';
import { body, language, location, page, searchTerms } from '../lib/schema.js';

const PAGE_SIZE = 10;

export const requestSchema = body({
  q: searchTerms(),
  location: location(),
  language: language(),
  page: page(),
});
export type NewsRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: NewsRequest) {
  return { q: request.q, tbm: 'nws', location: request.location, hl: request.language, start: request.page * PAGE_SIZE };
}

export function reshapeNews(json: Record<string, unknown>, request: NewsRequest): NewsData {
  // Some layouts group stories under a headline item without a link of its own.
  const items = list(json.news_results).flatMap((item) => (typeof item.link === 'string' ? [item] : list(item.stories)));
  return {
    news_results: items.map((item, i) => ({
      rank: request.page * PAGE_SIZE + i + 1,
      title: textOrEmpty(item.title),
      snippet: textOrEmpty(item.snippet),
      // The upstream gives the publisher as text, or as an object with its name.
      source: isRecord(item.source) ? textOrEmpty(item.source.name) : textOrEmpty(item.source),
      url: textOrEmpty(item.link),
      lastUpdated: textOrEmpty(item.date),
      thumbnail: text(item.thumbnail),
    })),
    pagination: reshapePaging(json, request.page),
  };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const data = reshapeNews(await upstream.search('news', toSerpApiParams(body)), body);
  return { data, message: countMessage(data.news_results.length) };
});
