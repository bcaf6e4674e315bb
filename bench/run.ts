/**
 * `npm run bench` (`-- --quick` for a short run): what the service costs on top of its upstream, measured
 * as ratios against baselines taken in the same run, because absolute times on a shared machine drift.
 *
 *   overhead     the same search straight to the fake upstream vs. through the local server, c=1 and c=32
 *   throughput   the local server vs. a bare node:http pass-through proxy (the limit for this runtime)
 *   memory       the local server's resident memory after the load
 *   fan-out      citation search of 20 papers at upstream latency L vs. its limit of 2 × L
 *   cache        upstream calls made by a repeated identical citation search
 *   cold start   each deployed bundle, loaded and invoked once in a fresh node, vs. an empty handler's
 *   first answer each function's first request at realistic upstream latencies, in a new container and
 *                again in the same, now warm, one: what a user waits for a cold container
 *   citations    locally rendered citations: style builds, warm render, cite-search cold starts, paid calls
 *                per page, the first request in a style not yet built (bench/citations.ts)
 *   check        the reference check of 100 DOI and 100 free-text references at Crossref's public pace (bench/check.ts)
 *
 * `--shared-cache` runs bench/cache.ts instead: two services sharing one cache table (see that file).
 * `--jobs` runs bench/jobs.ts instead: a job of 10,000 references at Crossref's published pace.
 *
 * Placement: autocannon runs in this process; the service, the bare proxy and the fake upstream each run
 * in a process of their own, not pinned to a core, as they would share a small machine.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startReplayCrossref } from '../lib/local/replay-crossref.js';
import { startReplayDataCite } from '../lib/local/replay-datacite.js';
import { SAMPLE_REQUESTS } from '../test/fixtures/sample-requests.js';
import { type Child, SERVICE_ENTRY, startChild, type Usage } from '../test/support/child-process.js';
import { startFakeSecretsManager } from '../test/support/fake-secrets-manager.js';
import type { BuiltBundle, BuiltBundles } from './bundle.js';
import { REALISTIC_LATENCY_MS } from './citations.js';
import { apiGatewayEvent, type ColdStartSummary, coldStarts, summarise } from './cold-start.js';
import { deployedZipTotal, unzippedWithLayers } from './deployed.js';
import { type LoadOptions, type LoadResult, load, median } from './load.js';
import { mcpSection } from './mcp.js';
import { BUILD_DIR, EMPTY_HANDLER, PROJECT_ROOT } from './paths.js';
import { formatProfile, summariseProfile } from './profile.js';
import { startSlowProxy } from './slow-proxy.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    /** Upstream latency during the overhead runs; 0 isolates what the service adds. */
    'latency-ms': { type: 'string', default: '0' },
    /** Upstream latency L for the fan-out run. */
    'fanout-latency-ms': { type: 'string', default: '100' },
    /** Comma-separated subset of overhead,fanout,cold. */
    only: { type: 'string' },
    /** Writes a CPU profile of the service process (node --cpu-prof) and prints where its time went. */
    profile: { type: 'boolean', default: false },
    /** Comma-separated functions the cold section measures (beside the empty handler); all by default. */
    functions: { type: 'string' },
    /** Runs only the shared-cache benchmark (bench/cache.ts): two services sharing one table. */
    'shared-cache': { type: 'boolean', default: false },
    /** Runs only the jobs benchmark (bench/jobs.ts): a job of many references at Crossref's published pace. */
    jobs: { type: 'boolean', default: false },
    /** References in the jobs benchmark's job. */
    'jobs-references': { type: 'string', default: '10000' },
    /** Lookups a second the jobs benchmark's fake Crossref takes (default: Crossref's polite pool, 10). */
    'jobs-pace': { type: 'string' },
    out: { type: 'string', default: join(PROJECT_ROOT, 'bench', 'results.json') },
  },
});

const SETTINGS = args.quick
  ? { rounds: 1, warmUp: 500, amountC1: 1000, amountC32: 2000, fanOutRuns: 3, coldRounds: 3 }
  : { rounds: 3, warmUp: 1000, amountC1: 3000, amountC32: 8000, fanOutRuns: 10, coldRounds: 15 };
function milliseconds(option: string, min: number): number {
  const value = Number(args[option as 'latency-ms']);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${option}: must be a whole number ≥ ${min}`);
  return value;
}
const OVERHEAD_LATENCY_MS = milliseconds('latency-ms', 0);
const FANOUT_LATENCY_MS = milliseconds('fanout-latency-ms', 1);
const ALL_SECTIONS = ['overhead', 'fanout', 'cold', 'citations', 'check'];
const SECTIONS = new Set((args.only ?? ALL_SECTIONS.join(',')).split(',').map((s) => s.trim()));
for (const section of SECTIONS) {
  if (!ALL_SECTIONS.includes(section)) throw new Error(`--only: ${section} is not one of ${ALL_SECTIONS.join(', ')}`);
}
const FANOUT_PAPERS = 20;

const CLIENT_KEY = 'bench-client-key-0123456789';
const UPSTREAM_KEY = 'bench-upstream-key-9876543210';
const SEARCH_PATH = '/v1/web-search/alpha';
// no_cache: every request goes upstream, as the bare proxy's do; otherwise all but the first would be
// answered from the answer cache and the comparison would mean nothing.
const SEARCH_BODY = JSON.stringify({ q: 'coffee', no_cache: true });
// The exact query the service sends upstream for SEARCH_BODY; checked against the fake before any load.
const SEARCH_UPSTREAM_QUERY = new URLSearchParams({
  engine: 'google',
  q: 'coffee',
  start: '0',
  no_cache: 'true',
  api_key: UPSTREAM_KEY,
});
const POST_HEADERS = { Authorization: `Bearer ${CLIENT_KEY}`, 'Content-Type': 'application/json' };

/** A first invocation that does the handler's whole job: valid, authorised, answered by the fake upstream. */
const COLD_START_BODIES: Record<string, unknown> = {
  ...SAMPLE_REQUESTS,
  // One paper: both steps (search, then cite) run, as in every other two-call handler; more papers
  // would time loopback round trips, not the start of the function.
  'cite-search': { query: 'bananas', results: 1 },
};
/** The cite-search bundle again, asked for every export: it also loads citation-js and asks (replayed) Crossref. */
const CITE_EXPORT = 'cite-search+export';

const round = (n: number, digits = 3) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);
const log = (line: string) => process.stderr.write(`${line}\n`);

interface NewStyleResults {
  catalogue_load_ms: number;
  total_styles: number;
  kept: number;
  bound: number;
  styles?: Record<string, { first_request_ms: number; second_render_ms: number; heap_mb: number; rendered: boolean }>;
}

type Target = { name: string; value: number | null; limit: string; pass: boolean | null };
const targets: Target[] = [];
function target(name: string, value: number | null, limit: number, direction: '<=' | '>='): void {
  const pass = value === null ? null : direction === '<=' ? value <= limit : value >= limit;
  targets.push({ name, value, limit: `${direction} ${round(limit)}`, pass });
}

// ---------------------------------------------------------------------------------------------------
// Overhead and throughput

interface Measured extends LoadResult {
  /** CPU time the server process spent per request, µs (user + system). */
  cpuUsPerRequest: number | null;
}

async function measure(options: LoadOptions, server: Child<unknown> | undefined, upstream: Child<unknown>): Promise<Measured> {
  const before = await server?.call<Usage>('usage');
  const result = await load(options);
  const after = await server?.call<Usage>('usage');
  await upstream.call('forget');
  const cpuUsPerRequest = before && after ? (after.cpuUs - before.cpuUs) / result.requests : null;
  return { ...result, cpuUsPerRequest };
}

type Way = 'direct' | 'service' | 'bare_proxy' | 'floor';

async function overhead(
  upstream: Child<{ url: string }>,
  service: Child<{ url: string }>,
  bare: Child<{ url: string }>,
  floor: Child<{ url: string }>,
) {
  await upstream.call('latency', OVERHEAD_LATENCY_MS);
  const ways: Record<Way, { options: Omit<LoadOptions, 'connections' | 'amount'>; server?: Child<unknown> }> = {
    direct: { options: { url: `${upstream.ready.url}/search.json?${SEARCH_UPSTREAM_QUERY}` } },
    service: {
      options: { url: `${service.ready.url}${SEARCH_PATH}`, method: 'POST', headers: POST_HEADERS, body: SEARCH_BODY },
      server: service,
    },
    bare_proxy: {
      options: { url: `${bare.ready.url}${SEARCH_PATH}`, method: 'POST', headers: POST_HEADERS, body: SEARCH_BODY },
      server: bare,
    },
    floor: {
      options: { url: `${floor.ready.url}${SEARCH_PATH}`, method: 'POST', headers: POST_HEADERS, body: SEARCH_BODY },
      server: floor,
    },
  };
  const order = Object.keys(ways) as Way[];
  const byConcurrency: Record<string, Record<Way, Measured[]>> = {};
  for (const [connections, amount] of [
    [1, SETTINGS.amountC1],
    [32, SETTINGS.amountC32],
  ] as const) {
    log(`overhead: c=${connections}, ${SETTINGS.rounds} round(s) of ${amount} requests per way`);
    const runs: Record<Way, Measured[]> = { direct: [], service: [], bare_proxy: [], floor: [] };
    for (const way of order) await load({ ...ways[way].options, connections, amount: SETTINGS.warmUp });
    for (let r = 0; r < SETTINGS.rounds; r++) {
      // Rotated, so that no way always runs first (or right after the heaviest one).
      for (let i = 0; i < order.length; i++) {
        const way = order[(i + r) % order.length] as Way;
        runs[way].push(await measure({ ...ways[way].options, connections, amount }, ways[way].server, upstream));
      }
    }
    byConcurrency[`c${connections}`] = runs;
  }
  return byConcurrency;
}

/** The median over rounds of each figure: one slow round on a shared machine does not move it. */
function summary(runs: Measured[]) {
  const pick = (f: (m: Measured) => number | null) => round(median(runs.map(f).filter((v): v is number => v !== null)));
  return {
    p50_ms: pick((m) => m.p50),
    p90_ms: pick((m) => m.p90),
    p99_ms: pick((m) => m.p99),
    mean_ms: pick((m) => m.mean),
    rps: round(median(runs.map((m) => m.rps)), 0),
    cpu_us_per_request: pick((m) => m.cpuUsPerRequest),
    rounds: runs.map((m) => ({
      requests: m.requests,
      p50_ms: round(m.p50),
      p99_ms: round(m.p99),
      rps: round(m.rps, 0),
      cpu_us_per_request: m.cpuUsPerRequest === null ? null : round(m.cpuUsPerRequest, 1),
    })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Fan-out and cache

async function citeSearch(service: Child<{ url: string }>, body: Record<string, unknown>) {
  const started = performance.now();
  const response = await fetch(`${service.ready.url}/v1/cite/search`, {
    method: 'POST',
    headers: POST_HEADERS,
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data?: { papers?: unknown[]; citation_details?: { error: string | null }[] } };
  const wallMs = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`citation search answered ${response.status}: ${JSON.stringify(json).slice(0, 500)}`);
  const papers = json.data?.papers?.length ?? 0;
  const failed = json.data?.citation_details?.filter((d) => d.error !== null).length ?? 0;
  return { wallMs, papers, failed };
}

async function fanOutAndCache(upstream: Child<{ url: string }>, service: Child<{ url: string }>) {
  await upstream.call('latency', FANOUT_LATENCY_MS);
  const runId = randomUUID().slice(0, 8);
  // The index's cite calls for every paper: the fan-out this measures (Crossref rendering: bench/citations.ts).
  const request = (query: string, noCache: boolean) => ({
    query,
    results: FANOUT_PAPERS,
    no_cache: noCache,
    citation_source: 'index',
  });
  log(`fan-out: ${SETTINGS.fanOutRuns} citation searches of ${FANOUT_PAPERS} papers at upstream latency ${FANOUT_LATENCY_MS} ms`);
  // Opens the pooled connections to the upstream, as any earlier request of a warm container has.
  await citeSearch(service, request(`bench warm-up ${runId}`, true));
  const walls: number[] = [];
  const callsPerRequest: number[] = [];
  for (let i = 0; i < SETTINGS.fanOutRuns; i++) {
    const before = await upstream.call<number>('calls');
    // A query never asked before, and the caches bypassed: nothing can hide a call.
    const answer = await citeSearch(service, request(`bench fan-out ${runId} ${i}`, true));
    callsPerRequest.push((await upstream.call<number>('calls')) - before);
    if (answer.papers !== FANOUT_PAPERS || answer.failed > 0) {
      throw new Error(
        `citation search gave ${answer.papers} papers, ${answer.failed} without citations; expected ${FANOUT_PAPERS}, 0`,
      );
    }
    walls.push(answer.wallMs);
  }
  const wallMedian = median(walls);

  log('cache: the same citation search twice');
  const cacheRequest = request(`bench cache ${runId}`, false);
  const before = await upstream.call<number>('calls');
  const first = await citeSearch(service, cacheRequest);
  const afterFirst = await upstream.call<number>('calls');
  const second = await citeSearch(service, cacheRequest);
  const afterSecond = await upstream.call<number>('calls');
  await upstream.call('forget');
  return {
    upstream_latency_ms: FANOUT_LATENCY_MS,
    papers: FANOUT_PAPERS,
    wall_ms_median: round(wallMedian),
    wall_ms: walls.map((w) => round(w)),
    limit_ms: 2 * FANOUT_LATENCY_MS,
    ratio: round(wallMedian / (2 * FANOUT_LATENCY_MS)),
    upstream_calls_per_request: median(callsPerRequest),
    cache: {
      first_request_upstream_calls: afterFirst - before,
      second_request_upstream_calls: afterSecond - afterFirst,
      first_request_ms: round(first.wallMs),
      second_request_ms: round(second.wallMs),
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Bundles and cold starts

async function buildBundles(): Promise<BuiltBundles> {
  log('bundles: building every handler with the stack construct (infra/api-function.ts), and the style pack layer');
  const builder = await startChild<BuiltBundles>(new URL('./bundle.ts', import.meta.url), {}, { quiet: true });
  await builder.stop();
  return builder.ready;
}

async function coldStartAll(upstream: Child<{ url: string }>, bundles: BuiltBundle[]) {
  const { ROUTES } = await import('../lib/routes.js');
  const eventsDir = join(BUILD_DIR, 'events');
  mkdirSync(eventsDir, { recursive: true });
  const eventFiles = new Map(
    bundles.map((bundle) => {
      const route = ROUTES.find((r) => r.name === bundle.name);
      const body = JSON.stringify(COLD_START_BODIES[bundle.name] ?? { q: 'coffee' });
      const eventFile = join(eventsDir, `${bundle.name}.json`);
      writeFileSync(eventFile, JSON.stringify(apiGatewayEvent(route?.path ?? '/bench/empty', body, CLIENT_KEY)));
      return [bundle.name, eventFile];
    }),
  );

  const exportEvent = join(eventsDir, `${CITE_EXPORT}.json`);
  const exportBody = { ...(COLD_START_BODIES['cite-search'] as object), export: ['csl-json', 'bibtex', 'ris'] };
  writeFileSync(exportEvent, JSON.stringify(apiGatewayEvent('/v1/cite/search', JSON.stringify(exportBody), CLIENT_KEY)));
  const crossref = await startReplayCrossref();

  await upstream.call('latency', 0);
  const clientDigest = createHash('sha256').update(CLIENT_KEY).digest('hex');
  const secrets = await startFakeSecretsManager({
    'bench/client-keys': JSON.stringify({ keys: [{ name: 'bench', sha256: clientDigest }] }),
    'bench/upstream-key': JSON.stringify({ serpapi_api_key: UPSTREAM_KEY }),
  });
  // Every bundle gets the environment the stack gives its own function (NODE_OPTIONS included), then the
  // keys; the empty handler a web search's.
  const deployed = bundles.find((b) => b.name !== EMPTY_HANDLER)?.environment ?? {};
  const own = (bundle: BuiltBundle) => (bundle.name === EMPTY_HANDLER ? deployed : bundle.environment);
  // A free route's function is given no upstream key (NO_UPSTREAM_KEY), and refuses to start with one.
  const keysFor = (bundle: BuiltBundle, env: Record<string, string>) => {
    if (own(bundle).NO_UPSTREAM_KEY !== 'true') return env;
    const { SERPAPI_API_KEY: _key, SERPAPI_SECRET_ID: _secret, ...rest } = env;
    return rest;
  };
  // A bundle that reads the style pack finds it in the layer's folder here, as under /opt deployed.
  const envFor = (bundle: BuiltBundle, env: Record<string, string>) => ({
    ...own(bundle),
    ...keysFor(bundle, env),
    ...bundle.localEnvironment,
  });
  const variants = {
    env_keys: {
      CROSSREF_BASE_URL: crossref.url,
      SERPAPI_BASE_URL: upstream.ready.url,
      API_KEYS: CLIENT_KEY,
      SERPAPI_API_KEY: UPSTREAM_KEY,
    },
    secrets_manager: {
      CROSSREF_BASE_URL: crossref.url,
      SERPAPI_BASE_URL: upstream.ready.url,
      CLIENT_KEYS_SECRET_ID: 'bench/client-keys',
      SERPAPI_SECRET_ID: 'bench/upstream-key',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
    },
  };
  const jobs = Object.entries(variants).flatMap(([variant, env]) =>
    bundles.map((b) => ({
      key: `${variant}/${b.name}`,
      file: b.file,
      eventFile: eventFiles.get(b.name) as string,
      env: envFor(b, env),
    })),
  );
  const citeBundle = bundles.find((b) => b.name === 'cite-search');
  for (const [variant, env] of Object.entries(variants)) {
    if (!citeBundle) break;
    jobs.push({ key: `${variant}/${CITE_EXPORT}`, file: citeBundle.file, eventFile: exportEvent, env: envFor(citeBundle, env) });
  }
  log(
    `cold start: ${bundles.length} bundles × ${Object.keys(variants).length} variants × ${SETTINGS.coldRounds} fresh processes`,
  );
  const results: Record<string, Record<string, ColdStartSummary>> = {};
  try {
    for (const [key, runs] of await coldStarts(jobs, SETTINGS.coldRounds)) {
      const [variant = '', name = ''] = key.split('/');
      results[variant] ??= {};
      results[variant][name] = summarise(runs);
    }
    results.first_answer = await firstAnswers(upstream, bundles, eventsDir, (bundle, env) => envFor(bundle, env));
  } finally {
    await secrets.close();
    await crossref.close();
  }
  return results as Record<keyof typeof variants | 'first_answer', Record<string, ColdStartSummary>>;
}

/** The engines of the index (the scholarly ones) and of the web, at the latencies the first answers are measured at. */
const REALISTIC_ENGINE_LATENCY_MS: Record<string, number> = {
  google_scholar: REALISTIC_LATENCY_MS.scholar,
  google_scholar_author: REALISTIC_LATENCY_MS.scholar,
  google_scholar_cite: REALISTIC_LATENCY_MS.scholar,
  google: REALISTIC_LATENCY_MS.web,
  bing: REALISTIC_LATENCY_MS.web,
  duckduckgo: REALISTIC_LATENCY_MS.web,
  baidu: REALISTIC_LATENCY_MS.web,
  google_images: REALISTIC_LATENCY_MS.web,
  google_trends: REALISTIC_LATENCY_MS.web,
};

/** The functions that render citations, measured with their styles built at start-up and on the first request. */
const STYLE_FUNCTIONS = new Set(['cite-search', 'cite-resolve']);

/**
 * Each function's first request at realistic latencies (the index 1,500 ms, web engines 800 ms, Crossref and
 * DataCite 300 ms each at their public pace), in a new container (spawn to answer: node's start, the
 * bundle's load and the request) and again in the same container once warm (the same request, caches
 * bypassed: `no_cache`). The functions that render citations are measured both with their styles built
 * while the container starts (CITATION_STYLES_AT_INIT) and while the first request waits on the network.
 */
async function firstAnswers(
  upstream: Child<{ url: string }>,
  bundles: BuiltBundle[],
  eventsDir: string,
  envFor: (bundle: BuiltBundle, env: Record<string, string>) => Record<string, string>,
): Promise<Record<string, ColdStartSummary>> {
  const { ROUTES } = await import('../lib/routes.js');
  const [crossrefReplay, dataCiteReplay] = await Promise.all([startReplayCrossref(), startReplayDataCite()]);
  const [crossref, dataCite] = await Promise.all([
    startSlowProxy(crossrefReplay.url, REALISTIC_LATENCY_MS.records),
    startSlowProxy(dataCiteReplay.url, REALISTIC_LATENCY_MS.records),
  ]);
  await upstream.call('engineLatencies', REALISTIC_ENGINE_LATENCY_MS);
  try {
    const env = {
      SERPAPI_BASE_URL: upstream.ready.url,
      CROSSREF_BASE_URL: crossref.url,
      DATACITE_BASE_URL: dataCite.url,
      API_KEYS: CLIENT_KEY,
      SERPAPI_API_KEY: UPSTREAM_KEY,
    };
    const jobs = bundles
      .filter((bundle) => bundle.name !== EMPTY_HANDLER)
      .flatMap((bundle) => {
        const route = ROUTES.find((r) => r.name === bundle.name);
        const body = JSON.stringify({ ...((COLD_START_BODIES[bundle.name] as object) ?? { q: 'coffee' }), no_cache: true });
        const eventFile = join(eventsDir, `first-answer-${bundle.name}.json`);
        writeFileSync(eventFile, JSON.stringify(apiGatewayEvent(route?.path ?? '/bench/empty', body, CLIENT_KEY)));
        // Crossref's and DataCite's public pace: the stack's contact address left out.
        const { CROSSREF_MAILTO: _mailto, ...own } = envFor(bundle, env);
        const variants: [string, Record<string, string>][] = STYLE_FUNCTIONS.has(bundle.name)
          ? [
              [`${bundle.name}`, { ...own, CITATION_STYLES_AT_INIT: 'true' }],
              [`${bundle.name}+styles_on_first_request`, { ...own, CITATION_STYLES_AT_INIT: 'false' }],
            ]
          : [[bundle.name, own]];
        return variants.map(([key, variantEnv]) => ({
          key,
          file: bundle.file,
          eventFile,
          env: variantEnv,
          secondEventFile: eventFile,
        }));
      });
    log(`first answers: ${jobs.length} functions and variants × ${SETTINGS.coldRounds} fresh processes, realistic latencies`);
    const summaries: Record<string, ColdStartSummary> = {};
    for (const [key, runs] of await coldStarts(jobs, SETTINGS.coldRounds)) summaries[key] = summarise(runs);
    return summaries;
  } finally {
    await upstream.call('latency', 0);
    await Promise.all([crossref.close(), dataCite.close(), crossrefReplay.close(), dataCiteReplay.close()]);
  }
}

// ---------------------------------------------------------------------------------------------------
// The run

function machine() {
  const cpus = os.cpus();
  return {
    cpu_model: cpus[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memory_gib: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    load_average_at_start: os.loadavg().map((l) => round(l, 2)),
  };
}

type Results = Record<string, unknown>;
const orNull = (v: number | null | undefined) => (v === null || v === undefined ? null : v);
const diff = (a: number | null | undefined, b: number | null | undefined) =>
  orNull(a) === null || orNull(b) === null ? null : round((a as number) - (b as number));
const ratio = (a: number | null | undefined, b: number | null | undefined) =>
  orNull(a) === null || !b ? null : round((a as number) / b);

/** POSTs the overhead search and answers the status and the envelope's `data`. */
async function searchData(url: string): Promise<{ status: number; data: string }> {
  const reply = await fetch(`${url}${SEARCH_PATH}`, { method: 'POST', headers: POST_HEADERS, body: SEARCH_BODY });
  const json = (await reply.json()) as { data?: unknown };
  return { status: reply.status, data: JSON.stringify(json.data) };
}

async function overheadSection(
  upstream: Child<{ url: string }>,
  service: Child<{ url: string }>,
  serviceEnvironment: Record<string, string>,
): Promise<Results> {
  const target = { BENCH_PROXY_TARGET: `${upstream.ready.url}/search.json?${SEARCH_UPSTREAM_QUERY}` };
  const bare = await startChild<{ url: string }>(new URL('./bare-proxy.ts', import.meta.url), target);
  // The floor loads the endpoint's module for its reshaper, which reads the service's configuration.
  const floor = await startChild<{ url: string }>(new URL('./floor-proxy.ts', import.meta.url), {
    ...serviceEnvironment,
    ...target,
  });
  try {
    // The direct request must be the very one the service makes, or the difference means nothing.
    const check = await searchData(service.ready.url);
    const sent = await upstream.call<string | null>('lastQuery');
    if (check.status !== 200 || sent !== SEARCH_UPSTREAM_QUERY.toString()) {
      throw new Error(`the service answered ${check.status} and sent upstream "${sent}", not "${SEARCH_UPSTREAM_QUERY}"`);
    }
    // The floor must do the service's reshaping, no less: the same data, byte for byte.
    const floorCheck = await searchData(floor.ready.url);
    if (floorCheck.status !== 200 || floorCheck.data !== check.data) {
      throw new Error(`the reshaping floor answered ${floorCheck.status} with other data than the service's`);
    }
    const runs = await overhead(upstream, service, bare, floor);
    const memory = await service.call<Usage>('usage');
    const table = Object.fromEntries(
      Object.entries(runs).map(([c, byWay]) => [
        c,
        {
          direct: summary(byWay.direct),
          service: summary(byWay.service),
          bare_proxy: summary(byWay.bare_proxy),
          floor: summary(byWay.floor),
        },
      ]),
    );
    const { c1, c32 } = table;
    return {
      overhead_p50_ms: diff(c1?.service.p50_ms, c1?.direct.p50_ms),
      overhead_p99_ms: diff(c1?.service.p99_ms, c1?.direct.p99_ms),
      overhead_c32_p50_ms: diff(c32?.service.p50_ms, c32?.direct.p50_ms),
      overhead_c32_p99_ms: diff(c32?.service.p99_ms, c32?.direct.p99_ms),
      bare_proxy_overhead_p50_ms: diff(c1?.bare_proxy.p50_ms, c1?.direct.p50_ms),
      throughput_rps_service: c32?.service.rps ?? null,
      throughput_rps_bare_proxy: c32?.bare_proxy.rps ?? null,
      throughput_ratio_vs_bare_proxy: ratio(c32?.service.rps, c32?.bare_proxy.rps),
      // Requests a core could serve, from CPU time per request: the ratio a saturated machine would show.
      cpu_capacity_ratio_vs_bare_proxy: ratio(c32?.bare_proxy.cpu_us_per_request, c32?.service.cpu_us_per_request),
      // The same two ratios for the reshaping floor (floor-proxy.ts): what no reshaping service can beat here.
      throughput_rps_floor: c32?.floor.rps ?? null,
      floor_throughput_ratio_vs_bare_proxy: ratio(c32?.floor.rps, c32?.bare_proxy.rps),
      floor_cpu_capacity_ratio_vs_bare_proxy: ratio(c32?.bare_proxy.cpu_us_per_request, c32?.floor.cpu_us_per_request),
      // The service against its floor: what its own layers (routing, keys, validation, caches, budget, log line,
      // metrics) leave of the throughput any reshaping service could have here.
      floor_service_ratio: ratio(c32?.service.rps, c32?.floor.rps),
      floor_service_cpu_ratio: ratio(c32?.floor.cpu_us_per_request, c32?.service.cpu_us_per_request),
      rss_mib: round(memory.rss / 2 ** 20, 1),
      heap_used_mib: round(memory.heapUsed / 2 ** 20, 1),
      latency: table,
    };
  } finally {
    await bare.stop();
    await floor.stop();
  }
}

/** What a user waits for in a cold container beyond a warm one's answer: one function's first answers. */
function firstAnswerOf(summary: ColdStartSummary | undefined) {
  const cold = summary?.median_ms ?? Number.NaN;
  const warm = summary?.second_invoke_ms ?? Number.NaN;
  return {
    cold_ms: round(cold, 1),
    warm_ms: round(warm, 1),
    cold_less_warm_ms: round(cold - warm, 1),
    status: summary?.status ?? null,
  };
}

/**
 * Every function's cold and warm first answer; for a function that renders citations, both places its
 * styles can be built, and which of the two answers a cold container's first request sooner.
 */
function coldFirstAnswers(byKey: Record<string, ColdStartSummary>) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const key of Object.keys(byKey).filter((k) => !k.includes('+'))) {
    const atStart = firstAnswerOf(byKey[key]);
    const other = byKey[`${key}+styles_on_first_request`];
    if (!other) {
      out[key] = { ...atStart, within_300_ms: (atStart.cold_less_warm_ms ?? Number.NaN) <= 300 };
      continue;
    }
    const onRequest = firstAnswerOf(other);
    const faster =
      (onRequest.cold_ms ?? Number.POSITIVE_INFINITY) < (atStart.cold_ms ?? Number.POSITIVE_INFINITY) ? onRequest : atStart;
    out[key] = {
      ...faster,
      within_300_ms: (faster.cold_less_warm_ms ?? Number.NaN) <= 300,
      styles: faster === onRequest ? 'on_first_request' : 'at_start',
      styles_at_start: atStart,
      styles_on_first_request: onRequest,
    };
  }
  return out;
}

async function coldSection(upstream: Child<{ url: string }>, { bundles, layers }: BuiltBundles): Promise<Results> {
  const { first_answer: firstAnswer, ...coldStart } = await coldStartAll(upstream, bundles);
  const coldFirstAnswer = coldFirstAnswers(firstAnswer);
  const handlers = bundles.filter((b) => b.name !== EMPTY_HANDLER);
  const kib = (bytes: number) => round(bytes / 1024, 1);
  const max = (variant: Record<string, ColdStartSummary>, pick: (s: ColdStartSummary) => number) =>
    Math.max(...handlers.map((b) => (variant[b.name] ? pick(variant[b.name] as ColdStartSummary) : Number.NaN)));
  const empty = (variant: Record<string, ColdStartSummary>) => variant[EMPTY_HANDLER]?.median_ms ?? Number.NaN;
  const emptyEnv = empty(coldStart.env_keys);
  return {
    bundle_kib_max: kib(Math.max(...handlers.map((b) => b.bytes))),
    cold_start_ms_median_max: round(
      max(coldStart.env_keys, (s) => s.median_ms),
      1,
    ),
    cold_start_ms_empty: round(empty(coldStart.env_keys), 1),
    cold_start_secrets_ms_median_max: round(
      max(coldStart.secrets_manager, (s) => s.median_ms),
      1,
    ),
    cold_start_secrets_ms_empty: round(empty(coldStart.secrets_manager), 1),
    function_rss_mib_max: round(
      max(coldStart.secrets_manager, (s) => s.rss_mib),
      1,
    ),
    bundles: Object.fromEntries(
      [...bundles, ...bundles.filter((b) => b.name === 'cite-search').map((b) => ({ ...b, name: CITE_EXPORT }))].map((b) => [
        b.name,
        {
          kib: kib(b.bytes),
          source_map_kib: kib(b.mapBytes),
          // What the function deploys (bench/deployed.ts): the bundle, its map and the data beside it.
          beside_kib: kib(b.deployed.beside),
          deployed_kib: kib(b.deployed.unzipped),
          zip_kib: kib(b.deployed.zip),
          // The layers it uses (the style pack's), and its files with theirs: what the 250 MB quota counts.
          layers: b.layers,
          with_layers_kib: kib(unzippedWithLayers(b, layers)),
        },
      ]),
    ),
    // What each layer deploys, once, and which functions use it.
    layers: Object.fromEntries(
      Object.entries(layers).map(([name, bytes]) => [
        name,
        {
          deployed_kib: kib(bytes.unzipped),
          zip_kib: kib(bytes.zip),
          files: bytes.files,
          used_by: handlers.filter((b) => b.layers.includes(name)).map((b) => b.name),
        },
      ]),
    ),
    // The zip every function deploys, summed, and each layer's once.
    deployed_zip_kib_total: kib(deployedZipTotal(handlers, layers)),
    deployed_environment: handlers[0]?.environment ?? {},
    cold_first_answer: coldFirstAnswer,
    cold_first_answer_less_warm_ms_max: round(
      Math.max(...Object.values(coldFirstAnswer).map((f) => Number(f.cold_less_warm_ms))),
      1,
    ),
    cold_start: Object.fromEntries(
      Object.entries(coldStart).map(([variant, byName]) => [
        variant,
        Object.fromEntries(
          Object.entries(byName).map(([name, s]) => [
            name,
            {
              median_ms: round(s.median_ms, 1),
              // Against the empty handler's median with keys in the environment, as the targets are judged.
              vs_empty: round(s.median_ms / emptyEnv, 2),
              within_2x_empty: name === EMPTY_HANDLER ? null : s.median_ms <= 2 * emptyEnv,
              min_ms: round(s.min_ms, 1),
              node_boot_ms: round(s.boot_ms, 1),
              load_ms: round(s.load_ms, 1),
              first_invoke_ms: round(s.invoke_ms, 1),
              rss_mib: round(s.rss_mib, 1),
              status: s.status,
              runs: s.runs,
            },
          ]),
        ),
      ]),
    ),
  };
}

function judge(results: Results): void {
  const num = (key: string) => (typeof results[key] === 'number' ? (results[key] as number) : null);
  if (SECTIONS.has('overhead')) {
    target('overhead_p50_ms (c=1)', num('overhead_p50_ms'), 0.5, '<=');
    target('overhead_p99_ms (c=1)', num('overhead_p99_ms'), 5, '<=');
    target('throughput_ratio_vs_bare_proxy (c=32)', num('throughput_ratio_vs_bare_proxy'), 0.6, '>=');
    // The service's own layers against the reshaping floor's (bench/floor-proxy.ts), in the same run.
    target('floor_service_ratio (c=32)', num('floor_service_ratio'), 0.8, '>=');
  }
  if (SECTIONS.has('fanout')) {
    target('fanout_ratio', num('fanout_ratio'), 1.2, '<=');
    target('cache_second_request_upstream_calls', num('cache_second_request_upstream_calls'), 1, '<=');
  }
  const citations = results.citations as
    | {
        first_request_page_of_10_beyond_network_ms?: Record<string, Record<string, { first_less_network?: number | null }>>;
        new_style?: { styles?: Record<string, { first_request_ms: number }> };
      }
    | undefined;
  if (citations) {
    // As deployed (styles built on the first citation request, during its network wait), at the index's
    // realistic latency (1,500 ms): with no wait at all there is nothing to hide the build behind.
    const deployed = citations.first_request_page_of_10_beyond_network_ms?.styles_on_first_request ?? {};
    const beyond = deployed[`search_latency_${REALISTIC_LATENCY_MS.scholar}ms`]?.first_less_network;
    target('first_citation_search_beyond_network_ms', beyond ?? null, 300, '<=');
    const firsts = Object.values(citations.new_style?.styles ?? {}).map((style) => style.first_request_ms);
    target('new_style_first_request_ms_max', firsts.length ? round(Math.max(...firsts), 1) : null, 400, '<=');
    // A 10-paper page, half of its links carrying DOIs, at Crossref's public pace and realistic latencies.
    target(
      'citations.page_10_public_pace_beyond_search_ms',
      (citations as { page_10_public_pace_beyond_search_ms?: number }).page_10_public_pace_beyond_search_ms ?? null,
      1_000,
      '<=',
    );
  }
  const check = results.check as { doi_references?: { median_ms: number } } | undefined;
  // docs/citations.md: 100 references with DOIs answered within 5 s at Crossref's public pace.
  if (check) target('check_100_doi_references_ms', check.doi_references?.median_ms ?? null, 5_000, '<=');
  if (SECTIONS.has('cold')) {
    target('bundle_kib_max', num('bundle_kib_max'), 400, '<=');
    // At realistic latencies, each function's first request in a new container against the same request in a
    // warm one; a citation function's styles built where that first answer comes sooner.
    target('cold_first_answer_less_warm_ms_max', num('cold_first_answer_less_warm_ms_max'), 300, '<=');
    const empty = num('cold_start_ms_empty');
    if (empty !== null) {
      target('cold_start_ms_median_max (keys in env)', num('cold_start_ms_median_max'), 2 * empty, '<=');
      target('cold_start_secrets_ms_median_max (Secrets Manager)', num('cold_start_secrets_ms_median_max'), 2 * empty, '<=');
    }
    // The MCP function's first connection (initialize, then tools/list, in one fresh container) against a
    // web search's cold start, both built by their stack constructs (bench/mcp.ts).
    const mcp = results.mcp as { initialize_tools_list_vs_endpoint?: number } | undefined;
    if (mcp) target('mcp_initialize_tools_list_vs_web_search', mcp.initialize_tools_list_vs_endpoint ?? null, 2, '<=');
  }
}

/** The bundles `--functions` names, with the empty handler (every bundle without it): a look at a few, its results partial. */
function onlyAskedFunctions(built: BuiltBundles): BuiltBundles {
  if (!args.functions) return built;
  const asked = new Set(args.functions.split(',').map((name) => name.trim()));
  const unknown = [...asked].filter((name) => !built.bundles.some((bundle) => bundle.name === name));
  if (unknown.length > 0) throw new Error(`--functions: no function named ${unknown.join(', ')}`);
  return { ...built, bundles: built.bundles.filter((bundle) => bundle.name === EMPTY_HANDLER || asked.has(bundle.name)) };
}

async function main() {
  const started = Date.now();
  const info = machine();
  log(`bench (${args.quick ? 'quick' : 'full'}) on ${info.cpu_model}, ${info.cores} cores, node ${info.node}`);
  // Built first: the service under load gets the environment the stack deploys (metrics on, source maps).
  const built = await buildBundles();
  const deployed = built.bundles.find((b) => b.name !== EMPTY_HANDLER)?.environment ?? {};
  const upstream = await startChild<{ url: string }>(new URL('./upstream.ts', import.meta.url), {});
  const results: Results = {};
  try {
    if (SECTIONS.has('overhead') || SECTIONS.has('fanout')) {
      const profileDir = join(BUILD_DIR, 'profiles', String(started));
      const serviceEnvironment = {
        ...deployed,
        API_KEYS: CLIENT_KEY,
        SERPAPI_API_KEY: UPSTREAM_KEY,
        SERPAPI_BASE_URL: upstream.ready.url,
        // The load is many thousands of searches against a fake upstream: the spending budget must not refuse
        // them, neither by its own limits (here the most the configuration accepts) nor by the plan's hourly
        // limit read from the fake's Account API (6,000, which the full run exceeds): never read.
        SEARCHES_PER_HOUR: '10000000',
        SEARCHES_PER_MONTH: '0',
        ACCOUNT_API_TTL_SECONDS: '0',
      };
      const service = await startChild<{ url: string }>(SERVICE_ENTRY, serviceEnvironment, {
        execArgv: args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      });
      try {
        if (SECTIONS.has('overhead')) Object.assign(results, await overheadSection(upstream, service, serviceEnvironment));
        if (SECTIONS.has('fanout')) {
          const fanOut = await fanOutAndCache(upstream, service);
          Object.assign(results, {
            fanout_ratio: fanOut.ratio,
            cache_second_request_upstream_calls: fanOut.cache.second_request_upstream_calls,
            fanout: fanOut,
          });
        }
      } finally {
        await service.stop();
      }
      if (args.profile) {
        // Named CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the main thread.
        const file = readdirSync(profileDir).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f));
        if (file) {
          log(formatProfile(summariseProfile(join(profileDir, file))));
          results.service_cpu_profile = join(profileDir, file);
        }
      }
    }
    if (SECTIONS.has('cold')) Object.assign(results, await coldSection(upstream, onlyAskedFunctions(built)));
    if (SECTIONS.has('cold')) {
      const mcpOptions = { upstreamUrl: upstream.ready.url, deployedEnvironment: deployed, rounds: SETTINGS.coldRounds, log };
      results.mcp = await mcpSection({ ...mcpOptions, clientKey: CLIENT_KEY, upstreamKey: UPSTREAM_KEY });
      // The MCP function is built apart (bench/mcp.ts) but shares the route functions' layers.
      const layers = results.layers as Record<string, { used_by: string[] }> | undefined;
      for (const name of (results.mcp as { layers?: string[] }).layers ?? []) layers?.[name]?.used_by.push('mcp');
    }
    // Citations rendered from Crossref records: bench/citations.ts.
    if (SECTIONS.has('citations')) {
      results.citations = await (await import('./citations.js')).citationsBench({ quick: args.quick });
    }
    // The reference check at Crossref's public pace: bench/check.ts.
    if (SECTIONS.has('check')) results.check = await (await import('./check.js')).checkBench({ quick: args.quick });
  } finally {
    await upstream.stop();
  }
  judge(results);

  const output = {
    ...results,
    targets,
    machine: { ...info, load_average_at_end: os.loadavg().map((l) => round(l, 2)) },
    settings: {
      mode: args.quick ? 'quick' : 'full',
      sections: [...SECTIONS],
      ...SETTINGS,
      overhead_upstream_latency_ms: OVERHEAD_LATENCY_MS,
      fanout_upstream_latency_ms: FANOUT_LATENCY_MS,
      overhead_request: { path: SEARCH_PATH, body: JSON.parse(SEARCH_BODY), upstream_query: SEARCH_UPSTREAM_QUERY.toString() },
      placement:
        'autocannon in the orchestrating process; service, bare proxy and fake upstream each in their own node process; no CPU pinning',
    },
    date: new Date(started).toISOString(),
    duration_s: round((Date.now() - started) / 1000, 1),
  };
  writeFileSync(args.out, `${JSON.stringify(output, null, 2)}\n`);
  print(output);
  log(`\nwrote ${args.out} in ${output.duration_s} s`);
}

// ---------------------------------------------------------------------------------------------------
// The table

/** A Markdown table with padded columns: readable in a terminal, pasteable into a README. */
function table(header: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [header, ...rows.map((row) => row.map((c) => (c === null || c === undefined ? '–' : String(c))))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(cells[0] as string[]), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}

function print(output: Record<string, unknown>): void {
  const o = output as Record<string, never>;
  const blocks: string[] = [];
  const latency = o.latency as Record<string, Record<Way, ReturnType<typeof summary>>> | undefined;
  if (latency) {
    const ways = ['direct', 'bare_proxy', 'floor', 'service'] as const;
    const row = (label: string, c: string, pick: (s: ReturnType<typeof summary>) => number | null) => [
      label,
      ...ways.map((w) => {
        const s = latency[c]?.[w];
        const v = s ? pick(s) : null;
        return v === null ? null : round(v, v >= 100 ? 0 : 3);
      }),
    ];
    blocks.push(
      table(
        ['search (web-search/alpha)', 'direct to upstream', 'bare node:http proxy', 'reshaping floor', 'service'],
        [
          row('c=1 p50 ms', 'c1', (s) => s.p50_ms),
          row('c=1 p99 ms', 'c1', (s) => s.p99_ms),
          row('c=1 CPU µs/request', 'c1', (s) => s.cpu_us_per_request),
          row('c=32 p50 ms', 'c32', (s) => s.p50_ms),
          row('c=32 p99 ms', 'c32', (s) => s.p99_ms),
          row('c=32 requests/s', 'c32', (s) => s.rps),
          row('c=32 CPU µs/request', 'c32', (s) => s.cpu_us_per_request),
        ],
      ),
    );
  }
  const bundles = o.bundles as
    | Record<string, { kib: number; source_map_kib: number; beside_kib: number; deployed_kib: number; zip_kib: number }>
    | undefined;
  const cold = o.cold_start as Record<string, Record<string, Record<string, number | boolean | null>>> | undefined;
  if (bundles && cold) {
    const verdict = (within: unknown) => (within === null || within === undefined ? '' : within ? 'pass' : 'MISS');
    blocks.push(
      table(
        [
          'handler',
          'bundle KiB',
          'map KiB',
          'beside KiB',
          'zip KiB',
          'cold ms',
          '× empty',
          '≤ 2×',
          'node boot',
          'load',
          '1st invoke',
          'cold ms, Secrets Manager',
          'RSS MiB',
          'status',
        ],
        Object.entries(bundles).map(([name, b]) => {
          const env = cold.env_keys?.[name];
          const sm = cold.secrets_manager?.[name];
          return [
            name,
            b.kib,
            b.source_map_kib,
            b.beside_kib,
            b.zip_kib,
            env?.median_ms as number,
            env?.vs_empty as number,
            verdict(env?.within_2x_empty),
            env?.node_boot_ms as number,
            env?.load_ms as number,
            env?.first_invoke_ms as number,
            sm?.median_ms as number,
            sm?.rss_mib as number,
            env?.status as number,
          ];
        }),
      ),
    );
    const layers = (o.layers ?? {}) as Record<string, { deployed_kib: number; zip_kib: number; used_by: string[] }>;
    if (Object.keys(layers).length > 0) {
      blocks.push(
        table(
          ['layer', 'unzipped KiB', 'zip KiB', 'used by'],
          Object.entries(layers).map(([name, layer]) => [name, layer.deployed_kib, layer.zip_kib, layer.used_by.join(', ')]),
        ),
      );
    }
    blocks.push(`Every route function's zip together, and each layer once: ${o.deployed_zip_kib_total} KiB.`);
  }
  const mcp = o.mcp as
    | {
        bundle_kib: number;
        zip_kib?: number;
        initialize_tools_list_vs_endpoint: number;
        cold_start: Record<string, { median_ms: number; load_ms: number; first_invoke_ms: number; second_invoke_ms?: number }>;
      }
    | undefined;
  if (mcp) {
    blocks.push(
      table(
        ['MCP function, first request', 'cold ms', 'load', '1st invoke', '2nd invoke'],
        Object.entries(mcp.cold_start).map(([name, c]) => [name, c.median_ms, c.load_ms, c.first_invoke_ms, c.second_invoke_ms]),
      ),
    );
    const layers = (mcp as { layers?: string[] }).layers ?? [];
    blocks.push(
      `MCP function: bundle ${mcp.bundle_kib} KiB, zip ${mcp.zip_kib ?? '–'} KiB${layers.length > 0 ? `, with the layers ${layers.join(', ')} (counted above)` : ''}.`,
    );
  }
  const newStyle = (o.citations as { new_style?: NewStyleResults } | undefined)?.new_style;
  if (newStyle?.styles) {
    blocks.push(
      table(
        ['style not yet built', 'first request ms', 'second render ms', 'heap kept MiB', 'rendered'],
        Object.entries(newStyle.styles).map(([id, style]) => [
          id,
          round(style.first_request_ms, 1),
          round(style.second_render_ms, 1),
          round(style.heap_mb, 1),
          style.rendered ? 'yes' : 'NO',
        ]),
      ),
    );
    blocks.push(
      `Style catalogue: ${newStyle.total_styles} styles, first load ${round(newStyle.catalogue_load_ms, 1)} ms; engines kept ${newStyle.kept} (bound ${newStyle.bound}).`,
    );
  }
  const check = o.check as Record<string, { median_ms: number; runs: { crossref_requests: number }[] } | number> | undefined;
  if (check) {
    const rows = (['doi_references', 'free_text_references'] as const).map((name) => {
      const run = check[name] as { median_ms: number; runs: { crossref_requests: number }[] } | undefined;
      return [`100 ${name.replace(/_/g, ' ')}`, run?.median_ms, run?.runs[0]?.crossref_requests];
    });
    blocks.push(
      table([`reference check, Crossref at ${check.crossref_per_second} a second`, 'median ms', 'Crossref requests'], rows),
    );
  }
  const fanOut = o.fanout as Awaited<ReturnType<typeof fanOutAndCache>> | undefined;
  const detail = (t: Target) => {
    if (t.name.startsWith('overhead_p50'))
      return `service ${latency?.c1?.service.p50_ms} − direct ${latency?.c1?.direct.p50_ms} ms`;
    if (t.name.startsWith('overhead_p99'))
      return `service ${latency?.c1?.service.p99_ms} − direct ${latency?.c1?.direct.p99_ms} ms`;
    if (t.name.startsWith('throughput')) return `${o.throughput_rps_service} / ${o.throughput_rps_bare_proxy} req/s`;
    if (t.name === 'fanout_ratio' && fanOut) {
      return `${fanOut.wall_ms_median} ms / (2 × ${fanOut.upstream_latency_ms} ms), ${fanOut.papers} papers, ${fanOut.upstream_calls_per_request} upstream calls`;
    }
    if (t.name.startsWith('cache') && fanOut) return `first request ${fanOut.cache.first_request_upstream_calls} calls`;
    if (t.name.startsWith('cold_start')) return `2 × empty handler's ${o.cold_start_ms_empty} ms`;
    if (t.name.startsWith('mcp_') && mcp) {
      const pair = mcp.cold_start.initialize_then_tools_list?.median_ms;
      const web = Object.entries(mcp.cold_start).find(([name]) => name.startsWith('endpoint_'))?.[1]?.median_ms;
      return `initialize + tools/list ${pair} ms / web search ${web} ms`;
    }
    if (t.name === 'bundle_kib_max' && bundles) {
      const [name] = Object.entries(bundles).sort((a, b) => b[1].kib - a[1].kib)[0] ?? [];
      return name ?? '';
    }
    return '';
  };
  blocks.push(
    table(
      ['target', 'measured', 'limit', 'result', 'from'],
      targets.map((t) => [t.name, t.value, t.limit, t.pass === null ? '?' : t.pass ? 'pass' : 'MISS', detail(t)]),
    ),
  );
  if (latency) {
    blocks.push(
      `Service memory after the load: RSS ${o.rss_mib} MiB (heap ${o.heap_used_mib} MiB); ` +
        `CPU capacity vs the bare proxy: ${o.cpu_capacity_ratio_vs_bare_proxy}; the reshaping floor's throughput ` +
        `and CPU capacity vs the bare proxy: ${o.floor_throughput_ratio_vs_bare_proxy} and ${o.floor_cpu_capacity_ratio_vs_bare_proxy}.`,
    );
  }
  console.log(`\n${blocks.join('\n\n')}\n`);
}

if (args['shared-cache']) {
  const { sharedCacheBench } = await import('./cache.js');
  await sharedCacheBench({ quick: args.quick, latencyMs: FANOUT_LATENCY_MS });
} else if (args.jobs) {
  const { jobsBench } = await import('./jobs.js');
  const references = Number(args['jobs-references']);
  if (!Number.isInteger(references) || references < 1) throw new Error('--jobs-references: must be a whole number ≥ 1');
  const pace = args['jobs-pace'] === undefined ? undefined : Number(args['jobs-pace']);
  if (pace !== undefined && !(pace > 0)) throw new Error('--jobs-pace: must be a number of lookups a second above 0');
  // The fan-out latency stands for an upstream's answer time here too: Crossref's, 100 ms by default.
  await jobsBench({
    references,
    pace,
    latencyMs: FANOUT_LATENCY_MS,
    ...(args.out.endsWith('results.json') &&
    !args.out.endsWith('jobs-results.json') &&
    args.out === join(PROJECT_ROOT, 'bench', 'results.json')
      ? {}
      : { out: args.out }),
  });
} else {
  await main();
}
