/**
 * This container's paces, made from the configuration (lib/config.ts): kept in the deployment's pace table
 * when PACE_TABLE_NAME is set (every container of every function together keeps each upstream's rate),
 * else in this process's memory (the local server, the tests). Any function may take a pace here, an API
 * function to refuse a call past its request's deadline, a worker to wait for its turn.
 */
import { config } from '../config.js';
import { lazyDynamoClient } from '../dynamo-client.js';
import { logger } from '../logger.js';
import { createDynamoPaceStore } from './dynamo-store.js';
import { Pace } from './pace.js';
import { createMemoryPaceStore, type PaceStore } from './store.js';

/** The DynamoDB client: one attempt a call, a contended or slow item being the pace's to handle (read again, or fall back). */
const dynamo = lazyDynamoClient(config.PACE_TIMEOUT_MS);

/** Where this container's paces are kept. */
export const paceStore: PaceStore = config.PACE_TABLE_NAME
  ? createDynamoPaceStore({ tableName: config.PACE_TABLE_NAME, client: dynamo, timeoutMs: config.PACE_TIMEOUT_MS })
  : createMemoryPaceStore();

/** Whether the paces are the deployment's (a table) rather than this process's. */
export const sharedPace = Boolean(config.PACE_TABLE_NAME);

/**
 * A pace for one upstream, kept where this container keeps its paces (`key`: its item, "crossref"), with at
 * most `inFlight` of its calls in flight at once for the deployment when given.
 */
export function deploymentPace(key: string, source: string, perSecond: number, inFlight?: number): Pace {
  // The table's first connection opened while the container starts, not on its first lookup.
  if (config.PACE_TABLE_NAME) void preparePaceTable(key);
  return new Pace({
    key,
    source,
    perSecond,
    inFlight,
    pollMs: config.PACE_POLL_MS,
    store: paceStore,
    retryMs: config.PACE_RETRY_MS,
    onUnavailable: (error) =>
      logger.warn('pace table not answering: this container keeps the pace alone for a while', {
        pace: key,
        retryMs: config.PACE_RETRY_MS,
        error: error.message,
      }),
  });
}

/**
 * Called at cold start by a function that keeps a pace in the table: makes the DynamoDB client and opens
 * its first connection (credentials, TLS) outside any request's time, with one read of the item a first
 * lookup would read anyway.
 */
export async function preparePaceTable(key: string): Promise<void> {
  if (!config.PACE_TABLE_NAME) return;
  try {
    const { client, commands } = await dynamo();
    await client.send(
      new commands.GetItemCommand({ TableName: config.PACE_TABLE_NAME, Key: { pk: { S: key } }, ConsistentRead: true }),
      { abortSignal: AbortSignal.timeout(config.TABLE_PREPARE_TIMEOUT_MS) },
    );
  } catch (error) {
    // The first lookup tries again, and falls back to this container's own pace if it must.
    logger.info('pace table not reached at start', { error: (error as Error).name });
  }
}
