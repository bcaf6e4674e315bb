/**
 * What the job tests share: real reference strings with the works Crossref's matcher recorded for them
 * (the labelled set, test/fixtures/crossref/reference-strings.json; sources in test/fixtures/SOURCES.md),
 * a fake Crossref answering them as Crossref does, a wait for a job's status that needs no clock of its
 * own (the test's timeout bounds it), and a webhook receiver on loopback that keeps every request's raw
 * bytes and answers as told.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { bibliographicQuery, matchReference } from '../../lib/citations/match/reference-match.js';
import type { JobRecord } from '../../lib/jobs/model.js';
import { newJobId } from '../../lib/jobs/submit.js';
import { SAMPLE_JOB_ID, SAMPLE_REQUESTS } from '../fixtures/sample-requests.js';
import type { CrossrefAnswer } from './fake-crossref.js';
import { listenOnLoopback } from './loopback.js';
import { fixture } from './reference-strings.js';
import type { Reply, Service } from './service.js';

/**
 * Reference strings whose work is among the recorded ones (so Crossref, as faked here, holds it) and which
 * the reference matcher resolves to it from its candidates: what a job of them answers is known.
 */
export const RESOLVABLE = fixture.cases.filter(
  (c) =>
    c.doi !== null &&
    c.set === 'deposited' &&
    matchReference(
      c.text,
      c.candidates.flatMap((doi) => (fixture.works[doi] ? [fixture.works[doi].record] : [])),
    ).matched?.doi.toLowerCase() === c.doi,
);

const answer = (works: unknown[]): CrossrefAnswer => ({
  status: 200,
  body: JSON.stringify({ status: 'ok', message: { 'total-results': works.length, items: works } }),
});

const byQuery = new Map(fixture.cases.map((c) => [bibliographicQuery(c.text), c]));

/** Crossref as it answers the labelled set: a DOI filter with those works, a reference's query with its five candidates. */
export function labelledCrossref(query: URLSearchParams): CrossrefAnswer {
  const filter = query.get('filter');
  if (filter?.startsWith('doi:')) {
    const dois = filter.split(',').map((part) => part.replace(/^doi:/, '').toLowerCase());
    return answer(
      dois.flatMap((doi) =>
        Object.values(fixture.works)
          .filter((w) => w.record.DOI.toLowerCase() === doi)
          .map((w) => w.record),
      ),
    );
  }
  const found = byQuery.get(query.get('query.bibliographic') ?? '');
  return answer((found?.candidates ?? []).flatMap((doi) => (fixture.works[doi] ? [fixture.works[doi].record] : [])));
}

/** The job's status once `until` holds, asked again and again (the test's own timeout bounds the wait). */
export async function waitForJob(
  service: Pick<Service, 'post'>,
  jobId: string,
  until: (data: { status: string; done: number; total: number; webhook?: { state: string } | null }) => boolean = (d) =>
    ['done', 'failed', 'cancelled'].includes(d.status),
  options: { headers?: Record<string, string> } = {},
): Promise<Reply> {
  for (;;) {
    const reply = await service.post('/v1/jobs/status', { job_id: jobId }, options);
    if (reply.status !== 200) throw new Error(`status of ${jobId}: ${reply.text}`);
    if (until(reply.json.data)) return reply;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: Record<string, unknown>;
}

export interface HookReceiver {
  url: string;
  readonly received: ReceivedHook[];
  /** The statuses of the next answers, in order; 200 once they are used up. */
  answerWith(statuses: number[]): void;
  close(): Promise<void>;
}

export async function startHookReceiver(): Promise<HookReceiver> {
  const received: ReceivedHook[] = [];
  let statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ headers: req.headers, raw, json: JSON.parse(raw.toString('utf8')) });
      res.writeHead(statuses.shift() ?? 200);
      res.end();
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    url: `${listening.url}/hooks/jobs`,
    received,
    answerWith: (next) => {
      statuses = [...next];
    },
    close: () => listening.close(),
  };
}

/** A job as submit.ts makes one, queued, with these fields changed. */
export function jobRecord(fields: Partial<JobRecord> = {}): JobRecord {
  const now = Date.now();
  return {
    id: newJobId(),
    owner: 'local-1',
    kind: 'resolve',
    options: { styles: [], citation_markup: 'text', export: [] },
    total: 1,
    batchSize: 20,
    batches: 1,
    status: 'queued',
    createdAt: now,
    startedAt: null,
    finishedAt: null,
    expiresAt: Math.ceil((now + 86_400_000) / 1000) * 1000,
    enqueued: false,
    webhook: null,
    ...fields,
  };
}

/**
 * A route's sample request as it can be sent: the samples of the routes that read a job name a placeholder
 * (SAMPLE_JOB_ID), replaced here by a job submitted with the submission's own sample.
 */
export async function sampleBody(service: Pick<Service, 'post'>, routeName: string): Promise<unknown> {
  const sample = SAMPLE_REQUESTS[routeName] as Record<string, unknown> | undefined;
  if (sample?.job_id !== SAMPLE_JOB_ID) return sample;
  const submitted = await service.post('/v1/jobs', SAMPLE_REQUESTS['jobs-submit']);
  if (submitted.status !== 202) throw new Error(`the sample job was not taken: ${submitted.text}`);
  return { ...sample, job_id: submitted.json.data.job_id };
}

/** The job id the documented examples of the job routes name (lib/openapi-examples.ts): a stand-in. */
export const EXAMPLE_JOB_ID = 'job_4w2kq7mb3c5d6e7f2g3h4i5j6k';

/** A route's example arguments with the stand-in job id replaced by a real one (when it has one and one is known). */
export function withJob(args: Record<string, unknown>, jobId: string | undefined): Record<string, unknown> {
  return jobId !== undefined && args.job_id === EXAMPLE_JOB_ID ? { ...args, job_id: jobId } : args;
}
