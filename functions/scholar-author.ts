/** POST /v1/alpha/scholar/author: one Google Scholar author's page (SerpApi `google_scholar_author`). */
import type * as z from 'zod/mini';
import type { AuthorData } from '../lib/contract/scholar-author.js';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { AUTHOR_ID, reshapeAuthorPage } from '../lib/reshape/scholar.js';
import { reshapePaging } from '../lib/reshape/web.js';
import { body, integer, language, oneOf, page, requiredText } from '../lib/schema.js';

export const requestSchema = body({
  author_id: requiredText({ max: 64, format: AUTHOR_ID, description: 'Google Scholar author id, e.g. LSsXyncAAAAJ' }),
  language: language("Interface language: one of Google's codes, such as en or zh-cn (any letter case)"),
  sort: oneOf(
    ['cited', 'pubdate', 'title'],
    'Order of the articles: cited (most cited first, the default), pubdate (newest first) or title',
  ),
  page: page(),
  num: integer({ min: 1, max: 100, default: 20, description: 'Articles per page' }),
});
export type AuthorRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: AuthorRequest) {
  return {
    author_id: request.author_id,
    hl: request.language,
    // Most cited first is the upstream's default order and has no value of its own there.
    sort: request.sort === 'cited' ? undefined : request.sort,
    start: request.page * request.num,
    num: request.num,
  };
}

export function reshapeAuthor(json: Record<string, unknown>, request: AuthorRequest): AuthorData {
  const page = reshapeAuthorPage(json);
  return {
    ...page,
    // The upstream may send more than asked for; the contract promises at most `num`.
    articles: page.articles.slice(0, request.num),
    pagination: { ...reshapePaging(json, request.page), page_size: request.num },
  };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const data = reshapeAuthor(await upstream.search('scholarAuthor', toSerpApiParams(body)), body);
  return { data, message: data.author ? countMessage(data.articles.length, 'article') : 'No results' };
});
