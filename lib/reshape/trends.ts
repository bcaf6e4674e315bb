/**
 * Reshaping of Google Trends answers. Interest over time (data_type TIMESERIES) and interest by region
 * (GEO_MAP_0 for one term, GEO_MAP for several) are two upstream calls made side by side; each reshaper
 * reads one of them, and `reshapeTrends` merges what came back.
 */
import type { Region, TermValue, TimelinePoint, TrendsData } from '../contract/alpha-trends.js';
import { mostInformative, type Outcome } from '../upstream/outcomes.js';
import type { SerpApiJson } from '../upstream/serpapi.js';
import { integer, list, number, record, text, textOrEmpty } from './values.js';

/** Google Trends writes interest below 1 as "<1"; its `extracted_value` is then 0. */
function interest(item: Record<string, unknown>): number | null {
  const extracted = number(item.extracted_value);
  if (extracted !== null) return Math.round(extracted);
  const shown = text(item.value);
  if (shown?.trim() === '<1') return 0;
  const parsed = number(item.value);
  return parsed === null ? null : Math.round(parsed);
}

function termValue(item: Record<string, unknown>, query: string): TermValue {
  return { query: text(item.query) ?? query, value: interest(item), formatted_value: text(item.value) };
}

type Granularity = NonNullable<TrendsData['interest_over_time']['granularity']>;

const DAY = 86_400;
// Google Trends answers yearly points once a range exceeds this many days (serpapi/public-roadmap#4045).
export const YEARLY_AFTER_DAYS = 8216;

/** The slot length that a spacing of `seconds` between consecutive points means. */
function granularityOfSpacing(seconds: number): Granularity {
  if (seconds < 3600) return 'minute';
  if (seconds < DAY) return 'hour';
  if (seconds < 7 * DAY) return 'day';
  if (seconds < 28 * DAY) return 'week';
  if (seconds < 365 * DAY) return 'month';
  return 'year';
}

/** The slot length Google Trends uses for a range of this many days. */
function granularityOfDays(days: number): Granularity {
  if (days <= 1) return 'minute';
  if (days <= 7) return 'hour';
  if (days <= 269) return 'day';
  if (days <= 1890) return 'week';
  return days > YEARLY_AFTER_DAYS ? 'year' : 'month';
}

const NAMED_RANGES: Record<string, number> = {
  'now 1-H': 0,
  'now 4-H': 0,
  'now 1-d': 1,
  'now 7-d': 7,
  'today 1-m': 30,
  'today 3-m': 90,
  'today 12-m': 365,
  'today 5-y': 1826,
};

/** The slot length a timeframe implies (`all` starts in 2004, so it depends on `now`), or null. */
export function granularityOfTimeframe(timeframe: string | undefined, now: Date): Granularity | null {
  const frame = timeframe ?? 'today 12-m';
  if (frame in NAMED_RANGES) return granularityOfDays(NAMED_RANGES[frame] as number);
  if (frame === 'all') return granularityOfDays((now.getTime() - Date.UTC(2004, 0, 1)) / (DAY * 1000));
  const range = /^(\d{4}-\d{2}-\d{2}) (\d{4}-\d{2}-\d{2})$/.exec(frame);
  if (!range) return null;
  // A range of dates is never finer than days: the recorded one-day range answers one point for the day.
  const days = (Date.parse(range[2] as string) - Date.parse(range[1] as string)) / (DAY * 1000);
  return granularityOfDays(Math.max(days, 8));
}

/** The median spacing of the points' timestamps, as a slot length; null with fewer than two. */
export function granularityOfTimeline(timestamps: readonly (number | null)[]): Granularity | null {
  const known = timestamps.filter((t): t is number => t !== null).sort((a, b) => a - b);
  const gaps = known
    .slice(1)
    .map((t, i) => t - (known[i] as number))
    .sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)];
  return median === undefined ? null : granularityOfSpacing(median);
}

/** The TIMESERIES answer: one point per time slot, one value per term, and the slots' length. */
export function reshapeInterestOverTime(
  json: Record<string, unknown>,
  timeframe?: string,
  now: Date = new Date(),
): TrendsData['interest_over_time'] {
  const over = record(json.interest_over_time);
  const timeline = reshapeTimeline(over);
  const granularity =
    granularityOfTimeline(timeline.map((point) => point.timestamp)) ??
    (timeline.length > 0 ? granularityOfTimeframe(timeframe, now) : null);
  return {
    granularity,
    timeline_data: timeline,
    averages: list(over.averages).map((item) => ({ query: textOrEmpty(item.query), value: interest(item) })),
  };
}

function reshapeTimeline(over: Record<string, unknown>): TimelinePoint[] {
  return list(over.timeline_data).map(
    (point): TimelinePoint => ({
      date: textOrEmpty(point.date),
      timestamp: integer(point.timestamp),
      partial: point.partial_data === true,
      values: list(point.values).map((item) => termValue(item, '')),
    }),
  );
}

/**
 * The GEO_MAP_0 answer (one term: `interest_by_region`, one value per region) or the GEO_MAP answer
 * (several: `compared_breakdown_by_region`, a value per term), both as regions with a value per term.
 */
export function reshapeInterestByRegion(json: Record<string, unknown>, queries: readonly string[]): Region[] {
  const compared = list(json.compared_breakdown_by_region);
  const regions = compared.length > 0 ? compared : list(json.interest_by_region);
  return regions.map((region) => ({
    geo: text(region.geo),
    location: textOrEmpty(region.location),
    max_value_index: integer(region.max_value_index),
    values: Array.isArray(region.values)
      ? list(region.values).map((item, i) => termValue(item, queries[i] ?? ''))
      : [termValue(region, queries[0] ?? '')],
  }));
}

/**
 * Merges the two answers; one failed side is empty and named in `unavailable`. Both failed is an
 * error: the more informative of the two.
 */
export function reshapeTrends(
  timeseries: Outcome<SerpApiJson>,
  regions: Outcome<SerpApiJson>,
  queries: readonly string[],
  timeframe?: string,
): TrendsData {
  if (!timeseries.ok && !regions.ok) throw mostInformative([timeseries.error, regions.error]);
  const unavailable: TrendsData['unavailable'] = [];
  for (const [part, outcome] of [
    ['interest_over_time', timeseries],
    ['interest_by_region', regions],
  ] as const) {
    if (!outcome.ok) unavailable.push({ part, code: outcome.error.code, details: outcome.error.details });
  }
  return {
    interest_over_time: reshapeInterestOverTime(timeseries.ok ? timeseries.value : {}, timeframe),
    interest_by_region: reshapeInterestByRegion(regions.ok ? regions.value : {}, queries),
    unavailable,
  };
}

/** "12 time points, 3 regions", and which part is missing, if one is. */
export function trendsMessage(data: TrendsData): string {
  const points = data.interest_over_time.timeline_data.length;
  const regions = data.interest_by_region.length;
  const found = `${points} time point${points === 1 ? '' : 's'}, ${regions} region${regions === 1 ? '' : 's'}`;
  const [failed] = data.unavailable;
  if (!failed) return points + regions === 0 ? 'No results' : found;
  return `${found}; ${failed.part.replaceAll('_', ' ')} could not be fetched (${failed.details})`;
}
