/**
 * Real SerpApi answers (test/fixtures/serpapi/, provenance in its SOURCES.md) through the service over real
 * HTTP, the fake SerpApi replaying each: every value lib/reshape/carried.ts says an endpoint carries is in
 * its answer, the answer is exactly what the endpoint's contract describes, and the facts the issue found
 * dropped are there: dates on Google, Bing and DuckDuckGo results, the AI-overview "People also ask" entry's
 * 7 text blocks and 11 references, the list answer's 8 items, the answer box and the knowledge graph.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { loadRouteSchemas } from '../../lib/openapi.js';
import { CARRIED, carriedLeaves } from '../../lib/reshape/carried.js';
import { ROUTES } from '../../lib/routes.js';
import { useService } from '../support/service.js';

const harness = useService();

type Json = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field
type Data = any;

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`../fixtures/serpapi/${name}`, import.meta.url), 'utf8')) as Json;
const GOOGLE = fixture('google-2026-01-03-ai-overview.json');
const GOOGLE_ANSWER_BOX = fixture('google-2025-04-21-answer-box.json');
const GOOGLE_WEATHER = fixture('google-2025-02-20-weather-answer-box.json');
const GOOGLE_HELD_BACK = fixture('google-2026-09-23-people-also-ask-held-back.json');
// The demo's recording (lib/local/samples/SOURCES.md): a real answer whose knowledge graph carries Google's tokens.
const GOOGLE_DEMO = JSON.parse(readFileSync(new URL('../../lib/local/samples/google.json', import.meta.url), 'utf8')) as Json;
const BING = fixture('bing-2026-01-03.json');
const DUCKDUCKGO = fixture('duckduckgo-2023-07-20.json');
const SCHOLAR = fixture('google_scholar-2023-11-20.json');
const items = (value: unknown) => value as Json[];

/** The route's answer to `body` while the fake SerpApi answers every search with `upstream`; checked against the contract. */
async function answer(name: string, body: Json, upstream: Json): Promise<Data> {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`no route ${name}`);
  harness.upstream.respond(() => ({ json: upstream }));
  const reply = await harness.service.post(route.path, { ...body, no_cache: true });
  expect(reply.status, reply.text).toBe(200);
  const { responseSchema } = await loadRouteSchemas(route);
  const parsed = (responseSchema as z.ZodMiniType).safeParse(reply.json.data);
  expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true);
  expect(parsed.data, `${name} answers fields its contract does not describe`).toEqual(reply.json.data);
  return reply.json.data;
}

const normal = (value: string) => value.replace(/\s+/g, ' ').trim();

/** Every value at a path the table lists for this endpoint and engine is in the answer (text within its text). */
function expectCarried(name: string, engine: string, upstream: Json, data: Data): number {
  const strings: string[] = [];
  const numbers = new Set<number>();
  const walk = (value: unknown) => {
    if (typeof value === 'string') strings.push(normal(value));
    else if (typeof value === 'number') numbers.add(value);
    else if (value && typeof value === 'object') for (const inner of Object.values(value)) walk(inner);
  };
  walk(data);
  const patterns = CARRIED[name]?.[engine];
  expect(patterns, `lib/reshape/carried.ts has no list for ${name} ${engine}`).toBeDefined();
  const leaves = carriedLeaves(patterns ?? [], upstream);
  const missing = leaves.filter(({ value }) => {
    if (typeof value === 'number') return !numbers.has(value) && !strings.some((s) => s.includes(String(value)));
    if (typeof value !== 'string' || normal(value) === '') return false;
    return !strings.some((s) => s.includes(normal(value)));
  });
  expect(
    missing.map((leaf) => `${leaf.path}: ${String(leaf.value).slice(0, 80)}`),
    'values the table says are carried but are not in the answer',
  ).toEqual([]);
  return leaves.length;
}

describe('Google, 2026-01-03, "Coffee" in Austin (web search alpha)', () => {
  it('carries every value the table lists (248 of them), and the answer is exactly the contract’s', async () => {
    const data = await answer('web-search-alpha', { q: 'Coffee' }, GOOGLE);
    expect(expectCarried('web-search-alpha', 'google', GOOGLE, data)).toBe(248);
  });

  it('keeps the spec’s fields, types and order of results', async () => {
    const data = await answer('web-search-alpha', { q: 'Coffee' }, GOOGLE);
    const upstream = items(GOOGLE.organic_results);
    expect(data.organic_results.map((r: Data) => [r.rank, r.position, r.title, r.link])).toEqual(
      upstream.map((r, i) => [i + 1, i + 1, r.title, r.link]),
    );
    expect(data.organic_results.map((r: Data) => r.displayed_link)).toEqual(upstream.map((r) => r.displayed_link));
    expect(Object.keys(data.people_also_ask[0]).slice(0, 5)).toEqual(['question', 'snippet', 'title', 'link', 'displayed_link']);
  });

  it('gives each result its source (9 of 9), favicon (9 of 9) and sitelinks where Google shows them (3 results)', async () => {
    const data = await answer('web-search-alpha', { q: 'Coffee' }, GOOGLE);
    const upstream = items(GOOGLE.organic_results);
    expect(data.organic_results.filter((r: Data) => r.source).length).toBe(9);
    expect(data.organic_results.map((r: Data) => r.favicon)).toEqual(upstream.map((r) => r.favicon));
    expect(data.organic_results.map((r: Data) => r.source)).toEqual(upstream.map((r) => r.source));
    const sitelinks = data.organic_results.map((r: Data) => r.sitelinks?.length ?? 0);
    expect(sitelinks).toEqual([4, 0, 0, 4, 4, 0, 0, 0, 0]);
    expect(sitelinks).toEqual(upstream.map((r) => items((r.sitelinks as Json | undefined)?.inline ?? []).length));
    expect(data.organic_results[0].sitelinks[0]).toEqual({
      title: 'History of coffee',
      link: 'https://en.wikipedia.org/wiki/History_of_coffee',
    });
  });

  it('keeps the dates of the dated "People also ask" answers (2 of 2), and each answer’s type', async () => {
    const data = await answer('web-search-alpha', { q: 'Coffee' }, GOOGLE);
    expect(data.people_also_ask.map((q: Data) => q.date ?? null)).toEqual(['2 days ago', null, null, 'Aug 14, 2025']);
    expect(data.people_also_ask.map((q: Data) => q.type)).toEqual([
      'featured_snippet',
      'featured_snippet',
      'ai_overview',
      'featured_snippet',
    ]);
  });

  it('gives the AI-overview entry its 7 text blocks as plain text and its 11 references with title, link and source', async () => {
    const data = await answer('web-search-alpha', { q: 'Coffee' }, GOOGLE);
    const entry = data.people_also_ask[2];
    const upstream = items(GOOGLE.related_questions)[2] as Json;
    expect(entry.question).toBe('Is drinking coffee every day healthy?');
    expect(entry.ai_overview.text_blocks).toHaveLength(7);
    expect(entry.ai_overview.text_blocks.map((b: Data) => b.type)).toEqual([
      'paragraph',
      'paragraph',
      'list',
      'paragraph',
      'list',
      'paragraph',
      'paragraph',
    ]);
    expect(entry.ai_overview.text_blocks[1].text).toBe('Potential Health Benefits');
    expect(entry.ai_overview.text_blocks[2].text.split('\n')).toEqual([
      "- Reduced Disease Risk: Linked to lower chances of Type 2 diabetes, liver conditions (like cirrhosis), heart failure, Parkinson's, and certain cancers (mouth, throat, colon).",
      "- Brain Health: May improve mood and lower depression risk, and caffeine helps with movement control in Parkinson's patients.",
      '- Liver Protection: Both regular and decaf coffee show protective effects on the liver.',
      '- Nutrient-Rich: Contains Riboflavin (B2), Niacin (B3), Potassium, Magnesium, and antioxidants.',
    ]);
    expect(entry.ai_overview.text_blocks[0].reference_indexes).toEqual([0, 2, 5, 6, 7, 8, 10]);
    expect(entry.ai_overview.references).toHaveLength(11);
    expect(entry.ai_overview.references.map((r: Data) => [r.index, r.title, r.link, r.source])).toEqual(
      items(upstream.references).map((r) => [r.index, r.title, r.link, r.source]),
    );
    // The entry had no snippet, title or link of its own: its answer's first block is the excerpt.
    expect(entry.snippet).toBe(items(upstream.text_blocks)[0]?.snippet);
  });

  it('gives the list answer its 8 items, in order', async () => {
    const data = await answer('web-search-alpha', { q: 'Coffee' }, GOOGLE);
    const entry = data.people_also_ask[3];
    expect(entry.list).toHaveLength(8);
    expect(entry.list).toEqual((items(GOOGLE.related_questions)[3] as Json).list);
    expect(entry.title).toBe('The top 10 best coffees in the world are listed below.');
  });

  it('summarises the knowledge graph: title, type, description, source and its link', async () => {
    const data = await answer('web-search-alpha', { q: 'Coffee' }, GOOGLE);
    expect(data.knowledge_graph).toEqual({
      title: 'Coffee',
      type: 'Beverages',
      description: expect.stringMatching(/^Coffee is a beverage brewed from roasted, ground coffee beans\./),
      source: 'Wikipedia',
      link: 'https://en.wikipedia.org/wiki/Coffee',
      facts: [],
    });
    // This page has no answer box and no AI overview of its own (only its "People also ask" one).
    expect(data.answer_box).toBeUndefined();
    expect(data.ai_overview).toBeUndefined();
  });
});

describe('Google, 2026-01-03, when Google says it could not make its AI overview', () => {
  it('answers the search with the overview failed and Google’s words, and no follow-up search', async () => {
    const refused = { ...GOOGLE, ai_overview: { error: "Can't generate an AI overview right now. Try again later." } };
    const route = ROUTES.find((r) => r.name === 'web-search-alpha');
    harness.upstream.respond(() => ({ json: refused }));
    const reply = await harness.service.post(route?.path ?? '', { q: 'Coffee', fetch_ai_overview: true, no_cache: true });
    expect(reply.status, reply.text).toBe(200);
    expect(harness.upstream.calls()).toBe(1);
    expect(reply.json.data.ai_overview).toMatchObject({
      state: 'failed',
      error: { code: 'UPSTREAM_ERROR', details: expect.stringContaining("Can't generate an AI overview right now") },
    });
    // No follow-up was asked for, so the message is the search's own.
    expect(reply.json.message).toBe('9 results');
    expectCarried('web-search-alpha', 'google', refused, reply.json.data);
  });
});

describe('Google, 2025-04-21, "What is the capital of France?" (web search alpha)', () => {
  it('gives the answer box (Paris) and the knowledge graph with its 5 facts, every listed value carried', async () => {
    const data = await answer('web-search-alpha', { q: 'What is the capital of France?' }, GOOGLE_ANSWER_BOX);
    expect(data.answer_box).toEqual({
      type: 'organic_result',
      title: 'France › Capital',
      answer: 'Paris',
      snippet: null,
      list: [],
      link: null,
      displayed_link: null,
      source: null,
      date: null,
      // Its only other value is a picture, which is left out.
      details: {},
    });
    expect(data.knowledge_graph).toMatchObject({ title: 'Paris', type: 'Capital of France', source: null, link: null });
    expect(data.knowledge_graph.facts).toEqual([
      { label: 'population', value: '2.103 million (2023)' },
      { label: 'mayor', value: 'Anne Hidalgo' },
      { label: 'area', value: '40.7 mi²' },
      { label: 'elevation', value: '115′' },
      { label: 'neighborhoods', value: 'Arsenal, Notre Dame, Europe, Le Marais' },
    ]);
    expect(data.relatedSearches.map((s: Data) => s.query)).toEqual(GOOGLE_ANSWER_BOX.related_searches);
    expectCarried('web-search-alpha', 'google', GOOGLE_ANSWER_BOX, data);
  });
});

describe('Google, 2025-02-20, the weather in Delhi: an answer box of a type the summary has no field for', () => {
  it('keeps the weather box with its type and all 227 of its values: the day’s, 8 days’ forecast and 27 hours’', async () => {
    const data = await answer('web-search-alpha', { q: 'Weather in Delhi tomorrow' }, GOOGLE_WEATHER);
    const box = GOOGLE_WEATHER.answer_box as Json;
    expect(data.answer_box).toMatchObject({ type: 'weather_result', title: null, answer: null, date: 'Friday' });
    expect(data.answer_box.details).toMatchObject({
      temperature: '77',
      unit: 'Fahrenheit',
      precipitation: '10%',
      humidity: '61%',
      wind: '6 mph',
      location: 'Delhi, India',
      weather: 'Partly cloudy',
    });
    expect(data.answer_box.details.forecast).toHaveLength(8);
    expect(data.answer_box.details.forecast[0]).toEqual({
      day: 'Thursday',
      temperature: { high: '79', low: '53' },
      weather: 'Light rain',
      humidity: '94%',
      precipitation: '45%',
      wind: '8 mph',
    });
    expect(data.answer_box.details.hourly_forecast.map((hour: Data) => hour.time)).toEqual(
      items(box.hourly_forecast).map((hour) => hour.time),
    );
    // Every value of the box but its pictures (1 of the day, 8 of the days, 27 of the hours).
    expect(expectCarried('web-search-alpha', 'google', GOOGLE_WEATHER, data)).toBe(227);
    expect(JSON.stringify(data.answer_box)).not.toContain('gstatic.com');
  });
});

describe('Google, 2026-09-23, "nestjs jwt authentication": every AI overview held back for a request of its own', () => {
  it('says of each "People also ask" overview that it is held back and how to have it, as of the page’s own', async () => {
    const data = await answer('web-search-alpha', { q: 'nestjs jwt authentication' }, GOOGLE_HELD_BACK);
    expect(data.people_also_ask.map((q: Data) => q.question)).toEqual(
      items(GOOGLE_HELD_BACK.related_questions).map((q) => q.question),
    );
    for (const entry of data.people_also_ask) {
      expect(entry).toMatchObject({ type: 'ai_overview', snippet: null, title: null, link: null, displayed_link: null });
      expect(entry.ai_overview).toEqual({
        state: 'not_fetched',
        text_blocks: [],
        references: [],
        note: expect.stringMatching(/holds the AI overview answering this question back.*"fetch_ai_overview": true/),
        error: null,
      });
    }
    // The page's own overview, held back too: not fetched unless asked for.
    expect(data.ai_overview).toMatchObject({ state: 'not_fetched', note: expect.stringContaining('"fetch_ai_overview": true') });
    // The tokens are read, never shown, and no follow-up search was made for any of them.
    expect(JSON.stringify(data)).not.toContain('page_token');
    expect(harness.upstream.calls()).toBe(1);
    expectCarried('web-search-alpha', 'google', GOOGLE_HELD_BACK, data);
  });
});

describe('Google, 2022-03-17, "Coffee" (the demo’s recording): knowledge graph keys that hold Google’s tokens', () => {
  it('takes the one fact and none of the 3 `*_stick` tokens', async () => {
    const data = await answer('web-search-alpha', { q: 'Coffee' }, GOOGLE_DEMO);
    const graph = GOOGLE_DEMO.knowledge_graph as Json;
    expect(Object.keys(graph).filter((key) => key.endsWith('_stick'))).toHaveLength(3);
    expect(data.knowledge_graph.facts).toEqual([{ label: 'patron saint', value: 'Saint Drogo of Sebourg redrockroasters.com' }]);
    expectCarried('web-search-alpha', 'google', GOOGLE_DEMO, data);
  });
});

describe('Bing, 2026-01-03, "Coffee" (web search charlie)', () => {
  it('dates the two dated results (2 of 2) and carries every value the table lists', async () => {
    const data = await answer('web-search-charlie', { q: 'Coffee' }, BING);
    expect(data.charlie_data.map((r: Data) => r.date ?? null)).toEqual(items(BING.organic_results).map((r) => r.date ?? null));
    expect(data.charlie_data.filter((r: Data) => r.date).map((r: Data) => [r.rank, r.date])).toEqual([
      [5, 'Apr 3, 2023'],
      [9, 'Oct 6, 2025'],
    ]);
    expect(expectCarried('web-search-charlie', 'bing', BING, data)).toBeGreaterThan(50);
  });
});

describe('DuckDuckGo, 2023-07-20, "apple inc" (web search bravo)', () => {
  it('dates the two dated results with date and date_raw (2 of 2) and gives all 21 their favicon', async () => {
    const data = await answer('web-search-bravo', { q: 'apple inc' }, DUCKDUCKGO);
    expect(data.organic_results).toHaveLength(21);
    expect(data.organic_results.filter((r: Data) => r.favicon)).toHaveLength(21);
    expect(data.organic_results.filter((r: Data) => r.date).map((r: Data) => [r.rank, r.date, r.date_raw])).toEqual([
      [3, 'Jul 19, 2023', '2023-07-19T01:51:00.0000000'],
      [9, 'Jul 5, 2023', '2023-07-05T00:00:00.0000000'],
    ]);
  });

  it('summarises its knowledge graph with its 18 facts and keeps its 5 news stories with their dates', async () => {
    const data = await answer('web-search-bravo', { q: 'apple inc' }, DUCKDUCKGO);
    expect(data.knowledge_graph.title).toBe('Apple Inc.');
    expect(data.knowledge_graph.facts).toHaveLength(18);
    expect(data.knowledge_graph.facts[0]).toEqual({
      label: 'formerly called',
      value: 'Apple Computer Company (1976–1977), Apple Computer, Inc, (1977–2007)',
    });
    expect(data.news_results.map((n: Data) => n.date)).toEqual([
      '3 hours ago',
      '19 hours ago',
      '59 minutes ago',
      '13 hours ago',
      '21 hours ago',
    ]);
    expect(expectCarried('web-search-bravo', 'duckduckgo', DUCKDUCKGO, data)).toBeGreaterThan(150);
  });
});

describe('Google Scholar, 2023-11-20, "asthma treatement in children" (citation search)', () => {
  it('keeps each paper’s title, link, scholar id and citation count, in order', async () => {
    const data = await answer('cite-search', { query: 'asthma treatement in children', results: 5 }, SCHOLAR);
    const upstream = items(SCHOLAR.organic_results);
    expect(data.papers.map((p: Data) => [p.title, p.scholar_id, p.cited_by])).toEqual(
      upstream.map((r) => [r.title, r.result_id, `Cited by ${((r.inline_links as Json).cited_by as Json).total}`]),
    );
    expect(data.papers.map((p: Data) => p.source_url ?? p.pdf_url)).toEqual(upstream.map((r) => r.link));
  });
});
