/** POST /v1/alpha/trends: Google Trends interest over time and by region (SerpApi `google_trends`, two calls). */
import * as z from 'zod/mini';
import { api } from '../lib/middleware/index.js';
import { reshapeTrends, trendsMessage } from '../lib/reshape/trends.js';
import { body, integer, optionalText, requiredText } from '../lib/schema.js';
import { settle } from '../lib/upstream/outcomes.js';

// biome-ignore format: one line reads as the list it is
const RELATIVE_TIMEFRAMES = ['now 1-H', 'now 4-H', 'now 1-d', 'now 7-d', 'today 1-m', 'today 3-m', 'today 12-m', 'today 5-y', 'all'];
// Google Trends has data from 2004 on; a range must run forwards.
const validRange = (s: string) => {
  const [from = '', to = ''] = s.split(' ');
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`);
  const real = (d: string) => !Number.isNaN(day(d)) && new Date(day(d)).toISOString().startsWith(d);
  return RELATIVE_TIMEFRAMES.includes(s) || (real(from) && real(to) && from >= '2004-01-01' && from <= to);
};

export const requestSchema = body({
  queries: z
    .array(
      requiredText({ max: 100, format: { pattern: /^[^,]*$/, hint: 'free of commas (the upstream separates terms with them)' } }),
      { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array of search terms') },
    )
    .check(
      z.minLength(1, { error: 'at least 1 item' }),
      z.maxLength(5, { error: 'at most 5 items' }),
      z.describe('Search terms to compare, 1 to 5'),
    ),
  geo: optionalText({
    max: 12,
    format: { pattern: /^[A-Za-z]{2}(-[A-Za-z0-9]{1,3}){0,2}$/, hint: 'a country or region code such as US or US-CA' },
    description: 'Where: a country or region code such as US or US-CA; worldwide when absent',
  }),
  timeframe: optionalText({
    max: 21,
    format: {
      pattern: /^(now (1-H|4-H|1-d|7-d)|today (1-m|3-m|12-m|5-y)|all|\d{4}-\d{2}-\d{2} \d{4}-\d{2}-\d{2})$/,
      hint: `one of ${RELATIVE_TIMEFRAMES.join(', ')}, or a range such as 2024-01-01 2024-03-31 (from 2004 on)`,
      valid: validRange,
    },
    description: `Time range: ${RELATIVE_TIMEFRAMES.join(', ')}, or "YYYY-MM-DD YYYY-MM-DD"; today 12-m when absent`,
  }),
  category: integer({ min: 0, description: 'Google Trends category id; 0 (all categories) when absent' }),
});
export type TrendsRequest = z.output<typeof requestSchema>;

/** The two calls: interest over time, and interest by region (its data type depends on the number of terms). */
export function toSerpApiParams(request: TrendsRequest) {
  const common = {
    q: request.queries.join(','),
    geo: request.geo?.toUpperCase(),
    date: request.timeframe,
    cat: request.category,
  };
  return {
    timeseries: { ...common, data_type: 'TIMESERIES' },
    regions: { ...common, data_type: request.queries.length === 1 ? 'GEO_MAP_0' : 'GEO_MAP' },
  };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const params = toSerpApiParams(body);
  const [timeseries, regions] = await Promise.all([
    settle(upstream.search('trends', params.timeseries)),
    settle(upstream.search('trends', params.regions)),
  ]);
  const data = reshapeTrends(timeseries, regions, body.queries);
  return { data, message: trendsMessage(data) };
});
