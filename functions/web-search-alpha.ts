/**
 * POST /v1/web-search/alpha: web search on engine alpha (SerpApi `google`). Google serves 10 results a
 * page and has no page-size parameter, so `num` is at most 10 and one request is one upstream call: page N
 * asks for the results from offset N × num, and the answer is cut to `num`. Google's AI overview comes
 * with the page, or as a token for a second request (SerpApi `google_ai_overview`), which is made only when
 * the request asks for it with `fetch_ai_overview` (docs/decisions.md, "Web answers beside the results").
 */
import * as z from 'zod/mini';
import { type BudgetScope, budgetUsage, usageWindows } from '../lib/budget/budget.js';
import { secondsUntilReset, windowWords } from '../lib/budget/windows.js';
import { countMessage } from '../lib/envelope.js';
import { AppError } from '../lib/errors.js';
import { api } from '../lib/middleware/index.js';
import { type AiOverview, overviewFromFollowUp, overviewFromSearch } from '../lib/reshape/ai-overview.js';
import { integer, record, text } from '../lib/reshape/values.js';
import { reshapePaging, reshapeRelatedSearches, reshapeWebResults, withDisplayedLink } from '../lib/reshape/web.js';
import { reshapeAnswerBox, reshapeKnowledgeGraph, reshapePeopleAlsoAsk } from '../lib/reshape/web-answers.js';
import { body, integer as intField, language, location, page, searchTerms } from '../lib/schema.js';
import { settle } from '../lib/upstream/outcomes.js';

/** The most results Google serves in one page. */
export const GOOGLE_PAGE_SIZE = 10;
/** The most paid searches a request can cost: the search, and with `fetch_ai_overview` the overview. */
export const PAID_CALLS_WITH_AI_OVERVIEW = 2;

export const requestSchema = body({
  q: searchTerms(),
  location: location('Where the search comes from, e.g. "Austin, Texas"'),
  language: language(),
  page: page(),
  num: intField({
    min: 1,
    max: GOOGLE_PAGE_SIZE,
    default: GOOGLE_PAGE_SIZE,
    description: 'Results per page (Google serves at most 10)',
  }),
  fetch_ai_overview: z._default(
    z
      .boolean({ error: 'must be true or false' })
      .check(z.describe("Fetch Google's AI overview when held back: 1 more paid search")),
    false,
  ),
});
export type AlphaRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: AlphaRequest) {
  return { q: request.q, location: request.location, hl: request.language, start: request.page * request.num };
}

export function reshapeAlpha(json: Record<string, unknown>, request: AlphaRequest, overview?: AiOverview) {
  const offset = request.page * request.num;
  // Google sends up to 10; the contract promises at most `num`, and the next page starts after them.
  const organic = withDisplayedLink(json.organic_results, reshapeWebResults(json.organic_results, offset, request.num));
  const info = record(json.search_information);
  const metadata = record(json.search_metadata);
  const answerBox = reshapeAnswerBox(json.answer_box);
  const knowledgeGraph = reshapeKnowledgeGraph(json.knowledge_graph);
  return {
    search_information: {
      query: text(info.query_displayed) ?? request.q,
      total_results: integer(info.total_results),
      time_taken_seconds: typeof info.time_taken_displayed === 'number' ? info.time_taken_displayed : null,
      results_page_url: text(metadata.google_url),
    },
    organic_results: organic.map((result) => ({ ...result, position: result.rank })),
    people_also_ask: reshapePeopleAlsoAsk(json.related_questions),
    relatedSearches: reshapeRelatedSearches(json.related_searches),
    pagination: { ...reshapePaging(json, request.page), page_size: request.num },
    ...(answerBox ? { answer_box: answerBox } : {}),
    ...(knowledgeGraph ? { knowledge_graph: knowledgeGraph } : {}),
    ...(overview ? { ai_overview: overview } : {}),
  };
}

/**
 * Refuses before the first paid search when the budget has no room for all this request may cost (the
 * search and the overview's follow-up), so that a client never pays for a search whose overview the budget
 * would then refuse (docs/decisions.md, "Web answers beside the results"). A counter that cannot be read
 * is left to the searches' own reservations, which apply the deployment's choice between searching on and
 * refusing (docs/decisions.md §8).
 */
async function ensureRoom(searches: number, scope: BudgetScope): Promise<void> {
  let usage: Awaited<ReturnType<typeof budgetUsage>>;
  try {
    usage = await budgetUsage(scope);
  } catch (error) {
    if (error instanceof AppError && error.code === 'BUDGET_UNAVAILABLE') return;
    throw error;
  }
  const now = Date.now();
  const [hour, day, month] = usageWindows(scope, now);
  // In the order the budget counts them: the key's own day (the narrowest) first.
  const windows = [
    { window: day, left: usage.client.today.left },
    { window: hour, left: usage.hour.left },
    { window: month, left: usage.month?.left ?? null },
  ];
  const short = windows.find(({ window, left }) => window !== undefined && left !== null && left < searches);
  if (!short?.window) return;
  const { window, left } = short;
  const whose = window.kind === 'day' ? "your key's own daily limit" : "the deployment's budget";
  throw new AppError('BUDGET_EXHAUSTED', {
    details: `fetch_ai_overview can cost ${searches} searches and ${whose} has ${left} left ${windowWords(window.kind)}; it resets at ${new Date(window.endsAt).toISOString().replace('.000Z', 'Z')}. Without fetch_ai_overview the search costs one`,
    headers: { 'Retry-After': String(secondsUntilReset(window, now)) },
  });
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream, client }) => {
  if (body.fetch_ai_overview) {
    await ensureRoom(PAID_CALLS_WITH_AI_OVERVIEW, { client: client.name, dailySearches: client.dailySearches });
  }
  const json = await upstream.search('webAlpha', toSerpApiParams(body));
  let { overview, pageToken } = overviewFromSearch(json.ai_overview, body.fetch_ai_overview);
  if (pageToken) {
    // The token works for minutes only: asked for right after the search, never in parallel with it.
    const followUp = await settle(upstream.search('webAlphaAiOverview', { page_token: pageToken }));
    overview = overviewFromFollowUp(followUp, text(record(json.search_metadata).created_at));
  }
  const data = reshapeAlpha(json, body, overview);
  const failed = overview?.state === 'failed' && pageToken ? `; AI overview not fetched (${overview.error?.code})` : '';
  return { data, message: `${countMessage(data.organic_results.length)}${failed}` };
});
