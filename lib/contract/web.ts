/**
 * Response pieces shared by the four web-search endpoints, as lib/reshape/web.ts, web-answers.ts and
 * ai-overview.ts build them. The endpoint files in this folder compose them into each endpoint's `data`
 * schema. Fields beyond the specification's are optional (left out when the upstream gave nothing for
 * them) and named alike on every engine.
 */
import * as z from 'zod/mini';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { SITELINKS_MAX } from '../reshape/web.js';
import { KNOWLEDGE_GRAPH_FACTS_MAX } from '../reshape/web-answers.js';

/** Attaches a description that the OpenAPI document shows beside the field. */
export function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  return schema.check(z.describe(description)) as T;
}

/** Absent upstream text is null, never an empty string, where the contract allows null. */
export const nullableText = (description: string) => described(z.nullable(z.string()), description);

/** Text the upstream may not give: then the field is left out. */
const optionalText = (description: string) => z.optional(described(z.string().check(z.minLength(1)), description));

/** A link under a result to another page of the same site. */
export const sitelink = z.object({
  title: described(z.string(), 'The sitelink’s text ("" when the engine shows none)'),
  link: described(z.string().check(z.minLength(1)), 'Its URL'),
});

/**
 * What a client uses to judge a result, beside the contract's fields: present only when the engine gave
 * it (docs/endpoints.md says which engine gives which).
 */
export const resultFacts = {
  date: optionalText(
    'The result’s date as the engine shows it ("Apr 3, 2023", "2 days ago", "2023年3月16日"); absent when it shows none',
  ),
  date_raw: optionalText('The same date in the engine’s machine form ("2023-07-19T01:51:00.0000000"; DuckDuckGo)'),
  source: optionalText('The site or publisher the engine names for the result ("Wikipedia")'),
  favicon: optionalText('The site’s icon'),
  sitelinks: z.optional(
    described(
      z.array(sitelink).check(z.minLength(1), z.maxLength(SITELINKS_MAX)),
      `Links to other pages of the same site, as the engine shows them under the result (at most ${SITELINKS_MAX})`,
    ),
  ),
};

/** One organic result: `rank` is 1-based and continues across pages. */
export const webResult = z.object({
  rank: described(
    z.int().check(z.gte(1)),
    '1-based position across pages: with 10 results a page, the first result of page 1 is rank 11',
  ),
  title: described(z.string(), 'Result title ("" when the upstream gave none)'),
  link: described(z.string(), 'Result URL ("" when the upstream gave none)'),
  snippet: described(z.string(), 'Text excerpt ("" when the upstream gave none)'),
  ...resultFacts,
});

/** An organic result with the shortened link the engine displays beside it. */
export const webResultWithDisplayedLink = z.extend(webResult, {
  displayed_link: nullableText('The link as the engine displays it, e.g. "en.wikipedia.org › wiki › Coffee"'),
});

/** A related search suggestion; empty suggestions are dropped. */
export const relatedSearch = z.object({
  query: described(z.string().check(z.minLength(1)), 'Suggested search terms'),
  link: nullableText('The engine’s result page for the suggestion'),
});

/** Related suggestions: always present, empty when the upstream gave none. */
export const relatedSearches = described(
  z.array(relatedSearch),
  'Related search suggestions; empty when the upstream provides none',
);

/** Paging in this API's terms, whatever the upstream's own scheme. */
export const paging = z.object({
  current_page: described(z.int().check(z.gte(0), z.lte(99)), 'The page answered, as asked for in `page`'),
  next_page: described(z.nullable(z.int().check(z.gte(1))), 'The `page` to ask for next, or null on the last page'),
  has_more: described(z.boolean(), 'Whether the upstream reports a next page'),
});

/** One block of an AI overview, as plain text. */
export const aiTextBlock = z.object({
  type: described(
    z.string(),
    'The block’s kind as Google names it: paragraph, heading, list, table, expandable, comparison, top_stories…',
  ),
  text: described(
    z.string().check(z.minLength(1)),
    'The block as plain text: a list’s items one a line, each starting "- " (nested items indented by two spaces); a table’s rows one a line, cells separated by " | "',
  ),
  reference_indexes: described(
    z.array(z.int().check(z.gte(0))),
    'The `index` of each reference the block cites, ascending; empty when it cites none',
  ),
});

/** A page an AI overview cites. */
export const aiReference = z.object({
  index: described(z.nullable(z.int().check(z.gte(0))), 'The number the text blocks cite it by (`reference_indexes`)'),
  title: nullableText('The page’s title'),
  link: nullableText('The page’s URL'),
  source: nullableText('The site or publisher ("Mayo Clinic")'),
  snippet: nullableText('The passage Google shows for it (at times only a date)'),
});

/** An AI overview's text and the pages it cites. */
export const aiOverviewContent = z.object({
  text_blocks: described(z.array(aiTextBlock), 'The overview, block by block, in plain text'),
  references: described(z.array(aiReference), 'The pages the overview cites, in Google’s order'),
});

const errorCodes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** An AI overview (the page's, or a "People also ask" answer's), and how it was had. */
export const aiOverview = z.extend(aiOverviewContent, {
  state: described(
    z.enum(['inline', 'fetched', 'not_fetched', 'failed']),
    'inline: the search answer held it. fetched: one more paid search fetched it (`fetch_ai_overview`). not_fetched: the search answer held only a token to fetch it with (text_blocks empty; `note` says how to have it): for the page\'s overview, `fetch_ai_overview` was not asked; a "People also ask" overview held back is never fetched. failed: it was asked for and could not be had, or Google made none this time (see `error`)',
  ),
  note: nullableText('Why there is no text, and what to do; null when there is text'),
  error: described(
    z.nullable(
      z.object({
        code: described(z.enum(errorCodes), 'The error code the failed part would have answered on its own'),
        details: z.string(),
      }),
    ),
    'For `failed`: what went wrong; null otherwise',
  ),
});

/** Google's direct answer above the results. */
export const answerBox = z.object({
  type: nullableText('The kind of answer box, as SerpApi names it: organic_result, calculator_result, weather_result…'),
  title: nullableText('Its title'),
  answer: nullableText('The answer itself, where the box states one (a name, a number, a converted amount)'),
  snippet: nullableText('The passage it quotes'),
  list: described(z.array(z.string()), 'A list answer’s items; empty otherwise'),
  link: nullableText('The page the answer comes from'),
  displayed_link: nullableText('That link as Google displays it'),
  source: nullableText('The site or publisher it names'),
  date: nullableText('The date it shows'),
  details: described(
    z.record(z.string(), z.unknown()),
    'Every other value the box gives, under SerpApi’s names and in its shape, whatever its `type`: a weather box’s temperature, unit, precipitation, humidity, wind, location and its forecast by day (`forecast[]`) and by hour (`hourly_forecast[]`); a stock’s price and movement; a word’s definitions. Pictures and the upstream’s own links are left out; empty ({}) when the summary above holds everything',
  ),
});

/** A knowledge panel, summarised. */
export const knowledgeGraph = z.object({
  title: nullableText('What the panel is about ("Coffee", "Apple Inc.")'),
  type: nullableText('What kind of thing it is ("Beverages", "Technology company")'),
  description: nullableText('Its description'),
  source: nullableText('Where the description comes from ("Wikipedia")'),
  link: nullableText('The source’s page'),
  facts: described(
    z
      .array(
        z.object({
          label: described(
            z.string(),
            'The fact’s name as the upstream keys it, underscores as spaces ("founded", "key people")',
          ),
          value: described(z.string(), 'Its value as shown'),
        }),
      )
      .check(z.maxLength(KNOWLEDGE_GRAPH_FACTS_MAX)),
    `Facts the panel lists, in its order, at most ${KNOWLEDGE_GRAPH_FACTS_MAX}`,
  ),
});

/** A news story shown beside the results. */
export const newsResult = z.object({
  title: described(z.string(), 'Headline ("" when the upstream gave none)'),
  link: described(z.string().check(z.minLength(1)), 'The story’s URL'),
  snippet: described(z.string(), 'Summary ("" when the upstream gave none)'),
  date: resultFacts.date,
  source: resultFacts.source,
});
