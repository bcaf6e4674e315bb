/**
 * POST /v1/jobs/results: one of the caller's jobs' results (lib/jobs/read.ts), in input order, a page at a
 * time with a cursor; or, once the job has ended, its records as one BibTeX, RIS or CSL-JSON list.
 */
import * as z from 'zod/mini';
import { JOB_RESULT_FORMATS, JOB_RESULTS_PAGE_DEFAULT, JOB_RESULTS_PAGE_MAX } from '../lib/contract/jobs.js';
import { jobEngine, NO_KINDS } from '../lib/jobs/deployment.js';
import { jobIdField } from '../lib/jobs/fields.js';
import { api } from '../lib/middleware/index.js';
import { body, integer, oneOf, optionalText } from '../lib/schema.js';

export const requestSchema = body({
  job_id: jobIdField(),
  cursor: optionalText({
    max: 16,
    format: { pattern: '[A-Za-z0-9_-]{1,16}', hint: 'a next_cursor an earlier page gave' },
    description:
      'Where the page starts: the next_cursor of the page before (absent: the first reference); a cursor no page of this job gave is refused',
  }),
  limit: integer({
    min: 1,
    max: JOB_RESULTS_PAGE_MAX,
    default: JOB_RESULTS_PAGE_DEFAULT,
    description: `Results a page, at most ${JOB_RESULTS_PAGE_MAX} (a page also ends before 4 MiB); not used with format`,
  }),
  format: z.optional(
    oneOf(
      JOB_RESULT_FORMATS,
      'The resolved references as one list in this format (BibTeX, RIS or CSL-JSON) in `content`, keys unique across the job; only once the job has ended (409 before)',
    ),
  ),
});

export const handler = api({ body: requestSchema }).handler(async ({ body: request, client }) => {
  const data = await jobEngine(NO_KINDS).results(request, client.name);
  const shown = data.format ? `${data.records} records as ${data.format}` : `${data.results.length} results`;
  return { data, message: `Job ${data.job_id} ${data.status}: ${shown}${data.next_cursor ? '; more with next_cursor' : ''}` };
});
