/**
 * The SerpApi client: one GET per call over node:http(s) with keep-alive, a timeout per attempt
 * inside the request's overall deadline, at most `UPSTREAM_RETRIES` retries on network errors, 429 and
 * 5xx with exponential backoff and full jitter (or the upstream's Retry-After), and every failure mapped
 * to a public error code. The key travels only in the URL it is sent with: no error, detail or log line
 * holds the URL, and upstream messages are redacted before they are passed on.
 *
 * Each search takes one unit of the request's budget (lib/budget/spend.ts) before its first attempt and
 * keeps it through its retries; the unit is used only when an answer is one the provider bills
 * (`billed`, docs/budget-and-caching.md "What the provider bills"), otherwise it goes back.
 */
import type { Ask, BudgetScope } from '../budget/budget.js';
import { requestSpend } from '../budget/deployment.js';
import { answeredAlready, type RequestSpend } from '../budget/spend.js';
import { config } from '../config.js';
import { forgetSerpApiKey, serpApiKey } from '../credentials/upstream-key.js';
import { AppError } from '../errors.js';
import { httpGet } from '../http-get.js';
import { logger } from '../logger.js';
import { cacheHits, type RequestState } from '../request-state.js';
import { SERPAPI_ENGINES, type UpstreamEngine } from './engines.js';
import { asRetiredEngine } from './outcomes.js';

export type SerpApiParams = Record<string, string | number | boolean | undefined | null>;
export type SerpApiJson = Record<string, unknown>;

export interface CallOptions {
  /** Epoch ms after which no attempt may run. */
  deadline: number;
  /** This request's counters: every attempt is one upstream call. */
  stats: RequestState['upstream'];
  /** Ties this call's warning lines to the request's own log line. */
  requestId?: string;
  /** Per-attempt timeout; defaults to UPSTREAM_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Retries after the first attempt; defaults to UPSTREAM_RETRIES. */
  retries?: number;
  /** Whose budget the search is counted in (lib/budget/budget.ts); no scope: the deployment's only. */
  budget?: BudgetScope;
  /** The request's spending, which the search takes its unit from; without one the call has its own. */
  spend?: RequestSpend;
}

// An answer larger than this is not a search result page; refuse it rather than hold it in memory.
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const MAX_RETRY_AFTER_SECONDS = 86_400;
// SerpApi answers 200 with this kind of `error` when the search simply found nothing.
const NO_RESULTS = /hasn't returned any results|no results found/i;
// SerpApi's 429 for a plan whose searches are used up ("Your account has run out of searches."), as
// opposed to its hourly throughput limit: no retry can succeed until the plan renews.
const PLAN_USED_UP = /run out of searches/i;
/**
 * The longest URL sent upstream, key included: 8 KiB, the request-line limit common to web servers
 * (nginx's default buffer). The request schemas keep every valid body below it; this is the last guard,
 * so that a longer URL is the client's 400 and never the upstream's refusal.
 */
export const UPSTREAM_URL_MAX = 8192;

/** The query string SerpApi gets, without the key; empty values are left out. */
export function toQuery(engine: string, params: SerpApiParams): URLSearchParams {
  const query = new URLSearchParams({ engine });
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    query.set(name, String(value));
  }
  return query;
}

const REDACTED = '[redacted]';
// Characters a key is made of: the key stands as a key only where neither neighbour is one of them.
const KEY_CHARACTER = 'A-Za-z0-9_\\-';
// A key this long is never a word of other text by chance (SerpApi's are 64; lib/config.ts lets a shorter
// one through only for an upstream other than SerpApi, such as the demo's or a test's).
const WORD_KEY_MIN_LENGTH = 8;

/**
 * Removes the key where it stands as a key, never as a substring of other text (a short key must not
 * turn `https://food.example` into `https://fo[redacted]d.example`): the value of any `api_key=` parameter,
 * and a key of at least 8 characters as a whole word, with no letter, digit, `_` or `-` on either side.
 */
function redactKey(text: string, secret: string): string {
  let out = text.replace(/api_key=[^&\s"'<>]+/gi, `api_key=${REDACTED}`);
  if (secret.length >= WORD_KEY_MIN_LENGTH && out.includes(secret)) {
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(?<![${KEY_CHARACTER}])${escaped}(?![${KEY_CHARACTER}])`, 'g'), REDACTED);
  }
  return out;
}

/** Removes the key from any text that might reach a client or a log line (see `redactKey`), cut to 300 characters. */
export function redact(text: string, secret: string): string {
  const out = redactKey(text, secret);
  return out.length > 300 ? `${out.slice(0, 300)}…` : out;
}

/**
 * An upstream answer with the key taken out where it stands as a key: a string value equal to the key,
 * and the key inside a string value as `redactKey` finds it (a link's `api_key=`). Keys of objects and
 * every other value are left as they are.
 */
export function redactAnswer(value: unknown, secret: string): unknown {
  if (typeof value === 'string') return value === secret ? REDACTED : redactKey(value, secret);
  if (Array.isArray(value)) return value.map((item) => redactAnswer(item, secret));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, redactAnswer(item, secret)]));
  }
  return value;
}

/**
 * One attempt's outcome, and whether the provider bills it: SerpApi counts successful (and processing)
 * searches, not errored or failed ones (its Account API page). So an HTTP error, an answer saying the
 * search failed, or no answer at all is not billed; a 200 is, unless it says the search failed.
 */
type Attempt =
  | { kind: 'json'; json: SerpApiJson; billed: true }
  | { kind: 'retryable'; error: AppError; retryAfterMs?: number; billed: false }
  | { kind: 'final'; error: AppError; billed: boolean };

/** One SerpApi search, with retries; resolves to the upstream JSON (a "no results" answer included). */
export async function serpApiSearch(engine: UpstreamEngine, params: SerpApiParams, options: CallOptions): Promise<SerpApiJson> {
  const key = await serpApiKey(options.deadline);
  const upstreamEngine = SERPAPI_ENGINES[engine];
  const query = toQuery(upstreamEngine, params);
  query.set('api_key', key);
  const url = `${config.SERPAPI_BASE_URL.replace(/\/+$/, '')}/search.json?${query}`;
  if (url.length > UPSTREAM_URL_MAX) throw urlTooLong(query, url.length);
  const own = options.spend === undefined;
  const spend = options.spend ?? requestSpend(options.budget ?? {});
  try {
    // After every cache has missed (the answer cache wraps this client), right before the paid call.
    const unit = await spend.take();
    let billed = false;
    try {
      return await attempts(url, key, params, upstreamEngine, options, spend, () => {
        billed = true;
      });
    } finally {
      unit.done(billed);
    }
  } finally {
    if (own) await spend.close();
  }
}

/** The attempts of one search, its retries included; `onBilled` when an answer is one the provider bills. */
async function attempts(
  url: string,
  key: string,
  params: SerpApiParams,
  upstreamEngine: string,
  options: CallOptions,
  spend: RequestSpend,
  onBilled: () => void,
): Promise<SerpApiJson> {
  const retries = Math.min(options.retries ?? config.UPSTREAM_RETRIES, 2);
  const timeoutMs = options.timeoutMs ?? config.UPSTREAM_TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    // Right before sending, every time: a process that was frozen while it waited (for the counter, for a
    // retry's delay) sends nothing past the request's deadline, or once the request has been answered.
    if (spend.closed) throw answeredAlready();
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) throw timeoutError();
    const outcome = await attemptOnce(url, Math.min(timeoutMs, remaining), key, options.stats);
    if (outcome.billed) onBilled();
    if (outcome.kind === 'json') return outcome.json;
    logger.warn('upstream attempt failed', {
      requestId: options.requestId,
      engine: upstreamEngine,
      attempt,
      code: outcome.error.code,
      details: outcome.error.details,
    });
    if (outcome.error.code === 'SERVICE_MISCONFIGURED') forgetSerpApiKey();
    if (outcome.kind === 'final' || attempt >= retries) throw asRetiredEngine(asClientError(outcome.error, params));

    const retryAfter = outcome.retryAfterMs;
    if (retryAfter !== undefined && retryAfter > config.MAX_RETRY_AFTER_MS) throw outcome.error;
    // Full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"), unless the upstream said when.
    const delay = retryAfter ?? Math.random() * config.RETRY_BASE_DELAY_MS * 2 ** attempt;
    // A retry that could not finish before the deadline only spends money; give up with the real cause.
    if (Date.now() + delay + 50 >= options.deadline) throw outcome.error;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** One attempt (see lib/http-get.ts for why node:http(s) rather than fetch), counted in this request's stats. */
async function attemptOnce(url: string, timeoutMs: number, key: string, stats: CallOptions['stats']): Promise<Attempt> {
  const started = performance.now();
  stats.calls += 1;
  const outcome = await httpGet(url, { timeoutMs, maxBytes: MAX_RESPONSE_BYTES });
  stats.latencyMs += performance.now() - started;
  if (outcome.ok) {
    const retryAfter = outcome.headers['retry-after'];
    return classify(outcome.status, typeof retryAfter === 'string' ? retryAfter : null, outcome.text, key);
  }
  // A page over the cap came with a 200: a search the provider ran, so it counts.
  if (outcome.reason === 'too-large') return { kind: 'final', error: tooLarge(), billed: true };
  // No answer: the search failed as far as anyone can tell, and a retry of it is not billed twice.
  if (outcome.reason === 'timeout') return { kind: 'retryable', error: timeoutError(), billed: false };
  return {
    kind: 'retryable',
    error: new AppError('UPSTREAM_ERROR', { details: 'Could not reach the search provider', cause: outcome.cause }),
    billed: false,
  };
}

// SerpApi's answer to a `location` it has no entry for ("Unsupported `xx` location - location parameter.").
const UNKNOWN_LOCATION = /unsupported .*location/i;

/**
 * A location is free text checked against SerpApi's own list of places, which is far too large to ship;
 * its refusal is the client's mistake, so it is answered as a 400 naming the field, not as a 502.
 */
function asClientError(error: AppError, params: SerpApiParams): AppError {
  if (error.code !== 'UPSTREAM_ERROR' || !params.location || !UNKNOWN_LOCATION.test(error.details)) return error;
  return new AppError('INVALID_REQUEST', {
    details: 'location: the search provider knows no such place; give a city, region or country, e.g. "Austin, Texas"',
    cause: error,
  });
}

/** Names the longest parameter: with the schemas' limits, only free text can make a URL this long. */
function urlTooLong(query: URLSearchParams, length: number): AppError {
  const [name] = [...query].filter(([key]) => key !== 'api_key').sort(([, a], [, b]) => b.length - a.length)[0] ?? ['q'];
  return new AppError('INVALID_REQUEST', {
    details: `${name}: too long for the search provider once URL-encoded (the request would take ${length} bytes of URL; at most ${UPSTREAM_URL_MAX})`,
  });
}

function tooLarge(): AppError {
  return new AppError('UPSTREAM_ERROR', { details: 'The search provider sent an answer too large to be a result page' });
}

function timeoutError(): AppError {
  return new AppError('UPSTREAM_TIMEOUT', { details: 'The search provider did not answer within the deadline' });
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  // Capped at a day: anything longer is nonsense, and must still print as a valid header value.
  if (/^\d+$/.test(value.trim())) return Math.min(Number(value.trim()), MAX_RETRY_AFTER_SECONDS) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.min(Math.max(0, date - Date.now()), MAX_RETRY_AFTER_SECONDS * 1000);
}

function upstreamMessage(text: string, key: string): string | undefined {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return typeof error === 'string' ? redact(error, key) : undefined;
  } catch {
    return undefined;
  }
}

/** `search_metadata.status` of an answer, when it has one. */
function searchStatus(json: object): unknown {
  const metadata = (json as { search_metadata?: unknown }).search_metadata;
  return typeof metadata === 'object' && metadata !== null ? (metadata as { status?: unknown }).status : undefined;
}

/** Maps one upstream answer to a result or to the error code docs/decisions.md §2 names for it. */
export function classify(status: number, retryAfterHeader: string | null, text: string, key: string): Attempt {
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(retryAfterHeader);
    const headers: Record<string, string> =
      retryAfterMs === undefined ? {} : { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) };
    const said = upstreamMessage(text, key);
    if (said && PLAN_USED_UP.test(said)) {
      return {
        kind: 'final',
        error: new AppError('UPSTREAM_QUOTA_EXCEEDED', {
          details: `The search provider's plan for this service is used up (it said: ${said}); no search can succeed until its operator renews or upgrades the plan`,
        }),
        billed: false,
      };
    }
    return {
      kind: 'retryable',
      retryAfterMs,
      error: new AppError('UPSTREAM_QUOTA_EXCEEDED', {
        details: `The search provider refused the request for rate or quota${said ? `: ${said}` : ''}`,
        headers,
      }),
      billed: false,
    };
  }
  if (status === 401 || status === 403) {
    return {
      kind: 'final',
      error: new AppError('SERVICE_MISCONFIGURED', {
        details: "The search provider rejected the service's upstream key; its operator must check the deployment",
      }),
      billed: false,
    };
  }
  if (status >= 500) {
    // SerpApi's own words ("…try again later") tell the client more than the status does.
    const said = upstreamMessage(text, key);
    return {
      kind: 'retryable',
      error: new AppError('UPSTREAM_ERROR', { details: `The search provider answered HTTP ${status}${said ? `: ${said}` : ''}` }),
      billed: false,
    };
  }
  if (status !== 200) {
    const said = upstreamMessage(text, key);
    return {
      kind: 'final',
      error: new AppError('UPSTREAM_ERROR', {
        details: `The search provider answered HTTP ${status}${said ? `: ${said}` : ''}`,
      }),
      billed: false,
    };
  }
  let json: unknown;
  try {
    // An answer that echoes the key (a link, a search echo) must not carry it on to a client or a cache.
    json = JSON.parse(text);
    if ((key && text.includes(key)) || /api_key=/i.test(text)) json = redactAnswer(json, key);
  } catch {
    return {
      kind: 'final',
      error: new AppError('UPSTREAM_ERROR', { details: 'The search provider answered with something that is not JSON' }),
      // A 200 the provider may well count: nothing in it says the search failed.
      billed: true,
    };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return {
      kind: 'final',
      error: new AppError('UPSTREAM_ERROR', { details: 'The search provider answered with an unexpected shape' }),
      billed: true,
    };
  }
  const error = (json as { error?: unknown }).error;
  // SerpApi's own status of the search: `Error` when it failed (its Search Errors page), whatever the rest says.
  const failed = searchStatus(json) === 'Error';
  if (failed || (typeof error === 'string' && !NO_RESULTS.test(error))) {
    const said = typeof error === 'string' ? `: ${redact(error, key)}` : ' (its search status is Error)';
    return {
      kind: 'final',
      error: new AppError('UPSTREAM_ERROR', { details: `The search provider reported an error${said}` }),
      // An errored search is not billed; one that found nothing is ("Success", with empty results).
      billed: false,
    };
  }
  return { kind: 'json', json: json as SerpApiJson, billed: true };
}

/** Per-call options: the client's own, and how long the answer cache may keep this answer. */
export type SearchOptions = Pick<CallOptions, 'timeoutMs' | 'retries'> & {
  /** This answer's lifetime in seconds when shorter than the endpoint's (data that moves fast); the client ignores it. */
  answerTtlSeconds?: number;
};

/** The upstream as a handler sees it: searches bound to this request's deadline, counters and budget. */
export interface Upstream {
  search(engine: UpstreamEngine, params: SerpApiParams, options?: SearchOptions): Promise<SerpApiJson>;
  /**
   * Says the most paid searches the request makes from now on (every cache missing), so that its first
   * paid search reserves them all at once and a request the budget cannot cover is refused before it
   * spends anything (docs/decisions.md §8). `ask` says how to ask for fewer.
   */
  plan(searches: number, ask?: Ask): void;
  /** Called by `api()` once the request is over: nothing more is sent, and what it did not use is given back. */
  close(): Promise<void>;
  /** Epoch ms by which everything must be over. */
  readonly deadline: number;
}

export function upstreamFor(state: RequestState): Upstream {
  const budget: BudgetScope = {
    client: state.client,
    ...state.clientLimits,
    requestId: state.requestId,
    deadline: state.deadline,
    onCounterError: () => {
      state.budgetCounterErrors = (state.budgetCounterErrors ?? 0) + 1;
    },
  };
  // A planned search the caches answered costs nothing: it is not reserved.
  const spend = requestSpend(budget, () => cacheHits(state.cache));
  return {
    deadline: state.deadline,
    plan: (searches, ask) => spend.plan(searches, ask),
    close: () => spend.close(),
    search: (engine, params, options) =>
      serpApiSearch(engine, params, {
        deadline: state.deadline,
        stats: state.upstream,
        requestId: state.requestId,
        budget,
        spend,
        ...options,
      }),
  };
}
