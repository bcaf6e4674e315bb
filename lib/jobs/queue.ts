/**
 * The job queue's contract: messages sent (now, or after a delay) and, for a message a worker could not
 * finish, how long until it is tried again. Deployed it is SQS (queue-sqs.ts), whose event source mapping
 * invokes the worker (functions/jobs-worker.ts) with batches of messages; under `npm start` and in the
 * tests it is this process's own queue (queue-embedded.ts), which invokes the same worker handler with
 * the same SQS events and keeps SQS's rules: at least once, a failed message visible again after its
 * visibility timeout (or the delay the worker set), and after `maxReceiveCount` receives moved to the
 * dead-letter queue.
 */
import type { JobMessage } from './model.js';

/** SQS's longest delay of a message (DelaySeconds) and of its visibility: longer waits are several hops. */
export const QUEUE_MAX_DELAY_SECONDS = 900;

export interface JobQueue {
  /** Sends messages, visible after `delaySeconds` (0: at once). */
  send(messages: readonly JobMessage[], delaySeconds?: number): Promise<void>;
  /** A received message (by its receipt handle) is tried again after `seconds`, not after its visibility timeout. */
  retryAfter(receiptHandle: string, seconds: number): Promise<void>;
}

/** The wait before a try after `failures` failed ones: `base` × 3^(failures − 1), at most the queue's longest delay. */
export function backoffSeconds(base: number, failures: number): number {
  return Math.min(QUEUE_MAX_DELAY_SECONDS, base * 3 ** Math.max(0, failures - 1));
}
