/**
 * The upstream contract: every call any endpoint makes, over a table of representative requests (every
 * optional field, every value of every fixed list, first and later pages), uses only parameters SerpApi
 * documents for that engine (lib/upstream/serpapi-params/, SerpApi's own metadata), with a value among the
 * options of every `select` parameter and within the limits SerpApi's descriptions state.
 */
import { describe, expect, it } from 'vitest';
import { CITATION_FORMATS } from '../../lib/contract/cite-search.js';
import { ROUTES } from '../../lib/routes.js';
import { type EngineMetadata, optionValues, readEngineMetadata } from '../../lib/upstream/options-write.js';
import { useService } from '../support/service.js';

const harness = useService();

const ENGINE_FILES = [
  'google',
  'google_ai_overview',
  'google_images',
  'duckduckgo',
  'bing',
  'baidu',
  'google_scholar',
  'google_scholar_author',
  'google_scholar_cite',
  'google_trends',
] as const;
const METADATA = new Map<string, EngineMetadata>(ENGINE_FILES.map((file) => [file, readEngineMetadata(file)]));

/**
 * SerpApi's common parameters (engine, api_key, no_cache…), the same for every engine: those every
 * engine's metadata lists, so that the engine without metadata is held to them too.
 */
const COMMON_PARAMS = [...METADATA.values()]
  .map((metadata) => Object.keys(metadata.common_params))
  .reduce((shared, names) => shared.filter((name) => names.includes(name)));

/**
 * Limits SerpApi states in a parameter's description, each with the words that state it: the test first
 * checks that the metadata still says so, then that no call goes beyond it.
 */
const STATED_LIMITS: { engine: string; param: string; says: string; holds: (value: string) => boolean }[] = [
  { engine: 'duckduckgo', param: 'q', says: 'can not exceed 500 characters', holds: (v) => v.length <= 500 },
  { engine: 'duckduckgo', param: 'm', says: 'Max. value:`50`', holds: (v) => Number(v) >= 1 && Number(v) <= 50 },
  { engine: 'google_images', param: 'ijn', says: 'Max. value:`99`', holds: (v) => Number(v) >= 0 && Number(v) <= 99 },
  { engine: 'google_scholar', param: 'num', says: 'ranging from `1` to `20`', holds: (v) => Number(v) >= 1 && Number(v) <= 20 },
  {
    engine: 'google_scholar_author',
    param: 'num',
    says: 'Maximum number of results to return is `100`',
    holds: (v) => Number(v) <= 100,
  },
  { engine: 'baidu', param: 'rn', says: 'limited to 50', holds: (v) => Number(v) <= 50 },
  {
    engine: 'google_trends',
    param: 'q',
    says: 'Maximum length for each query is 100 characters',
    holds: (v) => v.split(',').length <= 5 && v.split(',').every((term) => term.length <= 100),
  },
];

/** Every way an upstream call breaks the published rules, one line each; empty when it keeps them. */
function breaches(query: URLSearchParams): string[] {
  const engine = query.get('engine') ?? '(none)';
  const found: string[] = [];
  const metadata = METADATA.get(engine);
  if (!metadata) return [`${engine}: no such engine in SerpApi's metadata`];
  for (const [name, value] of query) {
    const param = metadata.params[name] ?? metadata.common_params[name];
    if (!param) {
      found.push(`${engine}: ${name}=${value} is not a documented parameter`);
      continue;
    }
    if (param.type === 'select' && !optionValues(param).includes(value)) {
      found.push(`${engine}: ${name}=${value} is not one of its options`);
    }
    if (param.type === 'number' && !/^-?\d+$/.test(value)) found.push(`${engine}: ${name}=${value} is not a number`);
    for (const limit of STATED_LIMITS.filter((l) => l.engine === engine && l.param === name)) {
      if (!limit.holds(value)) found.push(`${engine}: ${name}=${value.slice(0, 40)} breaks "${limit.says}"`);
    }
  }
  for (const [name, param] of Object.entries(metadata.params)) {
    if (param.required && !query.has(name) && !(engine === 'google_scholar' && query.has('cites'))) {
      found.push(`${engine}: the required ${name} is missing`);
    }
  }
  return found;
}

const pages = (body: Record<string, unknown>) => [0, 1, 99].map((page) => ({ ...body, page }));
const each = (field: string, values: readonly unknown[], base: Record<string, unknown>) =>
  values.map((value) => ({ ...base, [field]: value }));

/**
 * Representative valid requests per route: every optional field, every listed value, pages 0, 1 and 99.
 * Handlers are imported only once the service has settled the environment (they read it on import).
 */
async function representativeRequests(): Promise<Record<string, Record<string, unknown>[]>> {
  const { FILTERS } = await import('../../functions/alpha-images.js');
  return {
    'web-search-alpha': [
      ...pages({ q: 'coffee', location: 'Austin, Texas', language: 'ZH-CN', num: 10 }),
      ...pages({ q: 'coffee', num: 7 }),
      ...each('language', ['en', 'pt-BR', 'es-419', 'xx-klingon'], { q: 'coffee', num: 1 }),
      { q: 'x'.repeat(2048) },
    ],
    'web-search-bravo': [
      ...pages({ q: 'coffee', region: 'US-EN', date: 'week', safe_search: 'strict' }),
      ...each('date', ['day', 'week', 'month', 'year'], { q: 'coffee' }),
      ...each('safe_search', ['strict', 'moderate', 'off'], { q: 'coffee' }),
      ...each('region', ['wt-wt', 'hk-tzh', 'uk-en'], { q: 'coffee' }),
      { q: 'q'.repeat(500) },
    ],
    'web-search-charlie': [
      ...pages({ q: 'coffee', market: 'en-US', safe_search: 'moderate' }),
      ...pages({ q: 'coffee', cc: 'us' }),
      ...each('safe_search', ['off', 'moderate', 'strict'], { q: 'coffee' }),
      ...each('market', ['EN-GB', 'zh-hk', 'es-us'], { q: 'coffee' }),
      ...each('cc', ['GB', 'de', 'sa'], { q: 'coffee' }),
    ],
    'web-search-delta': [
      ...pages({ q: '咖啡', ct: 'simplified', site: 'baidu.com', date_from: '2024-01-01', date_to: '2024-03-31' }),
      ...each('ct', ['all', 'simplified', 'traditional'], { q: '咖啡' }),
      { q: '咖啡', pn: 990 },
      { q: '咖啡', date_to: '2024-03-31' },
      { q: '咖'.repeat(455) },
    ],
    'alpha-news': [...pages({ q: 'coffee', location: 'Austin, Texas', language: 'de' })],
    'alpha-images': [
      ...pages({
        q: 'coffee',
        size: 'large',
        color: 'red',
        type: 'photo',
        license: 'commercial',
        aspect_ratio: 'wide',
        location: 'Austin, Texas',
      }),
      ...each('size', Object.keys(FILTERS.size), { q: 'coffee' }),
      ...each('color', Object.keys(FILTERS.color), { q: 'coffee' }),
      ...each('type', Object.keys(FILTERS.type), { q: 'coffee' }),
      ...each('license', Object.keys(FILTERS.license), { q: 'coffee' }),
      ...each('aspect_ratio', Object.keys(FILTERS.aspect_ratio), { q: 'coffee' }),
    ],
    'alpha-trends': [
      { queries: ['coffee'], geo: 'us-ca', timeframe: 'today 5-y', category: 71 },
      { queries: ['coffee', 'tea', 'milk', 'juice', 'x'.repeat(100)], geo: 'GB-ENG', timeframe: '2024-01-01 2024-02-29' },
      ...each('timeframe', ['now 1-H', 'now 4-H', 'now 1-d', 'now 7-d', 'today 1-m', 'today 3-m', 'today 12-m', 'all'], {
        queries: ['coffee'],
      }),
      ...each('geo', ['807', 'DE', 'jp'], { queries: ['coffee'] }),
      ...each('category', [0, 3, 958], { queries: ['coffee', 'tea'] }),
    ],
    // Discovery (google_scholar) then enrichment (google_scholar_author), the most the request may ask for.
    'scholar-profiles': [
      { query: 'Mike', country: 'us', enrich: 10 },
      { query: 'label:machine_learning' },
      { query: 'Lee', num: 20, page: 0, enrich: 0 },
    ],
    'scholar-author': [
      ...pages({ author_id: 'LSsXyncAAAAJ', language: 'en', sort: 'pubdate', num: 100 }),
      ...each('sort', ['cited', 'pubdate', 'title'], { author_id: 'LSsXyncAAAAJ' }),
      { author_id: 'LSsXyncAAAAJ', num: 1 },
    ],
    'scholar-author-citation': [
      { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C' },
      { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C', author_id: 'LSsXyncAAAAJ', language: 'FR' },
    ],
    'cite-search': [
      ...pages({ query: 'machine learning', results: 20 }),
      ...each('format', CITATION_FORMATS, { query: 'bananas', results: 1 }),
    ],
    // Google Scholar, for references no registry has (here Crossref does not answer): the longest query a
    // reference makes (300 characters), a BibTeX entry's title, a reference in Chinese.
    'cite-check': [
      {
        references: ['Nobody, A. (2020). A conference paper no registry holds. In Proceedings of the Workshop on Nothing.'],
        scholar: true,
      },
      { references: [`Nobody, A. (2020). ${'A very long title of a work no registry holds '.repeat(12)}.`], scholar: true },
      {
        references: ['@inproceedings{n, title={A paper only the index knows}, author={Nobody, A.}, year={2020}}'],
        scholar: true,
      },
      { references: ['张三. 咖啡的历史与文化研究[J]. 中国咖啡, 2020, 12(3): 45-50.'], scholar: true },
    ],
  };
}

describe("SerpApi's metadata", () => {
  it.each(STATED_LIMITS.map((limit) => [limit.engine, limit.param, limit] as const))(
    '%s %s still states the limit this test checks',
    (_engine, _param, limit) => {
      const param = METADATA.get(limit.engine)?.params[limit.param];
      expect(param?.description).toContain(limit.says);
    },
  );

  it('finds a parameter SerpApi does not document, a value outside its options, and a broken limit', () => {
    expect(breaches(new URLSearchParams({ engine: 'google', q: 'x', num: '20' }))).toEqual([
      'google: num=20 is not a documented parameter',
    ]);
    expect(breaches(new URLSearchParams({ engine: 'bing', q: 'x', cc: 'us' }))).toEqual([
      'bing: cc=us is not one of its options',
    ]);
    expect(breaches(new URLSearchParams({ engine: 'duckduckgo', q: 'x'.repeat(501) }))).toEqual([
      `duckduckgo: q=${'x'.repeat(40)} breaks "can not exceed 500 characters"`,
    ]);
    expect(breaches(new URLSearchParams({ engine: 'google_scholar_profiles', mauthors: 'x' }))).toEqual([
      "google_scholar_profiles: no such engine in SerpApi's metadata",
    ]);
    expect(breaches(new URLSearchParams({ engine: 'google_scholar_cite' }))).toEqual([
      'google_scholar_cite: the required q is missing',
    ]);
  });

  it('accepts no_cache, a common parameter the metadata documents, on every engine', () => {
    expect(COMMON_PARAMS).toEqual(expect.arrayContaining(['engine', 'api_key', 'no_cache']));
    expect(breaches(new URLSearchParams({ engine: 'google', q: 'x', no_cache: 'true' }))).toEqual([]);
    expect(breaches(new URLSearchParams({ engine: 'google_scholar', q: 'x', no_cache: 'true' }))).toEqual([]);
  });
});

// Seven routes search nothing: /v1/usage reads SerpApi's free Account API, which has no engine metadata;
// /v1/cite/resolve asks Crossref only, /v1/cite/styles reads data shipped with the code, and the job routes
// keep and read jobs, whose one kind so far, resolve, asks Crossref only.
const SEARCHING_ROUTES = ROUTES.filter(
  (route) => !['usage', 'cite-resolve', 'cite-styles'].includes(route.name) && route.tag !== 'Jobs',
);

describe.each(SEARCHING_ROUTES.map((route) => [route.path, route] as const))(
  'POST %s calls the upstream as SerpApi documents',
  (_path, route) => {
    it('for every representative request: documented parameters only, values among their options', async () => {
      const requests = (await representativeRequests())[route.name];
      expect(requests, `add representative requests for ${route.name}`).toBeDefined();
      for (const body of requests ?? []) {
        harness.upstream.reset();
        const reply = await harness.service.post(route.path, body);
        expect(reply.status, `${JSON.stringify(body).slice(0, 120)}: ${reply.text.slice(0, 300)}`).toBe(200);
        expect(harness.upstream.calls(), 'the request must reach the upstream').toBeGreaterThan(0);
        const found = harness.upstream.requests.flatMap(breaches);
        expect(found, `${JSON.stringify(body).slice(0, 120)} made calls SerpApi would refuse`).toEqual([]);
      }
    });

    it('with no_cache: sends no_cache=true on every call, as SerpApi documents it', async () => {
      const [body] = (await representativeRequests())[route.name] ?? [];
      harness.upstream.reset();
      const reply = await harness.service.post(route.path, { ...body, no_cache: true });
      expect(reply.status, reply.text.slice(0, 300)).toBe(200);
      expect(harness.upstream.calls()).toBeGreaterThan(0);
      expect(harness.upstream.requests.map((query) => query.get('no_cache'))).toEqual(
        harness.upstream.requests.map(() => 'true'),
      );
      expect(harness.upstream.requests.flatMap(breaches)).toEqual([]);
    });
  },
);

describe('POST /v1/web-search/alpha with fetch_ai_overview', () => {
  it('fetches the overview as SerpApi documents google_ai_overview: the page_token it required, nothing else', async () => {
    for (const noCache of [false, true]) {
      harness.upstream.reset();
      harness.upstream.respond((query) =>
        query.get('engine') === 'google_ai_overview'
          ? { json: { ai_overview: { text_blocks: [{ type: 'paragraph', snippet: 'Yes.' }], references: [] } } }
          : {
              json: {
                organic_results: [{ title: 'Coffee', link: 'https://coffee.example' }],
                ai_overview: { page_token: 'T0K' },
              },
            },
      );
      const reply = await harness.service.post('/v1/web-search/alpha', {
        q: 'coffee',
        fetch_ai_overview: true,
        no_cache: noCache,
      });
      expect(reply.status, reply.text.slice(0, 300)).toBe(200);
      expect(harness.upstream.requests.map((query) => query.get('engine'))).toEqual(['google', 'google_ai_overview']);
      expect(harness.upstream.requests.flatMap(breaches)).toEqual([]);
    }
    expect(breaches(new URLSearchParams({ engine: 'google_ai_overview' }))).toEqual([
      'google_ai_overview: the required page_token is missing',
    ]);
  });
});
