/**
 * The shared-cache benchmark's upstream, in a process of its own: the tests' fake SerpApi with a fixed
 * latency, whose scholarly search for `topic <k>` answers `num` papers from one numbered series, so that
 * neighbouring topics share papers as real searches on related subjects do.
 */
import { sample } from '../lib/local/samples.js';
import { serveCommands, usage } from '../test/support/child-process.js';
import { startFakeSerpApi } from '../test/support/fake-serpapi.js';

/** Topic k's papers start at paper k × TOPIC_STRIDE, so topics k and k+1 share num − stride papers. */
export const TOPIC_STRIDE = 4;

const recorded = sample('google_scholar');
const recordedPapers = (recorded.organic_results as Record<string, unknown>[]) ?? [];
if (recordedPapers.length === 0) throw new Error('the google_scholar sample holds no organic_results');

function topicPage(q: string, num: number): unknown {
  const topic = Number(/^topic (\d+)$/.exec(q)?.[1] ?? Number.NaN);
  if (!Number.isInteger(topic)) return undefined;
  const organic = Array.from({ length: num }, (_, i) => {
    const id = topic * TOPIC_STRIDE + i;
    const paper = structuredClone(recordedPapers[id % recordedPapers.length]) as Record<string, unknown>;
    return { ...paper, position: i, result_id: `pool-${id}`, title: `Pooled paper ${id}` };
  });
  return { ...recorded, organic_results: organic };
}

const fake = await startFakeSerpApi();
fake.respond((query) => {
  if (query.get('engine') !== 'google_scholar') return undefined;
  const page = topicPage(query.get('q') ?? '', Math.min(20, Number(query.get('num') ?? 10) || 10));
  return page === undefined ? undefined : { json: page };
});

serveCommands(
  { url: fake.url },
  {
    latency: (ms) => {
      fake.latencyMs = Number(ms);
      return fake.latencyMs;
    },
    calls: (engine) => fake.calls(typeof engine === 'string' ? engine : undefined),
    usage,
  },
);
