/**
 * POST /v1/alpha/scholar/author-citation: one article of an author's page with the documents citing it
 * (SerpApi `google_scholar_author` with view_op=view_citation, then `google_scholar` with cites=…).
 */
import * as z from 'zod/mini';
import type { AuthorCitationData } from '../lib/contract/scholar-author-citation.js';
import { api } from '../lib/middleware/index.js';
import { AUTHOR_ID, CITATION_ID, citingListId, reshapeCitation, reshapeCitingArticles } from '../lib/reshape/scholar.js';
import { body, language, optionalText, requiredText } from '../lib/schema.js';
import { type Outcome, settle } from '../lib/upstream/outcomes.js';
import type { SerpApiJson } from '../lib/upstream/serpapi.js';

export const requestSchema = body({
  citation_id: requiredText({ max: 129, format: CITATION_ID, description: 'The article, as <author_id>:<article_id>' }),
  author_id: optionalText({
    max: 64,
    format: AUTHOR_ID,
    description:
      'The author whose page lists the article: when given, it must equal the part of citation_id before the colon (the default)',
  }),
  language: language("Interface language: one of Google's codes, such as en or zh-cn (any letter case)"),
}).check(
  z.refine((r) => !r.author_id || r.citation_id.startsWith(`${r.author_id}:`), {
    error: 'must be the part of citation_id before the colon',
    path: ['author_id'],
  }),
);
export type AuthorCitationRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: AuthorCitationRequest) {
  return {
    author_id: request.author_id ?? request.citation_id.split(':')[0],
    view_op: 'view_citation',
    citation_id: request.citation_id,
    hl: request.language,
  };
}

/** The second call: the first page of the documents citing the article. */
export function toCitingParams(citesId: string, request: AuthorCitationRequest) {
  return { cites: citesId, hl: request.language };
}

/** The citation view, with the citing documents when their call succeeded (`citing` null: not needed). */
export function reshapeAuthorCitation(json: Record<string, unknown>, citing: Outcome<SerpApiJson> | null): AuthorCitationData {
  const failed = citing && !citing.ok ? citing.error : null;
  return {
    citations: reshapeCitation(json, citing?.ok ? reshapeCitingArticles(citing.value) : []),
    unavailable: failed ? [{ part: 'citations.articles', code: failed.code, details: failed.details }] : [],
  };
}

export function citationMessage(data: AuthorCitationData): string {
  if (!data.citations) return 'No results';
  const [failed] = data.unavailable;
  if (failed) return `Citation details found; the documents citing it could not be fetched (${failed.details})`;
  const n = data.citations.articles.length;
  return n === 0
    ? 'Citation details found; no citing documents listed'
    : `Citation details found, with ${n} citing document${n === 1 ? '' : 's'}`;
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  // The article and the documents citing it, reserved at once (docs/decisions.md §8); the second is given
  // back when the article lists none.
  upstream.plan(2, { why: 'the article, then the documents citing it' });
  const json = await upstream.search('scholarAuthor', toSerpApiParams(body));
  const citesId = citingListId(json);
  // One failed lookup of the citing documents must not cost the client the citation it asked for.
  const citing = citesId ? await settle(upstream.search('scholar', toCitingParams(citesId, body))) : null;
  const data = reshapeAuthorCitation(json, citing);
  return { data, message: citationMessage(data) };
});
