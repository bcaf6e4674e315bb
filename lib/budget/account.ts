/**
 * The plan's own numbers from SerpApi's Account API (`GET /account.json?api_key=…`), which is free (it
 * is not a search and is not billed). Read in the background, at cold start and then at most once per
 * ACCOUNT_API_TTL_SECONDS after a request, never awaited by one: a request uses whatever was last read,
 * or nothing. The budget uses the plan's hourly throughput cap to never promise more searches in an hour
 * than the plan can serve; /v1/usage shows the rest.
 */
import { config } from '../config.js';
import { isRealSerpApi } from '../credentials/sources.js';
import { serpApiKey } from '../credentials/upstream-key.js';
import { httpGet } from '../http-get.js';
import { logger } from '../logger.js';

export interface PlanNumbers {
  plan_name: string | null;
  searches_per_month: number | null;
  plan_searches_left: number | null;
  this_month_usage: number | null;
  /** Searches in the current hour; SerpApi documents it beside `last_hour_searches` and may send either. */
  this_hour_searches: number | null;
  /** Searches in the last 60 minutes. */
  last_hour_searches: number | null;
  account_rate_limit_per_hour: number | null;
  /** When SerpApi said so (ISO 8601). */
  read_at: string;
}

const READ_TIMEOUT_MS = 5_000;
// A failed read is tried again after a minute, not on every request.
export const RETRY_AFTER_FAILURE_MS = 60_000;

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
}

/**
 * The fields the budget uses, from the Account API's JSON; anything else in it (the key, the e-mail) is
 * dropped. Every field is optional (users see answers without some of them): one that is absent or not a
 * count is null, never a reason to drop the others.
 */
export function parseAccount(json: unknown, readAt: number): PlanNumbers | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const a = json as Record<string, unknown>;
  if (typeof a.error === 'string') return undefined;
  return {
    plan_name: typeof a.plan_name === 'string' ? a.plan_name.slice(0, 100) : null,
    searches_per_month: count(a.searches_per_month),
    plan_searches_left: count(a.plan_searches_left),
    this_month_usage: count(a.this_month_usage),
    this_hour_searches: count(a.this_hour_searches),
    last_hour_searches: count(a.last_hour_searches),
    account_rate_limit_per_hour: count(a.account_rate_limit_per_hour),
    read_at: new Date(readAt).toISOString(),
  };
}

/** One read of the Account API: the plan's numbers, or undefined (logged) when they could not be read. */
async function readFromSerpApi(): Promise<PlanNumbers | undefined> {
  const started = Date.now();
  try {
    const key = await serpApiKey(started + READ_TIMEOUT_MS);
    const url = `${config.SERPAPI_BASE_URL.replace(/\/+$/, '')}/account.json?${new URLSearchParams({ api_key: key })}`;
    const answer = await httpGet(url, { timeoutMs: READ_TIMEOUT_MS, maxBytes: 64 * 1024 });
    const numbers = answer.ok && answer.status === 200 ? parseAccount(JSON.parse(answer.text), Date.now()) : undefined;
    if (numbers) return numbers;
    // Never the URL: it holds the key. A stand-in upstream without an Account API (the demo of `npm start`,
    // an emulator) answers 404: expected there, so not worth a line before the banner.
    const log = answer.ok && answer.status === 404 && !isRealSerpApi(config.SERPAPI_BASE_URL) ? 'debug' : 'info';
    logger[log]('account API not read; the budget uses its configured limits only', {
      status: answer.ok ? answer.status : answer.reason,
    });
  } catch (error) {
    logger.info('account API not read; the budget uses its configured limits only', {
      error: (error as Error).name,
    });
  }
  return undefined;
}

export interface PlanReader {
  /** Starts a background read when the last one is older than its lifetime; never waits for it. */
  refresh(): Promise<void> | undefined;
  /** What the Account API said last, if it has been read. */
  numbers(): PlanNumbers | undefined;
}

/**
 * Keeps the last good answer: a failed read never erases it, and is tried again after `retryMs`; a good
 * one is kept `ttlMs` (0: never read). One read at a time.
 */
export function createPlanReader(options: {
  read: () => Promise<PlanNumbers | undefined>;
  ttlMs: number;
  retryMs?: number;
  now?: () => number;
}): PlanReader {
  const now = options.now ?? Date.now;
  const retryMs = options.retryMs ?? RETRY_AFTER_FAILURE_MS;
  let last: PlanNumbers | undefined;
  let nextReadAt = 0;
  let inFlight: Promise<void> | undefined;
  return {
    refresh() {
      if (options.ttlMs === 0 || inFlight || now() < nextReadAt) return inFlight;
      inFlight = options
        .read()
        .catch(() => undefined)
        .then((numbers) => {
          if (numbers) last = numbers;
          nextReadAt = now() + (numbers ? options.ttlMs : retryMs);
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
    numbers: () => last,
  };
}

const reader = createPlanReader({ read: readFromSerpApi, ttlMs: config.ACCOUNT_API_TTL_SECONDS * 1000 });

/** Starts a background read when the last one is older than its lifetime; never waits for it. */
export function refreshPlanNumbers(): Promise<void> | undefined {
  return reader.refresh();
}

/** What the Account API said last, if it has been read. */
export function planNumbers(): PlanNumbers | undefined {
  return reader.numbers();
}
