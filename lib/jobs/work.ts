/**
 * What a worker does with one queue message (docs/decisions.md §27, "Faults").
 *
 * A batch: the references of it that have no answer yet are answered by the job's kind and their outcomes
 * written (store.ts: never over an answer), then the batch is counted and the job ended if complete. So a
 * message delivered twice, or a worker killed halfway and its message delivered again, answers each
 * reference once, and pays for it once. References whose lookup failed are asked again: the message is
 * tried again after a backoff (retrySeconds × 3^(tries − 1)). On the last try the queue allows
 * (maxReceives), every reference still without an answer is first marked failed, and a finish check is
 * queued for after the longest a worker runs: however that try ends (answered, failed, or the worker killed
 * and the message moved to the dead-letter queue), the job ends naming the references no try could answer.
 *
 * A webhook: one try (webhook/deliver.ts); a failed try queues the next after a backoff, up to WEBHOOK_TRIES.
 */
import { WEBHOOK_TRIES } from '../contract/jobs.js';
import type { EngineContext } from './engine.js';
import type { KindInput } from './kinds.js';
import {
  encodeResult,
  type FinishCheckMessage,
  type ItemOutcome,
  type JobRecord,
  parseMessage,
  type WebhookMessage,
} from './model.js';
import { backoffSeconds } from './queue.js';
import { deliverWebhook } from './webhook/deliver.js';

/** Done with the message (it is deleted), or to be tried again after `retryAfterSeconds`. */
export type WorkOutcome = { done: true } | { retryAfterSeconds: number };

const DONE: WorkOutcome = { done: true };

function failedOutcome(context: EngineContext, job: JobRecord, input: KindInput, reason: string): ItemOutcome {
  const kind = context.kinds[job.kind];
  const result = kind ? kind.failedResult(input, reason, job.options) : { entry: { index: input.index, input: input.text } };
  return { index: input.index, outcome: 'failed', failed: true, reason, body: encodeResult(result) };
}

/** Sends the webhook's first try for the status the job just ended with (when it has one). */
export async function notify(context: EngineContext, job: JobRecord, status: JobRecord['status']): Promise<void> {
  if (!job.webhook) return;
  await context.store.updateWebhook(job.id, { ...job.webhook, state: 'pending', tries: 0, lastError: null });
  await context.queue.send([{ type: 'webhook', job_id: job.id, try: 1, status }]);
}

/**
 * Ends the job when every reference has an outcome: `failed` when any failed, else `done`; a `failed` job
 * whose failures were all answered since (its messages redriven from the dead-letter queue) becomes `done`.
 */
export async function finishIfComplete(context: EngineContext, job: JobRecord): Promise<void> {
  const { store, now } = context;
  const progress = await store.progress(job.id);
  if (progress.done < job.total) return;
  const failed = progress.counts.failed ?? 0;
  if (job.status === 'queued' || job.status === 'running') {
    const status = failed > 0 ? 'failed' : 'done';
    if (await store.setStatus(job.id, ['queued', 'running'], status, now())) {
      context.log('job ended', { jobId: job.id, status, total: job.total, failed });
      await notify(context, job, status);
    }
  } else if (job.status === 'failed' && failed === 0 && (await store.setStatus(job.id, ['failed'], 'done', now()))) {
    context.log('job ended', { jobId: job.id, status: 'done', total: job.total, failed });
    await notify(context, job, 'done');
  }
}

/** The indexes batch `n` of a job holds: its references n × batchSize + 1 on, the last batch fewer. */
export function batchRange(job: Pick<JobRecord, 'batchSize' | 'total'>, batch: number): { first: number; last: number } {
  const first = batch * job.batchSize + 1;
  return { first, last: Math.min(job.total, first + job.batchSize - 1) };
}

async function workOnBatch(
  context: EngineContext,
  message: { job_id: string; batch: number },
  delivery: { receives: number; deadline: number },
): Promise<WorkOutcome> {
  const { store, settings, queue } = context;
  const job = await store.job(message.job_id);
  // Gone (expired), cancelled, or done: nothing to do. A failed job still takes answers (a redriven batch).
  if (!job || job.status === 'cancelled' || job.status === 'done') return DONE;
  const kind = context.kinds[job.kind];
  const { first, last } = batchRange(job, message.batch);
  if (!kind || first > last) {
    context.log('job batch of no kind or beyond the job', { jobId: job.id, batch: message.batch, kind: job.kind });
    return DONE;
  }
  const states = await store.answered(job.id, first, last);
  const lastTry = delivery.receives >= settings.maxReceives;
  if (lastTry) {
    // Before anything that can fail: whatever ends this try (the worker killed included), the job can end.
    const input = await store.batch(job.id, message.batch).catch(() => undefined);
    const reason = `not answered in ${delivery.receives} tries${input ? '' : ' (its input could not be read)'}`;
    const unmarked: KindInput[] = [];
    for (let index = first; index <= last; index += 1) {
      if (!states.has(index)) unmarked.push({ index, text: input?.references[index - first] ?? '' });
    }
    await store.saveOutcomes(
      job.id,
      unmarked.map((item) => failedOutcome(context, job, item, reason)),
    );
    await queue.send([{ type: 'finish-check', job_id: job.id, batch: message.batch }], settings.finishCheckSeconds);
  }
  const input = await store.batch(job.id, message.batch);
  if (!input) throw new Error(`job ${job.id}: batch ${message.batch} has no input`);
  const todo = input.references
    .map((text, i): KindInput => ({ index: first + i, text }))
    .filter(({ index }) => states.get(index) !== 'answer');
  if (todo.length > 0 && job.status === 'queued') await store.setStatus(job.id, ['queued'], 'running', context.now());
  const left = await answerInPlace(context, job, todo, delivery.deadline);
  if (left.length > 0 && lastTry) {
    await store.saveOutcomes(
      job.id,
      left.map(({ input, reason }) => failedOutcome(context, job, input, `${reason} (no answer in ${delivery.receives} tries)`)),
    );
  }
  const retry = left.length > 0 && !lastTry;
  await store.countBatch(job.id, message.batch, first, last, context.now());
  await finishIfComplete(context, job);
  return retry ? { retryAfterSeconds: backoffSeconds(settings.retrySeconds, delivery.receives) } : DONE;
}

/** The first wait before a reference is asked again within the same try, doubled each round up to RETRY_IN_PLACE_MAX_MS. */
export const RETRY_IN_PLACE_FIRST_MS = 1_000;
export const RETRY_IN_PLACE_MAX_MS = 8_000;
/** The time a round of lookups is given: a round is not begun with less left before the try's deadline. */
export const ROUND_MS = 15_000;

/**
 * Answers the references of a batch, writing each answer at once, and asks those whose lookup failed again
 * within this try (after 1 s, 2 s, 4 s, then every 8 s) while the try's time allows a round: a reference
 * waits for the source (a pause it asked for, its pace) rather than fail. Answers those still unanswered
 * when the time runs out, with the last reason, for the queue to bring back later.
 */
async function answerInPlace(
  context: EngineContext,
  job: JobRecord,
  inputs: readonly KindInput[],
  deadline: number,
): Promise<{ input: KindInput; reason: string }[]> {
  const kind = context.kinds[job.kind] as NonNullable<EngineContext['kinds'][string]>;
  let todo = [...inputs];
  for (let round = 0; todo.length > 0; round += 1) {
    const outcomes = await kind.run(todo, job.options, { deadline });
    const answers: ItemOutcome[] = [];
    const left: { input: KindInput; reason: string }[] = [];
    for (const outcome of outcomes) {
      const input = todo.find(({ index }) => index === outcome.index) as KindInput;
      if ('result' in outcome) {
        answers.push({ index: outcome.index, outcome: outcome.outcome, failed: false, body: encodeResult(outcome.result) });
      } else left.push({ input, reason: outcome.retry });
    }
    await context.store.saveOutcomes(job.id, answers);
    const wait = Math.min(RETRY_IN_PLACE_MAX_MS, RETRY_IN_PLACE_FIRST_MS * 2 ** round);
    if (left.length === 0 || context.now() + wait + ROUND_MS > deadline) return left;
    await context.sleep(wait);
    todo = left.map(({ input }) => input);
  }
  return [];
}

async function finishCheck(context: EngineContext, message: FinishCheckMessage): Promise<WorkOutcome> {
  const job = await context.store.job(message.job_id);
  if (!job) return DONE;
  const { first, last } = batchRange(job, message.batch);
  await context.store.countBatch(job.id, message.batch, first, last, context.now());
  await finishIfComplete(context, job);
  return DONE;
}

async function webhookTry(context: EngineContext, message: WebhookMessage): Promise<WorkOutcome> {
  const { store, settings } = context;
  const job = await store.job(message.job_id);
  // A job that changed status since has sent its own webhook for the new one.
  if (!job?.webhook || job.status !== message.status) return DONE;
  const progress = await store.progress(job.id);
  const body = JSON.stringify({
    job_id: job.id,
    kind: job.kind,
    status: job.status,
    total: job.total,
    done: progress.done,
    counts: progress.counts,
    finished_at: job.finishedAt === null ? null : new Date(job.finishedAt).toISOString(),
  });
  const outcome = await deliverWebhook(job.webhook, body, {
    allowPrivate: settings.allowPrivateWebhooks,
    resolve: context.resolve,
    dial: context.dial,
    timeoutMs: settings.webhookTimeoutMs,
    userAgent: settings.userAgent,
  });
  const again = 'failed' in outcome && message.try < WEBHOOK_TRIES;
  await store.updateWebhook(job.id, {
    ...job.webhook,
    state: 'delivered' in outcome ? 'delivered' : 'refused' in outcome ? 'refused' : again ? 'pending' : 'failed',
    tries: message.try,
    lastError: 'delivered' in outcome ? null : 'refused' in outcome ? outcome.refused : outcome.failed,
  });
  if (again) {
    await context.queue.send([{ ...message, try: message.try + 1 }], backoffSeconds(settings.webhookRetrySeconds, message.try));
  }
  context.log('job webhook', { jobId: job.id, try: message.try, outcome: Object.keys(outcome)[0] });
  return DONE;
}

/** One message's work; rejects when the store or the kind failed (the message is then tried again). */
export async function handleMessage(
  context: EngineContext,
  body: string,
  delivery: { receives: number; deadline: number },
): Promise<WorkOutcome> {
  const message = parseMessage(body);
  if (!message) {
    context.log('job message not understood, dropped', { bytes: body.length });
    return DONE;
  }
  if (message.type === 'batch') return workOnBatch(context, message, delivery);
  if (message.type === 'finish-check') return finishCheck(context, message);
  return webhookTry(context, message);
}
