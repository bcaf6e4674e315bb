/**
 * What the job API promises (docs/decisions.md §27), in one place: the limits the request schemas, the
 * engine, the stack and the guides read, and the parts of the four answers' data that they share. Each of
 * the four routes has its own contract file beside this one (jobs-submit.ts, jobs-status.ts, …), as every
 * route does (lib/openapi.ts loads lib/contract/<route>.ts).
 */
import * as z from 'zod/mini';

/** References one job takes: a thesis's or a journal volume's list, or a lab's reference library. */
export const JOB_REFERENCES_MAX = 10_000;

/**
 * The submit body's limit, in bytes. Lambda refuses a synchronous invocation whose event is over 6 MB
 * (6,291,456 bytes), and API Gateway puts the body into that event as a JSON string, escaped once more
 * (every quote, backslash and line break of the body takes one byte more), beside the request's headers
 * and context. A body of this size leaves room for that: a list of 10,000 references grows by about 1 %,
 * a pasted BibTeX file by a few per cent (measured: test/unit/lib/jobs-body-limit.test.ts). Bodies over it
 * are refused by the function, 413.
 */
export const JOB_BODY_MAX_BYTES = 5 * 1024 * 1024;

/** References per batch (one queue message) by default (JOBS_BATCH_SIZE): twenty, one Crossref lookup of DOIs. */
export const JOB_BATCH_SIZE_DEFAULT = 20;

/** Results one page of POST /v1/jobs/results holds at most (`limit`), and by default. */
export const JOB_RESULTS_PAGE_MAX = 500;
export const JOB_RESULTS_PAGE_DEFAULT = 100;

/**
 * The most one answer of POST /v1/jobs/results carries, in bytes of results or of `content`: Lambda's
 * answer is at most 6 MB too, and the envelope escapes the content once more. A page that would pass it
 * ends early, between two results (or two exported records), and `next_cursor` continues.
 */
export const JOB_PAGE_MAX_BYTES = 4 * 1024 * 1024;

/** How long a job and its results are kept by default, in days (JOBS_TTL_DAYS; the stack's `jobsTtlDays`). */
export const JOB_TTL_DAYS_DEFAULT = 7;

/** How long an Idempotency-Key gives back the job it made, in hours. */
export const IDEMPOTENCY_HOURS = 24;

/** The header that makes a submission idempotent, and the most characters its value may have. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX = 255;

/** Tries of a job's webhook, the first included: each after a longer wait (lib/jobs/webhook/deliver.ts). */
export const WEBHOOK_TRIES = 6;

/** The header that signs a webhook's body: `sha256=<hex HMAC-SHA256 of the raw body, keyed with the job's secret>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Signature-256';

/** Failed references a status lists by index and reason; `counts.failed` counts them all. */
export const JOB_FAILED_LISTED_MAX = 100;

/** Where a job stands. */
export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The formats a finished job's results can be read in as one list. */
export const JOB_RESULT_FORMATS = ['bibtex', 'ris', 'csl-json'] as const;
export type JobResultFormat = (typeof JOB_RESULT_FORMATS)[number];

export const jobIdSchema = z
  .string()
  .check(z.describe('The job\'s id, as POST /v1/jobs answered it ("job_" and 26 letters and digits)'));

export const jobStatusSchema = z
  .enum(JOB_STATUSES)
  .check(
    z.describe(
      '"queued": not started; "running"; "done": every reference answered; "failed": ended with references no attempt could answer (`failed` names them, the rest are answered); "cancelled": stopped on request, what was answered stays readable',
    ),
  );

export const jobCountsSchema = z
  .record(z.string(), z.int())
  .check(
    z.describe(
      'Answered references by outcome: for "resolve", `resolved` (a record was found) and `unresolved` (none was, with the reason in its result); `failed`: references no attempt could answer',
    ),
  );

/** The fields every answer about one job starts with. */
export const jobHeadShape = {
  job_id: jobIdSchema,
  kind: z.string().check(z.describe('What the job does to each reference: "resolve" (POST /v1/cite/resolve)')),
  status: jobStatusSchema,
  total: z.int().check(z.describe('References in the job')),
  done: z.int().check(z.describe('References answered so far, failed ones included')),
} as const;

/** An ISO 8601 time in UTC, or null when it has not happened. */
export const timeSchema = (description: string) => z.nullable(z.string().check(z.describe(description)));
