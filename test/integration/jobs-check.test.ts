/**
 * Jobs of kind `check` over real HTTP, as `npm start` runs them: each reference checked as POST
 * /v1/cite/check checks it (lib/citations/check/), a batch at a time, its result that endpoint's with the
 * reference's `index` in the job; a bibliography read by the check's own reader; Google Scholar refused in
 * a job's options; a reference whose lookups failed asked again rather than answered "not found".
 */
import { describe, expect, it } from 'vitest';
import { responseSchema as resultsSchema } from '../../lib/contract/jobs-results.js';
import { responseSchema as statusSchema } from '../../lib/contract/jobs-status.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { labelledCrossref, RESOLVABLE, waitForJob } from '../support/jobs.js';

const { harness, crossref } = await useCrossrefService({
  JOBS_BATCH_SIZE: '3',
  JOBS_MAX_RECEIVES: '3',
  JOBS_RETRY_SECONDS: '0.02',
  CROSSREF_REQUESTS_PER_SECOND: '1000',
  CROSSREF_CACHE_TTL_SECONDS: '0',
  CROSSREF_TIMEOUT_MS: '500',
  DATACITE_REQUESTS_PER_SECOND: '1000',
});

const REFERENCES = RESOLVABLE.slice(0, 7).map((c) => c.text);
const post = (path: string, body: unknown) => harness.service.post(path, body);

async function submitted(body: Record<string, unknown>) {
  const reply = await post('/v1/jobs', { kind: 'check', ...body });
  expect(reply.status, reply.text).toBe(202);
  return reply.json.data as { job_id: string; total: number; kind: string };
}

async function allResults(jobId: string): Promise<Record<string, unknown>[]> {
  const results: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const reply = await post('/v1/jobs/results', { job_id: jobId, limit: 4, ...(cursor ? { cursor } : {}) });
    expect(reply.status, reply.text).toBe(200);
    expect(resultsSchema.parse(reply.json.data)).toEqual(reply.json.data);
    results.push(...reply.json.data.results);
    cursor = reply.json.data.next_cursor ?? undefined;
  } while (cursor);
  return results;
}

describe('a job of kind check', () => {
  it('checks every reference, counts them by verdict, and gives each result in input order as POST /v1/cite/check answers it', async () => {
    crossref.respond(labelledCrossref);
    const references = [...REFERENCES, 'Nobody, A. (2031). A paper no index holds. Journal of Nothing.'];
    const job = await submitted({ references, options: { styles: ['ieee'] } });
    expect(job).toMatchObject({ kind: 'check', total: 8 });
    const status = (await waitForJob(harness.service, job.job_id)).json.data;
    expect(statusSchema.parse(status)).toEqual(status);
    expect(status).toMatchObject({ status: 'done', done: 8, failed: [] });
    const results = await allResults(job.job_id);
    expect(results.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The counts are the verdicts of the results, `failed` aside.
    const verdicts: Record<string, number> = {};
    for (const r of results) verdicts[r.verdict as string] = (verdicts[r.verdict as string] ?? 0) + 1;
    for (const [verdict, n] of Object.entries(status.counts)) {
      if (verdict !== 'failed') expect(n, verdict).toBe(verdicts[verdict] ?? 0);
    }
    expect(verdicts.not_found).toBe(1);
    // The synchronous endpoint's answer for each reference, batch for batch (the job's batches are of 3).
    for (let first = 0; first < references.length; first += 3) {
      const batch = references.slice(first, first + 3);
      const sync = await post('/v1/cite/check', { references: batch, styles: ['ieee'] });
      expect(sync.status, sync.text).toBe(200);
      for (const [i, entry] of (sync.json.data.results as { index: number }[]).entries()) {
        expect(results[first + i]).toEqual({ ...entry, index: first + i + 1 });
      }
    }
  });

  it('reads a bibliography with the reference check’s reader: BibTeX entries checked as BibTeX, a broken one unreadable on its own', async () => {
    crossref.respond(labelledCrossref);
    const bib = [
      '@article{a, title={First}, author={Doe, Jane and Roe, R.}, year={2019}, journal={J. Tests}, doi={10.1000/one}}',
      '@book{b, title = "Second", year = 2020}',
      '@article{c, title = {Broken',
    ].join('\n\n');
    const job = await submitted({ bibliography: bib });
    expect(job.total).toBe(3);
    await waitForJob(harness.service, job.job_id);
    const results = await allResults(job.job_id);
    expect(results.map((r) => [r.index, r.format])).toEqual([
      [1, 'bibtex'],
      [2, 'bibtex'],
      [3, 'bibtex'],
    ]);
    expect(results[2]?.verdict).toBe('unreadable');
    const sync = await post('/v1/cite/check', { bibliography: bib });
    expect(results.map((r) => r.verdict)).toEqual(sync.json.data.results.map((r: { verdict: string }) => r.verdict));
  });

  it('asks again a reference whose lookups failed, never answering it "not found" for that', async () => {
    let failing = true;
    crossref.respond((query) => (failing ? 'status500' : labelledCrossref(query)));
    const job = await submitted({ references: REFERENCES.slice(0, 2) });
    // While every lookup fails, nothing is answered (the references wait for another round, or try).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const during = (await post('/v1/jobs/status', { job_id: job.job_id })).json.data;
    expect(during.done).toBe(0);
    failing = false;
    const status = (await waitForJob(harness.service, job.job_id)).json.data;
    expect(status).toMatchObject({ status: 'done', done: 2 });
    const results = await allResults(job.job_id);
    expect(results.map((r) => r.verdict)).not.toContain('not_found');
  });

  it('refuses Google Scholar in a job’s options, in either kind, naming the field; false is what a job does', async () => {
    for (const kind of ['check', 'resolve']) {
      const scholar = await post('/v1/jobs', { kind, references: ['x'], options: { scholar: true } });
      expect(scholar.status, kind).toBe(400);
      expect(scholar.json.error.details, kind).toMatch(/^options\.scholar: Google Scholar is not searched by jobs/);
    }
    const resolve = await post('/v1/jobs', { kind: 'resolve', references: ['x'], options: { scholar: false } });
    expect(resolve.status, resolve.text).toBe(202);
  });
});
