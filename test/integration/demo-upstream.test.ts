/**
 * The demo upstream of `npm start` (lib/local/replay-upstream.ts), behind the real service over real HTTP:
 * it answers what was asked where a recording names its terms. Trends for "coffee, tea" must answer
 * series and regions named coffee and tea, in that order, however many terms are asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrendsData } from '../../lib/contract/alpha-trends.js';
import { type ReplayCrossref, startReplayCrossref } from '../../lib/local/replay-crossref.js';
import { type ReplayUpstream, startReplayUpstream } from '../../lib/local/replay-upstream.js';
import { type Service, startService } from '../support/service.js';

let replay: ReplayUpstream;
let crossref: ReplayCrossref;
let service: Service;

beforeAll(async () => {
  [replay, crossref] = await Promise.all([startReplayUpstream(), startReplayCrossref()]);
  service = await startService({ SERPAPI_BASE_URL: replay.url, CROSSREF_BASE_URL: crossref.url });
  // The first citation search of a process builds the citation styles: seconds of CPU on a busy machine.
  await (await import('../../lib/citations/render/render.js')).citationRenderer();
}, 180_000);

afterAll(async () => {
  await service?.close();
  await Promise.all([replay?.close(), crossref?.close()]);
});

describe('the demo upstream, asked for citations', () => {
  it('cites every paper of the spec\'s example, {"query":"bananas"}, in the five formats, from the index\'s records', async () => {
    const reply = await service.post('/v1/cite/search', { query: 'bananas' });
    expect(reply.status, reply.text).toBe(200);
    const { papers, citation_count } = reply.json.data as {
      papers: { title: string; citations: Record<string, string>; citations_source: string; citation_gaps: string[] }[];
      citation_count: number;
    };
    expect(papers.length).toBeGreaterThan(0);
    expect(citation_count).toBe(papers.length);
    for (const paper of papers) {
      expect(Object.keys(paper.citations)).toEqual(['MLA', 'APA', 'Chicago', 'Harvard', 'Vancouver']);
      expect(paper.citations_source).toBe('index-record');
      expect(paper.citation_gaps).toEqual(['publisher']);
      for (const text of Object.values(paper.citations)) {
        expect(text.toLowerCase()).toContain(paper.title.replace(/\.$/, '').toLowerCase());
      }
    }
  });
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
    // And says it replays a recording, and which (demo-recording.test.ts checks the rest).
    expect(reply.headers.get('x-demo-recording')).toBe('Coffee');
  });
});
