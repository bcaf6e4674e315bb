/**
 * `npm run bench -- --shared-cache`: what the shared cache saves. Two service processes (two "containers",
 * each with its own memory) share one DynamoDB-protocol table (dynalite on loopback); the upstream is the
 * fake SerpApi with a fixed latency, whose scholarly searches on neighbouring topics share papers.
 *
 *   identical     one citation search in container A, then the same one in container B
 *   workload      a replayed sequence of citation searches, alternating A and B, over overlapping topics,
 *                 run three times: caches bypassed (no_cache), memory only (no table), shared table
 *   table down    the shared setup with the table stopped: new and repeated searches still answer
 *   table slow    the same with every table answer 3 s late
 *
 * Placement: the fake upstream and each service run in a node process of their own; dynalite and the
 * request loop share this one. Requests are sequential, so the processes hardly compete for the cores.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CacheTableServer, startCacheTable } from '../test/support/cache-table.js';
import { type Child, SERVICE_ENTRY, startChild } from '../test/support/child-process.js';
import { median, percentile } from './load.js';
import { PROJECT_ROOT } from './paths.js';

const CLIENT_KEY = 'bench-client-key-0123456789';
const UPSTREAM_KEY = 'bench-upstream-key-9876543210';
const PAPERS = 10;
const TOPICS = 20;

type Service = Child<{ url: string }>;
type Upstream = Child<{ url: string }>;

interface Search {
  container: 'A' | 'B';
  topic: number;
  wallMs: number;
  upstreamCalls: number;
  xCache: string;
  papersWithCitations: number;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (line: string) => console.error(line);

/** The same pseudo-random topic sequence every run (a linear congruential generator), skewed to low topics. */
export function workload(length: number, seed = 12_345): number[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  // The smaller of two uniform draws: popular topics come back often, as popular searches do.
  return Array.from({ length }, () => Math.floor(Math.min(next(), next()) * TOPICS));
}

async function citeSearch(
  upstream: Upstream,
  service: Service,
  container: 'A' | 'B',
  topic: number,
  noCache = false,
): Promise<Search> {
  const before = await upstream.call<number>('calls');
  const started = performance.now();
  const response = await fetch(`${service.ready.url}/v1/cite/search`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${CLIENT_KEY}`, 'Content-Type': 'application/json' },
    // The index's cite calls are what this cache spares; by default a page costs its one search call.
    body: JSON.stringify({ query: `topic ${topic}`, results: PAPERS, no_cache: noCache, citation_source: 'index' }),
  });
  const json = (await response.json()) as { data?: { papers?: { citations: object }[] } };
  const wallMs = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`citation search answered ${response.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return {
    container,
    topic,
    wallMs,
    upstreamCalls: (await upstream.call<number>('calls')) - before,
    xCache: response.headers.get('x-cache') ?? '(none)',
    papersWithCitations: json.data?.papers?.filter((p) => Object.keys(p.citations).length > 0).length ?? 0,
  };
}

async function twoContainers(upstream: Upstream, env: Record<string, string>): Promise<[Service, Service]> {
  const base = { API_KEYS: CLIENT_KEY, SERPAPI_API_KEY: UPSTREAM_KEY, SERPAPI_BASE_URL: upstream.ready.url, ...env };
  // quiet: the table-down run's warning lines are the point, but they belong in the logs, not the report.
  const start = () => startChild<{ url: string }>(SERVICE_ENTRY, base, { quiet: true });
  return Promise.all([start(), start()]);
}

async function replay(upstream: Upstream, services: [Service, Service], topics: number[], noCache = false): Promise<Search[]> {
  const searches: Search[] = [];
  for (const [i, topic] of topics.entries()) {
    const container = i % 2 === 0 ? 'A' : 'B';
    searches.push(await citeSearch(upstream, services[i % 2] as Service, container, topic, noCache));
  }
  return searches;
}

function stats(searches: Search[]) {
  const walls = searches.map((s) => s.wallMs).sort((a, b) => a - b);
  const calls = searches.reduce((sum, s) => sum + s.upstreamCalls, 0);
  return {
    searches: searches.length,
    upstream_calls: calls,
    upstream_calls_per_search: round(calls / Math.max(1, searches.length), 2),
    median_ms: walls.length ? round(median(walls)) : null,
    p95_ms: walls.length ? round(percentile(walls, 95)) : null,
    all_papers_cited: searches.every((s) => s.papersWithCitations === PAPERS),
  };
}

/** Searches grouped by their X-Cache value's first word: hit, partial, miss. */
function byXCache(searches: Search[]) {
  const groups: Record<string, ReturnType<typeof stats>> = {};
  for (const kind of ['hit', 'partial', 'miss']) {
    const group = searches.filter((s) => s.xCache.split(';')[0] === kind);
    if (group.length > 0) groups[kind] = stats(group);
  }
  return groups;
}

export async function sharedCacheBench(options: { quick: boolean; latencyMs: number; out?: string }): Promise<void> {
  const started = Date.now();
  const topics = workload(options.quick ? 30 : 80);
  const upstream = await startChild<{ url: string }>(new URL('./cache-upstream.ts', import.meta.url), {});
  await upstream.call('latency', options.latencyMs);
  const tables: CacheTableServer[] = [];
  const stopAll: Service[] = [];
  const results: Record<string, unknown> = {};
  try {
    // 1. Caches bypassed: what every search costs without a cache.
    log(
      `workload: ${topics.length} citation searches of ${PAPERS} papers over ${TOPICS} overlapping topics, upstream latency ${options.latencyMs} ms`,
    );
    const bare = await twoContainers(upstream, {});
    stopAll.push(...bare);
    results.no_cache = stats(await replay(upstream, bare, topics, true));

    // 2. Memory only: two containers, each with its own warm cache, no table.
    const memory = await twoContainers(upstream, {});
    stopAll.push(...memory);
    const memorySearches = await replay(upstream, memory, topics);
    results.memory_only = { ...stats(memorySearches), by_x_cache: byXCache(memorySearches) };

    // 3. The shared table.
    const table = await startCacheTable();
    tables.push(table);
    const shared = await twoContainers(upstream, table.env);
    stopAll.push(...shared);
    const [a, b] = shared;
    log('identical: topic 900 in container A, then in container B');
    const first = await citeSearch(upstream, a, 'A', 900);
    const second = await citeSearch(upstream, b, 'B', 900);
    results.identical = {
      first: { upstream_calls: first.upstreamCalls, ms: round(first.wallMs), x_cache: first.xCache },
      second_container: { upstream_calls: second.upstreamCalls, ms: round(second.wallMs), x_cache: second.xCache },
    };
    const sharedSearches = await replay(upstream, shared, topics);
    results.shared_table = { ...stats(sharedSearches), by_x_cache: byXCache(sharedSearches) };
    // Table hits alone (a hit in the replay may come from either level): new topics in A, then each in B.
    const fresh = [800, 810, 820, 830, 840];
    const inA: Search[] = [];
    const inB: Search[] = [];
    for (const topic of fresh) inA.push(await citeSearch(upstream, a, 'A', topic));
    for (const topic of fresh) inB.push(await citeSearch(upstream, b, 'B', topic));
    results.table_hits = { misses_in_a: stats(inA), table_hits_in_b: stats(inB) };

    // 4. The table down: new topics go to the upstream, known ones still come from memory.
    log('table down: 5 new topics and 5 repeated ones');
    await table.stop();
    // Topics 10 apart share no paper, so every one is new to both containers.
    const unseen = [950, 960, 970, 980, 990];
    const down = await replay(upstream, shared, unseen);
    // The same order again: each search now lands on the container that saw it, so memory answers.
    const downRepeat = await replay(upstream, shared, unseen);
    await table.start();
    results.table_down = { new_topics: stats(down), repeated: { ...stats(downRepeat), by_x_cache: byXCache(downRepeat) } };

    // 5. The table slow (every answer 3 s late): reads give up after their budget, then the table rests.
    log('table slow: 5 new topics');
    await new Promise((resolve) => setTimeout(resolve, 10_500)); // the services' table cooldown after the outage
    table.setMode({ kind: 'slow', delayMs: 3_000 });
    results.table_slow = { new_topics: stats(await replay(upstream, shared, [1100, 1110, 1120, 1130, 1140])) };
    table.setMode({ kind: 'ok' });
  } finally {
    await Promise.all(stopAll.map((service) => service.stop()));
    await upstream.stop();
    for (const table of tables) await table.close();
  }

  const output = {
    ...results,
    settings: {
      mode: options.quick ? 'quick' : 'full',
      upstream_latency_ms: options.latencyMs,
      papers_per_search: PAPERS,
      topics: TOPICS,
      workload_topics: topics,
      table: 'dynalite 4 on loopback (in the benchmark process), real AWS SDK, default read budget',
    },
    date: new Date(started).toISOString(),
    duration_s: round((Date.now() - started) / 1000, 1),
  };
  const out = options.out ?? join(PROJECT_ROOT, 'bench', 'cache-results.json');
  writeFileSync(out, `${JSON.stringify(output, null, 2)}\n`);
  print(output as unknown as Printed);
  log(`\nwrote ${out} in ${output.duration_s} s`);
}

type Row = ReturnType<typeof stats> & { by_x_cache?: Record<string, ReturnType<typeof stats>> };
interface Printed {
  no_cache: Row;
  memory_only: Row;
  shared_table: Row;
  identical: Record<'first' | 'second_container', { upstream_calls: number; ms: number; x_cache: string }>;
  table_down: { new_topics: Row; repeated: Row };
  table_hits: { misses_in_a: Row; table_hits_in_b: Row };
  table_slow: { new_topics: Row };
}

function print(o: Printed): void {
  const line = (cells: (string | number | null | undefined)[]) => `| ${cells.map((c) => String(c ?? '–')).join(' | ')} |`;
  const rows = [
    line(['setup', 'searches', 'upstream calls / search', 'median ms', 'p95 ms', 'all papers cited']),
    line(['---', '---', '---', '---', '---', '---']),
    ...(
      [
        ['caches bypassed (no_cache)', o.no_cache],
        ['memory only, 2 containers', o.memory_only],
        ['shared table, 2 containers', o.shared_table],
        ['new topics in A (misses)', o.table_hits.misses_in_a],
        ['same topics in B (table hits)', o.table_hits.table_hits_in_b],
        ['table down, new topics', o.table_down.new_topics],
        ['table down, repeated topics', o.table_down.repeated],
        ['table 3 s slow, new topics', o.table_slow.new_topics],
      ] as const
    ).map(([name, r]) =>
      line([name, r.searches, r.upstream_calls_per_search, r.median_ms, r.p95_ms, r.all_papers_cited ? 'yes' : 'NO']),
    ),
  ];
  const classes = [
    line(['shared table, by X-Cache', 'searches', 'upstream calls / search', 'median ms', 'p95 ms', '']),
    line(['---', '---', '---', '---', '---', '']),
    ...Object.entries(o.shared_table.by_x_cache ?? {}).map(([kind, r]) =>
      line([kind, r.searches, r.upstream_calls_per_search, r.median_ms, r.p95_ms, '']),
    ),
  ];
  const { first, second_container: second } = o.identical;
  console.log(
    [
      '',
      `Identical citation search: container A ${first.upstream_calls} upstream calls, ${first.ms} ms (X-Cache ${first.x_cache}); ` +
        `container B ${second.upstream_calls} upstream calls, ${second.ms} ms (X-Cache ${second.x_cache}).`,
      '',
      rows.join('\n'),
      '',
      classes.join('\n'),
      '',
    ].join('\n'),
  );
}
