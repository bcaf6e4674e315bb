/**
 * Recorded SerpApi answers shipped with the project (see samples/SOURCES.md), and which one answers a
 * given upstream query. The demo upstream of `npm start` and the tests' fake SerpApi both use this; the
 * demo answers through `demoAnswer`, which fits a recording that names its terms to the terms asked.
 */
import { readFileSync } from 'node:fs';

export const SAMPLE_NAMES = [
  'google',
  'google_nws',
  'google_images',
  'duckduckgo',
  'bing',
  'baidu',
  'google_scholar',
  'google_scholar_cite',
  'google_scholar_authors',
  'google_scholar_author',
  'google_scholar_author_citation',
  'google_trends_timeseries',
  'google_trends_geo',
] as const;

export type SampleName = (typeof SAMPLE_NAMES)[number];

const cache = new Map<SampleName, string>();

/** The sample's JSON text, read once. */
export function sampleText(name: SampleName): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`./samples/${name}.json`, import.meta.url), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** A fresh parsed copy of the sample, safe to modify. */
export function sample(name: SampleName): Record<string, unknown> {
  return JSON.parse(sampleText(name)) as Record<string, unknown>;
}

/**
 * The query a sample's recording answers, as its `search_parameters` record it: the terms searched, else
 * the paper or author it was asked for (the demo says which recording it replays: demo-recording.ts).
 */
export function recordedQuery(name: SampleName): string {
  const asked = (sample(name).search_parameters ?? {}) as Record<string, unknown>;
  if (typeof asked.q === 'string') return asked.q;
  if (typeof asked.citation_id === 'string') return `citation_id=${asked.citation_id}`;
  return `author_id=${String(asked.author_id)}`;
}

/** Which recorded answer fits this SerpApi query, or undefined for an engine we hold none for. */
export function sampleFor(query: URLSearchParams): SampleName | undefined {
  const engine = query.get('engine');
  switch (engine) {
    case 'google':
      return query.get('tbm') === 'nws' ? 'google_nws' : 'google';
    case 'google_scholar_author':
      return query.get('view_op') === 'view_citation' ? 'google_scholar_author_citation' : 'google_scholar_author';
    case 'google_trends':
      return query.get('data_type')?.startsWith('GEO_MAP') ? 'google_trends_geo' : 'google_trends_timeseries';
    case 'google_images':
    case 'duckduckgo':
    case 'bing':
    case 'baidu':
    case 'google_scholar_cite':
      return engine;
    case 'google_scholar':
      // A search by author (the profiles endpoint's discovery) gets the recording whose results link authors.
      return query.get('q')?.startsWith('author:') ? 'google_scholar_authors' : engine;
    default:
      return undefined;
  }
}

/**
 * The demo's answer to this query: its recorded sample, with a Google Trends recording's series named for
 * the terms asked (a demo that answered "coffee, tea" with series named for other terms would look broken).
 * The numbers stay the recording's; only the names, and for several terms the region map's form, follow
 * the query. Undefined for an engine without a recording.
 */
export function demoAnswer(query: URLSearchParams): string | undefined {
  const name = sampleFor(query);
  if (!name) return undefined;
  const terms = (query.get('q') ?? '')
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '');
  if (terms.length === 0) return sampleText(name);
  if (name === 'google_trends_timeseries') return JSON.stringify(seriesForTerms(sample(name), terms, query));
  if (name === 'google_trends_geo') return JSON.stringify(regionsForTerms(sample(name), terms, query));
  return sampleText(name);
}

type Json = Record<string, unknown>;
const items = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** The parameters the answer says it was asked, as SerpApi echoes them (never the key). */
function askedParameters(answer: Json, query: URLSearchParams): void {
  const echoed = Object.fromEntries([...query].filter(([key]) => key !== 'api_key'));
  answer.search_parameters = { ...(answer.search_parameters as Json), ...echoed };
}

/** TIMESERIES: term i of the query gets recorded series i (cycling when more terms are asked). */
function seriesForTerms(answer: Json, terms: readonly string[], query: URLSearchParams): Json {
  const over = (answer.interest_over_time ?? {}) as Json;
  const rename = (recorded: Json[]) =>
    recorded.length === 0 ? [] : terms.map((term, i) => ({ ...recorded[i % recorded.length], query: term }));
  for (const point of items(over.timeline_data)) point.values = rename(items(point.values));
  over.averages = rename(items(over.averages));
  askedParameters(answer, query);
  return answer;
}

/**
 * GEO_MAP_0 (one term) names no term, so it fits as recorded. For several terms Google Trends answers
 * GEO_MAP: each region's share per term, in per cent. Term i takes the recorded interest of the region i
 * places further down the list, so the shares differ between terms while every number is a recorded one.
 */
function regionsForTerms(answer: Json, terms: readonly string[], query: URLSearchParams): Json {
  askedParameters(answer, query);
  const regions = items(answer.interest_by_region);
  if (terms.length === 1 || regions.length === 0) return answer;
  const interest = (region: Json | undefined) => Number(region?.extracted_value ?? 0) || 0;
  answer.compared_breakdown_by_region = regions.map((region, r) => {
    const raw = terms.map((_, i) => interest(regions[(r + i) % regions.length]));
    const total = raw.reduce((sum, value) => sum + value, 0) || 1;
    const shares = raw.map((value) => Math.round((100 * value) / total));
    return {
      geo: region.geo,
      location: region.location,
      max_value_index: shares.indexOf(Math.max(...shares)),
      values: terms.map((term, i) => ({
        query: term,
        value: shares[i] === 0 ? '<1%' : `${shares[i]}%`,
        extracted_value: shares[i],
      })),
    };
  });
  delete answer.interest_by_region;
  return answer;
}
