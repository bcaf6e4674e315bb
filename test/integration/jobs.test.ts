/**
 * The job API over real HTTP, as `npm start` runs it: the local server's handlers, the embedded queue
 * handing batches to the worker handler in SQS events, the memory store, and a fake Crossref answering
 * real reference strings with the works Crossref's matcher recorded for them. Submit (202), status, pages
 * in input order (each result as POST /v1/cite/resolve answers the same reference), the three formats,
 * idempotency, owner-only 404s, the signed webhook and its refusals at submit, cancel, and the bodies a
 * submission may and may not be.
 */
import { describe, expect, it } from 'vitest';
import { JOB_BODY_MAX_BYTES } from '../../lib/contract/jobs.js';
import { responseSchema as cancelSchema } from '../../lib/contract/jobs-cancel.js';
import { responseSchema as resultsSchema } from '../../lib/contract/jobs-results.js';
import { responseSchema as statusSchema } from '../../lib/contract/jobs-status.js';
import { responseSchema as submitSchema } from '../../lib/contract/jobs-submit.js';
import { verifyWebhookSignature, webhookSignature } from '../../lib/jobs/webhook/sign.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { labelledCrossref, RESOLVABLE, startHookReceiver, waitForJob } from '../support/jobs.js';
import { TEST_CLIENT_KEY } from '../support/service.js';

const OTHER_KEY = 'other-client-key-0123456789';
const { harness, crossref } = await useCrossrefService({
  API_KEYS: `${TEST_CLIENT_KEY},other:${OTHER_KEY}`,
  JOBS_BATCH_SIZE: '3',
  JOBS_MAX_RECEIVES: '3',
  JOBS_RETRY_SECONDS: '0.02',
  JOBS_WEBHOOK_RETRY_SECONDS: '0.02',
  JOBS_WEBHOOK_PRIVATE: 'allow',
  CROSSREF_REQUESTS_PER_SECOND: '1000',
  // Every job looks its references up: no resolution is answered from an earlier test's.
  CROSSREF_CACHE_TTL_SECONDS: '0',
  // A lookup a test holds unanswered gives up soon, so that it is asked again while the test still runs.
  CROSSREF_TIMEOUT_MS: '500',
  DATACITE_REQUESTS_PER_SECOND: '1000',
});
const asOther = { headers: { Authorization: `Bearer ${OTHER_KEY}` } };

const REFERENCES = RESOLVABLE.slice(0, 7).map((c) => c.text);
const post = (path: string, body: unknown, options?: { headers?: Record<string, string> }) =>
  harness.service.post(path, body, options);

async function submitted(body: Record<string, unknown>, headers?: Record<string, string>) {
  const reply = await post('/v1/jobs', { kind: 'resolve', ...body }, { headers });
  expect(reply.status, reply.text).toBe(202);
  expect(submitSchema.parse(reply.json.data)).toEqual(reply.json.data);
  return reply.json.data as { job_id: string; total: number; status: string; replayed: boolean };
}

describe('POST /v1/jobs and the job it makes', () => {
  it('answers 202 with a queued job, works it through, and counts each reference by outcome', async () => {
    crossref.respond(labelledCrossref);
    const job = await submitted({
      references: [...REFERENCES, 'Nobody, A. (2031). A paper no index holds. Journal of Nothing.'],
    });
    expect(job).toMatchObject({ status: 'queued', total: 8, replayed: false });
    expect(job.job_id).toMatch(/^job_[a-z2-7]{26}$/);
    const status = (await waitForJob(harness.service, job.job_id)).json.data;
    expect(statusSchema.parse(status)).toEqual(status);
    expect(status).toMatchObject({ status: 'done', total: 8, done: 8, failed: [], eta_seconds: null, webhook: null });
    expect(status.counts).toEqual({ resolved: 7, unresolved: 1, failed: 0 });
    expect(Date.parse(status.started_at)).toBeGreaterThanOrEqual(Date.parse(status.created_at));
    expect(Date.parse(status.finished_at)).toBeGreaterThanOrEqual(Date.parse(status.started_at));
    // Jobs cost no paid search.
    expect(harness.upstream.calls()).toBe(0);
  });

  it('pages results in input order with a cursor, each result as POST /v1/cite/resolve answers that reference', async () => {
    crossref.respond(labelledCrossref);
    const options = { styles: ['ieee'], export: ['bibtex'] };
    const job = await submitted({ references: REFERENCES, options });
    await waitForJob(harness.service, job.job_id);
    const pages: { results: { index: number }[]; next_cursor: string | null }[] = [];
    let cursor: string | undefined;
    do {
      const reply = await post('/v1/jobs/results', { job_id: job.job_id, limit: 3, ...(cursor ? { cursor } : {}) });
      expect(reply.status, reply.text).toBe(200);
      expect(resultsSchema.parse(reply.json.data)).toEqual(reply.json.data);
      pages.push(reply.json.data);
      cursor = reply.json.data.next_cursor ?? undefined;
    } while (cursor);
    expect(pages.map((page) => page.results.length)).toEqual([3, 3, 1]);
    const results = pages.flatMap((page) => page.results);
    expect(results.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // The synchronous endpoint's answer for each reference, index for index (keys unique per batch of 3 there too).
    for (let first = 0; first < REFERENCES.length; first += 3) {
      const batch = REFERENCES.slice(first, first + 3);
      const sync = await post('/v1/cite/resolve', { references: batch, ...options });
      for (const [i, entry] of (sync.json.data.references as { index: number }[]).entries()) {
        expect(results[first + i]).toEqual({ ...entry, index: first + i + 1 });
      }
    }
  });

  it('gives a finished job as one BibTeX, RIS or CSL-JSON list, keys unique across batches, and refuses it before the end (409)', async () => {
    crossref.respond(labelledCrossref);
    // The same reference in three batches: one record, three entries, three keys.
    const same = REFERENCES[0] as string;
    const job = await submitted({ references: [same, REFERENCES[1], REFERENCES[2], same, REFERENCES[3], REFERENCES[4], same] });
    await waitForJob(harness.service, job.job_id);
    const bibtex = (await post('/v1/jobs/results', { job_id: job.job_id, format: 'bibtex' })).json.data;
    expect(bibtex).toMatchObject({ format: 'bibtex', records: 7, results: [], next_cursor: null });
    const keys = [...(bibtex.content as string).matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1]);
    expect(keys).toHaveLength(7);
    expect(new Set(keys).size).toBe(7);
    const ris = (await post('/v1/jobs/results', { job_id: job.job_id, format: 'RIS' })).json.data;
    expect((ris.content as string).match(/^ER {2}- /gm)).toHaveLength(7);
    const csl = (await post('/v1/jobs/results', { job_id: job.job_id, format: 'csl-json' })).json.data;
    const items = JSON.parse(csl.content) as { id: string; DOI: string }[];
    expect(items.map((item) => item.id)).toEqual(keys);
    expect(items[0]?.DOI.toLowerCase()).toBe(RESOLVABLE[0]?.doi);

    crossref.respond(() => 'hang');
    const running = await submitted({ references: REFERENCES.slice(0, 2) });
    const refused = await post('/v1/jobs/results', { job_id: running.job_id, format: 'bibtex' });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: 'JOB_NOT_FINISHED' });
    expect(refused.json.error.details).toMatch(/^format: /);
    await post('/v1/jobs/cancel', { job_id: running.job_id });
  });

  it('gives back the same job for the same Idempotency-Key and body, and refuses the key with another body (422)', async () => {
    crossref.respond(labelledCrossref);
    const key = { 'Idempotency-Key': `key-${Date.now()}` };
    const first = await submitted({ references: REFERENCES.slice(0, 2) }, key);
    const again = await submitted({ references: REFERENCES.slice(0, 2) }, key);
    expect(again).toMatchObject({ job_id: first.job_id, replayed: true });
    const other = await post('/v1/jobs', { kind: 'resolve', references: REFERENCES.slice(0, 3) }, { headers: key });
    expect(other.status).toBe(422);
    expect(other.json.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(other.json.error.details).toContain(first.job_id);
    // Without a key, or with a new one, a new job.
    expect((await submitted({ references: REFERENCES.slice(0, 2) })).job_id).not.toBe(first.job_id);
    expect(
      (await submitted({ references: REFERENCES.slice(0, 2) }, { 'Idempotency-Key': `${key['Idempotency-Key']}-2` })).job_id,
    ).not.toBe(first.job_id);
    // The same key of another client is that client's own.
    const theirs = await post(
      '/v1/jobs',
      { kind: 'resolve', references: REFERENCES.slice(0, 2) },
      { headers: { ...key, ...asOther.headers } },
    );
    expect(theirs.status).toBe(202);
    expect(theirs.json.data.job_id).not.toBe(first.job_id);
  });

  it("answers another key's job, and an unknown one, 404 JOB_NOT_FOUND naming the job on every job route", async () => {
    crossref.respond(labelledCrossref);
    const job = await submitted({ references: REFERENCES.slice(0, 1) });
    const unknown = 'job_aaaaaaaaaaaaaaaaaaaaaaaaaa';
    for (const path of ['/v1/jobs/status', '/v1/jobs/results', '/v1/jobs/cancel']) {
      for (const [id, options] of [
        [job.job_id, asOther],
        [unknown, undefined],
      ] as const) {
        const reply = await post(path, { job_id: id }, options);
        expect(reply.status, `${path} ${id}`).toBe(404);
        expect(reply.json.error.code).toBe('JOB_NOT_FOUND');
        expect(reply.json.error.details).toContain(`job_id: no job ${id}`);
      }
    }
    // The owner still reads it, unchanged by the other key's cancel.
    expect((await waitForJob(harness.service, job.job_id)).json.data.status).toBe('done');
  });

  it('POSTs the signed end of the job to the webhook, retrying with backoff until the receiver takes it', async () => {
    crossref.respond(labelledCrossref);
    const receiver = await startHookReceiver();
    try {
      receiver.answerWith([500, 503, 502]);
      const secret = 'a-webhook-secret-of-the-client';
      const job = await submitted({ references: REFERENCES.slice(0, 4), webhook: { url: receiver.url, secret } });
      const status = (await waitForJob(harness.service, job.job_id, (d) => d.webhook?.state === 'delivered')).json.data;
      expect(status.webhook).toEqual({ host: new URL(receiver.url).host, state: 'delivered', tries: 4, last_error: null });
      expect(receiver.received).toHaveLength(4);
      for (const hook of receiver.received) {
        const signature = String(hook.headers['x-signature-256']);
        expect(signature).toBe(webhookSignature(secret, hook.raw));
        expect(verifyWebhookSignature(secret, hook.raw, signature)).toBe(true);
        expect(verifyWebhookSignature('another-secret-entirely', hook.raw, signature)).toBe(false);
        expect(hook.json).toMatchObject({ job_id: job.job_id, status: 'done', total: 4, done: 4, counts: { resolved: 4 } });
      }
      // The secret is never shown again.
      expect(JSON.stringify(status)).not.toContain(secret);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a webhook to a link-local or metadata address at submit (400 naming webhook.url), here where private ones are allowed', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.10.20:8080/hook',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://100.100.100.200/latest/meta-data',
    ]) {
      const reply = await post('/v1/jobs', {
        kind: 'resolve',
        references: ['10.1000/x'],
        webhook: { url, secret: 'a-webhook-secret-16' },
      });
      expect(reply.status, url).toBe(400);
      expect(reply.json.error.code).toBe('INVALID_REQUEST');
      expect(reply.json.error.details, url).toMatch(/^webhook\.url: .*(link-local|metadata)/);
    }
    // A receiver on this machine is allowed under npm start (JOBS_WEBHOOK_PRIVATE=allow).
    expect(
      (
        await post('/v1/jobs', {
          kind: 'resolve',
          references: ['10.1000/x'],
          webhook: { url: 'http://127.0.0.1:9/h', secret: 'a-webhook-secret-16' },
        })
      ).status,
    ).toBe(202);
  });

  it('cancels a running job: later batches are not worked on, what was answered stays readable', async () => {
    // The first batch's three references are answered, the others' lookups hang. Told apart by their text,
    // not by the order lookups arrive in: a job an earlier test left (its webhook still retried) may still
    // look its DOI up, and the job's batches are worked on two at a time.
    const answeredFirst = REFERENCES.slice(0, 3).map((text) => text.slice(0, 12));
    crossref.respond((query) => {
      const text = query.get('query.bibliographic');
      return text === null || answeredFirst.some((start) => text.startsWith(start)) ? labelledCrossref(query) : 'hang';
    });
    const job = await submitted({ references: REFERENCES.slice(0, 7) });
    await waitForJob(harness.service, job.job_id, (d) => d.done >= 3);
    const reply = await post('/v1/jobs/cancel', { job_id: job.job_id });
    expect(reply.status).toBe(200);
    expect(cancelSchema.parse(reply.json.data)).toEqual(reply.json.data);
    expect(reply.json.data).toMatchObject({ status: 'cancelled', cancelled: true, total: 7 });
    const lookups = crossref.requests.length;
    crossref.respond(labelledCrossref);
    const status = (await waitForJob(harness.service, job.job_id)).json.data;
    expect(status.status).toBe('cancelled');
    expect(status.finished_at).not.toBeNull();
    const results = (await post('/v1/jobs/results', { job_id: job.job_id })).json.data;
    expect(results.results.slice(0, 3).map((r: { index: number }) => r.index)).toEqual([1, 2, 3]);
    expect(results.next_cursor).toBeNull();
    // At most the batch in hand when it was cancelled was still looked up.
    expect(crossref.requests.length - lookups).toBeLessThanOrEqual(3);
    // A second cancel, and a cancel of a finished job, change nothing.
    expect((await post('/v1/jobs/cancel', { job_id: job.job_id })).json.data).toMatchObject({
      status: 'cancelled',
      cancelled: true,
    });
  });

  it('reads a BibTeX file, a RIS file, a CSL-JSON array and a pasted list as its references, as the reference check reads them', async () => {
    crossref.respond(labelledCrossref);
    const bib = `@article{a, title={First}, author={Doe, Jane and Roe, R.}, year={2019}, journal={J. Tests}, doi={10.1000/one}}\n\n@book{b, title = "Second", year = 2020}\n@comment{not a reference}`;
    const ris =
      'TY  - JOUR\nAU  - Doe, Jane\nTI  - First\nPY  - 2019\nDO  - 10.1000/one\nER  - \n\nTY  - BOOK\nTI  - Second\nER  - \n';
    const csl = JSON.stringify([
      { type: 'article-journal', title: 'First', DOI: '10.1000/one', issued: { 'date-parts': [[2019]] } },
    ]);
    const list = `${REFERENCES[0]}\n${REFERENCES[1]}\n${REFERENCES[2]}\n`;
    // Numbered, a reference wrapped over two lines: two references, not three lines.
    const numbered =
      '[1] Doe, J. (2019). First, with a title\n    wrapped over a line. J. Tests.\n[2] Roe, R. (2020). Second. Books.\n';
    const inputs = async (bibliography: string) => {
      const job = await submitted({ bibliography });
      await waitForJob(harness.service, job.job_id);
      const reply = await post('/v1/jobs/results', { job_id: job.job_id });
      return (reply.json.data.results as { input: string }[]).map((result) => result.input);
    };
    // A file's record resolved from its fields written out as one reference, its DOI with them.
    expect(await inputs(bib)).toEqual(['Jane Doe, R. Roe (2019). First. J. Tests. doi:10.1000/one.', '2020. Second.']);
    expect(await inputs(ris)).toEqual(['Jane Doe (2019). First. doi:10.1000/one.', 'Second.']);
    expect(await inputs(csl)).toEqual(['2019. First. doi:10.1000/one.']);
    // A pasted reference as pasted.
    expect(await inputs(list)).toEqual(REFERENCES.slice(0, 3));
    expect(await inputs(numbered)).toEqual([
      'Doe, J. (2019). First, with a title\n    wrapped over a line. J. Tests.',
      'Roe, R. (2020). Second. Books.',
    ]);
  });

  it('reads a blank cursor as none given (the first page), and refuses one no page of this job gave, naming cursor', async () => {
    crossref.respond(labelledCrossref);
    const job = await submitted({ references: REFERENCES.slice(0, 3) });
    await waitForJob(harness.service, job.job_id);
    for (const cursor of ['', '  ', '\t\n']) {
      const reply = await post('/v1/jobs/results', { job_id: job.job_id, limit: 2, cursor });
      expect(reply.status, JSON.stringify(cursor)).toBe(200);
      expect(reply.json.data.results.map((r: { index: number }) => r.index)).toEqual([1, 2]);
    }
    const foreign = await post('/v1/jobs/results', { job_id: job.job_id, cursor: Buffer.from('r99').toString('base64url') });
    expect([foreign.status, foreign.json.error.details]).toEqual([
      400,
      'cursor: is not a cursor of this job; send the next_cursor of its last page',
    ]);
  });

  it('refuses a body with neither or both of references and bibliography, or one over its limit, naming the field', async () => {
    const neither = await post('/v1/jobs', { kind: 'resolve' });
    expect([neither.status, neither.json.error.details]).toEqual([
      400,
      'references: send exactly one of references and bibliography',
    ]);
    const both = await post('/v1/jobs', { kind: 'resolve', references: ['x'], bibliography: 'x' });
    expect(both.json.error.details).toBe('references: send exactly one of references and bibliography');
    const tooMany = await post('/v1/jobs', {
      kind: 'resolve',
      references: Array.from({ length: 10_001 }, (_, i) => `10.1000/${i}`),
    });
    expect([tooMany.status, tooMany.json.error.details]).toEqual([400, 'references: at most 10000 references']);
    const noKind = await post('/v1/jobs', { references: ['x'] });
    expect(noKind.json.error.details).toBe('kind: is required');
    const huge = await post('/v1/jobs', { kind: 'resolve', bibliography: 'x'.repeat(JOB_BODY_MAX_BYTES) });
    expect([huge.status, huge.json.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    // Any other route keeps its 16 KiB.
    const big = await post('/v1/cite/resolve', { references: ['x'.repeat(20_000)] });
    expect(big.status).toBe(413);
  });
});
