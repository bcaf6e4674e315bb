/**
 * The reference check at Crossref's public pace (5 lookups a second, no contact address):
 * `npm run bench -- --only check`, or alone with `npx tsx bench/check.ts [--quick]`.
 *
 *   doi_references        POST /v1/cite/check with 100 references that give their DOIs (five batches of 20)
 *   free_text_references  the same 100 references without their DOIs (one bibliographic query each)
 *
 * The service is the real local server in a process of its own (test/support/service-child.ts) with
 * `CROSSREF_REQUESTS_PER_SECOND=5`; Crossref and DataCite are the fakes of the tests, holding the recorded
 * works of the labelled set (test/support/check-labelled-set.ts) and answering on loopback at once, so a
 * figure is the service's pace and work, not Crossref's own latency, which comes on top. Each round checks
 * the answer (100 results, every one verified) and counts the Crossref requests it made; one reference is
 * checked first so that the container is warm, as any earlier request would have left it.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { CrossrefWork } from '../lib/citations/model/work.js';
import { SERVICE_ENTRY, startChild } from '../test/support/child-process.js';
import { startFakeCrossref } from '../test/support/fake-crossref.js';
import { startFakeDataCite } from '../test/support/fake-datacite.js';
import { median } from './load.js';

const CLIENT_KEY = 'bench-client-key-0123456789';
const UPSTREAM_KEY = 'bench-upstream-key-9876543210';
const REFERENCES = 100;
/** Crossref's public pool: the pace a deployment without a contact address keeps (docs/citations.md, Pace). */
export const PUBLIC_PACE = 5;
const log = (line: string) => process.stderr.write(`${line}\n`);
const round = (n: number) => Math.round(n);

/** "Family, G., et al. (year). Title. Journal." and, for the DOI list, the DOI's link after it. */
function cite(work: CrossrefWork, withDoi: boolean): string {
  const author = work.author?.[0];
  const etAl = (work.author?.length ?? 0) > 1 ? ', et al.' : '';
  const text = `${author?.family}, ${author?.given?.[0] ?? ''}.${etAl} (${work.issued?.['date-parts']?.[0]?.[0]}). ${work.title?.[0]}. ${work['container-title']?.[0]}.`;
  return withDoi ? `${text} https://doi.org/${work.DOI}` : text;
}

interface Run {
  ms: number;
  status: number;
  results: number;
  verified: number;
  crossref_requests: number;
}

export async function checkBench(options: { quick: boolean }): Promise<Record<string, unknown>> {
  const rounds = options.quick ? 1 : 3;
  // The set's module reads the service's configuration when imported; nothing here calls an upstream (on
  // loopback, the configuration checks a key's form only for SerpApi itself).
  process.env.API_KEYS ??= CLIENT_KEY;
  process.env.SERPAPI_API_KEY ??= UPSTREAM_KEY;
  process.env.SERPAPI_BASE_URL ??= 'http://127.0.0.1:9';
  const set = await import('../test/support/check-labelled-set.js');
  const { registries, candidates } = set.simulatedRegistries();
  const retracted = new Set(registries.crossref.filter((work) => work['updated-by']).map((work) => work.DOI));
  const works = candidates
    // As a reference prints a title: none with markup or entities (`<sub>`, `&amp;`) in its record.
    .filter((work) => work.author?.[0]?.family && work['container-title']?.[0] && !/[<&]/.test(work.title?.[0] ?? ''))
    .filter((work) => !retracted.has(work.DOI))
    .slice(0, REFERENCES);
  if (works.length < REFERENCES) throw new Error(`only ${works.length} recorded journal articles; ${REFERENCES} are needed`);

  const [crossref, dataCite] = await Promise.all([startFakeCrossref(), startFakeDataCite()]);
  crossref.respond(set.crossrefResponder(registries.crossref));
  dataCite.respond(set.dataCiteResponder(registries.dataCite));
  const service = await startChild<{ url: string }>(SERVICE_ENTRY, {
    API_KEYS: CLIENT_KEY,
    SERPAPI_API_KEY: UPSTREAM_KEY,
    // Google Scholar is not asked ("scholar" is left out): a port nothing listens on.
    SERPAPI_BASE_URL: 'http://127.0.0.1:9',
    CROSSREF_BASE_URL: crossref.url,
    DATACITE_BASE_URL: dataCite.url,
    CROSSREF_REQUESTS_PER_SECOND: String(PUBLIC_PACE),
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  });
  const post = async (references: string[]): Promise<Run> => {
    crossref.reset();
    crossref.respond(set.crossrefResponder(registries.crossref));
    // After the pace's last window: each list starts as a request arriving at a quiet container would.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const started = performance.now();
    const reply = await fetch(`${service.ready.url}/v1/cite/check`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${CLIENT_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ references }),
    });
    const json = (await reply.json()) as {
      data?: { results?: { verdict: string }[] };
      error?: unknown;
    };
    const ms = performance.now() - started;
    const results = json.data?.results ?? [];
    if (reply.status !== 200) throw new Error(`the check answered ${reply.status}: ${JSON.stringify(json.error)}`);
    const verified = results.filter((result) => result.verdict === 'verified').length;
    if (results.length !== references.length || verified !== references.length) {
      throw new Error(`the check answered ${results.length} of ${references.length} references, ${verified} verified`);
    }
    return {
      ms,
      status: reply.status,
      results: results.length,
      verified,
      crossref_requests: crossref.requests.length,
    };
  };

  try {
    log('check: warming the service with one reference');
    await post([cite(works[0] as CrossrefWork, true)]);
    const lists = {
      doi_references: works.map((work) => cite(work, true)),
      free_text_references: works.map((work) => cite(work, false)),
    };
    const measured: Record<string, unknown> = {};
    for (const [name, references] of Object.entries(lists)) {
      const runs: Run[] = [];
      for (let i = 0; i < rounds; i++) {
        log(`check: ${REFERENCES} ${name.replace(/_/g, ' ')}, round ${i + 1} of ${rounds}`);
        runs.push(await post(references));
      }
      measured[name] = {
        median_ms: round(median(runs.map((run) => run.ms))),
        runs: runs.map((run) => ({ ...run, ms: round(run.ms) })),
      };
    }
    return {
      references: REFERENCES,
      crossref_per_second: PUBLIC_PACE,
      ...measured,
      load_average_1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    };
  } finally {
    await service.stop();
    await Promise.all([crossref.close(), dataCite.close()]);
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').slice(-2).join('/'))) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  const results = await checkBench({ quick: values.quick });
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}
