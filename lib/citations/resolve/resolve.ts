/**
 * Citation resolving (POST /v1/cite/resolve): each reference to its Crossref work, with no paid call.
 * A DOI (or a reference that holds one) is looked up directly, twenty to a request; free text is sent to
 * Crossref as a bibliographic query and its candidates go through the reference matcher
 * (reference-match.ts: a wrong DOI is worse than none, so nothing ambiguous is taken). Lookups share
 * citation search's pace and concurrency (crossref-client.ts), so a list of 50 stays within Crossref's
 * published limits. Found works are cached like citation search's (memory and the shared table); a
 * reference that found nothing is not, so a later request may find it.
 */
import { type CacheScope, createSharedCache } from '../../cache/shared.js';
import { mapSettled } from '../../concurrency.js';
import { config } from '../../config.js';
import { AppError } from '../../errors.js';
import { logger } from '../../logger.js';
import { bibliographicQuery, matchReference, parseReferenceInput, type ReferenceInput } from '../match/reference-match.js';
import type { CrossrefWork } from '../model/work.js';
import { DOIS_PER_LOOKUP, searchReference, worksByDoi } from '../sources/crossref.js';

/** What one reference resolved to. */
export interface Resolution {
  doi: string | null;
  match: { method: 'exact' | 'search'; score: number | null; rule: string };
  /** Why no work was found; null when one was. */
  reason: string | null;
  work?: CrossrefWork;
}

const resolved = createSharedCache<Resolution>({
  name: 'crossref-reference-v1',
  ttlSeconds: config.CROSSREF_CACHE_TTL_SECONDS,
  memoryMax: config.CROSSREF_CACHE_MAX,
  countsLookups: false,
});

/** The cache key of a reference: its DOI, else its text as the matcher reads it (case and spacing aside). */
export function referenceKey(input: ReferenceInput): string {
  return input.kind === 'doi' ? `doi:${input.doi}` : `text:${input.text.replace(/\s+/g, ' ').trim().toLowerCase()}`;
}

const UNKNOWN_DOI =
  'Crossref has no record of this DOI (it may be registered with another agency, such as DataCite, or mistyped)';

function failure(reason: unknown): string {
  if (reason instanceof AppError) return reason.details;
  logger.error('reference lookup failed unexpectedly', { error: reason as Error });
  return 'Unexpected error while looking the reference up in Crossref';
}

/** Every DOI's work, by lower-case DOI; a DOI whose lookup failed maps to the failure's reason. */
async function lookUpDois(dois: readonly string[], deadline: number): Promise<Map<string, CrossrefWork | string>> {
  const found = new Map<string, CrossrefWork | string>();
  // A comma separates Crossref's filters, so a DOI holding one cannot be looked up by filter.
  const filterable = dois.filter((doi) => !doi.includes(','));
  for (const doi of dois) if (doi.includes(',')) found.set(doi, 'A DOI holding a comma cannot be looked up');
  const chunks: string[][] = [];
  for (let i = 0; i < filterable.length; i += DOIS_PER_LOOKUP) chunks.push(filterable.slice(i, i + DOIS_PER_LOOKUP));
  const outcomes = await mapSettled(chunks, config.CROSSREF_CONCURRENCY, (chunk) => worksByDoi(chunk, { deadline }));
  outcomes.forEach((outcome, i) => {
    for (const doi of chunks[i] ?? []) {
      if (outcome.status === 'rejected') found.set(doi, failure(outcome.reason));
      else {
        const work = outcome.value.get(doi);
        if (work) found.set(doi, work);
      }
    }
  });
  return found;
}

async function resolveMissing(inputs: readonly ReferenceInput[], deadline: number): Promise<Resolution[]> {
  const dois = [...new Set(inputs.flatMap((input) => (input.doi ? [input.doi] : [])))];
  const byDoi = dois.length > 0 ? await lookUpDois(dois, deadline) : new Map<string, CrossrefWork | string>();
  const results: (Resolution | undefined)[] = inputs.map((input) => {
    if (!input.doi) return undefined;
    const work = byDoi.get(input.doi);
    if (work && typeof work !== 'string') {
      const rule = input.kind === 'doi' ? 'doi' : 'doi_in_text';
      return { doi: work.DOI.toLowerCase(), match: { method: 'exact', score: null, rule }, reason: null, work };
    }
    if (input.kind === 'doi') {
      return { doi: null, match: { method: 'exact', score: null, rule: 'doi' }, reason: work ?? UNKNOWN_DOI };
    }
    // A reference whose DOI Crossref does not know is still searched for by its text.
    return undefined;
  });
  const searched = inputs.flatMap((input, i) => (results[i] === undefined && input.kind === 'text' ? [i] : []));
  const outcomes = await mapSettled(searched, config.CROSSREF_CONCURRENCY, async (i): Promise<Resolution> => {
    const input = inputs[i] as Extract<ReferenceInput, { kind: 'text' }>;
    const query = bibliographicQuery(input.text);
    if (!query) {
      return {
        doi: null,
        match: { method: 'search', score: null, rule: 'empty' },
        reason: 'The reference holds no words to look up',
      };
    }
    const outcome = matchReference(input.text, await searchReference(query, { deadline }));
    if (outcome.matched) {
      const { doi, score, rule, work } = outcome.matched;
      return { doi: doi.toLowerCase(), match: { method: 'search', score, rule }, reason: null, work };
    }
    return {
      doi: null,
      match: { method: 'search', score: outcome.score ?? null, rule: outcome.rule },
      reason: outcome.reason,
    };
  });
  outcomes.forEach((outcome, n) => {
    const i = searched[n] as number;
    results[i] =
      outcome.status === 'fulfilled'
        ? outcome.value
        : { doi: null, match: { method: 'search', score: null, rule: 'lookup_failed' }, reason: failure(outcome.reason) };
  });
  return results.map(
    (result) => result ?? { doi: null, match: { method: 'search', score: null, rule: 'not_looked_up' }, reason: 'Not looked up' },
  );
}

/**
 * Each reference's resolution, in order. Never rejects for one reference: a failed lookup, an unknown
 * DOI or no confident match is a resolution without a DOI that says why.
 */
export async function resolveReferences(
  references: readonly string[],
  options: { deadline: number; scope?: CacheScope },
): Promise<Resolution[]> {
  const inputs = references.map(parseReferenceInput);
  const outcomes = await resolved.rememberMany(
    inputs,
    referenceKey,
    async (missing) =>
      (await resolveMissing(missing, options.deadline)).map((value) => ({ status: 'fulfilled', value }) as const),
    { scope: options.scope, store: (resolution) => resolution.doi !== null },
  );
  return outcomes.map((outcome) =>
    outcome.status === 'fulfilled'
      ? outcome.value
      : { doi: null, match: { method: 'search', score: null, rule: 'lookup_failed' }, reason: failure(outcome.reason) },
  );
}
