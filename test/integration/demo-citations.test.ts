/**
 * The demo's citations say what they are (`npm start` without a SerpApi key, lib/local/main.ts): Crossref
 * and DataCite are loopback replays of recorded answers, so a resolve answer names what it replays (the
 * `X-Demo-Recording` header and the end of its message), a DOI or reference the demo holds no recording of
 * is answered "the demo holds no recording of …", never as a claim about Crossref, the style catalogue's
 * answer says it is no recording, and the README's resolve example resolves every reference it shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplayCrossref, startReplayCrossref } from '../../lib/local/replay-crossref.js';
import { type ReplayDataCite, startReplayDataCite } from '../../lib/local/replay-datacite.js';
import { type ReplayUpstream, startReplayUpstream } from '../../lib/local/replay-upstream.js';
import { fencedBlocks, readDocument, shellCommands } from '../support/docs-blocks.js';
import { type Reply, type Service, startService } from '../support/service.js';

let replay: ReplayUpstream;
let crossref: ReplayCrossref;
let dataCite: ReplayDataCite;
let service: Service;

beforeAll(async () => {
  [replay, crossref, dataCite] = await Promise.all([startReplayUpstream(), startReplayCrossref(), startReplayDataCite()]);
  // The environment `npm start` sets for the demo (lib/local/main.ts).
  service = await startService({
    SERPAPI_BASE_URL: replay.url,
    CROSSREF_BASE_URL: crossref.url,
    DATACITE_BASE_URL: dataCite.url,
    DEMO_REPLAY: 'true',
    ANSWER_CACHE_TTL_SECONDS: '0',
    CROSSREF_CACHE_TTL_SECONDS: '0',
  });
  await (await import('../../lib/citations/render/render.js')).citationRenderer();
}, 180_000);

afterAll(async () => {
  await service?.close();
  await Promise.all([replay?.close(), crossref?.close(), dataCite?.close()]);
});

async function post(path: string, body: Record<string, unknown>): Promise<Reply> {
  const reply = await service.post(path, body);
  expect(reply.status, reply.text).toBe(200);
  return reply;
}

describe("the demo's citations without a search", () => {
  it('resolves the references of the README’s resolve example, every one of them', async () => {
    const block = fencedBlocks('README.md', readDocument('README.md')).find((b) => b.text.includes('/v1/cite/resolve'));
    const command = shellCommands(block?.text ?? '').find((c) => c.source.includes('/v1/cite/resolve'));
    const body = JSON.parse(command?.argv[command.argv.indexOf('-d') + 1] ?? 'null') as { references: string[] };
    expect(body.references).toHaveLength(2);
    const reply = await post('/v1/cite/resolve', body);
    expect(reply.json.data.references.map((r: { doi: string | null }) => r.doi)).toEqual([
      '10.1111/ele.14024',
      '10.1111/ele.13085',
    ]);
    expect(reply.json.data.resolved).toBe(2);
  });

  it('checks the references of the README’s check example from recordings, and says so', async () => {
    const block = fencedBlocks('README.md', readDocument('README.md')).find((b) => b.text.includes('/v1/cite/check'));
    const command = shellCommands(block?.text ?? '').find((c) => c.source.includes('/v1/cite/check'));
    const body = JSON.parse(command?.argv[command.argv.indexOf('-d') + 1] ?? 'null') as { references: string[] };
    expect(body.references).toHaveLength(2);
    const reply = await post('/v1/cite/check', body);
    const [published, invented] = reply.json.data.results;
    expect(published.verdict).toBe('verified');
    expect(published.doi).toBe('10.1111/ele.13085');
    expect(invented.doi).toBe('10.1007/s12080-013-0192-6');
    // What the README says of the second: a mismatch, with an error on its year and on its authors.
    expect(invented.verdict).toBe('mismatch');
    const errors = invented.issues.filter((issue: { severity: string }) => issue.severity === 'error');
    expect(errors.map((issue: { field: string }) => issue.field).sort()).toEqual(['authors', 'year']);
    expect(reply.headers.get('x-demo-recording')).toMatch(/\(Crossref\)/);
    expect(reply.json.message).toMatch(/\(demo: recorded answers? for "[^"]+"/);
  });

  it('names the recording a resolve answer replays, in the header and the message', async () => {
    const reply = await post('/v1/cite/resolve', { references: ['10.1007/s12080-013-0192-6'] });
    expect(reply.headers.get('x-demo-recording')).toBe('ecology, author Carl Boettiger (Crossref)');
    expect(reply.json.message).toBe(
      '1 of 1 references resolved (demo: recorded answer for "ecology, author Carl Boettiger (Crossref)")',
    );
  });

  it('says of a DOI it has no recording of that the demo holds none, never that Crossref has none', async () => {
    const reply = await post('/v1/cite/resolve', { references: ['10.1038/nature14539'] });
    const [reference] = reply.json.data.references;
    expect(reference.doi).toBeNull();
    expect(reference.reason).toMatch(/^The demo holds no recording of the DOI 10\.1038\/nature14539/);
    expect(reference.reason).not.toMatch(/Crossref (?:has|knows) no|Neither Crossref/);
    // What it replayed: the recorded empty answers of both sources.
    expect(reply.headers.get('x-demo-recording')).toBe('no work found (Crossref); no record (DataCite)');
    expect(reply.json.message).toMatch(
      /\(demo: recorded answers for "no work found \(Crossref\)" and "no record \(DataCite\)"\)$/,
    );
  });

  it('says of a reference it holds no work of that the demo holds no recording of it', async () => {
    const reply = await post('/v1/cite/resolve', {
      references: ['LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444.'],
    });
    const [reference] = reply.json.data.references;
    expect(reference.doi).toBeNull();
    expect(reference.reason).toMatch(/^The demo holds no recording of the work this reference names/);
    expect(reply.headers.get('x-demo-recording')).toBe('no work found (Crossref)');
  });

  it('resolves the arXiv DOI and the dataset DOI it holds DataCite recordings of, in the five formats', async () => {
    const reply = await post('/v1/cite/resolve', {
      references: ['10.48550/arXiv.2201.06719', '10.5061/dryad.8515'],
      export: ['csl-json', 'bibtex', 'ris'],
    });
    for (const reference of reply.json.data.references) {
      expect(reference.citations_source).toBe('datacite');
      expect(Object.keys(reference.citations)).toEqual(['MLA', 'APA', 'Chicago', 'Harvard', 'Vancouver']);
      expect(Object.keys(reference.exports).sort()).toEqual(['bibtex', 'csl_json', 'ris']);
    }
    expect(reply.headers.get('x-demo-recording')).toBe('10.48550/arxiv.2201.06719 (DataCite); 10.5061/dryad.8515 (DataCite)');
  });

  it('says the style catalogue answer is no recording', async () => {
    const reply = await post('/v1/cite/styles', { query: 'nature', results: 3 });
    expect(reply.json.message).toMatch(/ \(demo: the style catalogue ships with the service; nothing here is a recording\)$/);
  });

  it('keeps the citation search of a recorded page naming only its recording', async () => {
    const reply = await post('/v1/cite/search', { query: 'bananas' });
    expect(reply.headers.get('x-demo-recording')).toBe('bananas');
  });
});
