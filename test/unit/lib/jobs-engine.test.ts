/**
 * The job engine's rules (lib/jobs/work.ts, read.ts, submit.ts) on the memory store, with a queue that
 * records what is sent and a kind whose answer each reference names ("good", "bad", "retry", "throw"),
 * so that each rule is seen alone: the last try's marks, the backoffs, a job's end and its change after a
 * redrive, the webhook's tries, the pages of a running and of an ended job, idempotent submissions.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_TRIES } from '../../../lib/contract/jobs.js';
import { AppError } from '../../../lib/errors.js';
import { createJobEngine, type EngineSettings } from '../../../lib/jobs/engine.js';
import type { JobKind } from '../../../lib/jobs/kinds.js';
import type { JobMessage } from '../../../lib/jobs/model.js';
import { backoffSeconds, type JobQueue } from '../../../lib/jobs/queue.js';
import { encodeCursor } from '../../../lib/jobs/read.js';
import { createMemoryJobStore } from '../../../lib/jobs/store-memory.js';

/** References named "flaky" asked once already: the second time, they are answered. */
const askedOnce = new Set<string>();

/** A kind whose every reference says what to do with it. */
const STUB: JobKind = {
  name: 'stub',
  endpoint: '/stub',
  // One reference a line: what the engine does with a bibliography, not how a kind reads one.
  readBibliography: async (text) => text.split('\n').filter(Boolean),
  async run(inputs) {
    if (inputs.some((input) => input.text === 'throw')) throw new Error('the kind failed');
    if (inputs.some((input) => input.text === 'never')) return new Promise(() => undefined);
    return inputs.map((input) => {
      const key = `${input.index}:${input.text}`;
      const flaky = input.text.startsWith('flaky') && !askedOnce.has(key);
      if (flaky) askedOnce.add(key);
      return input.text === 'retry' || flaky
        ? { index: input.index, retry: 'the source asked for a pause (HTTP 429)' }
        : {
            index: input.index,
            outcome: input.text.startsWith('flaky') ? 'good' : input.text,
            result: { entry: { index: input.index, input: input.text } },
          };
    });
  },
  failedResult: (input, reason) => ({ entry: { index: input.index, input: input.text, reason } }),
  plannedSearches: () => 0,
};

interface Sent {
  message: JobMessage;
  delay: number;
}

function engineWith(settings: Partial<EngineSettings> = {}, queueFails = 0) {
  const sent: Sent[] = [];
  let failures = queueFails;
  const queue: JobQueue = {
    async send(messages, delay = 0) {
      if (failures-- > 0) throw new Error('SQS did not answer');
      for (const message of messages) sent.push({ message, delay });
    },
    async retryAfter() {},
  };
  let now = 1_000_000;
  const slept: number[] = [];
  const store = createMemoryJobStore(() => now);
  const engine = createJobEngine({
    store,
    queue,
    kinds: { stub: STUB },
    outcomes: { stub: ['good', 'bad'] },
    settings: {
      batchSize: 2,
      ttlMs: 86_400_000,
      maxReceives: 3,
      retrySeconds: 10,
      webhookRetrySeconds: 5,
      finishCheckSeconds: 180,
      allowPrivateWebhooks: true,
      webhookTimeoutMs: 2_000,
      userAgent: 'test',
      ...settings,
    },
    now: () => now,
    // The test's clock: a wait within a try moves it on at once.
    sleep: async (ms) => {
      now += ms;
      slept.push(ms);
    },
    resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    log: () => undefined,
  });
  const handle = (message: JobMessage, receives = 1) =>
    engine.handle(JSON.stringify(message), { receives, deadline: now + 60_000 });
  const batch = (jobId: string, n: number): JobMessage => ({ type: 'batch', job_id: jobId, batch: n });
  return { engine, store, sent, handle, batch, slept, tick: (ms: number) => (now += ms) };
}

const submitted = async (engine: ReturnType<typeof engineWith>['engine'], references: string[], extra: object = {}) =>
  (await engine.submit({ owner: 'me', kind: 'stub', references, options: {}, body: { references }, ...extra })).job;

describe('a batch', () => {
  it('answers what it can, asks the rest again within the try while its time allows, then after a backoff, never working twice on an answered reference', async () => {
    const { engine, handle, batch, store, slept } = engineWith();
    const job = await submitted(engine, ['good', 'retry']);
    // The try's deadline is a minute away: waits of 1, 2, 4, 8, 8… s while a 15 s round still fits.
    expect(await handle(batch(job.id, 0), 1)).toEqual({ retryAfterSeconds: 10 });
    expect(slept.slice(0, 5)).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(slept.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(60_000 - 15_000);
    expect(await handle(batch(job.id, 0), 2)).toEqual({ retryAfterSeconds: 30 });
    expect(backoffSeconds(10, 3)).toBe(90);
    expect(backoffSeconds(10, 9)).toBe(900);
    expect(await store.answered(job.id, 1, 2)).toEqual(new Map([[1, 'answer']]));
    expect((await engine.status(job.id, 'me')).counts).toEqual({ good: 1, bad: 0, failed: 0 });
  });

  it('waits for a source that asked for a pause within the try, rather than fail or wait for the queue', async () => {
    const { engine, handle, batch, slept, sent } = engineWith();
    const job = await submitted(engine, ['flaky-1', 'good']);
    expect(await handle(batch(job.id, 0), 1)).toEqual({ done: true });
    expect(slept).toEqual([1_000]);
    expect(await engine.status(job.id, 'me')).toMatchObject({ status: 'done', counts: { good: 2, failed: 0 } });
    expect(sent.filter((s) => s.message.type === 'finish-check')).toEqual([]);
  });

  it('marks its unanswered references failed on its last try before working, so that a worker killed then still ends the job', async () => {
    const { engine, handle, batch, sent, tick } = engineWith();
    const job = await submitted(engine, ['good', 'never', 'good']);
    await handle(batch(job.id, 1), 1);
    // The last try of batch 0: the kind never answers (the worker is killed).
    void handle(batch(job.id, 0), 3);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const check = sent.find((s) => s.message.type === 'finish-check');
    expect(check).toEqual({ message: { type: 'finish-check', job_id: job.id, batch: 0 }, delay: 180 });
    expect((await engine.status(job.id, 'me')).status).toBe('running');
    tick(180_000);
    await handle(check?.message as JobMessage);
    const status = await engine.status(job.id, 'me');
    expect(status).toMatchObject({ status: 'failed', done: 3, counts: { good: 1, bad: 0, failed: 2 } });
    expect(status.failed).toEqual([
      { index: 1, reason: 'not answered in 3 tries' },
      { index: 2, reason: 'not answered in 3 tries' },
    ]);
  });

  it('ends its job failed when the kind fails on the last try, and done once a redriven try answers the failed references', async () => {
    const { engine, handle, batch, sent } = engineWith();
    const job = await submitted(engine, ['throw', 'good', 'good']);
    await handle(batch(job.id, 1));
    for (const receives of [1, 2, 3]) await expect(handle(batch(job.id, 0), receives)).rejects.toThrow('the kind failed');
    const check = sent.find((s) => s.message.type === 'finish-check')?.message as JobMessage;
    await handle(check);
    expect(await engine.status(job.id, 'me')).toMatchObject({ status: 'failed', counts: { failed: 2, good: 1 } });
    // The batch redriven from the dead-letter queue, its input mended: it answers, and the job is done.
    const [stored] = [await engine.context.store.batch(job.id, 0)];
    if (stored) stored.references[0] = 'bad';
    await handle(batch(job.id, 0), 1);
    expect(await engine.status(job.id, 'me')).toMatchObject({
      status: 'done',
      failed: [],
      counts: { good: 2, bad: 1, failed: 0 },
    });
  });
});

describe('the webhook', () => {
  const received: number[] = [];
  let answer = 500;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(answer);
      res.writeHead(answer);
      res.end();
    });
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it(`is tried ${WEBHOOK_TRIES} times, each after a longer wait, then marked failed`, async () => {
    answer = 500;
    received.length = 0;
    const { engine, handle, batch, sent } = engineWith();
    const job = await submitted(engine, ['good'], { webhook: { url, secret: 'a-secret-of-sixteen' } });
    await handle(batch(job.id, 0));
    for (let n = 1; n <= WEBHOOK_TRIES; n += 1) {
      const next = sent.filter((s) => s.message.type === 'webhook').at(-1) as Sent;
      expect(next.message).toEqual({ type: 'webhook', job_id: job.id, try: n, status: 'done' });
      expect(next.delay).toBe(n === 1 ? 0 : backoffSeconds(5, n - 1));
      await handle(next.message);
    }
    expect(received).toHaveLength(WEBHOOK_TRIES);
    expect(sent.filter((s) => s.message.type === 'webhook')).toHaveLength(WEBHOOK_TRIES);
    expect((await engine.status(job.id, 'me')).webhook).toMatchObject({
      state: 'failed',
      tries: WEBHOOK_TRIES,
      last_error: 'the receiver answered HTTP 500',
    });
  });

  it('is sent again for a new status, and a try for a status the job no longer has is dropped', async () => {
    answer = 200;
    const { engine, handle, batch, sent } = engineWith();
    const job = await submitted(engine, ['good', 'good', 'good'], { webhook: { url, secret: 'a-secret-of-sixteen' } });
    await handle(batch(job.id, 0));
    const cancel = await engine.cancel(job.id, 'me');
    expect(cancel).toMatchObject({ status: 'cancelled', cancelled: true });
    const tries = sent.filter((s) => s.message.type === 'webhook').map((s) => s.message);
    expect(tries).toEqual([{ type: 'webhook', job_id: job.id, try: 1, status: 'cancelled' }]);
    // A cancelled job's batch is not worked on.
    await handle(batch(job.id, 1));
    expect((await engine.status(job.id, 'me')).done).toBe(2);
    received.length = 0;
    await handle({ type: 'webhook', job_id: job.id, try: 1, status: 'done' });
    expect(received).toHaveLength(0);
  });
});

describe('reading a job', () => {
  it("stops a running job's page at its first unanswered reference, and pages over the gaps of an ended one", async () => {
    const { engine, handle, batch } = engineWith();
    const job = await submitted(engine, ['good', 'good', 'bad', 'good', 'good']);
    await handle(batch(job.id, 0));
    await handle(batch(job.id, 2));
    const running = await engine.results({ job_id: job.id, limit: 10 }, 'me');
    expect(running.results.map((r) => r.index)).toEqual([1, 2]);
    expect(running.next_cursor).toBe(encodeCursor(3));
    await engine.cancel(job.id, 'me');
    const ended = await engine.results({ job_id: job.id, limit: 2 }, 'me');
    expect(ended.results.map((r) => r.index)).toEqual([1, 2]);
    const rest = await engine.results({ job_id: job.id, limit: 2, cursor: ended.next_cursor as string }, 'me');
    expect(rest.results.map((r) => r.index)).toEqual([5]);
    expect(rest.next_cursor).toBeNull();
    await expect(engine.results({ job_id: job.id, limit: 2, cursor: encodeCursor(99) }, 'me')).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: expect.stringMatching(/^cursor: /),
    });
  });

  it('estimates the time left from the pace so far, and gives none before the first answer or after the end', async () => {
    const { engine, handle, batch, tick } = engineWith();
    const job = await submitted(engine, ['good', 'good', 'good', 'good']);
    expect((await engine.status(job.id, 'me')).eta_seconds).toBeNull();
    await engine.context.store.setStatus(job.id, ['queued'], 'running', 1_000_000);
    tick(10_000);
    await handle(batch(job.id, 0));
    // Two of four in 10 s: 10 s more.
    expect((await engine.status(job.id, 'me')).eta_seconds).toBe(10);
    await handle(batch(job.id, 1));
    expect((await engine.status(job.id, 'me')).eta_seconds).toBeNull();
  });

  it('answers another owner as if the job did not exist', async () => {
    const { engine } = engineWith();
    const job = await submitted(engine, ['good']);
    for (const read of [
      () => engine.status(job.id, 'you'),
      () => engine.cancel(job.id, 'you'),
      () => engine.results({ job_id: job.id, limit: 1 }, 'you'),
    ]) {
      await expect(read()).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
    }
  });
});

describe('a submission', () => {
  it('with an Idempotency-Key gives its job back for the same body, queues it then if its first try could not, and refuses another body', async () => {
    const { engine, sent } = engineWith({}, 1);
    const submission = {
      owner: 'me',
      kind: 'stub',
      references: ['good'],
      options: {},
      body: { references: ['good'] },
      idempotencyKey: 'k-1',
    };
    await expect(engine.submit(submission)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(sent).toHaveLength(0);
    const again = await engine.submit(submission);
    expect(again.replayed).toBe(true);
    expect(sent.map((s) => s.message)).toEqual([{ type: 'batch', job_id: again.job.id, batch: 0 }]);
    expect((await engine.submit(submission)).job.id).toBe(again.job.id);
    expect(sent).toHaveLength(1);
    const other = engine.submit({ ...submission, body: { references: ['bad'] }, references: ['bad'] });
    await expect(other).rejects.toBeInstanceOf(AppError);
    await expect(other).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    // Another owner's same key is its own.
    expect((await engine.submit({ ...submission, owner: 'you' })).job.id).not.toBe(again.job.id);
  });
});
