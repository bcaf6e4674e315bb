/** The `data` of a successful POST /v1/jobs/status: where one job stands (docs/endpoints.md, "Jobs"). */
import * as z from 'zod/mini';
import { JOB_FAILED_LISTED_MAX, jobCountsSchema, jobHeadShape, timeSchema } from './jobs.js';

export const WEBHOOK_STATES = ['pending', 'delivered', 'failed', 'refused'] as const;

export const failedReferenceSchema = z.strictObject({
  index: z.int().check(z.describe("The reference's position in the job, from 1")),
  reason: z.string().check(z.describe('Why no attempt could answer it')),
});

export const webhookStateSchema = z.nullable(
  z
    .strictObject({
      host: z.string().check(z.describe("The webhook URL's host (the URL itself and its secret are never shown)")),
      state: z
        .enum(WEBHOOK_STATES)
        .check(
          z.describe(
            '"pending": the job has not ended, or a try is due; "delivered": the receiver answered 2xx; "failed": every try failed; "refused": the address is one the service never posts to (loopback, private, link-local, metadata)',
          ),
        ),
      tries: z.int().check(z.describe('Tries made so far')),
      last_error: z.nullable(z.string().check(z.describe('What the last failed try met'))),
    })
    .check(z.describe('The webhook the job was given; null without one')),
);

export const responseSchema = z.strictObject({
  ...jobHeadShape,
  counts: jobCountsSchema,
  created_at: z.string().check(z.describe('When the job was made (ISO 8601, UTC)')),
  started_at: timeSchema('When the first reference was worked on; null while queued'),
  finished_at: timeSchema('When the job ended (done, failed or cancelled); null before'),
  expires_at: z.string().check(z.describe('When the job and its results are deleted (ISO 8601, UTC)')),
  eta_seconds: z.nullable(
    z
      .int()
      .check(
        z.describe(
          'Seconds until every reference is answered, at the pace of the job so far; null while queued, once ended, or before any reference is answered',
        ),
      ),
  ),
  failed: z
    .array(failedReferenceSchema)
    .check(
      z.describe(
        `References no attempt could answer, in order of index (the first ${JOB_FAILED_LISTED_MAX}; counts.failed counts them all); their results say so too`,
      ),
    ),
  webhook: webhookStateSchema,
});

export type JobsStatusData = z.output<typeof responseSchema>;
