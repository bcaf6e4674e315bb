/**
 * A fake SerpApi on loopback: answers GET /search.json from the recorded samples, records every query,
 * and can be told to misbehave (hang, reset, HTML 502, 429, garbage, SerpApi's own error bodies).
 */
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { sampleFor, sampleText } from '../../lib/local/samples.js';
import { listenOnLoopback } from './loopback.js';

export type Fault =
  | 'sample'
  | 'hang'
  | 'reset'
  | 'html502'
  | 'status500'
  | 'rate429'
  | 'garbage'
  | 'noResults'
  | 'invalidKey'
  | 'errorBody'
  // SerpApi's own answer for a search that failed (its Search Errors page, https://serpapi.com/search-errors):
  // HTTP 503, `search_metadata.status: "Error"` and its `error` text.
  | 'searchError503'
  | 'gzip'
  // A Buffer body is sent as is (a gzip body with its Content-Encoding header, say).
  | { status: number; body: string | Buffer; headers?: Record<string, string> }
  | { json: unknown }
  // Held until `until` settles, then answered as `then` (the sample by default): a call still in flight for
  // as long as the test needs, whatever the machine's speed.
  | { until: Promise<unknown>; then?: Answer };

/** A fault that is answered at once. */
type Answer = Exclude<Fault, { until: Promise<unknown> }>;

/** Decides how one query is answered; undefined means the next queued fault, else the sample. */
export type Responder = (query: URLSearchParams) => Fault | undefined;

export interface FakeSerpApi {
  url: string;
  /** Every query received, in order, api_key included (tests check it is sent and never echoed). */
  readonly requests: URLSearchParams[];
  /** How many calls reached the fake, optionally only for one engine. */
  calls(engine?: string): number;
  /** Answers the next calls with these faults, one each, then the responder or the samples again. */
  queue(...faults: Fault[]): void;
  respond(responder: Responder | undefined): void;
  /** Delay every answer by this many ms (the benchmark's upstream latency). */
  latencyMs: number;
  /** Each engine's own latency, in ms, where it differs from latencyMs (the benchmark's realistic upstream). */
  engineLatencyMs: Record<string, number>;
  /** Holds a query's answer until the promise it returns settles (a test lines answers up); undefined: no hold. */
  hold?: (query: URLSearchParams) => Promise<unknown> | undefined;
  /**
   * Runs once the next answer has been handed to the socket, then is cleared: a test freezes the process
   * here (the answer waits in the client's socket meanwhile).
   */
  afterAnswer?: () => void;
  /** What GET /account.json (SerpApi's free Account API) answers; never counted in `requests`. */
  account: { status: number; json: unknown };
  /** Account API reads received. */
  accountReads: number;
  /**
   * The key the Account API accepts (the services' SERPAPI_API_KEY, test/support/service.ts); any other,
   * or none, is answered 401 with SerpApi's error body, as SerpApi does.
   */
  accountKey: string;
  reset(): void;
  close(): Promise<void>;
}

/** The Account API's answer, shaped as SerpApi's documented example (https://serpapi.com/account-api). */
export const FAKE_ACCOUNT = {
  account_id: '5ac54d6adefb2f1dba1663f5',
  account_email: 'demo@serpapi.com',
  plan_id: 'bigdata',
  plan_name: 'Big Data Plan',
  searches_per_month: 30000,
  plan_searches_left: 5958,
  extra_credits: 0,
  total_searches_left: 5958,
  this_month_usage: 24042,
  this_hour_searches: 42,
  last_hour_searches: 42,
  account_rate_limit_per_hour: 6000,
};

export const NO_RESULTS_BODY = JSON.stringify({
  search_metadata: { status: 'Success' },
  error: "Google hasn't returned any results for this query.",
});

/**
 * A responder that pages as the live upstream does, with the page sizes SerpApi documents: Google 10 a page
 * (`start`), DuckDuckGo up to 35 on the first page and up to 50 after (`start`, capped by `m`), Bing 10
 * (`first`, from 1), Baidu `rn` or 10 (`pn`), Google Images 100 a page (`ijn`, no paging links), Google
 * Scholar and Scholar author `num` (`start`). Result n (1-based, across pages) links to
 * https://results.example/<engine>/<n>, so a test can see every gap and every repeat. Other engines (the
 * citation lookups) get their recorded sample.
 */
export function realPageSizes(query: URLSearchParams): Fault | undefined {
  const engine = query.get('engine') ?? '';
  const int = (name: string, fallback: number) => Number(query.get(name) ?? fallback);
  const items = (offset: number, count: number, shape: (n: number) => Record<string, unknown>) =>
    Array.from({ length: count }, (_, i) => shape(offset + i + 1));
  const link = (n: number) => `https://results.example/${engine}/${n}`;
  const web = (n: number) => ({ position: n, title: `Result ${n}`, link: link(n), snippet: `Snippet ${n}` });
  const next = { serpapi_pagination: { next: 'https://serpapi.com/search.json?page=next' } };
  switch (engine) {
    case 'google':
      return query.get('tbm') === 'nws'
        ? {
            json: {
              news_results: items(int('start', 0), 10, (n) => ({ ...web(n), source: 'Example', date: '1 hour ago' })),
              ...next,
            },
          }
        : // Google holds its AI overview back for a second request, as it often does (a token, no text).
          { json: { organic_results: items(int('start', 0), 10, web), ai_overview: { page_token: 'token-1' }, ...next } };
    case 'google_ai_overview':
      return { json: { ai_overview: { text_blocks: [{ type: 'paragraph', snippet: 'An overview.' }], references: [] } } };
    case 'duckduckgo': {
      const start = int('start', 0);
      const pageMax = start > 0 ? 50 : 35;
      return { json: { organic_results: items(start, Math.min(pageMax, int('m', 50)), web), ...next } };
    }
    case 'bing':
      return { json: { organic_results: items(int('first', 1) - 1, 10, web), ...next } };
    case 'baidu':
      return { json: { organic_results: items(int('pn', 0), int('rn', 10), web), ...next } };
    case 'google_images':
      return {
        json: {
          images_results: items(int('ijn', 0) * 100, 100, (n) => ({
            position: n,
            title: `Image ${n}`,
            original: link(n),
            link: link(n),
          })),
        },
      };
    case 'google_scholar':
      return {
        json: {
          organic_results: items(int('start', 0), int('num', 10), (n) => ({
            ...web(n),
            result_id: `paper${n}`,
            // Each paper by an author of their own with a profile, as scholar profiles discover them.
            publication_info: {
              summary: `A Author${n} - Journal, 2020`,
              authors: [{ name: `A Author${n}`, author_id: `AUTHOR${n}` }],
            },
          })),
          ...next,
        },
      };
    case 'google_scholar_author':
      if (query.get('view_op')) return undefined;
      return {
        json: {
          author: { name: 'A. Author' },
          articles: items(int('start', 0), int('num', 20), (n) => ({
            title: `Article ${n}`,
            link: link(n),
            citation_id: `A:${n}`,
          })),
          ...next,
        },
      };
    default:
      return undefined;
  }
}

export async function startFakeSerpApi(): Promise<FakeSerpApi> {
  const requests: URLSearchParams[] = [];
  const queued: Fault[] = [];
  let responder: Responder | undefined;

  const fake: FakeSerpApi = {
    url: '',
    requests,
    latencyMs: 0,
    engineLatencyMs: {},
    account: { status: 200, json: FAKE_ACCOUNT },
    accountReads: 0,
    accountKey: 'test-upstream-key-SECRET-9876',
    calls: (engine) => (engine ? requests.filter((q) => q.get('engine') === engine).length : requests.length),
    queue: (...faults) => {
      queued.push(...faults);
    },
    respond: (next) => {
      responder = next;
    },
    reset: () => {
      requests.length = 0;
      queued.length = 0;
      responder = undefined;
      fake.latencyMs = 0;
      fake.engineLatencyMs = {};
      fake.afterAnswer = undefined;
      fake.hold = undefined;
    },
    close: () => listening.close(),
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = url.searchParams;
    if (url.pathname === '/account.json') {
      // Free and not a search: kept out of `requests`, which count paid calls.
      fake.accountReads += 1;
      if (query.get('api_key') !== fake.accountKey) {
        res.writeHead(401, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: 'Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key' }));
        return;
      }
      res.writeHead(fake.account.status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(fake.account.json));
      return;
    }
    requests.push(query);
    const given = responder?.(query) ?? queued.shift() ?? 'sample';
    const json = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
      const after = fake.afterAnswer;
      fake.afterAnswer = undefined;
      res.end(body, after);
    };
    const answer = (fault: Answer) => {
      if (fault === 'hang') return; // never answers; the client's timeout must fire
      if (fault === 'reset') return req.socket.destroy();
      if (fault === 'html502') {
        res.writeHead(502, { 'Content-Type': 'text/html' });
        return res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      }
      if (fault === 'status500') return json(500, JSON.stringify({ error: 'Internal server error' }));
      if (fault === 'rate429') return json(429, JSON.stringify({ error: 'Too many requests' }), { 'Retry-After': '1' });
      if (fault === 'garbage') return json(200, '{"organic_results": [ this is not json');
      if (fault === 'noResults') return json(200, NO_RESULTS_BODY);
      if (fault === 'invalidKey') {
        const key = query.get('api_key') ?? '';
        // SerpApi's own wording; a careless client might echo the key it sent, so the body quotes it.
        return json(
          401,
          JSON.stringify({
            error: `Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key (got ${key})`,
          }),
        );
      }
      if (fault === 'errorBody') return json(200, JSON.stringify({ error: 'Unsupported `xx` location - location parameter.' }));
      if (fault === 'searchError503') {
        return json(
          503,
          JSON.stringify({
            search_metadata: { id: '64c32cfeb68f8bc186aaa013', status: 'Error' },
            error: "We couldn't get valid results for this search. Please try again later.",
          }),
        );
      }
      if (fault === 'gzip') {
        const name = sampleFor(query) ?? 'google';
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Encoding': 'gzip' });
        return res.end(gzipSync(sampleText(name)));
      }
      if (fault === 'sample') {
        const name = sampleFor(query);
        return name ? json(200, sampleText(name)) : json(400, JSON.stringify({ error: 'Unsupported engine' }));
      }
      if ('json' in fault) return json(200, JSON.stringify(fault.json));
      return json(fault.status, fault.body, fault.headers);
    };
    const answerGiven = () => {
      if (typeof given === 'object' && 'until' in given) {
        void given.until.then(() => answer(given.then ?? 'sample'));
      } else answer(given);
    };
    const latency = fake.engineLatencyMs[query.get('engine') ?? ''] ?? fake.latencyMs;
    const send = () => (latency > 0 ? setTimeout(answerGiven, latency) : answerGiven());
    const held = fake.hold?.(query);
    if (held) void held.then(send);
    else send();
  });
  server.keepAliveTimeout = 60_000;
  const listening = await listenOnLoopback(server);
  fake.url = listening.url;
  return fake;
}
