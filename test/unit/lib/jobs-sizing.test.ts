/** How many job workers a pace keeps busy (lib/jobs/sizing.ts), and the published paces it is given. */
import { describe, expect, it } from 'vitest';
import {
  PUBLISHED_IN_FLIGHT,
  PUBLISHED_PACE,
  publishedInFlight,
  publishedPace,
} from '../../../lib/citations/sources/published-pace.js';
import { LOOKUP_SECONDS, MAX_WORKERS, MIN_WORKERS, workerConcurrency } from '../../../lib/jobs/sizing.js';

describe('the workers a pace needs', () => {
  it("keeps Crossref's public and polite paces busy with three lookups in flight a worker, SQS's two at least", () => {
    expect(LOOKUP_SECONDS).toBe(1);
    expect(workerConcurrency(publishedPace('crossref', false), 3)).toBe(2);
    expect(workerConcurrency(publishedPace('crossref', true), 3)).toBe(4);
    expect(workerConcurrency(1, 3)).toBe(MIN_WORKERS);
    expect(workerConcurrency(7, 1)).toBe(7);
    expect(workerConcurrency(1_000, 3)).toBe(MAX_WORKERS);
  });

  it("runs no more workers than Crossref's concurrency limit keeps busy: 1 lookup in flight public, 5 polite", () => {
    expect(workerConcurrency(publishedPace('crossref', true), 3, publishedInFlight('crossref', true))).toBe(2);
    expect(workerConcurrency(publishedPace('crossref', false), 3, publishedInFlight('crossref', false))).toBe(MIN_WORKERS);
    expect(workerConcurrency(10, 1, 5)).toBe(5);
    expect(workerConcurrency(3, 1, 5)).toBe(3);
    expect(PUBLISHED_IN_FLIGHT).toEqual({ crossref: { anonymous: 1, withContact: 5 } });
    expect(publishedInFlight('datacite', true)).toBeUndefined();
  });

  it("takes Crossref's limits since December 2025 and the share of DataCite's this service uses", () => {
    expect(PUBLISHED_PACE).toEqual({ crossref: { anonymous: 5, withContact: 10 }, datacite: { anonymous: 1.5, withContact: 3 } });
  });
});
