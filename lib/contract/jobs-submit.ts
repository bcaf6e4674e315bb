/** The `data` of a successful POST /v1/jobs (202): the job as queued (docs/endpoints.md, "Jobs"). */
import * as z from 'zod/mini';
import { jobHeadShape, timeSchema } from './jobs.js';

export const responseSchema = z.strictObject({
  ...jobHeadShape,
  created_at: z.string().check(z.describe('When the job was made (ISO 8601, UTC)')),
  expires_at: z
    .string()
    .check(z.describe('When the job and its results are deleted (ISO 8601, UTC): 7 days after it was made unless configured')),
  started_at: timeSchema('When the first reference was worked on; null while queued'),
  replayed: z
    .boolean()
    .check(
      z.describe('true when an earlier request with the same Idempotency-Key and body made this job: nothing new was queued'),
    ),
});

export type JobsSubmitData = z.output<typeof responseSchema>;
