/**
 * The demo upstream of `npm start` (lib/local/replay-upstream.ts), behind the real service over real HTTP:
 * it answers what was asked where a recording names its terms. Trends for "coffee, tea" must answer
 * series and regions named coffee and tea, in that order, however many terms are asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrendsData } from '../../lib/contract/alpha-trends.js';
import { type ReplayUpstream, startReplayUpstream } from '../../lib/local/replay-upstream.js';
import { type Service, startService } from '../support/service.js';

let replay: ReplayUpstream;
let service: Service;

beforeAll(async () => {
  replay = await startReplayUpstream();
  service = await startService({ SERPAPI_BASE_URL: replay.url });
});

afterAll(async () => {
  await service?.close();
  await replay?.close();
});

async function trends(body: Record<string, unknown>): Promise<TrendsData> {
  const reply = await service.post('/v1/alpha/trends', body);
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { data: TrendsData }).data;
}

/** The term names of every series, average and region of the answer, each list in answer order. */
function namesIn(data: TrendsData): string[][] {
  return [
    ...data.interest_over_time.timeline_data.map((point) => point.values.map((value) => value.query)),
    data.interest_over_time.averages.map((average) => average.query),
    ...data.interest_by_region.map((region) => region.values.map((value) => value.query)),
  ];
}

describe('the demo upstream, asked for trends', () => {
  it.each([[['coffee', 'tea']], [['coffee']], [['a', 'b', 'c', 'd', 'e']]])(
    'names every series and region for the terms asked: %j',
    async (queries) => {
      const data = await trends({ queries });
      expect(data.interest_over_time.timeline_data.length).toBeGreaterThan(0);
      expect(data.interest_by_region.length).toBeGreaterThan(0);
      expect(data.unavailable).toEqual([]);
      for (const names of namesIn(data)) expect(names).toEqual(queries);
    },
  );

  it('compares several terms region by region in shares that add up to about 100 %', async () => {
    const data = await trends({ queries: ['coffee', 'tea', 'mate'] });
    for (const region of data.interest_by_region) {
      const total = region.values.reduce((sum, value) => sum + (value.value ?? 0), 0);
      expect(total).toBeGreaterThanOrEqual(98);
      expect(total).toBeLessThanOrEqual(102);
      const top = Math.max(...region.values.map((value) => value.value ?? 0));
      expect(region.values[region.max_value_index ?? -1]?.value).toBe(top);
      expect(region.values.every((value) => value.formatted_value?.endsWith('%'))).toBe(true);
    }
  });

  it('keeps the recorded numbers: the first term has the recording’s first series', async () => {
    const one = await trends({ queries: ['vpn'] });
    const renamed = await trends({ queries: ['coffee'] });
    const values = (data: TrendsData) => data.interest_over_time.timeline_data.map((point) => point.values[0]?.value);
    expect(values(renamed)).toEqual(values(one));
  });
});

describe('the demo upstream, asked for anything else', () => {
  it('answers a web search from its recording', async () => {
    const reply = await service.post('/v1/web-search/alpha', { q: 'coffee' });
    expect(reply.status, reply.text).toBe(200);
    expect((reply.json as { data: { organic_results: unknown[] } }).data.organic_results.length).toBeGreaterThan(0);
  });
});
