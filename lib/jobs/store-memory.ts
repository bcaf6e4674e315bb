/**
 * The job store in this process's memory (`npm start`, the tests, the benchmark): the contract of
 * store.ts on Maps. No operation awaits between its read and its write, so each is atomic as the DynamoDB
 * adapter's conditional writes are. Jobs expire as DynamoDB's TTL deletes them (absent once past
 * `expiresAt`, dropped at the next submission). A restart of the process loses them: the embedded store
 * is for one machine's work; the deployment keeps jobs in DynamoDB.
 */
import type { AnsweredState, BatchInput, JobProgress, JobRecord } from './model.js';
import { batchProgress, type JobStore, progressRank, sumProgress } from './store.js';

interface Stored {
  failed: boolean;
  outcome: string;
  reason?: string;
  body: Buffer;
}

interface Held {
  job: JobRecord;
  batches: Map<number, BatchInput>;
  results: Map<number, Stored>;
  counted: Map<number, JobProgress>;
}

export function createMemoryJobStore(now: () => number = Date.now): JobStore {
  const jobs = new Map<string, Held>();
  const claims = new Map<string, { jobId: string; digest: string; expiresAt: number }>();

  const sweep = () => {
    const at = now();
    for (const [id, held] of jobs) if (held.job.expiresAt <= at) jobs.delete(id);
    for (const [key, claim] of claims) if (claim.expiresAt <= at) claims.delete(key);
  };
  const held = (id: string) => {
    const found = jobs.get(id);
    return found && found.job.expiresAt > now() ? found : undefined;
  };

  return {
    async create(job, batches, claim) {
      sweep();
      if (claim) {
        const existing = claims.get(claim.key);
        if (existing) return { existing: { jobId: existing.jobId, digest: existing.digest } };
        claims.set(claim.key, { jobId: job.id, digest: claim.digest, expiresAt: claim.expiresAt });
      }
      jobs.set(job.id, {
        job: structuredClone(job),
        batches: new Map(batches.map((b) => [b.batch, { ...b, references: [...b.references] }])),
        results: new Map(),
        counted: new Map(),
      });
      return { created: true };
    },
    async job(id) {
      const found = held(id);
      return found ? structuredClone(found.job) : undefined;
    },
    async batch(id, batch) {
      return held(id)?.batches.get(batch);
    },
    async answered(id, first, last) {
      const states = new Map<number, AnsweredState>();
      const results = held(id)?.results;
      for (let index = first; results && index <= last; index += 1) {
        const result = results.get(index);
        if (result) states.set(index, result.failed ? 'failed' : 'answer');
      }
      return states;
    },
    async saveOutcomes(id, outcomes) {
      const results = held(id)?.results;
      if (!results) return 0;
      let written = 0;
      for (const { index, outcome, failed, reason, body } of outcomes) {
        if (results.get(index)?.failed === false) continue;
        results.set(index, { failed, outcome, reason, body });
        written += 1;
      }
      return written;
    },
    async countBatch(id, batch, first, last, at) {
      const found = held(id);
      if (!found) return;
      const outcomes = [];
      for (let index = first; index <= last; index += 1) {
        const result = found.results.get(index);
        if (result) outcomes.push({ index, ...result });
      }
      const counted = batchProgress(outcomes, at);
      const kept = found.counted.get(batch);
      // A recount as far as the kept one replaces it (a failure's newer reason); an older read never does.
      if (!kept || progressRank(counted) >= progressRank(kept)) found.counted.set(batch, counted);
    },
    async progress(id) {
      return sumProgress([...(held(id)?.counted.values() ?? [])]);
    },
    async markEnqueued(id) {
      const found = held(id);
      if (found) found.job.enqueued = true;
    },
    async setStatus(id, from, to, at) {
      const found = held(id);
      if (!found || !from.includes(found.job.status)) return false;
      found.job.status = to;
      if (to === 'running') found.job.startedAt = at;
      else found.job.finishedAt = at;
      return true;
    },
    async results(id, from, limit) {
      const found = held(id);
      const page = [];
      for (let index = from; found && index <= found.job.total && page.length < limit; index += 1) {
        const result = found.results.get(index);
        if (result) page.push({ index, failed: result.failed, body: result.body });
      }
      return page;
    },
    async updateWebhook(id, webhook) {
      const found = held(id);
      if (found) found.job.webhook = { ...webhook };
    },
  };
}
