/**
 * The job queue on SQS (deployed): messages sent ten to a SendMessageBatch (SQS's most), a failed message's
 * next try set with ChangeMessageVisibility. The client honours AWS_ENDPOINT_URL_SQS, which the tests
 * point at a fake on loopback; the SDK is loaded on first use (the runtime's own copy where deployed).
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { type JobQueue, QUEUE_MAX_DELAY_SECONDS } from './queue.js';

type Sdk = typeof import('@aws-sdk/client-sqs');

/** Messages per SendMessageBatch: SQS's limit. */
export const SEND_BATCH_MAX = 10;

export function sqsJobQueue(queueUrl: string): JobQueue {
  let sdk: Promise<{ client: SQSClient; commands: Sdk }> | undefined;
  const sqs = () => {
    sdk ??= import('@aws-sdk/client-sqs')
      .then((commands) => ({ commands, client: new commands.SQSClient({}) }))
      .catch((error: unknown) => {
        sdk = undefined;
        throw error;
      });
    return sdk;
  };
  // SQS takes whole seconds, at most its longest delay.
  const whole = (seconds: number) => Math.min(QUEUE_MAX_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));
  return {
    async send(messages, delaySeconds = 0) {
      const { client, commands } = await sqs();
      for (let i = 0; i < messages.length; i += SEND_BATCH_MAX) {
        let entries = messages
          .slice(i, i + SEND_BATCH_MAX)
          .map((message, n) => ({ Id: String(n), MessageBody: JSON.stringify(message), DelaySeconds: whole(delaySeconds) }));
        for (let attempt = 0; entries.length > 0; attempt += 1) {
          if (attempt > 4) throw new Error(`SQS refused ${entries.length} messages after 5 attempts`);
          const answer = await client.send(new commands.SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
          const failed = new Set((answer.Failed ?? []).map((failure) => failure.Id));
          entries = entries.filter((entry) => failed.has(entry.Id));
        }
      }
    },
    async retryAfter(receiptHandle, seconds) {
      const { client, commands } = await sqs();
      await client.send(
        new commands.ChangeMessageVisibilityCommand({
          QueueUrl: queueUrl,
          ReceiptHandle: receiptHandle,
          VisibilityTimeout: whole(seconds),
        }),
      );
    },
  };
}
