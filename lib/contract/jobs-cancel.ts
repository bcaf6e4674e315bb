/** The `data` of a successful POST /v1/jobs/cancel: the job as it stands once cancelled (docs/endpoints.md, "Jobs"). */
import * as z from 'zod/mini';
import { jobCountsSchema, jobHeadShape, timeSchema } from './jobs.js';

export const responseSchema = z.strictObject({
  ...jobHeadShape,
  counts: jobCountsSchema,
  finished_at: timeSchema('When the job ended: now for a job this request cancelled; earlier for one that had already ended'),
  cancelled: z
    .boolean()
    .check(
      z.describe(
        'true when this request (or an earlier cancel) stopped the job; false when it had already ended done or failed, which a cancel leaves as it is',
      ),
    ),
});

export type JobsCancelData = z.output<typeof responseSchema>;
