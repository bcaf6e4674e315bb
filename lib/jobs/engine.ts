/**
 * The job engine (docs/decisions.md §27): the one implementation of jobs, whatever runs it. It takes a
 * store (store.ts: memory or DynamoDB) and a queue (queue.ts: this process's or SQS), the kinds
 * (kinds.ts) and their outcomes (outcomes.ts) and its settings, and holds every rule: submission (submit.ts), the work a worker does on a
 * message (work.ts) and what a client reads (read.ts). `npm start` and the tests run it on the embedded
 * adapters, the deployment on the AWS ones (deployment.ts chooses from the configuration).
 */
import type { JobKind } from './kinds.js';
import type { JobQueue } from './queue.js';
import { cancelJob, jobResults, jobStatus, type ResultsRequest } from './read.js';
import type { JobStore } from './store.js';
import { type Submission, submitJob } from './submit.js';
import type { Resolver } from './webhook/deliver.js';
import { handleMessage, type WorkOutcome } from './work.js';

export interface EngineSettings {
  /** References per batch message. */
  batchSize: number;
  /** How long a job and its results are kept. */
  ttlMs: number;
  /** Receives of a batch before the dead-letter queue (the queue's maxReceiveCount): the last is its last try. */
  maxReceives: number;
  /** The first retry of a batch waits this long, each next one three times as long. */
  retrySeconds: number;
  /** The same for a webhook's tries. */
  webhookRetrySeconds: number;
  /** How long after a batch's last try starts its finish check comes (longer than a worker can run). */
  finishCheckSeconds: number;
  /** Post webhooks to loopback, private and reserved addresses (`npm start`); link-local and metadata never. */
  allowPrivateWebhooks: boolean;
  webhookTimeoutMs: number;
  userAgent: string;
}

/** What every part of the engine shares. */
export interface EngineContext {
  store: JobStore;
  queue: JobQueue;
  /** The kinds submission and work call on; none where the engine only reads, reports on and cancels jobs. */
  kinds: Readonly<Record<string, JobKind>>;
  /** Each kind's outcomes (outcomes.ts), which a job's counts name. */
  outcomes: Readonly<Record<string, readonly string[]>>;
  settings: EngineSettings;
  now: () => number;
  /** Waits (a reference asked again within a try): the timers', or a test's clock. */
  sleep: (ms: number) => Promise<void>;
  /** Resolves webhook host names (the system resolver unless a test gives its own). */
  resolve: Resolver;
  /** Where a checked webhook address is dialled (tests only). */
  dial?: (address: string, port: number) => { address: string; port: number };
  log: (message: string, fields: Record<string, unknown>) => void;
}

export type JobEngine = ReturnType<typeof createJobEngine>;

export function createJobEngine(context: EngineContext) {
  return {
    context,
    submit: (submission: Submission) => submitJob(context, submission),
    status: (id: string, owner: string) => jobStatus(context, id, owner),
    results: (request: ResultsRequest, owner: string) => jobResults(context, request, owner),
    cancel: (id: string, owner: string) => cancelJob(context, id, owner),
    /** One queue message, as a worker receives it: its `receives` is SQS's ApproximateReceiveCount. */
    handle: (body: string, delivery: { receives: number; deadline: number }): Promise<WorkOutcome> =>
      handleMessage(context, body, delivery),
  };
}
