import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerTtlFor } from '../../../functions/alpha-trends.js';
import { answerKey, answerTtlSeconds, withAnswerCache, worthKeeping } from '../../../lib/cache/answer-cache.js';
import { type CacheTable, fromItem, ITEM_LIMIT_BYTES, type TableEntry, toItem } from '../../../lib/cache/dynamo-table.js';
import { type CacheScope, createSharedCache, tableKey } from '../../../lib/cache/shared.js';
import { loadConfig } from '../../../lib/config.js';
import { type CacheActivity, cacheMetricValues, xCacheHeader } from '../../../lib/request-state.js';
import type { SearchOptions, SerpApiJson, SerpApiParams, Upstream } from '../../../lib/upstream/serpapi.js';

/**
 * A table kept in a Map, recording every call, that can be told to find nothing (as a failing table does).
 * An item lives an hour unless `expiresAtMs` says otherwise.
 */
function mapTable() {
  const items = new Map<string, unknown>();
  const expiresAtMs = new Map<string, number>();
  const calls: { op: 'get' | 'put'; keys: string[] }[] = [];
  const table: CacheTable & { failing: boolean } = {
    failing: false,
    async getMany(keys, { activity }) {
      calls.push({ op: 'get', keys: [...keys] });
      if (table.failing) {
        activity.tableErrors += 1;
        return new Map();
      }
      const live = keys.filter((key) => items.has(key) && (expiresAtMs.get(key) ?? Date.now() + 3_600_000) > Date.now());
      return new Map(
        live.map((key) => [key, { value: items.get(key), expiresAtMs: expiresAtMs.get(key) ?? Date.now() + 3_600_000 }]),
      );
    },
    async putMany(entries: readonly TableEntry[]) {
      calls.push({ op: 'put', keys: entries.map((e) => e.key) });
      if (!table.failing) for (const entry of entries) items.set(entry.key, entry.value);
    },
  };
  return { table, items, expiresAtMs, calls };
}

function scope(fresh = false): CacheScope & { activity: CacheActivity } {
  return { fresh, activity: { memoryHits: 0, tableHits: 0, misses: 0, tableErrors: 0, duplicateCalls: 0, pendingWrites: [] } };
}

const settled = <V>(value: V): PromiseSettledResult<V> => ({ status: 'fulfilled', value });

// Memory lifetimes run on performance.now() and table lifetimes on Date.now(): both move together here.
const fakeClock = () => vi.useFakeTimers({ toFake: ['Date', 'performance'] });
afterEach(() => {
  vi.useRealTimers();
});

/** An upstream that gives `answer` to every search and records each call as the cache passed it on. */
function fakeUpstream(answer: SerpApiJson) {
  const calls: { engine: string; params: SerpApiParams; options: unknown }[] = [];
  const upstream: Upstream = {
    deadline: Date.now() + 60_000,
    async search(engine, params, options) {
      calls.push({ engine, params, options });
      return answer;
    },
    plan: () => undefined,
    close: async () => undefined,
  };
  return { upstream, calls };
}

describe('createSharedCache', () => {
  it('reads memory, then the table, then loads; stores what it loaded in both', async () => {
    const { table, items } = mapTable();
    const cache = createSharedCache<string>({ name: 'test-v1', ttlSeconds: 60, memoryMax: 10, table });
    const s = scope();
    let loads = 0;
    const load = async () => `value ${++loads}`;
    expect(await cache.remember('k', load, { scope: s })).toBe('value 1');
    await Promise.all(s.activity.pendingWrites);
    expect(items.get('test-v1#k')).toBe('value 1');
    expect(await cache.remember('k', load, { scope: s })).toBe('value 1');
    cache.memory.clear();
    expect(await cache.remember('k', load, { scope: s })).toBe('value 1');
    expect(s.activity).toMatchObject({ misses: 1, memoryHits: 1, tableHits: 1 });
    expect(loads).toBe(1);
  });

  it('reads many keys with one table call, loads only the unknown ones, and writes them with one call', async () => {
    const { table, items, calls } = mapTable();
    items.set('cite-v1#b', 'B');
    const cache = createSharedCache<string>({ name: 'cite-v1', ttlSeconds: 60, memoryMax: 10, table });
    cache.memory.set('a', 'A');
    const s = scope();
    const asked: string[][] = [];
    const outcomes = await cache.rememberMany(
      ['a', 'b', 'c', '', 'd'],
      (key) => key,
      async (keys) => {
        asked.push(keys);
        return keys.map((key) => (key === 'd' ? { status: 'rejected', reason: new Error('no') } : settled(key.toUpperCase())));
      },
      { scope: s },
    );
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'failed'))).toEqual(['A', 'B', 'C', '', 'failed']);
    expect(asked).toEqual([['c', '', 'd']]);
    // The empty answer and the failure are not stored; an empty key is never looked up.
    expect(calls).toEqual([
      { op: 'get', keys: ['cite-v1#b', 'cite-v1#c', 'cite-v1#d'] },
      { op: 'put', keys: ['cite-v1#c'] },
    ]);
    expect(s.activity).toMatchObject({ memoryHits: 1, tableHits: 1, misses: 3 });
    expect(xCacheHeader(s.activity)).toBe('partial; hits=2; misses=3');
  });

  it('with a fresh scope, skips both levels and still stores the fresh values', async () => {
    const { table, items, calls } = mapTable();
    items.set('n-v1#k', 'old');
    const cache = createSharedCache<string>({ name: 'n-v1', ttlSeconds: 60, memoryMax: 10, table });
    const s = scope(true);
    expect(await cache.remember('k', async () => 'new', { scope: s })).toBe('new');
    await Promise.all(s.activity.pendingWrites);
    expect(items.get('n-v1#k')).toBe('new');
    expect(calls.map((c) => c.op)).toEqual(['put']);
    expect(xCacheHeader(s.activity)).toBe('miss');
  });

  it('answers from the loader when the table finds nothing because it is failing', async () => {
    const { table } = mapTable();
    table.failing = true;
    const cache = createSharedCache<string>({ name: 'f-v1', ttlSeconds: 60, memoryMax: 0, table });
    const s = scope();
    expect(await cache.remember('k', async () => 'loaded', { scope: s })).toBe('loaded');
    expect(s.activity.tableErrors).toBe(1);
  });

  it("keeps a value copied from the table in memory for the rest of its item's life, not the full time to live", async () => {
    fakeClock();
    const { table, items, expiresAtMs } = mapTable();
    for (const key of ['l-v1#one', 'l-v1#many']) {
      items.set(key, 'stored');
      expiresAtMs.set(key, Date.now() + 30_000);
    }
    const cache = createSharedCache<string>({ name: 'l-v1', ttlSeconds: 3_600, memoryMax: 10, table });
    const s = scope();
    const lookUp = async () => [
      await cache.remember('one', async () => 'loaded', { scope: s }),
      ...(
        await cache.rememberMany(
          ['many'],
          (key) => key,
          async (keys) => keys.map(() => settled('loaded')),
          { scope: s },
        )
      ).map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : 'failed')),
    ];
    expect(await lookUp()).toEqual(['stored', 'stored']);
    vi.advanceTimersByTime(29_000);
    expect(await lookUp()).toEqual(['stored', 'stored']);
    expect(s.activity).toMatchObject({ tableHits: 2, memoryHits: 2, misses: 0 });
    // The items have expired: neither the table nor memory may answer with them any more.
    vi.advanceTimersByTime(1_000);
    expect(await lookUp()).toEqual(['loaded', 'loaded']);
    expect(s.activity).toMatchObject({ tableHits: 2, memoryHits: 2, misses: 2 });
  });

  it('with countsLookups false, counts no hits or misses for X-Cache, yet still reads, stores and waits for its writes', async () => {
    const { table, items } = mapTable();
    items.set('c-v1#known', 'K');
    const cache = createSharedCache<string>({ name: 'c-v1', ttlSeconds: 60, memoryMax: 10, table, countsLookups: false });
    const s = scope();
    const outcomes = await cache.rememberMany(
      ['known', 'new', 'empty'],
      (key) => key,
      async (keys) => keys.map((key) => settled(key === 'empty' ? '' : key.toUpperCase())),
      { scope: s, store: (value) => value !== '' },
    );
    expect(outcomes).toEqual([settled('K'), settled('NEW'), settled('')]);
    expect(s.activity.pendingWrites).toHaveLength(1);
    await Promise.all(s.activity.pendingWrites);
    expect(items.get('c-v1#new')).toBe('NEW');
    expect(await cache.remember('new', async () => 'reloaded', { scope: s })).toBe('NEW');
    expect(s.activity).toMatchObject({ memoryHits: 0, tableHits: 0, misses: 0 });
    expect(xCacheHeader(s.activity)).toBe('miss');
  });

  it('with a time to live of 0, neither looks up nor stores', async () => {
    const { table, calls } = mapTable();
    const cache = createSharedCache<string>({ name: 'z-v1', ttlSeconds: 60, memoryMax: 10, table });
    const s = scope();
    await cache.remember('k', async () => 'v', { scope: s, ttlSeconds: 0 });
    await cache.remember('k', async () => 'v', { scope: s, ttlSeconds: 0 });
    expect(calls).toEqual([]);
    expect(s.activity.misses).toBe(0);
  });
});

describe('table items', () => {
  it('round-trips a value, gzipped, with expires_at in epoch seconds', () => {
    const item = toItem({ key: 'k', value: { a: [1, 'two'] }, ttlSeconds: 60 }, 1_000_000);
    expect(item?.expires_at.N).toBe('1060');
    expect(fromItem(item as never, 1_000_000)).toEqual({ a: [1, 'two'] });
  });

  it('treats an item past expires_at as absent, as DynamoDB may still return it', () => {
    const item = toItem({ key: 'k', value: 'v', ttlSeconds: 60 }, 0);
    expect(fromItem(item as never, 59_000)).toBe('v');
    expect(fromItem(item as never, 60_000)).toBeUndefined();
  });

  it('refuses a value that would not fit in a 400 KB item, even gzipped', () => {
    // Random bytes do not compress: base64 of 400 KB of them gzips to more than 400 KB.
    const random = randomBytes(ITEM_LIMIT_BYTES).toString('base64');
    expect(gzipSync(random).length).toBeGreaterThan(ITEM_LIMIT_BYTES);
    expect(toItem({ key: 'k', value: random, ttlSeconds: 60 }, 0)).toBeUndefined();
    expect(toItem({ key: 'k', value: random.slice(0, 300_000), ttlSeconds: 60 }, 0)).toBeDefined();
    // Text that compresses well is stored even when its JSON is larger than the limit.
    expect(toItem({ key: 'k', value: 'a'.repeat(ITEM_LIMIT_BYTES * 2), ttlSeconds: 60 }, 0)).toBeDefined();
  });

  it('keys a short key as itself and hashes a long one', () => {
    expect(tableKey('cite-v1', 'abc')).toBe('cite-v1#abc');
    const long = tableKey('answer-v1', 'q='.padEnd(2_000, 'x'));
    expect(long).toMatch(/^answer-v1#sha256:[0-9a-f]{64}$/);
  });
});

describe('answer keys and lifetimes', () => {
  it('includes the engine and every parameter, in a fixed order, leaving out empty ones', () => {
    expect(answerKey('webAlpha', { q: 'coffee', num: 10, start: 0, hl: undefined })).toBe(
      answerKey('webAlpha', { start: 0, num: 10, q: 'coffee', location: '' }),
    );
    expect(answerKey('webAlpha', { q: 'coffee', start: 0 })).not.toBe(answerKey('news', { q: 'coffee', start: 0 }));
    expect(answerKey('webAlpha', { q: 'coffee', start: 0 })).not.toBe(answerKey('webAlpha', { q: 'coffee', start: 10 }));
    expect(answerKey('webAlpha', { q: 'a&b=c' })).not.toBe(answerKey('webAlpha', { q: 'a', b: 'c' }));
  });

  it("keeps an answer only when it holds results and SerpApi did not mark it with an error (its 'no results' answer)", () => {
    expect(worthKeeping('webAlpha', { organic_results: [{ title: 'A' }], search_metadata: {} })).toBe(true);
    expect(worthKeeping('webAlpha', { organic_results: [], search_metadata: {} })).toBe(false);
    expect(worthKeeping('webAlpha', { search_metadata: {} })).toBe(false);
    expect(worthKeeping('webAlpha', { error: "Google hasn't returned any results for this query." })).toBe(false);
  });

  it.each([
    ['webAlpha', { organic_results: [{}] }, { organic_results: [], related_searches: [{}] }],
    ['webBravo', { organic_results: [{}] }, { organic_results: [] }],
    ['webCharlie', { organic_results: [{}] }, { organic_results: [] }],
    ['webDelta', { organic_results: [{}] }, { organic_results: [] }],
    ['news', { news_results: [{ stories: [{}] }] }, { news_results: [] }],
    ['images', { images_results: [{}] }, { images_results: [] }],
    ['trends', { interest_over_time: { timeline_data: [{}] } }, { interest_over_time: { timeline_data: [] } }],
    ['trends', { interest_by_region: [{}] }, { interest_by_region: [] }],
    ['trends', { compared_breakdown_by_region: [{}] }, { compared_breakdown_by_region: [] }],
    ['scholar', { organic_results: [{}] }, { organic_results: [] }],
    ['scholarCite', { citations: [{}], links: [] }, { citations: [], links: [{}] }],
    ['scholarAuthor', { author: {}, articles: [{}] }, { author: { name: 'A' }, articles: [] }],
    ['scholarAuthor', { citation: { title: 'T' } }, { search_metadata: {} }],
  ] as const)('%s: keeps an answer with results, not one without', (engine, full, empty) => {
    expect(worthKeeping(engine, full as SerpApiJson)).toBe(true);
    expect(worthKeeping(engine, empty as SerpApiJson)).toBe(false);
  });

  it('reads the default lifetime and per-endpoint exceptions from the configuration', () => {
    const base = { API_KEYS: 'k', SERPAPI_API_KEY: 'a'.repeat(64) };
    expect(
      loadConfig({ ...base, ANSWER_CACHE_TTL_BY_ENDPOINT: 'alpha-news=600, alpha-trends=0' }).ANSWER_CACHE_TTL_BY_ENDPOINT,
    ).toEqual({ 'alpha-news': 600, 'alpha-trends': 0 });
    expect(() => loadConfig({ ...base, ANSWER_CACHE_TTL_BY_ENDPOINT: 'no-such-endpoint=5' })).toThrow(
      /ANSWER_CACHE_TTL_BY_ENDPOINT: must be name=seconds pairs/,
    );
    expect(loadConfig(base).CITE_CACHE_TTL_SECONDS).toBe(30 * 86_400);
    expect(answerTtlSeconds('/v1/web-search/alpha')).toBe(3_600);
  });
});

describe('the answer cache around the upstream', () => {
  const WEB = '/v1/web-search/alpha';

  it('asks SerpApi to skip its own cache only for a no_cache request, and keys the answer without no_cache', async () => {
    const { upstream, calls } = fakeUpstream({ organic_results: [{ title: 'A' }] });
    const fresh = withAnswerCache(upstream, WEB, scope(true));
    const normal = withAnswerCache(upstream, WEB, scope());
    await fresh.search('webAlpha', { q: 'unit fresh' });
    // The fresh answer is the one a normal request then finds.
    await normal.search('webAlpha', { q: 'unit fresh' });
    await normal.search('webAlpha', { q: 'unit normal' });
    // Citations are cached by their handler, yet a bypass still reaches past SerpApi's cache.
    await fresh.search('scholarCite', { q: 'unit-cite' });
    expect(calls.map((call) => call.params)).toEqual([
      { q: 'unit fresh', no_cache: true },
      { q: 'unit normal' },
      { q: 'unit-cite', no_cache: true },
    ]);
  });

  it('stores no answer without results, so the next request asks again', async () => {
    const { upstream, calls } = fakeUpstream({ organic_results: [], search_metadata: {} });
    const cached = withAnswerCache(upstream, WEB, scope());
    await cached.search('webAlpha', { q: 'unit empty' });
    await cached.search('webAlpha', { q: 'unit empty' });
    expect(calls).toHaveLength(2);
  });

  it('keeps a Trends answer for a `now` window minutes instead of the hour, and passes the upstream no cache option', async () => {
    fakeClock();
    const { upstream, calls } = fakeUpstream({ interest_over_time: { timeline_data: [{ date: 'now' }] } });
    const cached = withAnswerCache(upstream, '/v1/alpha/trends', scope());
    const askAll = async () => {
      for (const date of ['now 1-H', 'now 1-d', 'today 12-m']) {
        const options: SearchOptions = { answerTtlSeconds: answerTtlFor(date) };
        await cached.search('trends', { q: 'unit trends', date }, options);
      }
    };
    await askAll();
    vi.advanceTimersByTime(5 * 60_000);
    await askAll();
    vi.advanceTimersByTime(10 * 60_000);
    await askAll();
    expect(calls.map((call) => call.params.date)).toEqual(['now 1-H', 'now 1-d', 'today 12-m', 'now 1-H', 'now 1-H', 'now 1-d']);
    expect(calls.every((call) => !Object.hasOwn(call.options as object, 'answerTtlSeconds'))).toBe(true);
  });

  it("gives Trends answers 5 minutes for now 1-H and now 4-H, 15 for now 1-d and now 7-d, else the endpoint's own", () => {
    expect(['now 1-H', 'now 4-H', 'now 1-d', 'now 7-d'].map(answerTtlFor)).toEqual([300, 300, 900, 900]);
    expect(['today 1-m', 'today 12-m', 'all', '2024-01-01 2024-03-31', undefined].map(answerTtlFor)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('X-Cache and cache metrics', () => {
  const activity = (memoryHits: number, tableHits: number, misses: number): CacheActivity => ({
    memoryHits,
    tableHits,
    misses,
    tableErrors: 0,
    duplicateCalls: 0,
    pendingWrites: [],
  });
  it('says hit, miss or partial with counts', () => {
    expect(xCacheHeader(undefined)).toBe('miss');
    expect(xCacheHeader(activity(0, 0, 2))).toBe('miss');
    expect(xCacheHeader(activity(1, 5, 0))).toBe('hit');
    expect(xCacheHeader(activity(1, 2, 2))).toBe('partial; hits=3; misses=2');
  });
  it('writes one count per level, and none for a request that looked nothing up', () => {
    expect(cacheMetricValues(undefined)).toEqual([]);
    expect(cacheMetricValues(activity(1, 2, 3))).toEqual([
      ['CacheMemoryHits', 1],
      ['CacheTableHits', 2],
      ['CacheMisses', 3],
      ['CacheTableErrors', 0],
      ['CacheDuplicateCalls', 0],
    ]);
  });
});
