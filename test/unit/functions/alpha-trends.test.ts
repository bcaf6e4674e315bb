import { describe, expect, it } from 'vitest';
import { requestSchema, toSerpApiParams } from '../../../functions/alpha-trends.js';
import { responseSchema } from '../../../lib/contract/alpha-trends.js';
import { AppError } from '../../../lib/errors.js';
import { sample } from '../../../lib/local/samples.js';
import {
  granularityOfTimeframe,
  granularityOfTimeline,
  reshapeInterestByRegion,
  reshapeInterestOverTime,
  reshapeTrends,
  trendsMessage,
} from '../../../lib/reshape/trends.js';
import { mostInformative, settle } from '../../../lib/upstream/outcomes.js';

const ok = (value: Record<string, unknown>) => ({ ok: true as const, value });
const failed = (error: AppError) => ({ ok: false as const, error });

// The GEO_MAP answer for several terms, in the shape SerpApi documents (no recording of it is kept).
const comparedRegions = {
  compared_breakdown_by_region: [
    {
      geo: 'US-CA',
      location: 'California',
      max_value_index: 0,
      values: [
        { query: 'vpn', value: '61%', extracted_value: 61 },
        { query: 'antivirus', value: '<1%', extracted_value: 0 },
      ],
    },
  ],
};

describe('trends request', () => {
  it('sends the terms comma-joined with geo, date and cat, once as TIMESERIES and once as GEO_MAP_0 for one term', () => {
    const request = requestSchema.parse({ queries: [' coffee '], geo: 'us-ca', timeframe: 'today 3-m', category: 71 });
    expect(toSerpApiParams(request)).toEqual({
      timeseries: { q: 'coffee', geo: 'US-CA', date: 'today 3-m', cat: 71, data_type: 'TIMESERIES' },
      regions: { q: 'coffee', geo: 'US-CA', date: 'today 3-m', cat: 71, data_type: 'GEO_MAP_0' },
    });
  });

  it('asks for GEO_MAP when there are several terms', () => {
    const request = requestSchema.parse({ queries: ['vpn', 'antivirus'] });
    expect(toSerpApiParams(request).regions).toEqual({
      q: 'vpn,antivirus',
      geo: undefined,
      date: undefined,
      cat: undefined,
      data_type: 'GEO_MAP',
    });
  });

  it.each([
    'now 1-H',
    'now 4-H',
    'now 1-d',
    'now 7-d',
    'today 1-m',
    'today 3-m',
    'today 12-m',
    'today 5-y',
    'all',
    '2024-01-01 2024-03-31',
    '2004-01-01 2004-01-01',
  ])('accepts the timeframe %s', (timeframe) => {
    expect(requestSchema.safeParse({ queries: ['x'], timeframe }).success).toBe(true);
  });

  it.each(['today 2-m', 'now 1-h', 'last week', '2024-02-30 2024-03-01', '2024-03-01 2024-01-01', '2003-12-31 2004-02-01'])(
    'rejects the timeframe %s',
    (timeframe) => {
      expect(requestSchema.safeParse({ queries: ['x'], timeframe }).success).toBe(false);
    },
  );

  it('takes 1 to 5 non-empty terms of at most 100 characters, without commas', () => {
    expect(requestSchema.safeParse({ queries: ['a', 'b', 'c', 'd', 'e'] }).success).toBe(true);
    expect(requestSchema.safeParse({ queries: ['a', 'b', 'c', 'd', 'e', 'f'] }).success).toBe(false);
    expect(requestSchema.safeParse({ queries: [] }).success).toBe(false);
    expect(requestSchema.safeParse({ queries: [' '] }).success).toBe(false);
    expect(requestSchema.safeParse({ queries: ['x'.repeat(101)] }).success).toBe(false);
    expect(requestSchema.safeParse({ queries: ['salt, pepper'] }).success).toBe(false);
  });
});

describe('trends reshaping', () => {
  it('gives one timeline point per slot with an integer value per term, and the averages', () => {
    const over = reshapeInterestOverTime(sample('google_trends_timeseries'));
    expect(over.timeline_data).toEqual([
      {
        date: 'May 1, 2025',
        timestamp: 1746057600,
        partial: false,
        values: [
          { query: 'vpn', value: 100, formatted_value: '100' },
          { query: 'antivirus', value: 14, formatted_value: '14' },
          { query: 'ad blocker', value: 9, formatted_value: '9' },
          { query: 'password manager', value: 31, formatted_value: '31' },
        ],
      },
    ]);
    expect(over.averages).toEqual([
      { query: 'vpn', value: 100 },
      { query: 'antivirus', value: 14 },
      { query: 'ad blocker', value: 9 },
      { query: 'password manager', value: 31 },
    ]);
  });

  it('gives each region of a one-term answer one value, labelled with the term', () => {
    expect(reshapeInterestByRegion(sample('google_trends_geo'), ['coffee'])[0]).toEqual({
      geo: 'SG',
      location: 'Singapore',
      max_value_index: 0,
      values: [{ query: 'coffee', value: 100, formatted_value: '100' }],
    });
  });

  it('gives each region of a several-term answer a value per term', () => {
    expect(reshapeInterestByRegion(comparedRegions, ['vpn', 'antivirus'])).toEqual([
      {
        geo: 'US-CA',
        location: 'California',
        max_value_index: 0,
        values: [
          { query: 'vpn', value: 61, formatted_value: '61%' },
          { query: 'antivirus', value: 0, formatted_value: '<1%' },
        ],
      },
    ]);
  });

  it('counts "<1" as 0 when the upstream gives no extracted value', () => {
    const over = reshapeInterestOverTime({
      interest_over_time: { timeline_data: [{ date: 'd', partial_data: true, values: [{ query: 'x', value: '<1' }] }] },
    });
    expect(over.timeline_data[0]).toEqual({
      date: 'd',
      timestamp: null,
      partial: true,
      values: [{ query: 'x', value: 0, formatted_value: '<1' }],
    });
  });

  it('merges both answers into the contract shape', () => {
    const data = reshapeTrends(ok(sample('google_trends_timeseries')), ok(sample('google_trends_geo')), ['coffee']);
    expect(data.interest_over_time.timeline_data).toHaveLength(1);
    expect(data.interest_by_region).toHaveLength(3);
    expect(data.unavailable).toEqual([]);
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(trendsMessage(data)).toBe('1 time point, 3 regions');
  });

  it('still returns the contract shape when the upstream omits optional fields', () => {
    const data = reshapeTrends(
      ok({ interest_over_time: { timeline_data: [{ values: [{}] }] } }),
      ok({ interest_by_region: [{ location: 'Singapore' }] }),
      ['coffee'],
    );
    expect(data).toEqual({
      interest_over_time: {
        granularity: 'week',
        timeline_data: [
          { date: '', timestamp: null, partial: false, values: [{ query: '', value: null, formatted_value: null }] },
        ],
        averages: [],
      },
      interest_by_region: [
        {
          geo: null,
          location: 'Singapore',
          max_value_index: null,
          values: [{ query: 'coffee', value: null, formatted_value: null }],
        },
      ],
      unavailable: [],
    });
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(trendsMessage(reshapeTrends(ok({}), ok({}), ['x']))).toBe('No results');
  });
});

describe('trends partial failure', () => {
  const timeout = new AppError('UPSTREAM_TIMEOUT', { details: 'The search provider did not answer within the deadline' });
  const reported = new AppError('UPSTREAM_ERROR', { details: 'The search provider reported an error: Invalid geo' });

  it('returns interest over time and names interest by region as unavailable when the region call failed', () => {
    const data = reshapeTrends(ok(sample('google_trends_timeseries')), failed(timeout), ['vpn']);
    expect(data.interest_over_time.timeline_data).toHaveLength(1);
    expect(data.interest_by_region).toEqual([]);
    expect(data.unavailable).toEqual([{ part: 'interest_by_region', code: 'UPSTREAM_TIMEOUT', details: timeout.details }]);
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(trendsMessage(data)).toBe(`1 time point, 0 regions; interest by region could not be fetched (${timeout.details})`);
  });

  it('returns interest by region and names interest over time as unavailable when the time series call failed', () => {
    const data = reshapeTrends(failed(reported), ok(sample('google_trends_geo')), ['coffee']);
    expect(data.interest_over_time).toEqual({ granularity: null, timeline_data: [], averages: [] });
    expect(data.interest_by_region).toHaveLength(3);
    expect(data.unavailable).toEqual([{ part: 'interest_over_time', code: 'UPSTREAM_ERROR', details: reported.details }]);
    expect(trendsMessage(data)).toMatch(
      /; interest over time could not be fetched \(The search provider reported an error: Invalid geo\)$/,
    );
  });

  it('throws the more informative error when both calls failed', () => {
    expect(() => reshapeTrends(failed(timeout), failed(reported), ['x'])).toThrow(reported);
    expect(() => reshapeTrends(failed(reported), failed(timeout), ['x'])).toThrow(reported);
  });

  it('ranks a misconfiguration over a quota refusal over an upstream error over a timeout, and keeps the first on a tie', () => {
    const misconfigured = new AppError('SERVICE_MISCONFIGURED');
    const quota = new AppError('UPSTREAM_QUOTA_EXCEEDED');
    expect(mostInformative([timeout, reported, quota, misconfigured])).toBe(misconfigured);
    expect(mostInformative([timeout, quota, reported])).toBe(quota);
    const another = new AppError('UPSTREAM_TIMEOUT');
    expect(mostInformative([timeout, another])).toBe(timeout);
  });

  it('settles an AppError into an outcome but lets any other error through', async () => {
    await expect(settle(Promise.resolve(1))).resolves.toEqual({ ok: true, value: 1 });
    await expect(settle(Promise.reject(timeout))).resolves.toEqual({ ok: false, error: timeout });
    await expect(settle(Promise.reject(new TypeError('bug')))).rejects.toThrow(TypeError);
  });
});

describe('granularity of the series', () => {
  const DAY = 86_400;
  const series = (start: number, step: number, n: number) => Array.from({ length: n }, (_, i) => start + i * step);

  it('reads the slot length from the spacing of the points', () => {
    expect(granularityOfTimeline(series(1_700_000_000, 8 * 60, 5))).toBe('minute');
    expect(granularityOfTimeline(series(1_700_000_000, 3600, 5))).toBe('hour');
    expect(granularityOfTimeline(series(1_700_000_000, DAY, 5))).toBe('day');
    expect(granularityOfTimeline(series(1_700_000_000, 7 * DAY, 5))).toBe('week');
    // Months are 28 to 31 days apart; years 365 or 366.
    expect(granularityOfTimeline([Date.UTC(2024, 0, 1), Date.UTC(2024, 1, 1), Date.UTC(2024, 2, 1)].map((t) => t / 1000))).toBe(
      'month',
    );
    expect(granularityOfTimeline([Date.UTC(2004, 0, 1), Date.UTC(2005, 0, 1), Date.UTC(2006, 0, 1)].map((t) => t / 1000))).toBe(
      'year',
    );
    expect(granularityOfTimeline([1_700_000_000])).toBeNull();
  });

  it('falls back to the timeframe; `all` turns yearly once it spans more than 8,216 days (#4045)', () => {
    const now = new Date(Date.UTC(2026, 10, 23));
    expect(granularityOfTimeframe('now 1-H', now)).toBe('minute');
    expect(granularityOfTimeframe('now 7-d', now)).toBe('hour');
    expect(granularityOfTimeframe('today 3-m', now)).toBe('day');
    expect(granularityOfTimeframe(undefined, now)).toBe('week');
    expect(granularityOfTimeframe('today 5-y', now)).toBe('week');
    expect(granularityOfTimeframe('2010-01-01 2020-01-01', now)).toBe('month');
    expect(granularityOfTimeframe('all', new Date(Date.UTC(2026, 0, 1)))).toBe('month');
    expect(granularityOfTimeframe('all', now)).toBe('year');
    expect(granularityOfTimeframe('2004-01-01 2026-11-01', now)).toBe('year');
  });

  it('says the granularity in the answer: the recorded one-day range has one point, so the timeframe tells', () => {
    const recorded = sample('google_trends_timeseries');
    expect(reshapeInterestOverTime(recorded, '2025-05-01 2025-05-01').granularity).toBe('day');
    expect(reshapeInterestOverTime({}, 'all').granularity).toBeNull();
  });
});
