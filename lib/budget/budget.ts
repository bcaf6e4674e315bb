/**
 * The spending budget (README, "Spending budget"): every paid SerpApi search reserves one unit here right
 * before it is sent, after every cache has missed, so the budget counts exactly what can be billed. The
 * windows are the deployment's hour and month and the calling client's day (when its key states a daily
 * limit). Reservations are made per attempt: SerpApi does not bill a search that errored, so a retried
 * search may be counted once more than it is billed. The count never falls below what is billed (a
 * reservation always precedes its call); with retries it can exceed it by at most UPSTREAM_RETRIES per
 * search (CITE_RETRIES per cite lookup), which only makes the budget refuse earlier.
 *
 * A counter call without an answer in BUDGET_TIMEOUT_MS is sent once more (it carries a token, so it lands
 * at most once, lib/budget/counter.ts). A counter that still cannot be reached fails open by default: the
 * search goes ahead, counted by this container's own allowance (BUDGET_BACKSTOP_PER_HOUR an hour) and, by
 * token, in the shared counter once it answers; the request records a BudgetCounterErrors metric that an
 * alarm watches. With BUDGET_FAIL_CLOSED=true it is refused instead, and whatever of it landed is given back.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../config.js';
import { AppError } from '../errors.js';
import { logger } from '../logger.js';
import { planNumbers } from './account.js';
import { type Counter, CounterUnavailable, createDynamoCounter, createMemoryCounter } from './counter.js';
import {
  type BudgetWindow,
  dayWindow,
  expiresAtSeconds,
  hourWindow,
  monthWindow,
  secondsUntilReset,
  windowWords,
} from './windows.js';

/** Who is spending: set by auth (lib/middleware/auth.ts) and carried by the upstream's call options. */
export interface BudgetScope {
  /** The client key's name; undefined only for calls made outside a request (the benchmark). */
  client?: string;
  /** The key's own daily limit, when it has one. */
  dailySearches?: number;
  requestId?: string;
  /** Called when the counter could not be reached (the request's BudgetCounterErrors metric). */
  onCounterError?: () => void;
}

type Sdk = typeof import('@aws-sdk/client-dynamodb');
let sdk: Promise<{ client: DynamoDBClient; commands: Sdk }> | undefined;

/** The DynamoDB client, made once per container; a failed load is retried by the next call. */
function dynamo(): Promise<{ client: DynamoDBClient; commands: Sdk }> {
  sdk ??= import('@aws-sdk/client-dynamodb')
    .then((commands) => ({
      commands,
      // One attempt: the counter has its own short budget, and a failure is handled by failing open.
      client: new commands.DynamoDBClient({
        maxAttempts: 1,
        requestHandler: { connectionTimeout: config.BUDGET_TIMEOUT_MS, requestTimeout: config.BUDGET_TIMEOUT_MS },
      }),
    }))
    .catch((error: unknown) => {
      sdk = undefined;
      throw error;
    });
  return sdk;
}

const counter: Counter = config.BUDGET_TABLE_NAME
  ? createDynamoCounter({
      tableName: config.BUDGET_TABLE_NAME,
      timeoutMs: config.BUDGET_TIMEOUT_MS,
      client: dynamo,
      onAbandoned: (pending) =>
        logger.warn('budget reservation not settled in time; the counter may stay high by it', { n: pending.n }),
    })
  : createMemoryCounter();
/** This container's own count while the shared counter is down. */
const backstop = createMemoryCounter();

/** The per-container allowance when BUDGET_BACKSTOP_PER_HOUR is unset: a tenth of the hour, at least 1. */
export function defaultBackstop(searchesPerHour: number): number {
  return Math.max(1, Math.ceil(searchesPerHour / 10));
}
export const BACKSTOP_PER_HOUR = config.BUDGET_BACKSTOP_PER_HOUR ?? defaultBackstop(config.SEARCHES_PER_HOUR);

/**
 * The hourly limit in force: SEARCHES_PER_HOUR, or the plan's own hourly throughput cap when the Account
 * API said it is lower, so the budget never admits a search the plan would refuse.
 */
export function hourlyLimit(): number {
  const planCap = planNumbers()?.account_rate_limit_per_hour;
  return planCap ? Math.min(config.SEARCHES_PER_HOUR, planCap) : config.SEARCHES_PER_HOUR;
}

// A key without a daily limit: its day is counted, never refused.
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** The windows one search of this scope counts in: the client's day first, the narrowest. */
export function windowsFor(scope: BudgetScope, now: number): BudgetWindow[] {
  const windows: BudgetWindow[] = [];
  // Counted for every client, limit or not, so that each sees its own day in /v1/usage.
  if (scope.client !== undefined) windows.push(dayWindow(now, scope.client, scope.dailySearches ?? NO_LIMIT));
  windows.push(hourWindow(now, hourlyLimit()));
  if (config.SEARCHES_PER_MONTH > 0) windows.push(monthWindow(now, config.SEARCHES_PER_MONTH));
  return windows;
}

/**
 * The 429 for a window that ran out. `allowance`: the window is this container's own allowance while the
 * shared counter cannot be reached, not a budget of the deployment.
 */
export function exhausted(window: BudgetWindow, now: number, allowance = false): AppError {
  const resets = new Date(window.endsAt).toISOString().replace('.000Z', 'Z');
  const whose = allowance
    ? `The budget counter cannot be reached, and this container's own allowance of ${window.limit} searches ${windowWords(window.kind)} for that case is used up`
    : window.kind === 'day'
      ? `Your key's own limit of ${window.limit} searches today is used up (other clients are not affected)`
      : `The deployment's budget of ${window.limit} searches ${windowWords(window.kind)} is used up`;
  return new AppError('BUDGET_EXHAUSTED', {
    details: `${whose}; it resets at ${resets}. Answers already in the cache are still served.`,
    headers: { 'Retry-After': String(secondsUntilReset(window, now)) },
  });
}

/**
 * Reserves `n` paid searches for this scope, or throws BUDGET_EXHAUSTED naming the window that ran out
 * (BUDGET_UNAVAILABLE when the counter is down and the deployment fails closed).
 */
export async function reserveSearches(scope: BudgetScope, n = 1): Promise<void> {
  const now = Date.now();
  const windows = windowsFor(scope, now);
  let outcome: Awaited<ReturnType<Counter['reserve']>>;
  try {
    outcome = await counter.reserve(windows, n);
  } catch (error) {
    if (!(error instanceof CounterUnavailable)) throw error;
    scope.onCounterError?.();
    const settle = (searched: boolean) => {
      // Not awaited: the table is slow right now. What cannot be written is retried by later calls.
      if (error.pending) void counter.settle(error.pending, searched).catch(() => undefined);
    };
    logger.warn('budget counter unavailable', {
      requestId: scope.requestId,
      error: error.message,
      failClosed: config.BUDGET_FAIL_CLOSED === 'true',
    });
    if (config.BUDGET_FAIL_CLOSED === 'true') {
      settle(false);
      throw new AppError('BUDGET_UNAVAILABLE', {
        details: 'The search budget could not be checked; retry shortly',
        headers: { 'Retry-After': '5' },
        cause: error,
      });
    }
    // Fail open, within this container's own ceiling for the hour.
    const fallback = await backstop.reserve([hourWindow(now, BACKSTOP_PER_HOUR)], n);
    settle(fallback.ok);
    if (!fallback.ok) throw exhausted(fallback.refused, now, true);
    return;
  }
  if (!outcome.ok) throw exhausted(outcome.refused, now);
}

export interface WindowUsage {
  limit: number;
  used: number;
  left: number;
  resets_at: string;
}

export function usageOf(window: BudgetWindow, used: number): WindowUsage {
  return {
    limit: window.limit,
    used,
    left: Math.max(0, window.limit - used),
    resets_at: new Date(window.endsAt).toISOString().replace('.000Z', 'Z'),
  };
}

/** The windows /v1/usage reads, in order: the deployment's hour, the client's day, the month (if any). */
export function usageWindows(scope: BudgetScope, now: number): BudgetWindow[] {
  const hour = hourWindow(now, hourlyLimit());
  // The day window is read even without a limit: the client sees its own count either way.
  const day = dayWindow(now, scope.client ?? 'unknown', scope.dailySearches ?? NO_LIMIT);
  return [hour, day, ...(config.SEARCHES_PER_MONTH > 0 ? [monthWindow(now, config.SEARCHES_PER_MONTH)] : [])];
}

/** /v1/usage's answer from the windows of usageWindows() and their counts. */
export function usageReport(scope: BudgetScope, windows: readonly BudgetWindow[], counts: readonly number[]) {
  const [hour, day, month] = windows as [BudgetWindow, BudgetWindow, BudgetWindow | undefined];
  const [hourUsed = 0, dayUsed = 0, monthUsed = 0] = counts;
  return {
    hour: usageOf(hour, hourUsed),
    month: month ? usageOf(month, monthUsed) : null,
    client: {
      name: scope.client ?? 'unknown',
      today: {
        limit: scope.dailySearches ?? null,
        used: dayUsed,
        left: scope.dailySearches === undefined ? null : Math.max(0, scope.dailySearches - dayUsed),
        resets_at: new Date(day.endsAt).toISOString().replace('.000Z', 'Z'),
      },
    },
  };
}

/**
 * Where the budget stands for this client: the deployment's hour and month, the client's day. A counter
 * that cannot be read is 503 BUDGET_UNAVAILABLE in either mode: there is no count to report.
 */
export async function budgetUsage(scope: BudgetScope) {
  const windows = usageWindows(scope, Date.now());
  let counts: number[];
  try {
    counts = await counter.read(windows);
  } catch (error) {
    if (!(error instanceof CounterUnavailable)) throw error;
    scope.onCounterError?.();
    throw new AppError('BUDGET_UNAVAILABLE', {
      details: 'The search budget could not be read; retry shortly',
      headers: { 'Retry-After': '5' },
      cause: error,
    });
  }
  return usageReport(scope, windows, counts);
}

/**
 * Called at cold start: makes the DynamoDB client and opens its first connection (credentials resolved,
 * TLS set up) outside any request's budget, so the first request's counter update is as fast as the rest.
 */
export async function prepareBudgetCounter(): Promise<void> {
  if (!config.BUDGET_TABLE_NAME) return;
  try {
    const { client, commands } = await dynamo();
    // A read through the one action the role has (ADD 0), with a longer budget than a request's: the first
    // connection is the slow one.
    const hour = hourWindow(Date.now(), hourlyLimit());
    await client.send(
      new commands.UpdateItemCommand({
        TableName: config.BUDGET_TABLE_NAME,
        Key: { pk: { S: hour.key } },
        UpdateExpression: 'ADD used :zero SET expires_at = if_not_exists(expires_at, :exp)',
        ExpressionAttributeValues: { ':zero': { N: '0' }, ':exp': { N: String(expiresAtSeconds(hour)) } },
      }),
      { abortSignal: AbortSignal.timeout(config.TABLE_PREPARE_TIMEOUT_MS) },
    );
  } catch (error) {
    // The first request tries again and reports it.
    logger.info('budget counter not reached at start', { error: (error as Error).name });
  }
}
