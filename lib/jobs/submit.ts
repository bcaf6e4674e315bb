/**
 * A job's submission: the references (given, or read from the bibliography), the webhook's URL checked,
 * the input cut into batches and kept, one message per batch sent. An Idempotency-Key claims its job with
 * the digest of the body that made it: the same key and body within IDEMPOTENCY_HOURS give that job back
 * (and send its batches if its first submission could not), the same key with another body is refused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { IDEMPOTENCY_HOURS, JOB_REFERENCES_MAX } from '../contract/jobs.js';
import { AppError } from '../errors.js';
import type { EngineContext } from './engine.js';
import type { BatchInput, JobMessage, JobRecord } from './model.js';
import { hostRefusal } from './webhook/deliver.js';

export interface Submission {
  /** The client key's name. */
  owner: string;
  kind: string;
  references?: readonly string[];
  bibliography?: string;
  options: unknown;
  webhook?: { url: string; secret: string };
  /** The Idempotency-Key header's value, when sent. */
  idempotencyKey?: string;
  /** The validated body, whose digest an Idempotency-Key is held to. */
  body: unknown;
}

/** Job ids: "job_" and 26 characters of 130 random bits, in lower case letters and digits. */
export const JOB_ID = /^job_[a-z2-7]{26}$/;

export function newJobId(): string {
  const bits = randomBytes(17).reduce((text, byte) => text + byte.toString(2).padStart(8, '0'), '');
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let id = 'job_';
  for (let i = 0; i < 26; i += 1) id += alphabet[Number.parseInt(bits.slice(i * 5, i * 5 + 5), 2)];
  return id;
}

/** The digest of a value as JSON, keys in the order the schema gives them. */
function digestOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/**
 * The references a submission names, or why they cannot be taken (400 naming the field). A bibliography is
 * read as its kind reads one (both by the reference check's reader).
 */
async function referencesOf(context: EngineContext, submission: Submission): Promise<string[]> {
  if (submission.references) return [...submission.references];
  const kind = context.kinds[submission.kind];
  if (!kind) throw new AppError('INVALID_REQUEST', { details: `kind: no kind "${submission.kind}"` });
  const references = await kind.readBibliography(submission.bibliography ?? '');
  if (references.length === 0) {
    throw new AppError('INVALID_REQUEST', { details: 'bibliography: holds no reference (a BibTeX file, a RIS file or a list)' });
  }
  if (references.length > JOB_REFERENCES_MAX) {
    throw new AppError('INVALID_REQUEST', {
      details: `bibliography: holds ${references.length} references; a job takes at most ${JOB_REFERENCES_MAX}`,
    });
  }
  return references;
}

function batchesOf(references: readonly string[], size: number): BatchInput[] {
  const batches: BatchInput[] = [];
  for (let i = 0; i < references.length; i += size) {
    batches.push({ batch: batches.length, first: i + 1, references: references.slice(i, i + size) });
  }
  return batches;
}

async function enqueue(context: EngineContext, job: JobRecord): Promise<void> {
  const messages: JobMessage[] = Array.from({ length: job.batches }, (_, batch) => ({ type: 'batch', job_id: job.id, batch }));
  try {
    await context.queue.send(messages);
  } catch (error) {
    throw new AppError('SERVICE_UNAVAILABLE', {
      details: `The job ${job.id} was kept but its work could not be queued; send the same request with the same Idempotency-Key to queue it`,
      headers: { 'Retry-After': '5' },
      cause: error,
    });
  }
  await context.store.markEnqueued(job.id);
}

/** Keeps and queues a job; answers it, and whether an earlier request with the same key made it. */
export async function submitJob(context: EngineContext, submission: Submission): Promise<{ job: JobRecord; replayed: boolean }> {
  const { store, settings } = context;
  if (submission.webhook) {
    const refused = hostRefusal(new URL(submission.webhook.url), settings.allowPrivateWebhooks);
    if (refused) throw new AppError('INVALID_REQUEST', { details: `webhook.url: ${refused}` });
  }
  const references = await referencesOf(context, submission);
  const now = context.now();
  const batches = batchesOf(references, settings.batchSize);
  const job: JobRecord = {
    id: newJobId(),
    owner: submission.owner,
    kind: submission.kind,
    options: submission.options,
    total: references.length,
    batchSize: settings.batchSize,
    batches: batches.length,
    status: 'queued',
    createdAt: now,
    startedAt: null,
    finishedAt: null,
    // Whole seconds: DynamoDB's TTL counts them.
    expiresAt: Math.ceil((now + settings.ttlMs) / 1000) * 1000,
    enqueued: false,
    webhook: submission.webhook ? { ...submission.webhook, state: 'pending', tries: 0, lastError: null } : null,
  };
  const digest = digestOf(submission.body);
  const claim =
    submission.idempotencyKey === undefined
      ? undefined
      : {
          key: `${submission.owner}#${createHash('sha256').update(submission.idempotencyKey).digest('hex')}`,
          digest,
          expiresAt: now + IDEMPOTENCY_HOURS * 3_600_000,
        };
  const created = await store.create(job, batches, claim);
  if ('existing' in created) {
    if (created.existing.digest !== digest) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', {
        details: `${'Idempotency-Key'}: this key made job ${created.existing.jobId} with another body in the last ${IDEMPOTENCY_HOURS} hours; send a new key for a new job`,
      });
    }
    const existing = await store.job(created.existing.jobId);
    if (!existing) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', {
        details: `${'Idempotency-Key'}: the job this key made (${created.existing.jobId}) no longer exists; send a new key`,
      });
    }
    if (!existing.enqueued) await enqueue(context, existing);
    return { job: { ...existing, enqueued: true }, replayed: true };
  }
  await enqueue(context, job);
  context.log('job submitted', { jobId: job.id, kind: job.kind, total: job.total, batches: job.batches });
  return { job: { ...job, enqueued: true }, replayed: false };
}
