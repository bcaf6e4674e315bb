/**
 * POST /v1/jobs/cancel: stops one of the caller's jobs (lib/jobs/read.ts). Workers stop at their next
 * batch; what was answered stays readable. A job that has already ended is left as it is.
 */
import { jobEngine, NO_KINDS } from '../lib/jobs/deployment.js';
import { jobIdField } from '../lib/jobs/fields.js';
import { api } from '../lib/middleware/index.js';
import { body } from '../lib/schema.js';

export const requestSchema = body({ job_id: jobIdField() });

export const handler = api({ body: requestSchema }).handler(async ({ body: request, client }) => {
  const data = await jobEngine(NO_KINDS).cancel(request.job_id, client.name);
  return {
    data,
    message: data.cancelled
      ? `Job ${data.job_id} cancelled: ${data.done} of ${data.total} answered`
      : `Job ${data.job_id} had already ended (${data.status})`,
  };
});
