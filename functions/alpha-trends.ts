/** POST /v1/alpha/trends: Google Trends interest over time and by region (SerpApi `google_trends`, two calls). */
import * as z from 'zod/mini';
import { api } from '../lib/middleware/index.js';
import { reshapeTrends, trendsMessage } from '../lib/reshape/trends.js';
import { body, calendarDatePattern, optionalText, requiredText, upstreamOptions } from '../lib/schema.js';
import { settle } from '../lib/upstream/outcomes.js';
import type { SearchOptions } from '../lib/upstream/serpapi.js';
import { TRENDS_CATEGORIES, TRENDS_GEOS, TRENDS_GEOS_PATTERN } from '../lib/upstream/serpapi-options.js';

// biome-ignore format: one line reads as the list it is
const RELATIVE_TIMEFRAMES = ['now 1-H', 'now 4-H', 'now 1-d', 'now 7-d', 'today 1-m', 'today 3-m', 'today 12-m', 'today 5-y', 'all'];
// Google Trends has data from 2004 on: years 2004 to 9999, and their leap years.
const YEAR_FROM_2004 = '(?:200[4-9]|20[1-9]\\d|2[1-9]\\d\\d|[3-9]\\d{3})';
const LEAP_YEAR_FROM_2004 =
  '(?:20(?:0[48]|[2468][048]|[13579][26])|(?:2[1-9]|[3-9]\\d)(?:0[48]|[2468][048]|[13579][26])|(?:2[48]|[3579][26]|[468][048])00)';
const DAY_FROM_2004 = calendarDatePattern(YEAR_FROM_2004, LEAP_YEAR_FROM_2004);
// The pattern cannot compare the two dates; the description says a range runs forwards.
const runsForwards = (s: string) => {
  const [from = '', to = ''] = s.split(' ');
  return RELATIVE_TIMEFRAMES.includes(s) || from <= to;
};

export const requestSchema = body({
  queries: z
    .array(
      requiredText({ max: 100, forbid: { characters: ',', hint: 'free of commas (the upstream separates terms with them)' } }),
      { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array of search terms') },
    )
    .check(
      z.minLength(1, { error: 'at least 1 item' }),
      z.maxLength(5, { error: 'at most 5 items' }),
      z.describe('Search terms to compare, 1 to 5, each at most 100 characters and free of commas'),
    ),
  geo: optionalText({
    max: 16,
    format: upstreamOptions(
      TRENDS_GEOS,
      "one of Google Trends' location codes, such as US, US-CA or GB-ENG",
      TRENDS_GEOS_PATTERN,
    ),
    description:
      "Where: one of Google Trends' location codes (a country such as US, a region such as US-CA, or a US metro code such as 807), any letter case; worldwide when absent",
  }),
  timeframe: optionalText({
    max: 32,
    format: {
      pattern: `${RELATIVE_TIMEFRAMES.join('|')}|${DAY_FROM_2004} ${DAY_FROM_2004}`,
      hint: `one of ${RELATIVE_TIMEFRAMES.join(', ')}, or a range of real dates such as 2024-01-01 2024-03-31 (from 2004 on, running forwards)`,
      valid: runsForwards,
    },
    description: `Time range: ${RELATIVE_TIMEFRAMES.join(', ')}, or "YYYY-MM-DD YYYY-MM-DD" from 2004 on, the second date not before the first; today 12-m when absent`,
  }),
  category: z.optional(
    z
      .literal(TRENDS_CATEGORIES, { error: "must be one of Google Trends' category ids, such as 0 (all), 71 (Food & Drink)" })
      .check(z.describe('Google Trends category id, one of its list (e.g. 71 Food & Drink); 0 (all categories) when absent')),
  ),
});
export type TrendsRequest = z.output<typeof requestSchema>;

/** The two calls: interest over time, and interest by region (its data type depends on the number of terms). */
export function toSerpApiParams(request: TrendsRequest) {
  const common = {
    q: request.queries.join(','),
    geo: request.geo,
    date: request.timeframe,
    cat: request.category,
  };
  return {
    timeseries: { ...common, data_type: 'TIMESERIES' },
    regions: { ...common, data_type: request.queries.length === 1 ? 'GEO_MAP_0' : 'GEO_MAP' },
  };
}

/**
 * How long an answer for a `now …` window may be reused, in seconds; other timeframes end in whole days
 * and keep the endpoint's lifetime (undefined). Google Trends gives `now 1-H` and `now 4-H` a point per
 * minute, so 5 minutes leaves out at most the last five; `now 1-d` (a point per 8 minutes) and `now 7-d`
 * (hourly, its last point still filling) move more slowly, so 15 minutes lags the day by about two points
 * and the week by part of its last one. Both still let a burst of identical requests share one upstream call.
 */
export function answerTtlFor(timeframe: string | undefined): number | undefined {
  if (timeframe === 'now 1-H' || timeframe === 'now 4-H') return 5 * 60;
  if (timeframe === 'now 1-d' || timeframe === 'now 7-d') return 15 * 60;
  return undefined;
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  // Both calls are reserved at once: with one search left the request is refused, not half answered (§8).
  upstream.plan(2, { why: 'interest over time, then interest by region' });
  const params = toSerpApiParams(body);
  const options: SearchOptions = { answerTtlSeconds: answerTtlFor(body.timeframe) };
  // One call after the other, not in parallel: a failed first call (a rejected key, a spent quota or budget,
  // the upstream down or slow) would most likely fail the second as well, and the second is paid for. With
  // the first part missing there is nothing the second could be a partial answer to, so the request fails
  // with the first call's error, as when both parts fail (docs/decisions.md §5, §6).
  const timeseries = await settle(upstream.search('trends', params.timeseries, options));
  if (!timeseries.ok) throw timeseries.error;
  const regions = await settle(upstream.search('trends', params.regions, options));
  const data = reshapeTrends(timeseries, regions, body.queries, body.timeframe);
  return { data, message: trendsMessage(data) };
});
