/**
 * Crossref and DataCite as a good citizen, over real HTTP (docs/citations.md, "Pace"): one rate for the
 * whole container, whatever the requests (here 2 Crossref lookups and 1 DataCite lookup a second); a 429
 * honoured for its Retry-After; a page whose lookups are refused answered all the same, each paper cited
 * from the index's own record and saying why. The pace's starts are read from the pace itself and checked
 * against what the fakes received (a request never arrives before its start), so no verdict depends on
 * the machine's speed.
 */
import { describe, expect, it } from 'vitest';
import { responseSchema as resolveSchema } from '../../lib/contract/cite-resolve.js';
import { responseSchema as searchSchema } from '../../lib/contract/cite-search.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { scholarPage, unrecordedPapers } from '../support/index-papers.js';
import type { Reply } from '../support/service.js';

const { harness, crossref, dataCite, servePapers } = await useCrossrefService({
  CROSSREF_REQUESTS_PER_SECOND: '2',
  DATACITE_REQUESTS_PER_SECOND: '1',
  // Room for six paced lookups: the test is about the pace, not the budget.
  CROSSREF_BUDGET_MS: '20000',
});

// Imported once the service has set up the configuration, which the clients read on import.
const paces = async () => ({
  crossrefPace: (await import('../../lib/citations/sources/crossref.js')).crossrefPace,
  dataCitePace: (await import('../../lib/citations/sources/datacite.js')).dataCitePace,
});

function expectSuccess(reply: Reply, schema: { parse(value: unknown): unknown }) {
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  expect(schema.parse(reply.json.data)).toEqual(reply.json.data);
  return reply.json.data;
}

/** The most starts any window of `ms` holds. */
function mostInWindow(starts: readonly number[], ms: number): number {
  return Math.max(0, ...starts.map((start) => starts.filter((other) => other >= start && other < start + ms).length));
}

describe('the pace of Crossref lookups', () => {
  it('keeps the configured rate for the whole container: six lookups of two concurrent requests, at most two a second', async () => {
    const pages: Record<string, unknown> = {
      'three papers': scholarPage('three', unrecordedPapers(3, 'a')),
      'three more': scholarPage('more', unrecordedPapers(3, 'b')),
    };
    harness.upstream.respond((q) => (q.get('engine') === 'google_scholar' ? { json: pages[q.get('q') ?? ''] } : undefined));
    // Two citation searches at once: the pace is the container's, not a request's.
    const [first, second] = await Promise.all([
      harness.service.post('/v1/cite/search', { query: 'three papers' }),
      harness.service.post('/v1/cite/search', { query: 'three more' }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const { crossrefPace } = await paces();
    const starts = crossrefPace.starts();
    expect(starts).toHaveLength(crossref.requests.length);
    expect(mostInWindow(starts, 1_000)).toBeLessThanOrEqual(2);
    expect((starts.at(-1) ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(Math.floor((starts.length - 1) / 2) * 1_000);
    // Each request reached the fake no earlier than the start the pace gave it.
    const arrivals = crossref.arrivals.slice(-starts.length);
    arrivals.forEach((at, i) => {
      expect(at).toBeGreaterThanOrEqual(starts[i] as number);
    });
  }, 30_000);

  it('answers a page refused by a 429 with index records and the reason, and asks nothing during the pause', async () => {
    servePapers('refused page', 'refused', unrecordedPapers(4, 'r'));
    crossref.respond(() => ({ status: 429, body: 'Too Many Requests', headers: { 'retry-after': '120' } }));
    const data = expectSuccess(await harness.service.post('/v1/cite/search', { query: 'refused page' }), searchSchema);
    // The first lookup met the 429; the paper after it was not sent.
    expect(crossref.requests.length).toBeLessThan(4);
    expect(data.papers.map((p: { citations_source: string }) => p.citations_source)).toEqual(Array(4).fill('index-record'));
    for (const detail of data.citation_details) {
      expect(detail.crossref_fallback).toMatch(
        /^Crossref (?:refused the lookup for rate \(HTTP 429\)|asked for a pause \(HTTP 429\); not looked up) \(Retry-After: ask again after \S+Z\)$/,
      );
      expect(detail.fallback_reason).toBe(detail.crossref_fallback);
    }
    expect(data.papers.every((p: { citations: object }) => Object.keys(p.citations).length === 5)).toBe(true);
    expect((await paces()).crossrefPace.pausedUntil).toBeGreaterThan(Date.now() + 100_000);
  });
});

describe('the pace of DataCite lookups', () => {
  it('keeps its rate, and answers each reference refused by a 429 with the reason', async () => {
    // Twenty DOIs a lookup: 45 DOIs are three lookups.
    const dois = Array.from({ length: 45 }, (_, i) => `10.5281/zenodo.${i + 1}`);
    const data = expectSuccess(await harness.service.post('/v1/cite/resolve', { references: dois }), resolveSchema);
    const starts = (await paces()).dataCitePace.starts();
    expect(starts).toHaveLength(3);
    expect(mostInWindow(starts, 1_000)).toBe(1);
    expect(data.references.map((r: { reason: string }) => r.reason)).toEqual(
      dois.map(
        (doi) =>
          `DataCite, which registers this DOI prefix, has no record of this DOI (read as ${doi}; mistyped, or not registered yet)`,
      ),
    );

    dataCite.respond(() => ({ status: 429, body: '', headers: { 'retry-after': '60' } }));
    const refused = expectSuccess(
      await harness.service.post('/v1/cite/resolve', {
        references: Array.from({ length: 21 }, (_, i) => `10.5281/zenodo.${i + 100}`),
      }),
      resolveSchema,
    );
    // The first lookup (twenty DOIs) met the 429; the one after it was not sent. DataCite's Retry-After
    // (60 s) is passed on: when to ask again.
    expect(refused.references.map((r: { reason: string }) => r.reason.replace(/\S+Z\)$/, '<time>)'))).toEqual([
      ...Array(20).fill('DataCite refused the lookup for rate (HTTP 429) (Retry-After: ask again after <time>)'),
      'DataCite asked for a pause (HTTP 429); not looked up (Retry-After: ask again after <time>)',
    ]);
  }, 30_000);
});
