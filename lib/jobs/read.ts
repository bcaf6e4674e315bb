/**
 * What a client reads of its jobs: the status (progress counted from the stored outcomes, an estimate of
 * the time left at the pace so far), pages of results in input order, a finished job's records as one
 * BibTeX, RIS or CSL-JSON list (keys unique across the whole job), and the cancel. A job belongs to the
 * key that made it: to any other key it does not exist (404, the same answer as for an unknown id).
 */
import { renderExports } from '../citations/exports/exports.js';
import { uniqueKeys } from '../citations/exports/keys.js';
import type { CslItem } from '../citations/model/csl.js';
import { JOB_FAILED_LISTED_MAX, JOB_PAGE_MAX_BYTES, type JobResultFormat } from '../contract/jobs.js';
import type { JobsCancelData } from '../contract/jobs-cancel.js';
import type { JobsResultsData } from '../contract/jobs-results.js';
import type { JobsStatusData } from '../contract/jobs-status.js';
import { AppError } from '../errors.js';
import type { EngineContext } from './engine.js';
import { decodeResult, type JobProgress, type JobRecord } from './model.js';
import { notify } from './work.js';

export interface ResultsRequest {
  job_id: string;
  cursor?: string;
  limit: number;
  format?: JobResultFormat;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const ended = (job: JobRecord) => job.status === 'done' || job.status === 'failed' || job.status === 'cancelled';

/** The caller's job, or 404 naming it: another key's job is answered exactly as one that does not exist. */
export async function ownedJob(context: EngineContext, id: string, owner: string): Promise<JobRecord> {
  const job = await context.store.job(id);
  if (!job || job.owner !== owner) {
    throw new AppError('JOB_NOT_FOUND', { details: `job_id: no job ${id} for this key (jobs expire after their time)` });
  }
  return job;
}

/** Seconds left at the pace since the job started; null while queued, once ended, or with nothing done yet. */
function etaSeconds(job: JobRecord, progress: JobProgress, now: number): number | null {
  if (job.status !== 'running' || job.startedAt === null || progress.done === 0) return null;
  const perMs = progress.done / Math.max(1, now - job.startedAt);
  return Math.ceil((job.total - progress.done) / perMs / 1000);
}

/** Every outcome of the job's kind and `failed`, each counted (0 when none). */
function countsOf(context: EngineContext, job: JobRecord, progress: JobProgress): Record<string, number> {
  const names = [...(context.outcomes[job.kind] ?? []), 'failed'];
  return Object.fromEntries(names.map((name) => [name, progress.counts[name] ?? 0]));
}

function head(job: JobRecord, progress: JobProgress) {
  return { job_id: job.id, kind: job.kind, status: job.status, total: job.total, done: Math.min(progress.done, job.total) };
}

export async function jobStatus(context: EngineContext, id: string, owner: string): Promise<JobsStatusData> {
  const job = await ownedJob(context, id, owner);
  const progress = await context.store.progress(job.id);
  return {
    ...head(job, progress),
    counts: countsOf(context, job, progress),
    created_at: iso(job.createdAt) as string,
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
    expires_at: iso(job.expiresAt) as string,
    eta_seconds: etaSeconds(job, progress, context.now()),
    failed: progress.failed.slice(0, JOB_FAILED_LISTED_MAX),
    webhook: job.webhook
      ? {
          host: new URL(job.webhook.url).host,
          state: job.webhook.state,
          tries: job.webhook.tries,
          last_error: job.webhook.lastError,
        }
      : null,
  };
}

/** A cursor names the index a page starts at; opaque to clients. */
export function encodeCursor(index: number): string {
  return Buffer.from(`r${index}`).toString('base64url');
}

export function decodeCursor(cursor: string, total: number): number {
  const index = /^r(\d{1,7})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  if (index === undefined || Number(index) < 1 || Number(index) > total + 1) {
    throw new AppError('INVALID_REQUEST', {
      details: 'cursor: is not a cursor of this job; send the next_cursor of its last page',
    });
  }
  return Number(index);
}

/** A finished job's records in `format`, from index `from` on, cut between records at JOB_PAGE_MAX_BYTES. */
async function exportPage(context: EngineContext, job: JobRecord, from: number, format: JobResultFormat) {
  const records: { index: number; csl: CslItem }[] = [];
  for (let next = 1; next <= job.total; ) {
    const page = await context.store.results(job.id, next, 1_000);
    if (page.length === 0) break;
    for (const stored of page) {
      const { record } = decodeResult(stored.body);
      if (record && !stored.failed) records.push({ index: stored.index, csl: record as CslItem });
    }
    next = (page.at(-1)?.index ?? job.total) + 1;
  }
  // Keys over the whole job, so that two pages never hold the same key.
  const keys = uniqueKeys(records.map(({ csl, index }) => ({ csl, fallback: `reference_${index}` })));
  const entries: string[] = [];
  let bytes = 0;
  let nextIndex: number | null = null;
  for (const [i, { index, csl }] of records.entries()) {
    if (index < from) continue;
    const exports = await renderExports(csl, [format], keys[i]);
    const entry = format === 'csl-json' ? JSON.stringify({ ...exports.csl_json, id: keys[i] }) : (exports[format] ?? '');
    if (!entry) continue;
    if (entries.length > 0 && bytes + entry.length > JOB_PAGE_MAX_BYTES) {
      nextIndex = index;
      break;
    }
    entries.push(entry);
    bytes += entry.length;
  }
  const content = format === 'csl-json' ? `[${entries.join(',\n')}]` : entries.join(format === 'ris' ? '\n\n' : '\n\n');
  return { content: entries.length > 0 || format === 'csl-json' ? content : '', records: entries.length, nextIndex };
}

export async function jobResults(context: EngineContext, request: ResultsRequest, owner: string): Promise<JobsResultsData> {
  const job = await ownedJob(context, request.job_id, owner);
  const progress = await context.store.progress(job.id);
  // A blank cursor is not given (docs/decisions.md §4): the first page.
  const cursor = request.cursor?.trim();
  const from = cursor ? decodeCursor(cursor, job.total) : 1;
  const base = { ...head(job, progress), results: [], format: request.format ?? null, content: null, records: 0 };
  if (request.format) {
    if (!ended(job)) {
      throw new AppError('JOB_NOT_FINISHED', {
        details: `format: the job is ${job.status} (${Math.min(progress.done, job.total)} of ${job.total} answered); a list in a format is made once it has ended. Pages of results are readable now without it`,
      });
    }
    const page = await exportPage(context, job, from, request.format);
    return {
      ...base,
      content: page.content,
      records: page.records,
      next_cursor: page.nextIndex === null ? null : encodeCursor(page.nextIndex),
    };
  }
  // One more than asked: whether anything follows the page.
  const stored = await context.store.results(job.id, from, request.limit + 1);
  const results: Record<string, unknown>[] = [];
  let bytes = 0;
  let expected = from;
  let next: number | null = null;
  for (const item of stored) {
    // A running job's page stops at its first reference not answered yet: a later page must not skip it.
    if (!ended(job) && item.index !== expected) {
      next = expected;
      break;
    }
    const { entry } = decodeResult(item.body);
    const size = JSON.stringify(entry).length;
    if (results.length === request.limit || (results.length > 0 && bytes + size > JOB_PAGE_MAX_BYTES)) {
      next = item.index;
      break;
    }
    results.push(entry);
    bytes += size;
    expected = item.index + 1;
  }
  if (next === null && !ended(job) && expected <= job.total) next = expected;
  return { ...base, results: results as JobsResultsData['results'], next_cursor: next === null ? null : encodeCursor(next) };
}

export async function cancelJob(context: EngineContext, id: string, owner: string): Promise<JobsCancelData> {
  const job = await ownedJob(context, id, owner);
  const cancelled = await context.store.setStatus(job.id, ['queued', 'running'], 'cancelled', context.now());
  const now = (await context.store.job(job.id)) ?? job;
  const progress = await context.store.progress(job.id);
  if (cancelled) await notify(context, now, 'cancelled');
  return {
    ...head(now, progress),
    counts: countsOf(context, now, progress),
    finished_at: iso(now.finishedAt),
    cancelled: now.status === 'cancelled',
  };
}
