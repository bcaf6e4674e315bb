/**
 * The Crossref REST API client: one GET /works per paper over node:http(s) (as the SerpApi client, for
 * the same measured reasons), with its own short timeout inside the request's deadline and no retry. Crossref
 * is free and needs no key; a `mailto` from configuration puts the calls in its "polite" pool, whose
 * limits are per contact address. A failure only costs the paper its DOI and its locally rendered
 * citations (the index's cite call then gives them), so nothing here waits long.
 */
import { config } from '../../config.js';
import { AppError } from '../../errors.js';
import { deploymentPace } from '../../pace/deployment.js';
import { PACE_KEYS } from '../../routes.js';
import type { ScholarRecord } from '../model/scholar.js';
import type { CrossrefWork } from '../model/work.js';
import { fetchJson } from './fetch-json.js';
import { publishedInFlight, publishedPace } from './published-pace.js';

/** The fields a match, a check and an export need; the full record (references included) is often 50 times larger. */
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
  // What a reference check compares beyond them: the abbreviated journal, the print and online years, and
  // the update metadata (notices and the works they update; Retraction Watch's records among them).
  'short-container-title',
  'published-print',
  'published-online',
  'update-to',
  'updated-by',
].join(',');
/** Candidates per paper: the right work, when Crossref has it, is nearly always among the first few. */
const ROWS = 5;

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
 * Crossref's pace for the deployment (lib/pace/; for this process alone without a pace table):
 * CROSSREF_REQUESTS_PER_SECOND, else 5 a second without a contact address and 10 with one (Crossref's
 * public and polite limits since 1 December 2025), or what its answers state if that is stricter; at most
 * 1 lookup in flight at once (5 with a contact address), Crossref's concurrency limits; a 429 pauses every
 * lookup for its `Retry-After`.
 */
export const crossrefPace = deploymentPace(PACE_KEYS.crossref, 'Crossref', crossrefRate(), crossrefInFlight());

/** Crossref lookups in flight at once for the deployment: CROSSREF_IN_FLIGHT, else its limit for the pool the calls go to. */
export function crossrefInFlight(): number {
  return config.CROSSREF_IN_FLIGHT ?? (publishedInFlight('crossref', Boolean(config.CROSSREF_MAILTO)) as number);
}

/** The configured rate: CROSSREF_REQUESTS_PER_SECOND, else Crossref's limit for the pool the calls go to. */
export function crossrefRate(): number {
  return config.CROSSREF_REQUESTS_PER_SECOND ?? publishedPace('crossref', Boolean(config.CROSSREF_MAILTO));
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
  const url = `${config.CROSSREF_BASE_URL.replace(/\/+$/, '')}/works?${query}`;
  return worksOf(await fetchJson(url, crossrefPace, options));
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
