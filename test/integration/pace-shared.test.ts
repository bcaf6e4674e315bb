/**
 * One pace for the deployment (lib/pace/, docs/decisions.md §26): three containers (three service processes,
 * each with its own memory) share the pace table (dynalite on loopback, through the real AWS SDK) and
 * together start no more Crossref lookups in any second than the rate allows, where each alone would have
 * started that many. Their searches are answered at the same moment (the fake SerpApi holds each until all
 * three have asked), so that their lookups compete. The verdict reads the starts the paces gave (each
 * process reports its own) and checks them against what the fake Crossref received (as many requests, none
 * arrived before its start): arithmetic on recorded times, never on how fast the machine ran. Together they
 * also keep Crossref's concurrency limit: the fake Crossref, slow to answer and refusing a request past its
 * limit as Crossref does, never has two of their lookups in flight at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';
import { type FakeCrossref, startFakeCrossref } from '../support/fake-crossref.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { scholarPage, unrecordedPapers } from '../support/index-papers.js';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.js';

const CONTAINERS = 3;
const PAPERS_EACH = 3;
/** Crossref lookups the deployment may start in any second. */
const RATE = 2;

let table: CacheTableServer;
let crossref: FakeCrossref;
let upstream: FakeSerpApi;
let containers: ServiceProcess[] = [];

beforeAll(async () => {
  [table, crossref, upstream] = await Promise.all([
    startCacheTable('search-citation-pace'),
    startFakeCrossref(),
    startFakeSerpApi(),
  ]);
  const { CACHE_TABLE_NAME: _cache, ...tableEnv } = table.env;
  containers = await Promise.all(
    Array.from({ length: CONTAINERS }, () =>
      startServiceProcess({
        ...tableEnv,
        PACE_TABLE_NAME: table.tableName,
        SERPAPI_BASE_URL: upstream.url,
        CROSSREF_BASE_URL: crossref.url,
        CROSSREF_REQUESTS_PER_SECOND: String(RATE),
        // Crossref's public pool: one lookup in flight at a time, for the deployment.
        CROSSREF_IN_FLIGHT: '1',
        // A table slower than this is taken for down, and each container then keeps the pace alone (another
        // test's matter): on a busy machine dynalite, and a new process's first SDK load, can take seconds.
        PACE_TIMEOUT_MS: '20000',
        // Room for every paced lookup: the test is about the pace, not the lookups' budget.
        CROSSREF_BUDGET_MS: '20000',
      }),
    ),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(containers.map((container) => container.stop()));
  await Promise.all([table?.close(), crossref?.close(), upstream?.close()]);
});

/** The most starts any window of `ms` holds. */
function mostInWindow(starts: readonly number[], ms: number): number {
  return Math.max(0, ...starts.map((start) => starts.filter((other) => other >= start && other < start + ms).length));
}

const papers = (container: number) => unrecordedPapers(PAPERS_EACH, `container ${container}`);

/**
 * Each container searches a page of its own papers (`papers(i + offset)`), all three at once: each search is
 * answered once all three have asked, so that their lookups start together. Every paper was looked up:
 * none was refused for want of time or for rate.
 */
async function searchAtOnce(query: string, offset: number): Promise<void> {
  const pages = new Map(
    containers.map((_, i) => [`${query} ${i}`, scholarPage(`${query.replace(/\s+/g, '-')}-${i}`, papers(i + offset))]),
  );
  upstream.respond((q) => (q.get('engine') === 'google_scholar' ? { json: pages.get(q.get('q') ?? '') } : undefined));
  const waiting: (() => void)[] = [];
  upstream.hold = (q) => {
    if (q.get('engine') !== 'google_scholar') return undefined;
    return new Promise<void>((release) => {
      waiting.push(release);
      if (waiting.length === CONTAINERS) for (const go of waiting) go();
    });
  };
  const replies = await Promise.all(
    containers.map((container, i) => container.post('/v1/cite/search', { query: `${query} ${i}` })),
  );
  expect(replies.map((reply) => reply.status)).toEqual(Array(CONTAINERS).fill(200));
  for (const reply of replies) {
    for (const detail of reply.json.data.citation_details) expect(detail.crossref_fallback).toMatch(/^Crossref has no work/);
  }
}

describe('the deployment’s pace, kept by several containers together', () => {
  it('starts at most the configured Crossref lookups in any second across three containers searching at once', async () => {
    await searchAtOnce('pace page', 0);

    const given = await Promise.all(
      containers.map((container) => container.call<{ crossref: number[]; storeFailures: string[] }>('paceStarts')),
    );
    // Every turn was taken in the table (none in a container's own memory).
    expect(given.flatMap((each) => each.storeFailures)).toEqual([]);
    const starts = given.flatMap((each) => each.crossref).sort((a, b) => a - b);
    expect(starts).toHaveLength(CONTAINERS * PAPERS_EACH);
    expect(crossref.requests).toHaveLength(starts.length);
    // Together within the rate: each container alone would have started two at once.
    expect(mostInWindow(starts, 1_000)).toBeLessThanOrEqual(RATE);
    // No request reached Crossref before a start was given for it.
    const arrivals = [...crossref.arrivals].sort((a, b) => a - b);
    arrivals.forEach((at, k) => {
      expect(at).toBeGreaterThanOrEqual(starts[k] as number);
    });
    // The turns were taken in the table, under Crossref's item (DataCite's was read once, as each container started).
    expect(new Set(table.calls.flatMap((call) => call.keys))).toEqual(new Set(['crossref', 'datacite']));
  }, 120_000);

  it('has one Crossref lookup in flight at a time across three containers, Crossref’s public concurrency limit', async () => {
    crossref.reset();
    // Slow enough that lookups sent together are in flight together; a request past the limit is refused.
    crossref.limit({ inFlight: 1, delayMs: 150 });
    await searchAtOnce('flight page', 10);
    expect(crossref.requests).toHaveLength(CONTAINERS * PAPERS_EACH);
    expect(crossref.refusedInFlight).toBe(0);
    expect(crossref.mostInFlight).toBe(1);
    const given = await Promise.all(containers.map((container) => container.call<{ storeFailures: string[] }>('paceStarts')));
    expect(given.flatMap((each) => each.storeFailures)).toEqual([]);
  }, 120_000);
});
