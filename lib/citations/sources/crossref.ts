/**
 * The Crossref REST API client: one GET /works per paper over node:http(s) (as the SerpApi client, for
 * the same measured reasons), with its own short timeout inside the request's deadline and no retry. Crossref
 * is free and needs no key; a `mailto` from configuration puts the calls in its "polite" pool, whose
 * limits are per contact address. A failure only costs the paper its DOI and its locally rendered
 * citations (the index's cite call then gives them), so nothing here waits long.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../../config.js';
import { AppError } from '../../errors.js';
import { httpGet } from '../../http-get.js';
import type { ScholarRecord } from '../model/scholar.js';
import type { CrossrefWork } from '../model/work.js';

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

/**
 * Crossref's pace, as its answers state it (its etiquette since the limits tightened in December 2025):
 * every answer carries `x-rate-limit-limit` requests per `x-rate-limit-interval` (e.g. 50 per "1s"), and
 * this container spaces its lookups to stay within that; a 429 pauses every lookup for `Retry-After`, else
 * for one interval. A lookup that would have to wait past its deadline, or that falls in a pause, is not
 * sent: the paper goes without its record (and its citations come from the index) rather than pressing.
 */
export const crossrefPace = {
  /** Least time between two lookups' starts, from the last answer's headers; 0 until one states it. */
  gapMs: 0,
  /** When the next lookup may start. */
  nextStart: 0,
  /** Until when Crossref asked for a pause (429). */
  pausedUntil: 0,
  /** Forgets what Crossref said (the tests, which play several Crossrefs in one process). */
  reset(): void {
    this.gapMs = 0;
    this.nextStart = 0;
    this.pausedUntil = 0;
  },
};

/** "1s", "60s", "1m", "500ms" → milliseconds; undefined for anything else. */
export function intervalMs(value: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(value ?? '');
  if (!match) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  return Number(match[1]) * (unit === 'ms' ? 1 : unit === 'm' ? 60_000 : 1_000);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Learns the pace from an answer's headers, and pauses on a 429. */
export function notePace(status: number, headers: IncomingHttpHeaders, now = Date.now()): void {
  const limit = Number(header(headers, 'x-rate-limit-limit'));
  const interval = intervalMs(header(headers, 'x-rate-limit-interval'));
  if (Number.isFinite(limit) && limit > 0 && interval !== undefined) crossrefPace.gapMs = interval / limit;
  if (status === 429) {
    const retryAfter = Number(header(headers, 'retry-after'));
    const pause = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1_000 : (interval ?? 1_000);
    crossrefPace.pausedUntil = Math.max(crossrefPace.pausedUntil, now + pause);
  }
}

/** When this lookup may start (and the slot is taken), or why it must not be sent. */
function slot(deadline: number, now: number): { startAt: number } | { refused: AppError } {
  if (now < crossrefPace.pausedUntil) {
    return {
      refused: new AppError('UPSTREAM_QUOTA_EXCEEDED', {
        details: 'Crossref asked for a pause (HTTP 429); the paper was not looked up',
      }),
    };
  }
  const startAt = Math.max(now, crossrefPace.nextStart);
  if (startAt >= deadline) return { refused: timeoutError() };
  crossrefPace.nextStart = startAt + crossrefPace.gapMs;
  return { startAt };
}

/**
 * The /works query for a free-text reference (citation resolving): the cleaned text as the bibliographic
 * query, nothing else. No year filter: a reference's year is only known once a candidate is checked
 * against it (lib/citations/match/reference-match.ts).
 */
export function referenceQuery(text: string, mailto = config.CROSSREF_MAILTO): URLSearchParams {
  const query = new URLSearchParams({ 'query.bibliographic': text, rows: String(ROWS), select: SELECT });
  if (mailto) query.set('mailto', mailto);
  return query;
}

/** DOIs per direct lookup: Crossref ORs repeated filters of one name, and 20 keep the URL short. */
export const DOIS_PER_LOOKUP = 20;

/**
 * The /works query for DOIs looked up directly: one `doi:` filter each, in one request. A DOI holding a
 * comma cannot be a filter value (commas separate filters); the caller looks those up on their own.
 */
export function doiQuery(dois: readonly string[], mailto = config.CROSSREF_MAILTO): URLSearchParams {
  const query = new URLSearchParams({
    filter: dois.map((doi) => `doi:${doi}`).join(','),
    rows: String(dois.length),
    select: SELECT,
  });
  if (mailto) query.set('mailto', mailto);
  return query;
}

/** One paced GET /works within the deadline; rejects with an AppError. */
async function getWorks(query: URLSearchParams, options: { deadline: number; timeoutMs?: number }): Promise<CrossrefWork[]> {
  const turn = slot(options.deadline, Date.now());
  if ('refused' in turn) throw turn.refused;
  if (turn.startAt > Date.now()) await sleep(turn.startAt - Date.now());
  const remaining = options.deadline - Date.now();
  if (remaining <= 0) throw timeoutError();
  const url = `${config.CROSSREF_BASE_URL.replace(/\/+$/, '')}/works?${query}`;
  return worksOf(await getJson(url, Math.min(options.timeoutMs ?? config.CROSSREF_TIMEOUT_MS, remaining)));
}

/** Crossref's candidates for the paper, best first by its own ranking; rejects with an AppError. */
export function searchWorks(record: ScholarRecord, options: { deadline: number; timeoutMs?: number }): Promise<CrossrefWork[]> {
  return getWorks(worksQuery(record), options);
}

/** Crossref's candidates for a free-text reference, best first by its own ranking; rejects with an AppError. */
export function searchReference(text: string, options: { deadline: number; timeoutMs?: number }): Promise<CrossrefWork[]> {
  return getWorks(referenceQuery(text), options);
}

/**
 * The Crossref works of these DOIs (at most DOIS_PER_LOOKUP, none holding a comma), by lower-case DOI: one
 * request. A DOI Crossref does not know (another agency's, or none) is simply absent; rejects with an
 * AppError when the lookup itself fails.
 */
export async function worksByDoi(
  dois: readonly string[],
  options: { deadline: number; timeoutMs?: number },
): Promise<Map<string, CrossrefWork>> {
  const works = await getWorks(doiQuery(dois), options);
  return new Map(works.map((work) => [work.DOI.toLowerCase(), work]));
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
  if (outcome.ok) notePace(outcome.status, outcome.headers);
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
