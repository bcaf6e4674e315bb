/**
 * Crossref's concurrency limit (docs/decisions.md §26): since December 2025 its public pool takes one
 * request in flight at a time from a client (the polite pool five), states it in every answer
 * (`x-concurrency-limit`), and refuses a request past it with a 429. The fake Crossref here keeps that
 * limit as Crossref does and takes a while to answer, so that lookups sent together would overlap; a
 * deployment without a contact address then has one lookup in flight at a time, whatever a request's own
 * concurrency (three), and no lookup is refused. The verdicts count what the fake saw in flight, never time.
 */
import { describe, expect, it } from 'vitest';
import { responseSchema as resolveSchema } from '../../lib/contract/cite-resolve.js';
import { responseSchema as searchSchema } from '../../lib/contract/cite-search.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { unrecordedPapers } from '../support/index-papers.js';

// No contact address: Crossref's public pool, whose limit the pace takes from the published one.
const { harness, crossref, servePapers } = await useCrossrefService({ CROSSREF_MAILTO: undefined });

/** Crossref's answer time here: long enough that lookups sent together are in flight together. */
const LATENCY_MS = 80;

describe('Crossref’s concurrency limit, kept', () => {
  it('looks up a page of six papers one at a time in the public pool: none refused for concurrency', async () => {
    crossref.limit({ inFlight: 1, delayMs: LATENCY_MS });
    servePapers('six unknown', 'six', unrecordedPapers(6, 'six'));
    const reply = await harness.service.post('/v1/cite/search', { query: 'six unknown' });
    expect(reply.status, reply.text).toBe(200);
    const data = searchSchema.parse(reply.json.data);
    expect(crossref.requests).toHaveLength(6);
    expect(crossref.refusedInFlight).toBe(0);
    expect(crossref.mostInFlight).toBe(1);
    // Every paper was looked up and answered: none cited from its index record for a refusal.
    expect(data.citation_details.map((detail) => detail.crossref_fallback)).toEqual(
      Array(6).fill(expect.stringMatching(/^Crossref has no work/)),
    );
  });

  it('resolves five free-text references one lookup at a time', async () => {
    crossref.limit({ inFlight: 1, delayMs: LATENCY_MS });
    const references = Array.from(
      { length: 5 },
      (_, i) => `Nobody, A. (2019). A reference no source has recorded, number ${i + 1}. Journal of Nothing, 3(2), 1-9.`,
    );
    const reply = await harness.service.post('/v1/cite/resolve', { references });
    expect(reply.status, reply.text).toBe(200);
    const data = resolveSchema.parse(reply.json.data);
    expect(data.references).toHaveLength(5);
    expect(crossref.requests.length).toBeGreaterThanOrEqual(5);
    expect(crossref.refusedInFlight).toBe(0);
    expect(crossref.mostInFlight).toBe(1);
    for (const reference of data.references) expect(reference.reason).not.toMatch(/429|not asked|not looked up/);
  });
});
