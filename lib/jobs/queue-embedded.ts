/**
 * The job queue inside this process (`npm start`, the tests, the benchmark): SQS's behaviour and Lambda's
 * event source mapping in one, so that the worker handler runs here exactly as deployed. Messages wait
 * out their delay, are handed to the handler in batches (`batchSize`) as an SQS event, the records shaped
 * as Lambda shapes them (receipt handle, ApproximateReceiveCount, md5 of the body, the queue's ARN), with
 * at most `maxConcurrency` invocations at once. The handler's `batchItemFailures` stay in the queue and
 * come back after the visibility timeout, or after the delay the worker set (retryAfter); the rest are
 * deleted; a handler that throws fails its whole batch. A message received `maxReceiveCount` times and
 * failed again goes to the dead-letter list at its next receive, as SQS's redrive policy moves it. An
 * invocation that never returns (a worker killed) loses its messages' receipts once their visibility
 * runs out: they are delivered again, and what the old invocation reports later is ignored.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { JobQueue } from './queue.js';

export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

export interface EmbeddedQueueOptions {
  /** The queue's name, in the records' ARN. */
  name?: string;
  batchSize: number;
  maxConcurrency: number;
  visibilityTimeoutMs: number;
  maxReceiveCount: number;
  /** The invocation's time, as its context's getRemainingTimeInMillis counts it down. */
  invocationTimeoutMs: number;
}

interface Message {
  id: string;
  body: string;
  sentAt: number;
  visibleAt: number;
  receives: number;
  firstReceivedAt?: number;
  receipt?: string;
  sequence: number;
}

export interface DeadLetter {
  messageId: string;
  body: string;
  receives: number;
}

export interface EmbeddedQueue extends JobQueue {
  /** Starts handing messages to `handler` (one consumer; a second call replaces the first). */
  consume(handler: QueueHandler): void;
  /** Sends message bodies as they are (the fake SQS endpoint of the tests sends what it is sent). */
  sendBodies(bodies: readonly string[], delayMs?: number): string[];
  /** Messages moved to the dead-letter queue, oldest first. */
  readonly deadLetters: readonly DeadLetter[];
  /** Messages waiting (delayed or visible) and in flight. */
  depth(): { waiting: number; inFlight: number };
  /** Every delay a message was sent with or set to (seconds), in order: what the tests read backoffs from. */
  readonly delays: readonly number[];
  /** Stops delivering; messages stay. */
  stop(): void;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export function createEmbeddedQueue(options: EmbeddedQueueOptions): EmbeddedQueue {
  const arn = `arn:aws:sqs:local:000000000000:${options.name ?? 'jobs'}`;
  const messages = new Map<string, Message>();
  const deadLetters: DeadLetter[] = [];
  const delays: number[] = [];
  let handler: QueueHandler | undefined;
  let running = 0;
  let sequence = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const byReceipt = (receipt: string) => [...messages.values()].find((message) => message.receipt === receipt);

  function schedule(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (stopped || !handler) return;
    const now = Date.now();
    const next = Math.min(...[...messages.values()].map((message) => message.visibleAt));
    if (!Number.isFinite(next)) return;
    timer = setTimeout(pump, Math.max(0, next - now));
    // The queue never keeps a process alive on its own (a test's, the benchmark's).
    timer.unref();
  }

  function pump(): void {
    timer = undefined;
    while (!stopped && handler && running < options.maxConcurrency) {
      const now = Date.now();
      const visible = [...messages.values()]
        .filter((message) => message.visibleAt <= now)
        .sort((a, b) => a.sequence - b.sequence);
      const batch: Message[] = [];
      for (const message of visible) {
        if (batch.length >= options.batchSize) break;
        if (message.receives >= options.maxReceiveCount) {
          // SQS's redrive: received as often as allowed and failed again, it goes to the dead-letter queue.
          messages.delete(message.id);
          deadLetters.push({ messageId: message.id, body: message.body, receives: message.receives });
          continue;
        }
        message.receives += 1;
        message.firstReceivedAt ??= now;
        message.receipt = randomUUID();
        message.visibleAt = now + options.visibilityTimeoutMs;
        batch.push(message);
      }
      if (batch.length === 0) break;
      invoke(batch);
    }
    schedule();
  }

  function record(message: Message): SQSRecord {
    return {
      messageId: message.id,
      receiptHandle: message.receipt as string,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receives),
        SentTimestamp: String(message.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? message.sentAt),
      },
      messageAttributes: {},
      md5OfBody: md5(message.body),
      eventSource: 'aws:sqs',
      eventSourceARN: arn,
      awsRegion: 'local',
    };
  }

  function invoke(batch: Message[]): void {
    running += 1;
    const receipts = new Map(batch.map((message) => [message.id, message.receipt]));
    const deadline = Date.now() + options.invocationTimeoutMs;
    const context = {
      functionName: 'jobs-worker',
      awsRequestId: randomUUID(),
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    } as unknown as Context;
    const current = handler as QueueHandler;
    Promise.resolve()
      .then(() => current({ Records: batch.map(record) }, context))
      .then(
        (response) => new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier)),
        // A handler that throws fails every message of its batch.
        () => new Set(batch.map((message) => message.id)),
      )
      .then((failed) => {
        for (const message of batch) {
          // Received again since (its visibility ran out): this invocation no longer holds it.
          if (messages.get(message.id)?.receipt !== receipts.get(message.id)) continue;
          if (failed.has(message.id)) message.receipt = undefined;
          else messages.delete(message.id);
        }
      })
      .finally(() => {
        running -= 1;
        pump();
      });
  }

  const queue: EmbeddedQueue = {
    deadLetters,
    delays,
    consume(next) {
      handler = next;
      stopped = false;
      pump();
    },
    sendBodies(bodies, delayMs = 0) {
      const now = Date.now();
      const ids = bodies.map((body) => {
        const id = randomUUID();
        messages.set(id, { id, body, sentAt: now, visibleAt: now + delayMs, receives: 0, sequence: sequence++ });
        return id;
      });
      if (delayMs > 0) delays.push(delayMs / 1000);
      pump();
      return ids;
    },
    async send(list, delaySeconds = 0) {
      queue.sendBodies(
        list.map((message) => JSON.stringify(message)),
        delaySeconds * 1000,
      );
    },
    async retryAfter(receiptHandle, seconds) {
      const message = byReceipt(receiptHandle);
      if (!message) return;
      delays.push(seconds);
      message.visibleAt = Date.now() + seconds * 1000;
      schedule();
    },
    depth() {
      const inFlight = [...messages.values()].filter((message) => message.receipt !== undefined).length;
      return { waiting: messages.size - inFlight, inFlight };
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
  return queue;
}
