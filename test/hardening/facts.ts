/**
 * What the hardening suite knows about each endpoint, written down from the contract (docs/decisions.md §4 and
 * §6) rather than read from the handlers: a minimal valid body, where the search text goes and what the
 * upstream must receive for it, and the integer fields with their bounds. The suites loop over ROUTES and
 * look each route up here; a route with no entry fails them, so a new endpoint is never silently skipped.
 */
import { ROUTES, type Route } from '../../lib/routes.js';

export type Body = Record<string, unknown>;

/** The field a request's search text (or identifier) lives in, and how it must reach the upstream. */
export interface TextFact {
  /** The field as error details name it: `q`, `query`, `queries` (its items are `queries.0`…). */
  field: string;
  /** The body with `value` as its text. */
  set(body: Body, value: unknown): Body;
  /** The upstream parameter that carries the text. */
  param: string;
  /** Whether the contract accepts this text; accepted texts reach the upstream trimmed, byte for byte. */
  accepts(value: string): boolean;
  /** How an accepted, trimmed text is sent when the endpoint wraps it (profiles: `author:"…"`). */
  sent?(trimmed: string): string;
  /** A valid text that contains `token` (for telling concurrent requests apart at the fake upstream). */
  withToken(token: string): string;
}

export interface IntegerFact {
  min: number;
  /** Absent: no upper bound below the safe-integer range. */
  max?: number;
}

/** A request that only this endpoint rejects, and the field its details must name. */
export interface ExtraCase {
  name: string;
  body: Body;
  field: string;
}

export interface RouteFacts {
  family: 'web search' | 'scholar' | 'alpha' | 'citation search';
  /** The smallest body the endpoint answers 200 to. */
  body: Body;
  /** The upstream engine of the endpoint's first (or only) call. */
  engine: string;
  /** How many calls carry the search text per request (trends asks for time series, then regions). */
  textCalls: number;
  /**
   * How many of those a request makes when every call fails, when fewer than `textCalls`: trends stops at
   * its first failed call and never pays for the second.
   */
  failingCalls?: number;
  text: TextFact;
  integers: Record<string, IntegerFact>;
  extra: ExtraCase[];
  /** A later call whose failure the endpoint answers around, with a 200 (docs/decisions.md §5, §6). */
  /** A call whose failure must only cost its part of the answer; `body` asks for it, when `body` above does not. */
  optionalCall?: { name: string; matches(query: URLSearchParams): boolean; body?: Record<string, unknown> };
}

const QUERY_MAX = 2048;
// Search terms take at most this many bytes once URL-encoded (a Chinese character takes 9).
const QUERY_MAX_ENCODED_BYTES = 4096;
// docs/decisions.md §4: text fields reject ASCII control characters (C0 and DEL).
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The contract's rule for free text: at most `max` characters as sent (surrounding spaces count), not
 * empty once trimmed, no control characters inside, well-formed; search terms also at most 4096 bytes
 * URL-encoded (`maxEncodedBytes` undefined: no such limit).
 */
export function acceptsText(
  value: string,
  max = QUERY_MAX,
  maxEncodedBytes: number | undefined = QUERY_MAX_ENCODED_BYTES,
): boolean {
  const trimmed = value.trim();
  const encoded = new URLSearchParams({ v: trimmed }).toString().length - 2;
  return (
    trimmed.length > 0 &&
    value.length <= max &&
    !CONTROL.test(trimmed) &&
    trimmed.isWellFormed() &&
    (maxEncodedBytes === undefined || encoded <= maxEncodedBytes)
  );
}

function topLevel(field: string) {
  return (body: Body, value: unknown): Body => ({ ...body, [field]: value });
}

function searchText(field: string, param: string, max = QUERY_MAX): TextFact {
  return {
    field,
    set: topLevel(field),
    param,
    accepts: (value) => acceptsText(value, max),
    withToken: (token) => `coffee ${token}`,
  };
}

function identifier(field: string, pattern: RegExp, max: number, withToken: (token: string) => string): TextFact {
  return {
    field,
    set: topLevel(field),
    param: field,
    accepts: (value) => value.length <= max && pattern.test(value.trim()),
    withToken,
  };
}

const PAGE: IntegerFact = { min: 0, max: 99 };

const FACTS: Record<string, RouteFacts> = {
  '/v1/web-search/alpha': {
    family: 'web search',
    body: { q: 'coffee' },
    engine: 'google',
    textCalls: 1,
    text: searchText('q', 'q'),
    // Google serves at most 10 results a page and has no page-size parameter.
    integers: { page: PAGE, num: { min: 1, max: 10 } },
    extra: [
      { name: 'a language that is not a language code', body: { q: 'coffee', language: 'english!' }, field: 'language' },
      { name: 'a language code Google does not list', body: { q: 'coffee', language: 'en-us' }, field: 'language' },
    ],
  },
  '/v1/web-search/bravo': {
    family: 'web search',
    body: { q: 'coffee' },
    engine: 'duckduckgo',
    textCalls: 1,
    // DuckDuckGo takes at most 500 characters.
    text: searchText('q', 'q', 500),
    integers: { page: PAGE },
    extra: [
      { name: 'an unknown date filter', body: { q: 'coffee', date: 'decade' }, field: 'date' },
      { name: 'a region DuckDuckGo does not list', body: { q: 'coffee', region: 'xx-yy' }, field: 'region' },
    ],
  },
  '/v1/web-search/charlie': {
    family: 'web search',
    body: { q: 'coffee' },
    engine: 'bing',
    textCalls: 1,
    text: searchText('q', 'q'),
    integers: { page: PAGE },
    extra: [
      { name: 'a three-letter cc', body: { q: 'coffee', cc: 'usa' }, field: 'cc' },
      { name: 'market and cc together', body: { q: 'coffee', market: 'en-US', cc: 'us' }, field: 'cc' },
    ],
  },
  '/v1/web-search/delta': {
    family: 'web search',
    body: { q: '咖啡' },
    engine: 'baidu',
    textCalls: 1,
    text: searchText('q', 'q'),
    integers: { page: PAGE, pn: { min: 0, max: 990 } },
    extra: [{ name: 'an impossible date', body: { q: '咖啡', date_from: '2024-02-30' }, field: 'date_from' }],
  },
  '/v1/alpha/scholar/profiles': {
    family: 'scholar',
    body: { query: 'Mike' },
    // Authors are discovered through the scholarly search (the profile search engine is retired).
    engine: 'google_scholar',
    textCalls: 1,
    text: { ...searchText('query', 'q'), sent: (trimmed) => `author:"${trimmed.replace(/"/g, '')}"` },
    integers: { page: PAGE, num: { min: 1, max: 20 }, enrich: { min: 0, max: 10 } },
    // Accepted for the spec, but only as a two-letter code.
    extra: [{ name: 'a country that is no code', body: { query: 'Mike', country: 'usa' }, field: 'country' }],
  },
  '/v1/alpha/scholar/author': {
    family: 'scholar',
    body: { author_id: 'LSsXyncAAAAJ' },
    engine: 'google_scholar_author',
    textCalls: 1,
    text: identifier('author_id', /^[A-Za-z0-9_-]{1,64}$/, 64, (token) => `LSsXyncAAAAJ${token}`),
    integers: { page: PAGE, num: { min: 1, max: 100 } },
    extra: [{ name: 'an unknown sort order', body: { author_id: 'LSsXyncAAAAJ', sort: 'random' }, field: 'sort' }],
  },
  '/v1/alpha/scholar/author-citation': {
    family: 'scholar',
    body: { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C' },
    engine: 'google_scholar_author',
    textCalls: 1,
    text: identifier('citation_id', /^[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_-]{1,64}$/, 129, (token) => `LSsXyncAAAAJ:u5HHmVD_${token}`),
    integers: {},
    extra: [
      { name: 'a citation id without its author part', body: { citation_id: 'u5HHmVD_uO8C' }, field: 'citation_id' },
      {
        name: 'an author_id that is not the citation id’s author',
        body: { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C', author_id: 'someoneElse' },
        field: 'author_id',
      },
    ],
    optionalCall: {
      name: 'the documents citing the article',
      matches: (q) => q.get('engine') === 'google_scholar' && q.has('cites'),
    },
  },
  '/v1/alpha/trends': {
    family: 'alpha',
    body: { queries: ['coffee'] },
    engine: 'google_trends',
    textCalls: 2,
    failingCalls: 1,
    text: {
      field: 'queries',
      set: (body, value) => ({ ...body, queries: [value] }),
      param: 'q',
      // The upstream separates terms with commas, so a term may hold none.
      accepts: (value) => acceptsText(value, 100, undefined) && !value.includes(','),
      withToken: (token) => `coffee ${token}`,
    },
    // category is one of Google Trends' listed ids, not a range.
    integers: {},
    extra: [
      { name: 'no search terms', body: { queries: [] }, field: 'queries' },
      { name: 'six search terms', body: { queries: ['a', 'b', 'c', 'd', 'e', 'f'] }, field: 'queries' },
      { name: 'the terms as one string', body: { queries: 'coffee,tea' }, field: 'queries' },
      { name: 'a term with a comma', body: { queries: ['coffee,tea'] }, field: 'queries' },
      { name: 'an empty second term', body: { queries: ['coffee', ' '] }, field: 'queries' },
      { name: 'an unknown timeframe', body: { queries: ['coffee'], timeframe: 'last week' }, field: 'timeframe' },
      { name: 'a category Google Trends does not list', body: { queries: ['coffee'], category: 1 }, field: 'category' },
      { name: 'a geo Google Trends does not list', body: { queries: ['coffee'], geo: 'XX' }, field: 'geo' },
    ],
    optionalCall: {
      name: 'interest by region',
      matches: (q) => q.get('engine') === 'google_trends' && (q.get('data_type') ?? '').startsWith('GEO_MAP'),
    },
  },
  '/v1/alpha/news': {
    family: 'alpha',
    body: { q: 'coffee' },
    engine: 'google',
    textCalls: 1,
    text: searchText('q', 'q'),
    integers: { page: PAGE },
    extra: [{ name: 'a number for location', body: { q: 'coffee', location: 7 }, field: 'location' }],
  },
  '/v1/alpha/images': {
    family: 'alpha',
    body: { q: 'coffee' },
    engine: 'google_images',
    textCalls: 1,
    text: searchText('q', 'q'),
    integers: { page: PAGE },
    extra: [
      { name: 'an unknown size', body: { q: 'coffee', size: 'huge' }, field: 'size' },
      { name: 'an upstream size code instead of a size', body: { q: 'coffee', size: 'qsvga' }, field: 'size' },
      { name: 'an unknown colour', body: { q: 'coffee', color: 'ultraviolet' }, field: 'color' },
    ],
  },
  '/v1/cite/search': {
    family: 'citation search',
    body: { query: 'bananas' },
    engine: 'google_scholar',
    textCalls: 1,
    text: searchText('query', 'q'),
    integers: { results: { min: 1, max: 20 }, page: PAGE },
    extra: [
      {
        name: 'a country that is no code (accepted for the spec, no effect)',
        body: { query: 'bananas', country: 'usa' },
        field: 'country',
      },
      { name: 'results 0', body: { query: 'bananas', results: 0 }, field: 'results' },
      { name: 'results 21', body: { query: 'bananas', results: 21 }, field: 'results' },
      // A CSL style id the catalogue does not hold: refused before the paid search, naming the closest ids.
      { name: 'an unknown citation format', body: { query: 'bananas', format: 'ieeee' }, field: 'format' },
      { name: 'a citation format that is no id', body: { query: 'bananas', format: 'apa 7th' }, field: 'format' },
      { name: 'an unknown style', body: { query: 'bananas', styles: ['nature', 'natur'] }, field: 'styles.1' },
    ],
    optionalCall: {
      name: "a paper's citations",
      matches: (q) => q.get('engine') === 'google_scholar_cite',
      // The index's cite call is made only when asked for; by default papers are cited from free records.
      body: { query: 'bananas', citation_source: 'index' },
    },
  },
};

export interface CoveredRoute {
  route: Route;
  facts: RouteFacts;
}

/**
 * Every route of ROUTES that has facts. Each suite also asserts that {@link routesWithoutFacts} is empty,
 * so a route missing here fails a test named for it while the other routes are still exercised.
 */
export function everyRoute(): CoveredRoute[] {
  return ROUTES.flatMap((route) => {
    const facts = FACTS[route.path];
    return facts ? [{ route, facts }] : [];
  });
}

/**
 * Routes with no search input and no upstream call, which these suites (search text, integers, upstream
 * faults) have nothing to try on: /v1/usage reads the budget's counter only (test/integration/budget*.test.ts);
 * /v1/cite/resolve asks only Crossref (its faults, limits and refusals: test/integration/cite-resolve.test.ts)
 * and /v1/cite/styles reads data shipped with the code; the job routes keep and read jobs, whose work asks
 * Crossref only (their faults: test/integration/jobs*.test.ts). Generated hostile bodies reach them all
 * through the document fuzz (test/integration/document-fuzz.test.ts).
 */
const NO_SEARCH_ROUTES = new Set([
  '/v1/usage',
  '/v1/cite/resolve',
  '/v1/cite/styles',
  '/v1/jobs',
  '/v1/jobs/status',
  '/v1/jobs/results',
  '/v1/jobs/cancel',
]);

/**
 * Routes that search, but not from one text field: /v1/cite/check asks Google Scholar only with
 * `"scholar": true`, once per reference no registry confirmed, a request these suites' model (one text
 * field, one paid call) does not describe. Its paid calls, their planning and refusals are tested in
 * test/integration/cite-check-limits.test.ts and budget-plans-every-route.test.ts; upstream faults on its
 * Scholar searches (a reset, HTML 502, 500, 429, garbage, SerpApi's own 503) in cite-check.test.ts, each
 * answered 200 with the reference not found there and the failure said, never "not in" Google Scholar.
 */
const SEARCH_ROUTES_DESCRIBED_ELSEWHERE = new Set(['/v1/cite/check']);

/** Paths of ROUTES that this table does not describe. */
export function routesWithoutFacts(): string[] {
  return ROUTES.filter(
    (route) => !FACTS[route.path] && !NO_SEARCH_ROUTES.has(route.path) && !SEARCH_ROUTES_DESCRIBED_ELSEWHERE.has(route.path),
  ).map((route) => route.path);
}
