/**
 * This container's budget, made once from the configuration (lib/config.ts): the counter (DynamoDB when
 * BUDGET_TABLE_NAME is set, else this process's memory), the allowance it fails open within, and the
 * limits in force (the hourly one lowered to the plan's own cap when SerpApi's Account API says so).
 */
import { config } from '../config.js';
import { lazyDynamoClient } from '../dynamo-client.js';
import { logger } from '../logger.js';
import { planNumbers } from './account.js';
import { type BudgetScope, createBudget, defaultBackstop } from './budget.js';
import { createDynamoCounter, createMemoryCounter } from './counter.js';
import { createRequestSpend, type RequestSpend } from './spend.js';
import { hourWindow } from './windows.js';

/** The DynamoDB client: one attempt a call, the counter sending a second itself, with the same token. */
const dynamo = lazyDynamoClient(config.BUDGET_TIMEOUT_MAX_MS);

export const BACKSTOP_PER_HOUR = config.BUDGET_BACKSTOP_PER_HOUR ?? defaultBackstop(config.SEARCHES_PER_HOUR);

/**
 * The hourly limit in force: SEARCHES_PER_HOUR, or the plan's own hourly throughput cap when the Account
 * API said it is lower, so the budget never admits a search the plan would refuse.
 */
export function hourlyLimit(): number {
  const planCap = planNumbers()?.account_rate_limit_per_hour;
  return planCap ? Math.min(config.SEARCHES_PER_HOUR, planCap) : config.SEARCHES_PER_HOUR;
}

const counter = config.BUDGET_TABLE_NAME
  ? createDynamoCounter({
      tableName: config.BUDGET_TABLE_NAME,
      timeoutMs: config.BUDGET_TIMEOUT_MS,
      maxTimeoutMs: config.BUDGET_TIMEOUT_MAX_MS,
      retryMs: config.BUDGET_RETRY_MS,
      client: dynamo,
      onAbandoned: ({ window, reason, off }) =>
        logger.warn(
          reason === 'too-many-owed'
            ? 'budget closing dropped: this container owes more closings than it keeps, so the counter stays off by it'
            : 'budget closing dropped: its token may be gone, so the counter stays off by it',
          { window: window.key, counterLowBy: off.uncounted, counterHighBy: off.notGivenBack },
        ),
      onSettled: ({ searches, owedMs }) =>
        logger.info('budget counter answers again: what this container owed is written', {
          searchesCounted: searches,
          owedForMs: owedMs,
        }),
    })
  : createMemoryCounter();

const budget = createBudget({
  counter,
  backstop: createMemoryCounter(),
  settings: {
    searchesPerHour: hourlyLimit,
    searchesPerMonth: config.SEARCHES_PER_MONTH,
    failClosed: config.BUDGET_FAIL_CLOSED === 'true',
    backstopPerHour: BACKSTOP_PER_HOUR,
  },
  retryMs: config.BUDGET_RETRY_MS,
  warn: (message, fields) => logger.warn(message, fields),
});

/** One request's spending: its reservations, from its first paid search to its answer (lib/budget/spend.ts). */
export function requestSpend(scope: BudgetScope, hits?: () => number): RequestSpend {
  return createRequestSpend(budget, scope, hits);
}

/** Where the budget stands for this client (POST /v1/usage). */
export function budgetUsage(scope: BudgetScope) {
  return budget.usage(scope);
}

/**
 * Called at cold start: makes the DynamoDB client and opens its first connection (credentials resolved,
 * TLS set up) outside any request's budget, so the first request's counter update is as fast as the rest.
 */
export async function prepareBudgetCounter(): Promise<void> {
  if (!config.BUDGET_TABLE_NAME) return;
  try {
    const { client, commands } = await dynamo();
    // A read (GetItem, which every role that uses the budget holds; /v1/usage's holds nothing else), with a
    // longer budget than a request's: the first connection is the slow one.
    const hour = hourWindow(Date.now(), hourlyLimit());
    await client.send(
      new commands.GetItemCommand({ TableName: config.BUDGET_TABLE_NAME, Key: { pk: { S: hour.key } }, ConsistentRead: true }),
      { abortSignal: AbortSignal.timeout(config.TABLE_PREPARE_TIMEOUT_MS) },
    );
  } catch (error) {
    // The first request tries again and reports it.
    logger.info('budget counter not reached at start', { error: (error as Error).name });
  }
}
