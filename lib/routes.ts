/**
 * Every endpoint, once. The local server, the CDK stack and the OpenAPI document all loop over this
 * table, so a new endpoint is one line here plus its file in functions/. What a route's function needs
 * where deployed (`needs`) is written here too, and nowhere else: its role's grants and its environment
 * follow from it (infra/api-function.ts), and test/infra/least-privilege.test.ts compares every role of
 * the synthesized template with it.
 */
import { CHECK_BODY_MAX_BYTES } from './contract/cite-check.js';
import { JOB_BODY_MAX_BYTES } from './contract/jobs.js';

export interface Route {
  /** The POST path, as clients call it. */
  path: string;
  /**
   * The largest body the route takes, when its contract promises more than every route's MAX_BODY_BYTES
   * (16 KiB): the middleware, the local server, WAF and the document all read it from here (bodyLimit).
   */
  maxBodyBytes?: number;
  /** The handler's file in functions/, without extension. */
  name: string;
  summary: string;
  tag: 'Web search' | 'Alpha services' | 'Citation search' | 'Jobs' | 'Usage';
  needs: RouteNeeds;
  /** The status of a success: 202 for a request worked on later; 200 by default. */
  successStatus?: 200 | 202;
}

/** What a job route does with the jobs' table, bucket and queue (infra/jobs.ts grants each only that). */
export type JobUse = 'submit' | 'read' | 'cancel';

/** What a route's function uses where deployed; it is granted that and nothing more. */
export interface RouteNeeds {
  /** Paid SerpApi searches: each one is reserved in the spending budget first (counter updates). */
  paidCalls: boolean;
  /**
   * Reads the SerpApi key from its secret: for paid searches, or for SerpApi's free Account API (the
   * plan's numbers /v1/usage shows). A route without it never loads the key and may not read its secret.
   */
  upstreamKey: boolean;
  /**
   * The spending budget's counter table: `reserve` (paid searches: reserve, give back, settle), `read`
   * (/v1/usage: where the budget stands), `none` (the function is given no table).
   */
  budget: 'reserve' | 'read' | 'none';
  /** The shared cache table, every key under the route's own prefix ({@link cacheKeyPrefix}). */
  sharedCache: boolean;
  /**
   * The upstreams whose pace the function keeps with the rest of the deployment (lib/pace/: their items in
   * the pace table, named by {@link PACE_KEYS}); none when absent.
   */
  paces?: readonly PaceKey[];
  /** The jobs' store and queue (docs/decisions.md §27); absent: none. */
  jobs?: readonly JobUse[];
}

/** The body every route takes unless its contract says more (docs/decisions.md §1). */
export const MAX_BODY_BYTES = 16 * 1024;

/** The pace table's items, one per free upstream a function calls at its published rate (lib/pace/). */
export const PACE_KEYS = { crossref: 'crossref', datacite: 'datacite' } as const;
export type PaceKey = (typeof PACE_KEYS)[keyof typeof PACE_KEYS];

/** The paces of the routes that look records up in Crossref and DataCite. */
export const RECORD_SOURCES: readonly PaceKey[] = [PACE_KEYS.crossref, PACE_KEYS.datacite];

/** A job route: no paid call of its own (a job's kind makes them in the worker), the jobs' store and queue. */
const JOB = (...jobs: JobUse[]): RouteNeeds =>
  Object.freeze({ paidCalls: false, upstreamKey: false, budget: 'none', sharedCache: false, jobs });

/** A route that searches SerpApi: everything a paid search needs. */
const PAID: RouteNeeds = Object.freeze({ paidCalls: true, upstreamKey: true, budget: 'reserve', sharedCache: true });

/**
 * The prefix of every key a route's function reads or writes in the shared cache table (CACHE_KEY_PREFIX).
 * Its role may write no other key (dynamodb:LeadingKeys), so one route can never put an answer in front of
 * another's clients; the price is that two routes asking SerpApi the same question pay for it once each.
 */
export function cacheKeyPrefix(routeName: string): string {
  return `${routeName}/`;
}

export const ROUTES: readonly Route[] = [
  {
    path: '/v1/web-search/alpha',
    name: 'web-search-alpha',
    summary: 'Web search on engine alpha',
    tag: 'Web search',
    needs: PAID,
  },
  {
    path: '/v1/web-search/bravo',
    name: 'web-search-bravo',
    summary: 'Web search on engine bravo',
    tag: 'Web search',
    needs: PAID,
  },
  {
    path: '/v1/web-search/charlie',
    name: 'web-search-charlie',
    summary: 'Web search on engine charlie',
    tag: 'Web search',
    needs: PAID,
  },
  {
    path: '/v1/web-search/delta',
    name: 'web-search-delta',
    summary: 'Web search on engine delta (Chinese-language queries)',
    tag: 'Web search',
    needs: PAID,
  },
  {
    path: '/v1/cite/search',
    name: 'cite-search',
    summary: 'Papers with formatted citations',
    tag: 'Citation search',
    needs: { ...PAID, paces: RECORD_SOURCES },
  },
  {
    path: '/v1/cite/resolve',
    name: 'cite-resolve',
    summary: 'DOIs and free-text references, resolved and cited in any CSL style (no paid call)',
    tag: 'Citation search',
    // Crossref only; resolved references are cached.
    needs: { paidCalls: false, upstreamKey: false, budget: 'none', sharedCache: true, paces: RECORD_SOURCES },
  },
  {
    path: '/v1/cite/check',
    name: 'cite-check',
    summary: 'A reference list checked: every reference verified against its record, or what is wrong with it',
    tag: 'Citation search',
    // A list of 100 references and its options (lib/contract/cite-check.ts).
    maxBodyBytes: CHECK_BODY_MAX_BYTES,
    // Crossref and DataCite are free; Google Scholar, asked for with "scholar": true, is a paid search.
    needs: { ...PAID, paces: RECORD_SOURCES },
  },
  {
    path: '/v1/cite/styles',
    name: 'cite-styles',
    summary: 'The CSL style catalogue, searched by name or field',
    tag: 'Citation search',
    // The catalogue is data shipped beside the code.
    needs: { paidCalls: false, upstreamKey: false, budget: 'none', sharedCache: false },
  },
  {
    path: '/v1/alpha/scholar/profiles',
    name: 'scholar-profiles',
    summary: 'Scholar profiles by name',
    tag: 'Alpha services',
    needs: PAID,
  },
  {
    path: '/v1/alpha/scholar/author',
    name: 'scholar-author',
    summary: 'One scholar and their articles',
    tag: 'Alpha services',
    needs: PAID,
  },
  {
    path: '/v1/alpha/scholar/author-citation',
    name: 'scholar-author-citation',
    summary: "One article of a scholar's page with the documents citing it",
    tag: 'Alpha services',
    needs: PAID,
  },
  {
    path: '/v1/alpha/trends',
    name: 'alpha-trends',
    summary: 'Search interest over time and by region',
    tag: 'Alpha services',
    needs: PAID,
  },
  { path: '/v1/alpha/news', name: 'alpha-news', summary: 'News search', tag: 'Alpha services', needs: PAID },
  { path: '/v1/alpha/images', name: 'alpha-images', summary: 'Image search', tag: 'Alpha services', needs: PAID },
  {
    path: '/v1/jobs',
    name: 'jobs-submit',
    summary: 'A list of up to 10,000 references resolved as a job (202; read it with /v1/jobs/status and /v1/jobs/results)',
    tag: 'Jobs',
    needs: JOB('submit'),
    maxBodyBytes: JOB_BODY_MAX_BYTES,
    successStatus: 202,
  },
  {
    path: '/v1/jobs/status',
    name: 'jobs-status',
    summary: "A job's progress: status, counts, failed references, time left",
    tag: 'Jobs',
    needs: JOB('read'),
  },
  {
    path: '/v1/jobs/results',
    name: 'jobs-results',
    summary: "A job's results in input order, page by page, or as one BibTeX, RIS or CSL-JSON list",
    tag: 'Jobs',
    needs: JOB('read'),
  },
  {
    path: '/v1/jobs/cancel',
    name: 'jobs-cancel',
    summary: 'Stops a job; what it answered stays readable',
    tag: 'Jobs',
    needs: JOB('cancel'),
  },
  {
    path: '/v1/usage',
    name: 'usage',
    summary: "The search budget: this hour, this month, the caller's hour and day",
    tag: 'Usage',
    // The counter is read, and the plan's numbers come from SerpApi's free Account API, which needs the key.
    needs: { paidCalls: false, upstreamKey: true, budget: 'read', sharedCache: false },
  },
];

/** The largest body the route at `path` takes: its own limit, else MAX_BODY_BYTES. */
export function bodyLimit(path: string | undefined): number {
  return ROUTES.find((route) => route.path === path)?.maxBodyBytes ?? MAX_BODY_BYTES;
}

/** The largest body any route takes (what a proxy in front of them all, such as the MCP endpoint, must let through). */
export const LARGEST_BODY_BYTES = Math.max(MAX_BODY_BYTES, ...ROUTES.map((route) => route.maxBodyBytes ?? 0));
