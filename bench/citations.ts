/**
 * Citation search with locally rendered citations (lib/citations/render/render.ts): `npm run bench -- --only citations`,
 * or alone with `npx tsx bench/citations.ts [--quick]`.
 *
 *   build          each style's citeproc engine built once, in a fresh process (what the first request pays)
 *   warm render    20 new papers × 5 styles with the engines built
 *   cold start     the cite-search bundle, loaded and invoked once in a fresh node: today's path
 *                  (`citation_source: "index"`), "auto" on a paper Crossref does not know, and "auto" on a
 *                  paper and on a page of 10 Crossref knows (the first citation search with local
 *                  rendering), at a search latency of 0 and of 1,500 ms; with the styles built while the
 *                  container starts (CITATION_STYLES_AT_INIT: `load_ms` holds the build) and on the first
 *                  citation search, while the search is on the network (as deployed)
 *   paid calls     per 10-paper page when 0 %, 50 % and 100 % of its papers match a Crossref record
 *   paced page     a 10-paper page, half of its links carrying their DOIs, in a warm container at realistic
 *                  latencies (the index 1,500 ms, Crossref and DataCite 300 ms) and Crossref's public pace:
 *                  its time beyond the search's own (and at the polite pace, with a contact address)
 *   new style      the first request in a CSL style not yet built (engine built from the style pack, one
 *                  record rendered) in a container started as deployed (catalogue read and the five pinned
 *                  styles built at start-up), a second render, and the heap each kept engine adds
 *
 * The fake SerpApi and the demo Crossref (recorded answers) run in this process; every cold start is a
 * fresh `node` running the bundle as deployed (esbuild, the stack's options).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { DEPLOYED_ESBUILD_OPTIONS, stylePackDir, writeStylePackLayer } from '../infra/bundling.js';
import { bestMatch } from '../lib/citations/match/match.js';
import { parseScholarSummary } from '../lib/citations/model/scholar.js';
import type { CrossrefWork } from '../lib/citations/model/work.js';
import { crossrefRecording, startReplayCrossref } from '../lib/local/replay-crossref.js';
import { startFakeSerpApi } from '../test/support/fake-serpapi.js';
import { type IndexPaper, scholarPage } from '../test/support/index-papers.js';
import { apiGatewayEvent, type ColdStartRun, coldStartOnce, summarise } from './cold-start.js';
import { median } from './load.js';
import { BUILD_DIR, PROJECT_ROOT } from './paths.js';
import { startSlowProxy } from './slow-proxy.js';

/** The realistic latencies of the paced page (and the cold-first-answer rows, bench/run.ts). */
export const REALISTIC_LATENCY_MS = { scholar: 1_500, web: 800, records: 300 } as const;

const CLIENT_KEY = 'bench-client-key-0123456789';
const UPSTREAM_KEY = 'bench-upstream-key-9876543210';
const log = (line: string) => process.stderr.write(`${line}\n`);
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Recorded Crossref works of the demo recording, listed as the index would list them: those the matcher
 * accepts for their own listing (the others would measure the matcher, not the cost of a matched page).
 */
function knownPapers(): (IndexPaper & { doi: string })[] {
  const works = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items;
  const listed = works
    .filter((work) => work.type === 'journal-article' && work.author?.[0]?.family)
    .map((work) => {
      const authors = (work.author ?? [])
        .slice(0, 3)
        .map((a) => `${(a.given ?? '').replace(/[^A-Z]/g, '')} ${a.family}`.trim())
        .join(', ');
      const year = work.issued?.['date-parts']?.[0]?.[0];
      // As the index shows a title: markup dropped, plain hyphens.
      const title = (work.title?.[0] ?? '')
        .replace(/<[^>]*>/g, '')
        .replace(/\s+/g, ' ')
        .replace(/\u2010/g, '-')
        .trim();
      return { title, summary: `${authors} - ${work['container-title']?.[0]}, ${year} - Wiley`, doi: work.DOI };
    });
  return listed.filter((paper) => bestMatch(parseScholarSummary(paper.title, paper.summary), works) !== undefined);
}

const unknownPaper = (i: number): IndexPaper => ({
  title: `Bananas and plantains, volume ${i}`,
  summary: 'JC Robinson, VG Saúco - 2010 - books.google.com',
});

/** The style pack laid out as its layer lays it out, under a folder standing for /opt (infra/style-pack-layer.ts). */
const LAYER_ROOT_HERE = join(BUILD_DIR, 'citations-opt');

/** The cite-search bundle, built as infra/api-function.ts builds it; the style pack where its layer puts it. */
async function bundleCiteSearch(): Promise<string> {
  const outdir = join(BUILD_DIR, 'citations');
  mkdirSync(outdir, { recursive: true });
  await build({
    ...DEPLOYED_ESBUILD_OPTIONS,
    entryPoints: [join(PROJECT_ROOT, 'functions', 'cite-search.ts')],
    outfile: join(outdir, 'index.mjs'),
    logLevel: 'warning',
  });
  rmSync(LAYER_ROOT_HERE, { recursive: true, force: true });
  writeStylePackLayer(LAYER_ROOT_HERE);
  return join(outdir, 'index.mjs');
}

/** Times, in a fresh process, each engine's build and then a warm render of 20 new papers × 5 styles. */
function renderTimes(): Promise<Record<string, unknown>> {
  const script = `
    import { citationRenderer } from './lib/citations/render/render.ts';
    import { citableItem, cslFromCrossref } from './lib/citations/model/csl.ts';
    import { crossrefRecording } from './lib/local/replay-crossref.ts';
    const works = JSON.parse(crossrefRecording('boettiger')).message.items;
    const items = (round) => works.map((w) => ({ ...citableItem(cslFromCrossref(w)), title: (w.title?.[0] ?? '') + ' ' + round }));
    let t = performance.now();
    const renderer = await citationRenderer();
    const build = performance.now() - t;
    t = performance.now();
    renderer.render(items('first')[0]);
    const firstRender = performance.now() - t;
    const warm = [];
    for (let round = 0; round < 7; round++) {
      const batch = items(round);
      t = performance.now();
      for (const item of batch) renderer.render(item);
      warm.push(performance.now() - t);
    }
    process.stdout.write(JSON.stringify({ build, firstRender, warm, papers: works.length }));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: PROJECT_ROOT,
      // A loopback upstream: the configuration checks a key's form only for SerpApi itself, and nothing is called.
      env: { ...process.env, API_KEYS: CLIENT_KEY, SERPAPI_API_KEY: UPSTREAM_KEY, SERPAPI_BASE_URL: 'http://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`render timing exited ${code}`))));
  });
}

/**
 * Styles a first request may name: small and large, numeric, author-date and note (the repository's
 * Chicago notes is its largest), and two dependents, one in its own locale (German).
 */
export const NEW_STYLES = [
  'ieee',
  'nature',
  'apa',
  'chicago-author-date',
  'chicago-notes-bibliography',
  'american-medical-association',
  'elsevier-harvard',
  'cell',
  'the-lancet-oncology',
  'datenbank-spektrum',
];

/**
 * In a fresh process: the catalogue's first load, then for each style its first request (engine built
 * from the pack, one record rendered) and a second render, and the heap each kept engine adds (after a
 * full GC). What a request naming a style not yet built pays beyond its network waits.
 */
function newStyleTimes(): Promise<Record<string, unknown>> {
  const script = `
    import { loadCatalogue } from './lib/citations/render/style-catalogue.ts';
    import { renderStyles, keptStyleEngines, STYLE_ENGINES_MAX } from './lib/citations/render/style-engines.ts';
    import { prepareCitationRenderer } from './lib/citations/render/render.ts';
    import { citableItem, cslFromCrossref } from './lib/citations/model/csl.ts';
    import { crossrefRecording } from './lib/local/replay-crossref.ts';
    const works = JSON.parse(crossrefRecording('boettiger')).message.items;
    const item = (i) => citableItem(cslFromCrossref(works[i % works.length]));
    const heap = () => { globalThis.gc(); return process.memoryUsage().heapUsed; };
    let t = performance.now();
    const catalogue = await loadCatalogue();
    const catalogueMs = performance.now() - t;
    // The five pinned styles built first (at start-up with CITATION_STYLES_AT_INIT, else by the first citation
    // request), so that citeproc is loaded and compiled before a request names a style of its own.
    t = performance.now();
    await prepareCitationRenderer();
    const initMs = performance.now() - t;
    const styles = {};
    let i = 0;
    for (const id of ${JSON.stringify(NEW_STYLES)}) {
      const before = heap();
      t = performance.now();
      const [first] = await renderStyles([item(i++)], [id]);
      const firstMs = performance.now() - t;
      t = performance.now();
      await renderStyles([item(i++)], [id]);
      const secondMs = performance.now() - t;
      styles[id] = { first_request_ms: firstMs, second_render_ms: secondMs, heap_mb: (heap() - before) / 1048576, rendered: Boolean(first[id]) };
    }
    process.stdout.write(JSON.stringify({ catalogue_load_ms: catalogueMs, pinned_styles_at_init_ms: initMs, total_styles: catalogue.total, styles, kept: keptStyleEngines(), bound: STYLE_ENGINES_MAX }));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        API_KEYS: CLIENT_KEY,
        SERPAPI_API_KEY: UPSTREAM_KEY,
        SERPAPI_BASE_URL: 'http://127.0.0.1:9',
        // The result is stdout's last line; the service's log lines go there too.
        POWERTOOLS_LOG_LEVEL: 'ERROR',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1) ?? ''))
        : reject(new Error(`new-style timing exited ${code}`)),
    );
  });
}

/**
 * A 10-paper page in a warm container at realistic latencies: the index answers after 1,500 ms, Crossref
 * and DataCite (their replays behind a proxy) after 300 ms each, at Crossref's public pace (no contact
 * address: 5 lookups a second) and at the polite one. Half the papers' links carry their DOIs (Wiley's
 * `/doi/abs/…` pages), half carry none (found by a bibliographic query each). Each round is a fresh
 * container (the bundle as deployed) asked the page twice, the second time with
 * the caches bypassed: that second answer, less the search's 1,500 ms, is what a user waits for the
 * citations of a page beyond the search. Its lookups start once the search answers, 1.5 s after the first
 * page's ended: the pace has room again, as for a page asked after an idle moment.
 */
async function pacedPage(
  bundle: string,
  known: (IndexPaper & { doi: string })[],
  rounds: number,
  env: Record<string, string>,
  eventFile: (name: string, body: Record<string, unknown>) => string,
): Promise<Record<string, unknown>> {
  const upstream = await startFakeSerpApi();
  const crossrefReplay = await startReplayCrossref();
  const { startReplayDataCite } = await import('../lib/local/replay-datacite.js');
  const dataCiteReplay = await startReplayDataCite();
  const crossref = await startSlowProxy(crossrefReplay.url, REALISTIC_LATENCY_MS.records);
  const dataCite = await startSlowProxy(dataCiteReplay.url, REALISTIC_LATENCY_MS.records);
  const papers = known.slice(0, 10).map(
    (paper, i): IndexPaper => ({
      title: paper.title,
      summary: paper.summary,
      link: i < 5 ? `https://onlinelibrary.wiley.com/doi/abs/${paper.doi}` : `https://example.org/papers/paced-${i}`,
    }),
  );
  upstream.engineLatencyMs = { google_scholar: REALISTIC_LATENCY_MS.scholar };
  upstream.respond((q) => (q.get('engine') === 'google_scholar' ? { json: scholarPage('paced', papers) } : undefined));
  const event = eventFile('paced-page', { query: 'paced page', results: 10, no_cache: true });
  const { CROSSREF_MAILTO: _mailto, ...publicEnv } = env;
  const paces = {
    public: publicEnv,
    polite: { ...publicEnv, CROSSREF_MAILTO: 'bench@example.org' },
  };
  const out: Record<string, unknown> = {};
  try {
    for (const [pace, paceEnv] of Object.entries(paces)) {
      const runEnv = {
        ...paceEnv,
        SERPAPI_BASE_URL: upstream.url,
        CROSSREF_BASE_URL: crossref.url,
        DATACITE_BASE_URL: dataCite.url,
      };
      log(`citations: a 10-paper page at the ${pace} pace, realistic latencies, ${rounds} rounds`);
      const runs: ColdStartRun[] = [];
      for (let i = 0; i < rounds; i++) {
        const before = crossref.requests.length;
        runs.push(await coldStartOnce(bundle, event, runEnv, event));
        if (i === 0) out[`${pace}_crossref_requests_per_page`] = (crossref.requests.length - before) / 2;
      }
      const beyond = runs.map((run) => (run.secondInvoke ?? Number.NaN) - REALISTIC_LATENCY_MS.scholar);
      out[`${pace}_beyond_search_ms`] = round(median(beyond));
      out[`${pace}_beyond_search_runs_ms`] = beyond.map(round);
      out[`${pace}_status`] = runs[0]?.status ?? null;
    }
  } finally {
    await Promise.all([upstream.close(), crossref.close(), dataCite.close(), crossrefReplay.close(), dataCiteReplay.close()]);
  }
  return { ...out, latencies_ms: REALISTIC_LATENCY_MS, papers: 10, links_with_doi: 5 };
}

/** The fresh-process timings of every style's engine build, measured apart (one process per style order). */
export async function citationsBench(options: { quick: boolean }): Promise<Record<string, unknown>> {
  const rounds = options.quick ? 3 : 7;
  log('citations: render timings in a fresh process');
  const render = await renderTimes();
  const warm = render.warm as number[];
  // The first warm batch still warms the JIT; the rest are what a warm container pays.
  const warmMedian = median(warm.slice(1));
  log('citations: first request in a style not yet built, in a fresh process');
  const newStyles = await newStyleTimes();

  log('citations: bundling cite-search');
  const bundle = await bundleCiteSearch();
  const upstream = await startFakeSerpApi();
  const crossref = await startReplayCrossref();
  const known = knownPapers();
  const pages: Record<string, IndexPaper[]> = {
    'known-1': known.slice(0, 1),
    'unknown-1': [unknownPaper(1)],
    ...Object.fromEntries(
      [0, 50, 100].map((percent) => {
        const matched = percent / 10;
        return [
          `page-${percent}`,
          Array.from({ length: 10 }, (_, i) => (i < matched ? (known[i] as IndexPaper) : unknownPaper(i))),
        ];
      }),
    ),
  };
  pages['page-100-again'] = pages['page-100'] as IndexPaper[];
  upstream.respond((q) => {
    const page = pages[q.get('q') ?? ''];
    if (q.get('engine') === 'google_scholar' && page) return { json: scholarPage(q.get('q') ?? '', page) };
    return undefined;
  });
  const env = {
    API_KEYS: CLIENT_KEY,
    SERPAPI_API_KEY: UPSTREAM_KEY,
    SERPAPI_BASE_URL: upstream.url,
    CROSSREF_BASE_URL: crossref.url,
    // As deployed (docs/citations.md, Pace): a contact address, so Crossref's pace is 10 lookups a second
    // and a page of 10 starts its lookups without waiting for the pace.
    CROSSREF_MAILTO: 'bench@example.org',
    // As deployed: the pack read from its layer (here, the folder standing for /opt).
    STYLE_PACK_DIR: stylePackDir(LAYER_ROOT_HERE),
    POWERTOOLS_SERVICE_NAME: 'search-citation-api',
    POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApi',
  };
  const eventsDir = join(BUILD_DIR, 'citations', 'events');
  mkdirSync(eventsDir, { recursive: true });
  const eventFile = (name: string, body: Record<string, unknown>) => {
    const file = join(eventsDir, `${name}.json`);
    writeFileSync(file, JSON.stringify(apiGatewayEvent('/v1/cite/search', JSON.stringify(body), CLIENT_KEY)));
    return file;
  };

  try {
    const cases = {
      index: eventFile('index', { query: 'known-1', results: 1, citation_source: 'index' }),
      auto_unknown_paper: eventFile('auto-unknown', { query: 'unknown-1', results: 1 }),
      auto_known_paper: eventFile('auto-known', { query: 'known-1', results: 1 }),
      auto_known_page_of_10: eventFile('auto-known-10', { query: 'page-100', results: 10 }),
    };
    // After the page of 10, in the same process: the same papers under other result ids (so no cache
    // answers them): the same lookups and renders, paid by a warm container.
    const warmAfter: Partial<Record<keyof typeof cases, string>> = {
      auto_known_page_of_10: eventFile('auto-known-10-again', { query: 'page-100-again', results: 10 }),
    };
    // Where the styles are built: while the container starts (CITATION_STYLES_AT_INIT), or on the first
    // citation search while it waits on the network (as deployed).
    const variants = {
      styles_at_init: { env: { ...env, CITATION_STYLES_AT_INIT: 'true' }, latencies: [0, REALISTIC_LATENCY_MS.scholar] },
      styles_on_first_request: { env, latencies: [0, REALISTIC_LATENCY_MS.scholar] },
    };
    const cold: Record<string, Record<string, Record<string, ReturnType<typeof summarise>>>> = {};
    const beyondNetwork: Record<string, Record<string, unknown>> = {};
    for (const [variant, { env: variantEnv, latencies }] of Object.entries(variants)) {
      cold[variant] = {};
      beyondNetwork[variant] = {};
      for (const latency of latencies) {
        upstream.latencyMs = latency;
        log(`citations: cold starts, ${variant}, search latency ${latency} ms, ${rounds} rounds`);
        const runs: Record<string, ColdStartRun[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
        await coldStartOnce(bundle, cases.index, variantEnv); // the first start after the build also reads the file from disk
        for (let i = 0; i < rounds; i++) {
          for (const [name, file] of Object.entries(cases)) {
            runs[name]?.push(await coldStartOnce(bundle, file, variantEnv, warmAfter[name as keyof typeof cases]));
          }
        }
        const summaries = Object.fromEntries(Object.entries(runs).map(([name, r]) => [name, summarise(r)]));
        (cold[variant] as Record<string, unknown>)[`search_latency_${latency}ms`] = summaries;
        // The first citation search with local rendering, less its network waits (the search's latency;
        // the Crossref replay answers on loopback at once), and less the same work in a warm container.
        const page = summaries.auto_known_page_of_10;
        (beyondNetwork[variant] as Record<string, unknown>)[`search_latency_${latency}ms`] = {
          first_less_network: round((page?.invoke_ms ?? Number.NaN) - latency),
          warm_less_network: round((page?.second_invoke_ms ?? Number.NaN) - latency),
          first_less_warm: round((page?.invoke_ms ?? Number.NaN) - (page?.second_invoke_ms ?? Number.NaN)),
        };
      }
    }

    upstream.latencyMs = 0;
    log('citations: paid calls per 10-paper page');
    if (known.length < 10) throw new Error(`only ${known.length} recorded works match their own listing; 10 are needed`);
    const paid: Record<string, { paid_calls: number; index_cite_calls: number; status: number | null }> = {};
    for (const percent of [0, 50, 100]) {
      upstream.reset();
      upstream.respond((q) => {
        const page = pages[q.get('q') ?? ''];
        if (q.get('engine') === 'google_scholar' && page) return { json: scholarPage(q.get('q') ?? '', page) };
        return undefined;
      });
      const file = eventFile(`page-${percent}`, { query: `page-${percent}`, results: 10 });
      const run = await coldStartOnce(bundle, file, env);
      paid[`${percent}%`] = {
        paid_calls: upstream.calls(),
        index_cite_calls: upstream.calls('google_scholar_cite'),
        status: run.status,
      };
    }
    const paced = await pacedPage(bundle, known, rounds, env, eventFile);
    return {
      page_10_public_pace_beyond_search_ms: paced.public_beyond_search_ms,
      paced_page: paced,
      styles_build_ms: round(render.build as number),
      first_render_ms: round(render.firstRender as number),
      warm_render_20_papers_x_5_styles_ms: round(warmMedian),
      warm_render_runs_ms: warm.map(round),
      new_style: newStyles,
      cold_start: cold,
      first_request_page_of_10_beyond_network_ms: beyondNetwork,
      paid_calls_per_10_paper_page: paid,
      load_average_1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    };
  } finally {
    await crossref.close();
    await upstream.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').slice(-2).join('/'))) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  const results = await citationsBench({ quick: values.quick });
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}
