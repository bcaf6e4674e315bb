/** The `data` of a successful POST /v1/jobs/results: one page of a job's results (docs/endpoints.md, "Jobs"). */
import * as z from 'zod/mini';
import { checkResultSchema } from './cite-check.js';
import { resolvedReferenceSchema } from './cite-resolve.js';
import { JOB_RESULT_FORMATS, jobHeadShape } from './jobs.js';

export const responseSchema = z.strictObject({
  ...jobHeadShape,
  results: z
    .array(z.union([resolvedReferenceSchema, checkResultSchema]))
    .check(
      z.describe(
        "Answered references from the cursor on, in input order, each as the kind's endpoint answers one (POST /v1/cite/resolve for resolve, POST /v1/cite/check for check), `index` its position in the job (from 1); a running job's page stops at the first reference not answered yet. [] when `format` is given",
      ),
    ),
  next_cursor: z.nullable(
    z
      .string()
      .check(
        z.describe(
          'Send it as `cursor` for the next page; null when the job has ended and nothing follows. A running job gives a cursor to ask again later',
        ),
      ),
  ),
  format: z.nullable(z.enum(JOB_RESULT_FORMATS).check(z.describe('The format of `content`; null without one'))),
  content: z.nullable(
    z
      .string()
      .check(
        z.describe(
          'With `format`: the records of the resolved references from the cursor on, as one BibTeX file, RIS file or CSL-JSON array, keys unique across the whole job; the whole list when it fits one answer, else up to about 4 MiB and `next_cursor`',
        ),
      ),
  ),
  records: z.int().check(z.describe('Records in `content` (references without a record have none); 0 without `format`')),
});

export type JobsResultsData = z.output<typeof responseSchema>;
