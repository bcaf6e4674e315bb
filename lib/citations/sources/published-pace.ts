/**
 * The free record sources' published limits, as lookups a second, without and with a contact address:
 * Crossref 5 (public pool) and 10 (polite pool, `mailto`) since 1 December 2025; DataCite 500 and 1,000
 * requests per 5 minutes per IP address, of which this service takes 1.5 and 3. Free of configuration, so
 * that the stack (infra/jobs.ts sizes the job workers by them) can read them as the code does.
 */
export const PUBLISHED_PACE = {
  crossref: { anonymous: 5, withContact: 10 },
  datacite: { anonymous: 1.5, withContact: 3 },
} as const;

/**
 * Crossref's concurrency limits (calls in flight at once), without and with a contact address: 1 in the
 * public pool, 5 in the polite pool (Crossref's community forum, "Updates to REST API rate limits",
 * December 2025; its answers state it as `x-concurrency-limit`). DataCite publishes none.
 */
export const PUBLISHED_IN_FLIGHT = {
  crossref: { anonymous: 1, withContact: 5 },
} as const;

/** A source's published concurrency limit with or without a contact address; undefined when it publishes none. */
export function publishedInFlight(source: keyof typeof PUBLISHED_PACE, withContact: boolean): number | undefined {
  if (source !== 'crossref') return undefined;
  return withContact ? PUBLISHED_IN_FLIGHT.crossref.withContact : PUBLISHED_IN_FLIGHT.crossref.anonymous;
}

/** A source's published pace for a deployment with or without a contact address (CROSSREF_MAILTO). */
export function publishedPace(source: keyof typeof PUBLISHED_PACE, withContact: boolean): number {
  return withContact ? PUBLISHED_PACE[source].withContact : PUBLISHED_PACE[source].anonymous;
}
