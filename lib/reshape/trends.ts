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

/** The TIMESERIES answer: one point per time slot, one value per term. */
export function reshapeInterestOverTime(json: Record<string, unknown>): TrendsData['interest_over_time'] {
  const over = record(json.interest_over_time);
  return {
    timeline_data: list(over.timeline_data).map(
      (point): TimelinePoint => ({
        date: textOrEmpty(point.date),
        timestamp: integer(point.timestamp),
        partial: point.partial_data === true,
        values: list(point.values).map((item) => termValue(item, '')),
      }),
    ),
    averages: list(over.averages).map((item) => ({ query: textOrEmpty(item.query), value: interest(item) })),
  };
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
    interest_over_time: reshapeInterestOverTime(timeseries.ok ? timeseries.value : {}),
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
