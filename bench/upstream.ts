/**
 * The benchmark's upstream, in a process of its own: the tests' fake SerpApi (recorded samples, a fixed
 * latency) with one change: a scholarly search answers a full page of distinct papers, so a citation
 * search fans out to one cite call per paper as it does against the real index.
 */
import { createHash } from 'node:crypto';
import { sample } from '../lib/local/samples.js';
import { serveCommands, usage } from '../test/support/child-process.js';
import { startFakeSerpApi } from '../test/support/fake-serpapi.js';

const PAGE_MAX = 20;
const recorded = sample('google_scholar');
const recordedPapers = (recorded.organic_results as Record<string, unknown>[]) ?? [];
if (recordedPapers.length === 0) throw new Error('the google_scholar sample holds no organic_results');

const pages = new Map<string, unknown>();

/**
 * The recorded page grown to `num` papers. Each paper's id is derived from the query, so two different
 * queries never share a paper, and the cite cache cannot answer for a query it has not seen.
 */
export function scholarPage(q: string, num: number): unknown {
  const key = `${q}\n${num}`;
  let page = pages.get(key);
  if (page === undefined) {
    const tag = createHash('sha256').update(q).digest('hex').slice(0, 8);
    const organic = Array.from({ length: num }, (_, i) => {
      const paper = structuredClone(recordedPapers[i % recordedPapers.length]) as Record<string, unknown>;
      return {
        ...paper,
        position: i,
        result_id: `${String(paper.result_id)}-${tag}-${i}`,
        title: `${String(paper.title)} (${i + 1})`,
      };
    });
    page = { ...recorded, organic_results: organic };
    pages.set(key, page);
  }
  return page;
}

const fake = await startFakeSerpApi();
fake.respond((query) => {
  if (query.get('engine') !== 'google_scholar') return undefined;
  const num = Math.min(PAGE_MAX, Math.max(1, Number(query.get('num') ?? 10) || 10));
  return { json: scholarPage(query.get('q') ?? '', num) };
});

serveCommands(
  { url: fake.url },
  {
    latency: (ms) => {
      fake.latencyMs = Number(ms);
      fake.engineLatencyMs = {};
      return fake.latencyMs;
    },
    /** Each engine its own latency (engine name → ms), the others latencyMs. */
    engineLatencies: (byEngine) => {
      fake.engineLatencyMs = { ...(byEngine as Record<string, number>) };
      return fake.engineLatencyMs;
    },
    calls: (engine) => fake.calls(typeof engine === 'string' ? engine : undefined),
    lastQuery: () => fake.requests.at(-1)?.toString() ?? null,
    // The fake keeps every query for the tests; during a load run that is tens of thousands of them.
    forget: () => {
      fake.requests.length = 0;
      return 0;
    },
    usage,
  },
);
