/**
 * What each use of the jobs' resources may do (docs/decisions.md §27), written once: the routes table says
 * which use a route makes (lib/routes.ts, `needs.jobs`), infra/api-function.ts grants it, and
 * test/infra/least-privilege.test.ts holds every role of the template to it. The worker's own use is
 * `work`. DynamoDB's operations are those lib/jobs/store-dynamo.ts sends; SQS's SendMessageBatch is
 * authorised as sqs:SendMessage.
 */
import type { JobUse } from '../lib/routes.js';

export type JobGrantUse = JobUse | 'work';

export interface JobActions {
  table: readonly string[];
  bucket: readonly string[];
  queue: readonly string[];
}

export const JOB_ACTIONS: Readonly<Record<JobGrantUse, JobActions>> = {
  // The input, the claim and the job written; the claim read back on a replay; the job marked queued.
  submit: {
    table: ['dynamodb:BatchWriteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    bucket: ['s3:PutObject'],
    queue: ['sqs:SendMessage'],
  },
  // The job, its counts and its results read; a large result from the bucket.
  read: { table: ['dynamodb:GetItem', 'dynamodb:Query'], bucket: ['s3:GetObject'], queue: [] },
  // The job read and marked cancelled; the webhook's first try queued.
  cancel: { table: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'], bucket: [], queue: ['sqs:SendMessage'] },
  // Batches read, outcomes and counts written, status set; finish checks and webhook tries queued, a
  // message's next try set. (Receiving and deleting are the event source mapping's, granted with it.)
  work: {
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    bucket: ['s3:GetObject', 's3:PutObject'],
    queue: ['sqs:ChangeMessageVisibility', 'sqs:SendMessage'],
  },
};

/** The actions of several uses together, each list sorted. */
export function jobActions(uses: readonly JobGrantUse[]): JobActions {
  const union = (pick: (actions: JobActions) => readonly string[]) =>
    [...new Set(uses.flatMap((use) => pick(JOB_ACTIONS[use])))].sort();
  return { table: union((a) => a.table), bucket: union((a) => a.bucket), queue: union((a) => a.queue) };
}
