/**
 * This process's job engine, made from the configuration (lib/config.ts): the DynamoDB store (with S3 for
 * large values) when JOBS_TABLE_NAME is set, else the memory store; SQS when JOBS_QUEUE_URL is set, else
 * the embedded queue, which the local server hands to the worker handler (functions/jobs-worker.ts). The
 * kinds (kinds.ts) are the caller's to give: submitting and working need them, and they bring the whole
 * citation pipeline; reading, status and cancel need only the kinds' outcomes, and their functions'
 * bundles leave the pipeline out. Every engine of the process shares its one store and queue.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { crossrefInFlight, crossrefRate } from '../citations/sources/crossref.js';
import { userAgent } from '../citations/sources/fetch-json.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { s3BlobStore } from './blobs.js';
import { createJobEngine, type EngineSettings, type JobEngine } from './engine.js';
import type { JobKind } from './kinds.js';
import { JOB_OUTCOMES } from './outcomes.js';
import type { JobQueue } from './queue.js';
import { createEmbeddedQueue, type EmbeddedQueue, type QueueHandler } from './queue-embedded.js';
import { sqsJobQueue } from './queue-sqs.js';
import { workerConcurrency } from './sizing.js';
import type { JobStore } from './store.js';
import { createDynamoJobStore } from './store-dynamo.js';
import { createMemoryJobStore } from './store-memory.js';
import { systemResolver } from './webhook/deliver.js';

type Sdk = typeof import('@aws-sdk/client-dynamodb');
let sdk: Promise<{ client: DynamoDBClient; commands: Sdk }> | undefined;

function dynamo(): Promise<{ client: DynamoDBClient; commands: Sdk }> {
  sdk ??= import('@aws-sdk/client-dynamodb')
    .then((commands) => ({
      commands,
      client: new commands.DynamoDBClient({ requestHandler: { connectionTimeout: 3_000, requestTimeout: 5_000 } }),
    }))
    .catch((error: unknown) => {
      sdk = undefined;
      throw error;
    });
  return sdk;
}

/** The engine's settings from the configuration. */
export function engineSettings(): EngineSettings {
  return {
    batchSize: config.JOBS_BATCH_SIZE,
    ttlMs: config.JOBS_TTL_DAYS * 86_400_000,
    maxReceives: config.JOBS_MAX_RECEIVES,
    retrySeconds: config.JOBS_RETRY_SECONDS,
    webhookRetrySeconds: config.JOBS_WEBHOOK_RETRY_SECONDS,
    // Twice the longest a worker runs: by then the try it follows has surely ended, one way or another.
    finishCheckSeconds: config.JOBS_WORKER_TIMEOUT_SECONDS * 2,
    allowPrivateWebhooks: config.JOBS_WEBHOOK_PRIVATE === 'allow',
    webhookTimeoutMs: config.JOBS_WEBHOOK_TIMEOUT_MS,
    userAgent: userAgent(),
  };
}

let embedded: EmbeddedQueue | undefined;
let store: JobStore | undefined;
let queue: JobQueue | undefined;
const engines = new Map<Readonly<Record<string, JobKind>>, JobEngine>();

/** The kinds an engine that only reads, reports on and cancels jobs is given: none. */
export const NO_KINDS: Readonly<Record<string, JobKind>> = Object.freeze({});

/** The process's queue when it is the embedded one (no JOBS_QUEUE_URL); undefined where SQS is used. */
export function embeddedJobQueue(): EmbeddedQueue | undefined {
  if (config.JOBS_QUEUE_URL) return undefined;
  embedded ??= createEmbeddedQueue({
    batchSize: config.JOBS_MESSAGES_PER_INVOCATION,
    maxConcurrency:
      config.JOBS_WORKER_CONCURRENCY ?? workerConcurrency(crossrefRate(), config.CROSSREF_CONCURRENCY, crossrefInFlight()),
    // As the stack sets SQS's: six times the worker's timeout (AWS's advice for a Lambda event source).
    visibilityTimeoutMs: config.JOBS_WORKER_TIMEOUT_SECONDS * 6_000,
    maxReceiveCount: config.JOBS_MAX_RECEIVES,
    invocationTimeoutMs: config.JOBS_WORKER_TIMEOUT_SECONDS * 1_000,
  });
  return embedded;
}

/** Hands the embedded queue's messages to the worker handler (the local server does, once its handlers are loaded). */
export function consumeEmbeddedJobs(handler: QueueHandler): void {
  embeddedJobQueue()?.consume(handler);
}

/**
 * The process's job engine with these kinds: `JOB_KINDS` (kinds.ts) to submit and work, `NO_KINDS` to read,
 * report on and cancel (an engine without a job's kind works none of its batches).
 */
export function jobEngine(kinds: Readonly<Record<string, JobKind>>): JobEngine {
  let engine = engines.get(kinds);
  if (engine) return engine;
  store ??= config.JOBS_TABLE_NAME
    ? createDynamoJobStore({
        tableName: config.JOBS_TABLE_NAME,
        client: dynamo,
        blobs: s3BlobStore(config.JOBS_BUCKET_NAME ?? ''),
      })
    : createMemoryJobStore();
  queue ??= config.JOBS_QUEUE_URL ? sqsJobQueue(config.JOBS_QUEUE_URL) : (embeddedJobQueue() as EmbeddedQueue);
  engine = createJobEngine({
    store,
    queue,
    kinds,
    outcomes: JOB_OUTCOMES,
    settings: engineSettings(),
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    resolve: systemResolver,
    log: (message, fields) => logger.info(message, fields),
  });
  engines.set(kinds, engine);
  return engine;
}
