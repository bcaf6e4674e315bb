/**
 * The jobs' worker: SQS's event source mapping invokes it with a batch of messages (a batch of a job's
 * references, a finish check, a webhook's try), and under `npm start` the embedded queue does, with the
 * same events (lib/jobs/queue-embedded.ts). Each message is worked on in turn by the job engine
 * (lib/jobs/work.ts); one that must be tried again is reported in `batchItemFailures`
 * (ReportBatchItemFailures: only those come back) with its next try set by its visibility, so that the
 * others of the batch are deleted. A message the time left cannot hold is reported too, to come back at
 * once. Not a route: no client calls it.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '../lib/config.js';
import { jobEngine } from '../lib/jobs/deployment.js';
import { JOB_KINDS } from '../lib/jobs/kinds.js';
import { backoffSeconds } from '../lib/jobs/queue.js';
import { logger } from '../lib/logger.js';

/** Time kept back from the invocation's end: outcomes written, the answer returned. */
const MARGIN_MS = 5_000;

export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  const engine = jobEngine(JOB_KINDS);
  const margin = Math.min(MARGIN_MS, context.getRemainingTimeInMillis() / 5);
  const deadline = Date.now() + context.getRemainingTimeInMillis() - margin;
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const receives = Number(record.attributes.ApproximateReceiveCount) || 1;
    if (Date.now() >= deadline) {
      // No time left for it here: back at once, for the next invocation.
      await engine.context.queue.retryAfter(record.receiptHandle, 0);
      batchItemFailures.push({ itemIdentifier: record.messageId });
      continue;
    }
    try {
      const outcome = await engine.handle(record.body, { receives, deadline });
      if ('retryAfterSeconds' in outcome) {
        await engine.context.queue.retryAfter(record.receiptHandle, outcome.retryAfterSeconds);
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    } catch (error) {
      // The store or a kind failed: the message comes back after a backoff, and on its last try marks its references failed.
      logger.error('job message failed', { messageId: record.messageId, receives, error: error as Error });
      await engine.context.queue
        .retryAfter(record.receiptHandle, backoffSeconds(config.JOBS_RETRY_SECONDS, receives))
        .catch(() => undefined);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
