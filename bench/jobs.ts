/**
 * `npm run bench -- --jobs`: a job of 10,000 references through the embedded queue (the service as
 * `npm start` runs it, in a process of its own) against a fake Crossref that answers at Crossref's
 * published pace and refuses past it (HTTP 429 with Crossref's rate-limit headers, counted). Each reference
 * is a real reference string of the labelled set, looked up on its own (the resolution cache is off), so the
 * job is N lookups: its floor is N ÷ pace. Judged: the wall time from submission to `done` within 10 % of
 * that floor, the service's resident memory growing by at most 50 MiB over the job (after a warm-up job has
 * loaded the pipeline), no lookup refused for rate. Progress goes to stderr while it runs; the figures to
 * bench/jobs-results.json.
 */

import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseReferenceInput } from '../lib/citations/match/reference-match.js';
import { publishedPace } from '../lib/citations/sources/published-pace.js';
import { JOB_RESULTS_PAGE_MAX } from '../lib/contract/jobs.js';
import { type Child, SERVICE_ENTRY, startChild, type Usage } from '../test/support/child-process.js';
import { labelledCrossref, RESOLVABLE } from '../test/support/jobs.js';
import { listenOnLoopback } from '../test/support/loopback.js';
import { PROJECT_ROOT } from './paths.js';

const CLIENT_KEY = 'bench-jobs-client-key-0123456789';
const MIB = 1024 * 1024;
const round = (n: number, digits = 3) => Number(n.toFixed(digits));
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The targets the issue sets for a job of 10,000 references. */
export const JOB_TARGETS = { wallWithinFloor: 0.1, rssGrowthMib: 50 } as const;

interface FakeCrossref {
  url: string;
  arrivals: number[];
  refused: number;
  close(): Promise<void>;
}

/**
 * Crossref at its published pace, kept as a rate limiter keeps one: a bucket of a second's lookups
 * (`perSecond` tokens), refilled at `perSecond` a second; a lookup finding it empty is a 429 (with
 * Crossref's rate-limit headers). So a client keeping the pace is never refused for the few milliseconds
 * a request spends on its way, and one going faster is. DataCite, asked for what Crossref has no record
 * of, is the same server, holding none of these works.
 */
async function paceKeepingCrossref(perSecond: number, latencyMs: number): Promise<FakeCrossref> {
  const arrivals: number[] = [];
  let tokens = perSecond;
  let filledAt = performance.now();
  const fake: FakeCrossref = { url: '', arrivals, refused: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://crossref');
    if (url.pathname.startsWith('/dois')) {
      // DataCite, asked for what Crossref has no record of: it has none either (a 404 for a DOI, no match for a query).
      res.writeHead(url.pathname === '/dois' ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(
        url.pathname === '/dois'
          ? '{"data":[]}'
          : '{"errors":[{"status":"404","title":"The resource you are looking for doesn\'t exist."}]}',
      );
      return;
    }
    const now = performance.now();
    tokens = Math.min(perSecond, tokens + ((now - filledAt) / 1_000) * perSecond);
    filledAt = now;
    const headers = { 'x-rate-limit-limit': String(perSecond), 'x-rate-limit-interval': '1s' };
    if (tokens < 1) {
      fake.refused += 1;
      res.writeHead(429, { ...headers, 'Retry-After': '1', 'Content-Type': 'text/plain' });
      res.end('Too Many Requests');
      return;
    }
    tokens -= 1;
    arrivals.push(Date.now());
    const answer = labelledCrossref(url.searchParams);
    setTimeout(() => {
      if (typeof answer !== 'object') throw new Error('the labelled Crossref answers every query');
      res.writeHead(answer.status, { ...headers, 'Content-Type': 'application/json' });
      res.end(answer.body);
    }, latencyMs);
  });
  const listening = await listenOnLoopback(server);
  fake.url = listening.url;
  fake.close = listening.close;
  return fake;
}

async function post(url: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${CLIENT_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data: Record<string, unknown> };
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Submits a job and waits for its end, sampling the service's memory and printing progress. */
async function runJob(service: Child<{ url: string }>, references: string[], progress: boolean) {
  const rss: number[] = [];
  const started = performance.now();
  const { job_id: jobId } = await post(service.ready.url, '/v1/jobs', { kind: 'resolve', references });
  for (let polls = 0; ; polls += 1) {
    await sleep(1_000);
    rss.push((await service.call<Usage>('usage')).rss);
    const status = await post(service.ready.url, '/v1/jobs/status', { job_id: jobId });
    if (progress && polls % 15 === 0) {
      const seconds = (performance.now() - started) / 1000;
      log(
        `  ${String(status.done).padStart(6)} of ${status.total} answered in ${seconds.toFixed(0)} s ` +
          `(${(Number(status.done) / seconds).toFixed(2)} a second; eta ${status.eta_seconds ?? '–'} s; RSS ${((rss.at(-1) ?? 0) / MIB).toFixed(1)} MiB)`,
      );
    }
    if (['done', 'failed', 'cancelled'].includes(String(status.status))) {
      return { jobId, wallS: (performance.now() - started) / 1000, status, rss };
    }
  }
}

/** The mean size of a result compressed as the store keeps it, read back page by page. */
async function meanResultBytes(url: string, jobId: unknown): Promise<number> {
  let cursor: unknown;
  let bytes = 0;
  let count = 0;
  do {
    const page = await post(url, '/v1/jobs/results', {
      job_id: jobId,
      limit: JOB_RESULTS_PAGE_MAX,
      ...(cursor ? { cursor } : {}),
    });
    for (const result of page.results as unknown[]) {
      bytes += gzipSync(JSON.stringify({ entry: result })).length;
      count += 1;
    }
    cursor = page.next_cursor;
  } while (cursor);
  return count === 0 ? 0 : bytes / count;
}

/** Starts in the busiest second of the job's lookups. */
function busiestSecond(arrivals: readonly number[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < arrivals.length; i += 1) {
    while ((arrivals[i] as number) - (arrivals[j] as number) >= 1_000) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

export async function jobsBench(options: { references: number; pace?: number; latencyMs: number; out?: string }): Promise<void> {
  const begun = Date.now();
  // Crossref's polite pool: the deployment sends a contact address, as the deploy guide advises.
  const pace = options.pace ?? publishedPace('crossref', true);
  const crossref = await paceKeepingCrossref(pace, options.latencyMs);
  const unused = 'http://127.0.0.1:9';
  const service = await startChild<{ url: string }>(SERVICE_ENTRY, {
    API_KEYS: CLIENT_KEY,
    SERPAPI_API_KEY: 'bench-jobs-upstream-key',
    SERPAPI_BASE_URL: unused,
    CROSSREF_BASE_URL: crossref.url,
    DATACITE_BASE_URL: crossref.url,
    CROSSREF_MAILTO: 'bench@example.org',
    CROSSREF_REQUESTS_PER_SECOND: String(pace),
    // Every reference looked up: the job is N lookups.
    CROSSREF_CACHE_TTL_SECONDS: '0',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'WARN',
  });
  try {
    // References of one lookup each: free text, no DOI or arXiv id in it (those are looked up twenty to a request).
    const texts = RESOLVABLE.map((c) => c.text).filter((text) => {
      const input = parseReferenceInput(text);
      return input.kind === 'text' && input.doi === undefined && !/arxiv/i.test(text);
    });
    log(`jobs: warm-up job of ${texts.length} references (loads the pipeline and the citation styles)`);
    await runJob(service, texts, false);
    const baseline = (await service.call<Usage>('usage')).rss;
    crossref.arrivals.length = 0;
    crossref.refused = 0;
    const references = Array.from({ length: options.references }, (_, i) => texts[i % texts.length] as string);
    const floorS = options.references / pace;
    log(`jobs: ${options.references} references at ${pace} lookups a second: the floor is ${floorS} s`);
    const job = await runJob(service, references, true);
    const maxRss = Math.max(...job.rss);
    const results = {
      references: options.references,
      pace_per_second: pace,
      fake_latency_ms: options.latencyMs,
      status: job.status.status,
      counts: job.status.counts,
      wall_s: round(job.wallS, 1),
      floor_s: floorS,
      wall_over_floor: round(job.wallS / floorS - 1, 4),
      crossref_lookups: crossref.arrivals.length,
      crossref_refused_429: crossref.refused,
      busiest_second_lookups: busiestSecond(crossref.arrivals),
      rss_baseline_mib: round(baseline / MIB, 1),
      rss_max_mib: round(maxRss / MIB, 1),
      rss_growth_mib: round((maxRss - baseline) / MIB, 1),
      result_bytes_gzip_mean: Math.round(await meanResultBytes(service.ready.url, job.jobId)),
      targets: {
        wall_within_floor: JOB_TARGETS.wallWithinFloor,
        rss_growth_mib: JOB_TARGETS.rssGrowthMib,
        met:
          job.wallS <= floorS * (1 + JOB_TARGETS.wallWithinFloor) &&
          (maxRss - baseline) / MIB <= JOB_TARGETS.rssGrowthMib &&
          crossref.refused === 0,
      },
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model ?? 'unknown',
        node: process.version,
        loadavg_start: os.loadavg(),
      },
      date: new Date(begun).toISOString(),
      duration_s: round((Date.now() - begun) / 1000, 1),
    };
    const out = options.out ?? join(PROJECT_ROOT, 'bench', 'jobs-results.json');
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    console.log(
      [
        '| Job of references | Measured | Target | Result |',
        '|---|---|---|---|',
        `| wall time, ${results.references} references at ${pace}/s | ${results.wall_s} s (floor ${floorS} s, +${(results.wall_over_floor * 100).toFixed(1)} %) | within ${JOB_TARGETS.wallWithinFloor * 100} % of the floor | ${results.wall_over_floor <= JOB_TARGETS.wallWithinFloor ? 'met' : 'missed'} |`,
        `| resident memory growth | ${results.rss_growth_mib} MiB (${results.rss_baseline_mib} → ${results.rss_max_mib}) | ≤ ${JOB_TARGETS.rssGrowthMib} MiB | ${results.rss_growth_mib <= JOB_TARGETS.rssGrowthMib ? 'met' : 'missed'} |`,
        `| lookups refused for rate | ${results.crossref_refused_429} of ${results.crossref_lookups + results.crossref_refused_429} (busiest second: ${results.busiest_second_lookups}) | 0 | ${results.crossref_refused_429 === 0 ? 'met' : 'missed'} |`,
      ].join('\n'),
    );
    log(`\nwrote ${out} in ${results.duration_s} s`);
  } finally {
    await service.stop();
    await crossref.close();
  }
}
