/**
 * POST /v1/jobs/status: where one of the caller's jobs stands (lib/jobs/read.ts): status, references
 * answered and by outcome, the failed ones by index, its times and an estimate of the time left.
 */
import { jobEngine, NO_KINDS } from '../lib/jobs/deployment.js';
import { jobIdField } from '../lib/jobs/fields.js';
import { api } from '../lib/middleware/index.js';
import { body } from '../lib/schema.js';

export const requestSchema = body({ job_id: jobIdField() });

export const handler = api({ body: requestSchema }).handler(async ({ body: request, client }) => {
  const data = await jobEngine(NO_KINDS).status(request.job_id, client.name);
  return { data, message: `Job ${data.job_id} ${data.status}: ${data.done} of ${data.total} answered` };
});
