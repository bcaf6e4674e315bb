/**
 * Recorded SerpApi answers shipped with the project (see samples/SOURCES.md), and which one answers a
 * given upstream query. The demo upstream of `npm start` and the tests' fake SerpApi both use this.
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
  'google_scholar_profiles',
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
    case 'google_scholar':
    case 'google_scholar_cite':
    case 'google_scholar_profiles':
      return engine;
    default:
      return undefined;
  }
}
