/**
 * What the job engine keeps and sends (docs/decisions.md §27): a job, its input cut into batches, one
 * stored outcome per reference (keyed by job and index, which is what makes the work idempotent: an index
 * answered once is never worked on again), and the three kinds of queue message. Stores and queues
 * (store.ts, queue.ts) hold these and nothing else, whichever adapter runs them.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { JobStatus } from '../contract/jobs.js';

/** The webhook a job was given, and how its delivery stands. */
export interface JobWebhook {
  url: string;
  secret: string;
  state: 'pending' | 'delivered' | 'failed' | 'refused';
  tries: number;
  lastError: string | null;
}

/** One job, as the store keeps it. Times are epoch milliseconds. */
export interface JobRecord {
  id: string;
  /** The client key's name that made it: every other key is told it does not exist. */
  owner: string;
  kind: string;
  /** The kind's options, as validated at submit. */
  options: unknown;
  total: number;
  /** References per batch (the last may hold fewer); batch n holds indexes n × batchSize + 1 on. */
  batchSize: number;
  batches: number;
  status: JobStatus;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** The store deletes the job and everything of it after this (DynamoDB's TTL; the memory store's sweep). */
  expiresAt: number;
  /** Whether the batch messages were sent: a replay of the same Idempotency-Key sends them if not. */
  enqueued: boolean;
  webhook: JobWebhook | null;
}

/** The references of one batch. */
export interface BatchInput {
  batch: number;
  /** The index (from 1) of the batch's first reference. */
  first: number;
  references: string[];
}

/** What the store knows of one index: answered, or failed (which a later answer may replace). */
export type AnsweredState = 'answer' | 'failed';

/** One reference's outcome, as the engine hands it to the store. */
export interface ItemOutcome {
  index: number;
  /** The outcome's name in the job's counts (`resolved`, `unresolved`, `failed`). */
  outcome: string;
  failed: boolean;
  /** For a failed reference: why, as the status lists it. */
  reason?: string;
  /** The encoded result (encodeResult). */
  body: Buffer;
}

/** A stored result, as read back. */
export interface StoredResult {
  index: number;
  failed: boolean;
  body: Buffer;
}

/** How far a job has come, counted from its stored outcomes. */
export interface JobProgress {
  /** References with an outcome, failed ones included. */
  done: number;
  /** Outcomes by name, `failed` among them. */
  counts: Record<string, number>;
  /** Every failed reference with its reason, in index order. */
  failed: { index: number; reason: string }[];
  /** When an outcome was last counted (epoch ms; 0 before any): a job is finished by a check only once quiet. */
  updatedAt: number;
}

/** A batch to work on. */
export interface BatchMessage {
  type: 'batch';
  job_id: string;
  batch: number;
}

/**
 * A later count of a batch on its last try, and the job's end if it is complete: the last try marks its
 * references failed before it starts, so that a worker killed during it still leaves the job complete.
 */
export interface FinishCheckMessage {
  type: 'finish-check';
  job_id: string;
  batch: number;
}

/** One try of a job's webhook, for the status the job ended with. */
export interface WebhookMessage {
  type: 'webhook';
  job_id: string;
  /** The try this message is for, from 1. */
  try: number;
  status: JobStatus;
}

export type JobMessage = BatchMessage | FinishCheckMessage | WebhookMessage;

/** A result as the store keeps it: the answer the kind gave (with its index) and, for exports, its record. */
export interface EncodedResult {
  entry: Record<string, unknown>;
  record?: Record<string, unknown>;
}

/**
 * Bytes as zlib gives them, copied to a buffer of their own size: zlib's answer is a view of its 16 KiB
 * output chunk, and a copy by `Buffer.from` under 4 KiB lands in Node's shared 8 KiB pool, whose slab a
 * kept result then holds whole while short-lived buffers fill the rest of it. Either way a kept result
 * held 8 to 16 KiB of memory (the jobs benchmark's memory grew by about that per reference).
 */
function compact(bytes: Buffer): Buffer {
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** Results are kept compressed: a resolved reference's JSON shrinks about four times, which is most of a job's bytes. */
export function encodeResult(result: EncodedResult): Buffer {
  return compact(gzipSync(JSON.stringify(result)));
}

export function decodeResult(body: Buffer): EncodedResult {
  return JSON.parse(gunzipSync(body).toString('utf8')) as EncodedResult;
}

/** A batch's references, compressed as results are. */
export function encodeReferences(references: readonly string[]): Buffer {
  return compact(gzipSync(JSON.stringify(references)));
}

export function decodeReferences(body: Buffer): string[] {
  return JSON.parse(gunzipSync(body).toString('utf8')) as string[];
}

/** Parses a queue message's body; undefined for anything that is not one of ours (it is dropped, with a log line). */
export function parseMessage(body: string): JobMessage | undefined {
  try {
    const message = JSON.parse(body) as Partial<JobMessage>;
    if (typeof message.job_id !== 'string') return undefined;
    if (message.type === 'batch' && Number.isInteger(message.batch)) return message as BatchMessage;
    if (message.type === 'finish-check' && Number.isInteger(message.batch)) return message as FinishCheckMessage;
    if (message.type === 'webhook' && Number.isInteger(message.try) && typeof message.status === 'string') {
      return message as WebhookMessage;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
