/**
 * POST /v1/jobs: a list of references (up to 10,000, or one bibliography) worked on as a job, answered
 * 202 with the job's id at once (lib/jobs/: the engine, its store and queue). An Idempotency-Key header
 * gives back the job the same key and body made in the last 24 hours. The body may be up to 5 MiB
 * (lib/contract/jobs.ts says why not 6).
 */
import * as z from 'zod/mini';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX, JOB_REFERENCES_MAX } from '../lib/contract/jobs.js';
import { AppError } from '../lib/errors.js';
import { jobEngine } from '../lib/jobs/deployment.js';
import { webhookField } from '../lib/jobs/fields.js';
import { JOB_KIND_NAMES, JOB_KINDS, jobOptionsField, RESOLVE_KIND } from '../lib/jobs/kinds.js';
import { api } from '../lib/middleware/index.js';
import { body, requiredOneOf } from '../lib/schema.js';

const references = z.optional(
  z
    .array(z.string({ error: 'must be a string' }), { error: 'must be a list of strings' })
    .check(
      z.minLength(1, { error: 'must hold at least one reference' }),
      z.maxLength(JOB_REFERENCES_MAX, { error: `at most ${JOB_REFERENCES_MAX} references` }),
      z.describe(
        `1 to ${JOB_REFERENCES_MAX} references: DOIs, arXiv ids or free text (for check, also one BibTeX entry or RIS record each), as the kind's endpoint takes one; exactly one of references and bibliography`,
      ),
    ),
);

const bibliography = z.optional(
  z.string({ error: 'must be a string' }).check(
    z.minLength(1, { error: 'must not be empty' }),
    // Line breaks and tabs are a pasted file's own; a lone surrogate is no text (lib/schema.ts).
    z.refine<string>((text) => text.isWellFormed(), { error: 'must be valid Unicode text (no lone surrogates)' }),
    z.describe(
      `A .bib or .ris file, a CSL-JSON array, or a pasted list (numbered, bulleted, one per paragraph or per line), read as POST /v1/cite/check reads one, that holds at least one reference and up to ${JOB_REFERENCES_MAX}; exactly one of references and bibliography`,
    ),
  ),
);

export const requestSchema = body({
  kind: requiredOneOf(
    JOB_KIND_NAMES,
    'What to do to each reference: "resolve", as POST /v1/cite/resolve does, or "check", as POST /v1/cite/check does',
  ),
  references,
  bibliography,
  options: jobOptionsField(),
  webhook: webhookField(),
});

export const handler = api({ body: requestSchema }).handler(async ({ body: request, client, header }) => {
  const given = [request.references && 'references', request.bibliography !== undefined && 'bibliography'].filter(Boolean);
  if (given.length !== 1) {
    throw new AppError('INVALID_REQUEST', { details: 'references: send exactly one of references and bibliography' });
  }
  const kind = JOB_KINDS[request.kind] ?? RESOLVE_KIND;
  const options = request.options;
  await kind.validate?.(options);
  const key = header(IDEMPOTENCY_HEADER)?.trim();
  if (key !== undefined && (key === '' || key.length > IDEMPOTENCY_KEY_MAX || !/^[!-~]+$/.test(key))) {
    throw new AppError('INVALID_REQUEST', {
      details: `${IDEMPOTENCY_HEADER}: must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters`,
    });
  }
  const { job, replayed } = await jobEngine(JOB_KINDS).submit({
    owner: client.name,
    kind: request.kind,
    references: request.references,
    bibliography: request.bibliography,
    options,
    webhook: request.webhook,
    idempotencyKey: key,
    body: request,
  });
  return {
    status: 202,
    message: replayed
      ? `Job ${job.id} (made earlier with this Idempotency-Key)`
      : `Job ${job.id} queued: ${job.total} references`,
    data: {
      job_id: job.id,
      kind: job.kind,
      status: job.status,
      total: job.total,
      done: 0,
      created_at: new Date(job.createdAt).toISOString(),
      expires_at: new Date(job.expiresAt).toISOString(),
      started_at: job.startedAt === null ? null : new Date(job.startedAt).toISOString(),
      replayed,
    },
  };
});
