/** The `data` of a successful POST /v1/alpha/trends (spec §2.7, docs/decisions.md §6). */
import * as z from 'zod/mini';
import { unavailableSchema } from './alpha-parts.js';

export const termValueSchema = z.strictObject({
  query: z.string().check(z.describe('The search term')),
  value: z.nullable(z.int().check(z.describe('Relative interest, 0–100 (100 = the peak); "<1" counts as 0'))),
  formatted_value: z.nullable(z.string().check(z.describe('The value as Google Trends shows it, e.g. "<1"'))),
});

export const timelinePointSchema = z.strictObject({
  date: z.string().check(z.describe('The time slot as Google Trends labels it, e.g. "May 1, 2025"')),
  timestamp: z.nullable(z.int().check(z.describe('Start of the slot, Unix seconds'))),
  partial: z.boolean().check(z.describe('Whether the slot is still in progress (its values may rise)')),
  values: z.array(termValueSchema).check(z.describe('One value per search term, in the order of `queries`')),
});

export const regionSchema = z.strictObject({
  geo: z.nullable(z.string().check(z.describe('Region code, e.g. US-CA or SG'))),
  location: z.string().check(z.describe('Region name')),
  max_value_index: z.nullable(z.int().check(z.describe('Index in `values` of the term most searched there'))),
  values: z.array(termValueSchema).check(z.describe('One value per search term, in the order of `queries`')),
});

export const GRANULARITIES = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const;

export const responseSchema = z.strictObject({
  interest_over_time: z.strictObject({
    granularity: z.nullable(
      z
        .enum(GRANULARITIES)
        .check(
          z.describe(
            "How long each time slot is, read from the spacing of the points (or, with fewer than two, from the timeframe): Google Trends picks it from the range's length, e.g. day up to about 9 months, week up to about 5 years, month beyond, and year once a range exceeds 8,216 days (so `all` answers yearly points). Null when neither tells",
          ),
        ),
    ),
    timeline_data: z.array(timelinePointSchema),
    averages: z
      .array(z.strictObject({ query: z.string(), value: z.nullable(z.int()) }))
      .check(z.describe('Average interest of each term over the range; empty when Google Trends gives none')),
  }),
  interest_by_region: z
    .array(regionSchema)
    .check(z.describe('Interest by country, or by region within `geo`, in the order the upstream gives (highest first)')),
  unavailable: unavailableSchema(['interest_over_time', 'interest_by_region']),
});

export type TrendsData = z.output<typeof responseSchema>;
export type TermValue = z.output<typeof termValueSchema>;
export type TimelinePoint = z.output<typeof timelinePointSchema>;
export type Region = z.output<typeof regionSchema>;
