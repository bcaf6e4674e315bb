/**
 * Jobs on the deployed adapters, over real HTTP on loopback: the API's handlers behind the local server
 * write to the jobs' table (dynalite, through the real AWS SDK), put large values in a fake S3 and send
 * batches through SQS's JSON protocol to a fake SQS, whose queue (receive counts, visibility, partial
 * batch failures, the redrive to the dead-letter queue) hands them to the worker handler in SQS events,
 * as Lambda's event source mapping does. The faults of docs/decisions.md §27: a duplicate delivery, a
 * worker killed mid-batch, a batch that fails every try, a redeploy during a job; and what deployed mode
 * refuses of a webhook.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QueueHandler } from '../../lib/jobs/queue-embedded.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { startFakeS3, startFakeSqs, startJobTable } from '../support/job-services.js';
import { labelledCrossref, RESOLVABLE, startHookReceiver, waitForJob } from '../support/jobs.js';

const table = await startJobTable();
const s3 = await startFakeS3();
// Short visibility and few receives: a held message comes back within a test, a failing one reaches the DLQ.
const sqs = await startFakeSqs({
  batchSize: 2,
  maxConcurrency: 2,
  visibilityTimeoutMs: 1_500,
  maxReceiveCount: 3,
  invocationTimeoutMs: 10_000,
});
const { harness, crossref } = await useCrossrefService({
  JOBS_TABLE_NAME: table.tableName,
  JOBS_BUCKET_NAME: 'jobs-bucket',
  JOBS_QUEUE_URL: sqs.queueUrl,
  AWS_ENDPOINT_URL_DYNAMODB: table.endpoint,
  AWS_ENDPOINT_URL_S3: s3.url,
  AWS_ENDPOINT_URL_SQS: sqs.url,
  JOBS_BATCH_SIZE: '3',
  JOBS_MAX_RECEIVES: '3',
  JOBS_RETRY_SECONDS: '0.05',
  JOBS_WEBHOOK_RETRY_SECONDS: '0.05',
  // The finish check after a last try comes twice this later.
  JOBS_WORKER_TIMEOUT_SECONDS: '0.5',
  CROSSREF_REQUESTS_PER_SECOND: '1000',
  DATACITE_REQUESTS_PER_SECOND: '1000',
  CROSSREF_CACHE_TTL_SECONDS: '0',
  CROSSREF_TIMEOUT_MS: '3000',
});

let worker: QueueHandler;
beforeAll(async () => {
  worker = ((await import('../../functions/jobs-worker.js')) as { handler: QueueHandler }).handler;
  sqs.queue.consume(worker);
});
afterAll(() => Promise.all([sqs.close(), s3.close(), table.close()]));

const REFERENCES = RESOLVABLE.slice(0, 8).map((c) => c.text);
/** Text that stays larger than a table item once compressed: random letters and digits. */
const incompressible = (length: number) => randomBytes(length).toString('base64').slice(0, length);
const post = (path: string, body: unknown) => harness.service.post(path, body);

async function submit(body: Record<string, unknown>): Promise<string> {
  const reply = await post('/v1/jobs', { kind: 'resolve', ...body });
  expect(reply.status, reply.text).toBe(202);
  return reply.json.data.job_id;
}

async function results(
  jobId: string,
): Promise<{ index: number; doi: string | null; match: { rule: string }; reason: string | null }[]> {
  return (await post('/v1/jobs/results', { job_id: jobId, limit: 500 })).json.data.results;
}

describe('jobs on SQS, DynamoDB and S3', () => {
  it('runs a job through SQS to the worker, keeping it in the table', async () => {
    crossref.respond(labelledCrossref);
    sqs.operations.length = 0;
    const id = await submit({ references: REFERENCES.slice(0, 7) });
    const status = (await waitForJob(harness.service, id)).json.data;
    expect(status).toMatchObject({ status: 'done', done: 7, counts: { resolved: 7, unresolved: 0, failed: 0 } });
    // The three batches (three, three and one references) went to SQS first, in one SendMessageBatch.
    expect(sqs.operations[0]).toBe('SendMessageBatch');
    const keys = (await table.items(id)).map((item) => (item.sk as { S: string }).S).sort();
    expect(keys.filter((k) => k.startsWith('in#'))).toEqual(['in#000000', 'in#000001', 'in#000002']);
    expect(keys.filter((k) => k.startsWith('res#'))).toHaveLength(7);
    expect(keys.filter((k) => k.startsWith('count#'))).toHaveLength(3);
    expect((await results(id)).map((r) => r.doi)).toEqual(RESOLVABLE.slice(0, 7).map((c) => c.doi));
    expect(harness.upstream.calls()).toBe(0);
  });

  it('answers each reference once when a batch is delivered twice: no lookup again, the same counts and results', async () => {
    crossref.respond(labelledCrossref);
    const id = await submit({ references: REFERENCES.slice(0, 6) });
    await waitForJob(harness.service, id);
    const before = { lookups: crossref.requests.length, results: await results(id), items: (await table.items(id)).length };
    // SQS delivers at least once: the same two batches again, one after the other and both at once.
    sqs.queue.sendBodies([0, 1, 0, 1].map((batch) => JSON.stringify({ type: 'batch', job_id: id, batch })));
    await vi.waitFor(() => expect(sqs.queue.depth()).toEqual({ waiting: 0, inFlight: 0 }), { timeout: 30_000, interval: 20 });
    expect(crossref.requests.length).toBe(before.lookups);
    expect(await results(id)).toEqual(before.results);
    expect((await table.items(id)).length).toBe(before.items);
    expect((await waitForJob(harness.service, id)).json.data).toMatchObject({ status: 'done', done: 6, counts: { resolved: 6 } });
  });

  it('loses nothing when a worker is killed mid-batch: its message comes back to another, and each reference counts once', async () => {
    // The first worker's lookups never answer (as if it were killed); its message's visibility runs out.
    let held = true;
    crossref.respond((query) => (held ? 'hang' : labelledCrossref(query)));
    const id = await submit({ references: REFERENCES.slice(0, 3) });
    await vi.waitFor(() => expect(crossref.requests.length).toBeGreaterThan(0), { timeout: 10_000, interval: 10 });
    held = false;
    const status = (await waitForJob(harness.service, id)).json.data;
    expect(status).toMatchObject({ status: 'done', done: 3, counts: { resolved: 3, failed: 0 } });
    expect((await results(id)).map((r) => r.index)).toEqual([1, 2, 3]);
    // The killed worker's late outcome, if any, changed nothing.
    await vi.waitFor(() => expect(sqs.queue.depth()).toEqual({ waiting: 0, inFlight: 0 }), { timeout: 30_000, interval: 20 });
    expect((await waitForJob(harness.service, id)).json.data).toMatchObject({ done: 3, counts: { resolved: 3, failed: 0 } });
  });

  it('sends a batch that fails every try to the dead-letter queue and ends the job naming its references; redriven, they are answered', async () => {
    crossref.respond(labelledCrossref);
    // A reference too large for a table item: the batch's input goes to S3, which then fails to give it back.
    const large = `${REFERENCES[3]} ${incompressible(600_000)}`;
    const id = await submit({ references: [REFERENCES[0], REFERENCES[1], REFERENCES[2], large, REFERENCES[4]] });
    const key = `jobs/${id}/in#000001`;
    expect(s3.objects.has(key)).toBe(true);
    s3.failing.add(key);
    const dead = sqs.queue.deadLetters.length;
    const status = (await waitForJob(harness.service, id)).json.data;
    expect(status.status).toBe('failed');
    expect(status.counts).toEqual({ resolved: 3, unresolved: 0, failed: 2 });
    expect(status.failed).toEqual([
      { index: 4, reason: 'not answered in 3 tries (its input could not be read)' },
      { index: 5, reason: 'not answered in 3 tries (its input could not be read)' },
    ]);
    await vi.waitFor(() => expect(sqs.queue.deadLetters.length).toBe(dead + 1), { timeout: 30_000, interval: 20 });
    const letter = sqs.queue.deadLetters.at(-1);
    expect(JSON.parse(letter?.body ?? '{}')).toEqual({ type: 'batch', job_id: id, batch: 1 });
    expect(letter?.receives).toBe(3);
    const failedResults = (await results(id)).filter((r) => r.index >= 4);
    expect(failedResults.map((r) => [r.index, r.doi, r.match.rule])).toEqual([
      [4, null, 'failed'],
      [5, null, 'failed'],
    ]);

    // The operator redrives the dead letter once S3 answers again: the answers replace the failures.
    s3.failing.delete(key);
    sqs.queue.sendBodies([letter?.body as string]);
    const redriven = (await waitForJob(harness.service, id, (d) => d.status === 'done')).json.data;
    expect(redriven).toMatchObject({ done: 5, failed: [], counts: { failed: 0 } });
    expect(redriven.counts.resolved + redriven.counts.unresolved).toBe(5);
  });

  it('keeps a job through a redeploy: the new code takes up what the old left in the queue', async () => {
    let held = true;
    crossref.respond((query) => (held ? 'hang' : labelledCrossref(query)));
    const id = await submit({ references: REFERENCES.slice(0, 8) });
    await vi.waitFor(() => expect(crossref.requests.length).toBeGreaterThan(0), { timeout: 10_000, interval: 10 });
    // The deploy: the old code stops receiving, its invocations in flight are lost with their containers.
    sqs.queue.stop();
    vi.resetModules();
    const next = ((await import('../../functions/jobs-worker.js')) as { handler: QueueHandler }).handler;
    expect(next).not.toBe(worker);
    held = false;
    sqs.queue.consume(next);
    const status = (await waitForJob(harness.service, id)).json.data;
    expect(status).toMatchObject({ status: 'done', done: 8, counts: { resolved: 8, failed: 0 } });
    expect((await results(id)).map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('puts a value too large for a table item in S3, and reads it back whole', async () => {
    crossref.respond(labelledCrossref);
    const long = `A reference pasted with a whole chapter after it. ${incompressible(600_000)}`;
    const id = await submit({ references: [REFERENCES[0], long] });
    await waitForJob(harness.service, id);
    expect(s3.objects.has(`jobs/${id}/in#000000`)).toBe(true);
    expect(s3.objects.has(`jobs/${id}/res#000002`)).toBe(true);
    const [first, second] = await results(id);
    expect(first?.doi).toBe(RESOLVABLE[0]?.doi);
    expect(second).toMatchObject({ index: 2, doi: null, match: { rule: 'too_long' } });
    expect((second as unknown as { input: string }).input).toBe(long);
  });

  it('never posts a webhook to loopback here: refused at submit as an address, and before the try as a name that resolves to one', async () => {
    crossref.respond(labelledCrossref);
    const receiver = await startHookReceiver();
    try {
      const literal = await post('/v1/jobs', {
        kind: 'resolve',
        references: ['10.1000/x'],
        webhook: { url: receiver.url, secret: 'a-webhook-secret-16' },
      });
      expect(literal.status).toBe(400);
      expect(literal.json.error.details).toMatch(/^webhook\.url: 127\.0\.0\.1 is a loopback address/);
      const port = new URL(receiver.url).port;
      const id = await submit({
        references: REFERENCES.slice(0, 1),
        webhook: { url: `http://localhost:${port}/hook`, secret: 'a-webhook-secret-16' },
      });
      const status = (await waitForJob(harness.service, id, (d) => d.webhook?.state === 'refused')).json.data;
      expect(status.webhook).toMatchObject({ host: `localhost:${port}`, state: 'refused', tries: 1 });
      expect(status.webhook.last_error).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});
