/**
 * The Crossref REST API client: one GET /works per paper over node:http(s) (as the SerpApi client, for
 * the same measured reasons), with its own short timeout inside the request's deadline and no retry. Crossref
 * is free and needs no key; a `mailto` from configuration puts the calls in its "polite" pool, whose
 * limits are per contact address. A failure only costs the paper its DOI, so nothing here waits long.
 */
import { config } from '../config.js';
import { AppError } from '../errors.js';
import { httpGet } from '../http-get.js';
import type { CrossrefWork, ScholarRecord } from './match.js';

/** The fields a match and an export need; the full record (references included) is often 50 times larger. */
const SELECT = [
  'DOI',
  'title',
  'subtitle',
  'author',
  'editor',
  'issued',
  'container-title',
  'type',
  'volume',
  'issue',
  'page',
  'publisher',
  'ISBN',
  'ISSN',
  'URL',
].join(',');
/** Candidates per paper: the right work, when Crossref has it, is nearly always among the first few. */
const ROWS = 5;
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/**
 * The /works query for a paper: its title as the bibliographic query, its first author's family name as
 * the author query, and when the year is known only works issued within a year of it.
 */
export function worksQuery(record: ScholarRecord, mailto = config.CROSSREF_MAILTO): URLSearchParams {
  const query = new URLSearchParams({ 'query.bibliographic': record.title });
  const family = record.authors[0]?.family;
  if (family) query.set('query.author', family);
  if (record.year !== null) query.set('filter', `from-pub-date:${record.year - 1},until-pub-date:${record.year + 1}`);
  query.set('rows', String(ROWS));
  query.set('select', SELECT);
  if (mailto) query.set('mailto', mailto);
  return query;
}

/** Crossref's candidates for the paper, best first by its own ranking; rejects with an AppError. */
export function searchWorks(record: ScholarRecord, options: { deadline: number; timeoutMs?: number }): Promise<CrossrefWork[]> {
  const remaining = options.deadline - Date.now();
  if (remaining <= 0) return Promise.reject(timeoutError());
  const url = `${config.CROSSREF_BASE_URL.replace(/\/+$/, '')}/works?${worksQuery(record)}`;
  return getJson(url, Math.min(options.timeoutMs ?? config.CROSSREF_TIMEOUT_MS, remaining)).then(worksOf);
}

function worksOf(json: unknown): CrossrefWork[] {
  const items = (json as { message?: { items?: unknown } } | null)?.message?.items;
  if (!Array.isArray(items)) throw new AppError('UPSTREAM_ERROR', { details: 'Crossref answered with an unexpected shape' });
  return items.filter(
    (item): item is CrossrefWork => typeof item === 'object' && item !== null && typeof (item as CrossrefWork).DOI === 'string',
  );
}

function timeoutError(): AppError {
  return new AppError('UPSTREAM_TIMEOUT', { details: 'Crossref did not answer in time' });
}

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  const contact = config.CROSSREF_MAILTO ? ` (mailto:${config.CROSSREF_MAILTO})` : '';
  const outcome = await httpGet(url, {
    // Crossref's etiquette: say who is calling, so that they can write before they block.
    headers: { 'User-Agent': `${config.POWERTOOLS_SERVICE_NAME}${contact}` },
    timeoutMs,
    maxBytes: MAX_RESPONSE_BYTES,
    // The cap counts bytes as they arrive, unpacked; a gzip answer's Content-Length counts them packed.
    refuseByLength: false,
    // A refusal's body says nothing the status does not; it is drained unread, so the refusal is answered at once.
    readBody: (status) => status === 200,
  });
  if (!outcome.ok) {
    if (outcome.reason === 'timeout') throw timeoutError();
    if (outcome.reason === 'too-large') {
      throw new AppError('UPSTREAM_ERROR', { details: 'Crossref sent an answer too large to be a work list' });
    }
    throw new AppError('UPSTREAM_ERROR', { details: 'Could not reach Crossref', cause: outcome.cause });
  }
  if (outcome.status !== 200) {
    throw new AppError(outcome.status === 429 ? 'UPSTREAM_QUOTA_EXCEEDED' : 'UPSTREAM_ERROR', {
      details:
        outcome.status === 429 ? 'Crossref refused the lookup for rate (HTTP 429)' : `Crossref answered HTTP ${outcome.status}`,
    });
  }
  try {
    return JSON.parse(outcome.text);
  } catch (cause) {
    throw new AppError('UPSTREAM_ERROR', { details: 'Crossref answered with something that is not JSON', cause });
  }
}
