/**
 * The job store's contract (lib/jobs/store.ts), the same cases on both adapters: this process's memory,
 * and DynamoDB (dynalite on loopback, through the real AWS SDK) with S3 (a fake on loopback) for values an
 * item cannot hold. One engine, two adapters: what the engine relies on must hold on each.
 */
import { randomBytes } from 'node:crypto';
import * as dynamo from '@aws-sdk/client-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3BlobStore } from '../../lib/jobs/blobs.js';
import type { BatchInput, ItemOutcome } from '../../lib/jobs/model.js';
import { type JobStore, progressRank } from '../../lib/jobs/store.js';
import { createDynamoJobStore } from '../../lib/jobs/store-dynamo.js';
import { createMemoryJobStore } from '../../lib/jobs/store-memory.js';
import { type FakeS3, type JobTable, startFakeS3, startJobTable } from '../support/job-services.js';
import { jobRecord } from '../support/jobs.js';

let table: JobTable;
let s3: FakeS3;
beforeAll(async () => {
  [table, s3] = await Promise.all([startJobTable('jobs-store-contract'), startFakeS3()]);
  process.env.AWS_ENDPOINT_URL_S3 = s3.url;
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
});
afterAll(() => Promise.all([table.close(), s3.close()]));

const dynamoClient = () =>
  new DynamoDBClient({
    endpoint: table.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });

const adapters: [string, () => JobStore][] = [
  ['memory', () => createMemoryJobStore()],
  [
    'DynamoDB and S3',
    () =>
      createDynamoJobStore({
        tableName: table.tableName,
        client: async () => ({ commands: dynamo, client: dynamoClient() }),
        blobs: s3BlobStore('jobs-bucket'),
      }),
  ],
];

const outcome = (index: number, name: string, failed = false, reason?: string): ItemOutcome => ({
  index,
  outcome: name,
  failed,
  ...(reason ? { reason } : {}),
  body: Buffer.from(`${name}:${index}`),
});

describe.each(adapters)('the job store in %s', (_name, make) => {
  it('keeps a job and its batches, gives back the claim of an Idempotency-Key, and hides an expired job', async () => {
    const store = make();
    const job = jobRecord({ total: 4, batchSize: 2, batches: 2 });
    const batches: BatchInput[] = [
      { batch: 0, first: 1, references: ['a', 'b'] },
      { batch: 1, first: 3, references: ['c', 'd'] },
    ];
    const claim = { key: `owner#${job.id}`, digest: 'd1', expiresAt: Date.now() + 60_000 };
    expect(await store.create(job, batches, claim)).toEqual({ created: true });
    expect(await store.job(job.id)).toEqual(job);
    expect(await store.batch(job.id, 1)).toEqual(batches[1]);
    const second = jobRecord({ total: 1 });
    expect(await store.create(second, [], { ...claim, digest: 'd2' })).toEqual({ existing: { jobId: job.id, digest: 'd1' } });
    expect(await store.job(second.id)).toBeUndefined();
    const expired = jobRecord({ total: 1, expiresAt: Date.now() - 1_000 });
    await store.create(expired, []);
    expect(await store.job(expired.id)).toBeUndefined();
  });

  it('writes an outcome where there is none or a failure, never over an answer, and counts a batch never backwards', async () => {
    const store = make();
    const job = jobRecord({ total: 4, batchSize: 2, batches: 2 });
    await store.create(job, []);
    expect(await store.saveOutcomes(job.id, [outcome(1, 'resolved'), outcome(2, 'failed', true, 'boom')])).toBe(2);
    // A duplicate's answer for 1 is dropped; its answer for 2 replaces the failure.
    expect(await store.saveOutcomes(job.id, [outcome(1, 'unresolved'), outcome(2, 'unresolved')])).toBe(1);
    // A failure never replaces an answer.
    expect(await store.saveOutcomes(job.id, [outcome(2, 'failed', true, 'late')])).toBe(0);
    expect(await store.answered(job.id, 1, 4)).toEqual(
      new Map([
        [1, 'answer'],
        [2, 'answer'],
      ]),
    );
    await store.saveOutcomes(job.id, [outcome(3, 'failed', true, 'gone')]);
    await store.countBatch(job.id, 1, 3, 4, 2_000);
    await store.countBatch(job.id, 0, 1, 2, 1_000);
    expect(await store.progress(job.id)).toEqual({
      done: 3,
      counts: { resolved: 1, unresolved: 1, failed: 1 },
      failed: [{ index: 3, reason: 'gone' }],
      updatedAt: 2_000,
    });
    const results = await store.results(job.id, 2, 10);
    expect(results.map((r) => [r.index, r.failed, r.body.toString()])).toEqual([
      [2, false, 'unresolved:2'],
      [3, true, 'failed:3'],
    ]);
    expect((await store.results(job.id, 1, 1)).map((r) => r.index)).toEqual([1]);
  });

  it('moves a status only from the statuses given, stamping its start and end', async () => {
    const store = make();
    const job = jobRecord({ total: 1 });
    await store.create(job, []);
    expect(await store.setStatus(job.id, ['queued'], 'running', 10)).toBe(true);
    expect(await store.setStatus(job.id, ['queued'], 'running', 20)).toBe(false);
    expect(await store.setStatus(job.id, ['queued', 'running'], 'cancelled', 30)).toBe(true);
    expect(await store.setStatus(job.id, ['queued', 'running'], 'done', 40)).toBe(false);
    expect(await store.job(job.id)).toMatchObject({ status: 'cancelled', startedAt: 10, finishedAt: 30 });
    expect(await store.setStatus('job_nonexistentnonexistent00', ['queued'], 'running', 1)).toBe(false);
    await store.markEnqueued(job.id);
    await store.updateWebhook(job.id, {
      url: 'https://h.example/x',
      secret: 's'.repeat(16),
      state: 'delivered',
      tries: 2,
      lastError: null,
    });
    expect(await store.job(job.id)).toMatchObject({ enqueued: true, webhook: { state: 'delivered', tries: 2, lastError: null } });
  });

  it('keeps a batch or a result larger than a table item whole', async () => {
    const store = make();
    const job = jobRecord({ total: 1, batchSize: 1, batches: 1 });
    const large = randomBytes(450_000).toString('base64');
    await store.create(job, [{ batch: 0, first: 1, references: [large] }]);
    expect((await store.batch(job.id, 0))?.references[0]).toBe(large);
    const body = randomBytes(400_000);
    await store.saveOutcomes(job.id, [{ index: 1, outcome: 'resolved', failed: false, body }]);
    expect((await store.results(job.id, 1, 1))[0]?.body.equals(body)).toBe(true);
  });
});

describe('the DynamoDB adapter', () => {
  it("never moves a batch's count back: a count made from an older read than the one kept is dropped", async () => {
    const store = adapters[1]?.[1]() as JobStore;
    const job = jobRecord({ total: 2, batchSize: 2, batches: 1 });
    await store.create(job, []);
    await store.saveOutcomes(job.id, [outcome(1, 'resolved')]);
    // Another worker counted the batch from a later read: both answered (its item, as it wrote it).
    const later = { done: 2, counts: { resolved: 2 }, failed: [], updatedAt: 9_000 };
    await dynamoClient().send(
      new dynamo.PutItemCommand({
        TableName: table.tableName,
        Item: {
          pk: { S: `job#${job.id}` },
          sk: { S: 'count#000000' },
          progress: { S: JSON.stringify(later) },
          rank: { N: String(progressRank(later)) },
        },
      }),
    );
    await store.countBatch(job.id, 0, 1, 2, 10_000);
    expect(await store.progress(job.id)).toEqual(later);
  });
});
