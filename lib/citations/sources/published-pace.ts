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

/** A source's published pace for a deployment with or without a contact address (CROSSREF_MAILTO). */
export function publishedPace(source: keyof typeof PUBLISHED_PACE, withContact: boolean): number {
  return withContact ? PUBLISHED_PACE[source].withContact : PUBLISHED_PACE[source].anonymous;
}
