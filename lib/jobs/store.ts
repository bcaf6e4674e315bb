/**
 * The job store's contract: what the engine (engine.ts) asks of wherever jobs live, in this process's
 * memory (store-memory.ts: `npm start`, the tests, the benchmark) or in DynamoDB with S3 for what an item
 * cannot hold (store-dynamo.ts: deployed). Every write is a single conditional write, so any number of
 * workers, duplicate deliveries among them, can share a job, and a worker killed between two writes leaves
 * nothing a retry of its batch does not mend: an outcome is written only where the index has none (or a
 * failure), never over an answer, and a job's progress is counted from the outcomes themselves, never
 * kept as a running counter a crash could leave short. The engine holds every rule; an adapter keeps the
 * data and these conditions. test/integration/jobs-store.test.ts runs the same cases on both.
 */
import type { AnsweredState, BatchInput, ItemOutcome, JobProgress, JobRecord, JobWebhook, StoredResult } from './model.js';

/** An Idempotency-Key's claim: the job it made and the digest of the body that made it. */
export interface IdempotencyClaim {
  /** The key as the store names it: the owner and a digest of the header's value. */
  key: string;
  digest: string;
  expiresAt: number;
}

export type CreateOutcome = { created: true } | { existing: { jobId: string; digest: string } };

export interface JobStore {
  /**
   * Keeps a new job and its input. With a claim, atomically with it: when the key is already claimed (and
   * not expired), nothing is kept and the claim's job is answered instead.
   */
  create(job: JobRecord, batches: readonly BatchInput[], claim?: IdempotencyClaim): Promise<CreateOutcome>;
  /** The job; undefined when there is none (or it has expired). */
  job(id: string): Promise<JobRecord | undefined>;
  /** One batch's references. */
  batch(id: string, batch: number): Promise<BatchInput | undefined>;
  /** Which indexes from `first` to `last` have an outcome, and which kind. */
  answered(id: string, first: number, last: number): Promise<Map<number, AnsweredState>>;
  /**
   * Writes outcomes, each on its own condition: an index with no outcome, or a failed one, takes it; an
   * answered index is left as it is (a failure never replaces an answer). Answers how many were written.
   */
  saveOutcomes(id: string, outcomes: readonly ItemOutcome[]): Promise<number>;
  /**
   * Counts the outcomes of one batch (indexes `first` to `last`) into the job's progress. Idempotent, and
   * never moves the progress back: a count made from an older read than the one kept is dropped.
   */
  countBatch(id: string, batch: number, first: number, last: number, now: number): Promise<void>;
  /** The job's progress, over every batch counted. */
  progress(id: string): Promise<JobProgress>;
  /** Marks the batch messages sent. */
  markEnqueued(id: string): Promise<void>;
  /** Moves the job from one of `from` to `to`, stamping its start or its end; false when its status was none of `from`. */
  setStatus(id: string, from: readonly JobRecord['status'][], to: JobRecord['status'], now: number): Promise<boolean>;
  /** Stored results from index `from` on, in index order, at most `limit`. */
  results(id: string, from: number, limit: number): Promise<StoredResult[]>;
  /** Records how the webhook's delivery stands. */
  updateWebhook(id: string, webhook: JobWebhook): Promise<void>;
}

/** The progress a batch's outcomes add up to (shared by the adapters): what `countBatch` keeps. */
export function batchProgress(
  outcomes: readonly { index: number; outcome: string; failed: boolean; reason?: string }[],
  now: number,
): JobProgress {
  const counts: Record<string, number> = {};
  const failed: JobProgress['failed'] = [];
  for (const outcome of outcomes) {
    counts[outcome.outcome] = (counts[outcome.outcome] ?? 0) + 1;
    if (outcome.failed) failed.push({ index: outcome.index, reason: outcome.reason ?? 'failed' });
  }
  return { done: outcomes.length, counts, failed, updatedAt: now };
}

/**
 * How far a batch's count has come, as one number that only grows: answers are only ever added, and a
 * failure is only ever replaced by an answer, so more outcomes, or as many with fewer failures, is later.
 */
export function progressRank(progress: Pick<JobProgress, 'done' | 'counts'>): number {
  return progress.done * 1_000_000 + (progress.done - (progress.counts.failed ?? 0));
}

/** The sum of batches' progress, failures in index order. */
export function sumProgress(parts: readonly JobProgress[]): JobProgress {
  const counts: Record<string, number> = {};
  let done = 0;
  let updatedAt = 0;
  const failed: JobProgress['failed'] = [];
  for (const part of parts) {
    done += part.done;
    updatedAt = Math.max(updatedAt, part.updatedAt);
    for (const [name, count] of Object.entries(part.counts)) counts[name] = (counts[name] ?? 0) + count;
    failed.push(...part.failed);
  }
  failed.sort((a, b) => a.index - b.index);
  return { done, counts, failed, updatedAt };
}
