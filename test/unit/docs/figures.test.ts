/**
 * Figures in the README and the guides, held to their sources so that they cannot go stale: the alarms
 * (counted in the stack's construct tree, as `cdk synth` would render it, without synthesizing), the
 * number of test files (a glob) and of the quick suite's (test/support/quick-suite.ts), the smoke run's
 * searches (lib/local/smoke.ts), the tools (the routes table) and the benchmark's tables (bench/results.json,
 * which `npm run bench` writes). A figure that needs a run to know, such as the number of tests (table rows
 * and generated cases included), is checked only as far as a cheap count allows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CfnAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../infra/app.js';
import { SMOKE_SEARCH_LIMIT } from '../../../lib/local/smoke.js';
import { ROUTES } from '../../../lib/routes.js';
import { documentPaths, PROJECT_ROOT, readDocument } from '../../support/docs-blocks.js';
import { inQuickSuite, testFiles } from '../../support/quick-suite.js';

const documents = documentPaths().map((path) => ({ path, text: readDocument(path) }));

/** Every match of a pattern in the README and the guides, with where it is. */
function figures(pattern: RegExp): { where: string; match: RegExpMatchArray }[] {
  return documents.flatMap(({ path, text }) =>
    [...text.matchAll(pattern)].map((match) => ({
      where: `${path}:${text.slice(0, match.index).split('\n').length}`,
      match,
    })),
  );
}

const number = (text: string | undefined) => Number((text ?? '').replace(/,/g, ''));

describe('the alarms the stack creates', () => {
  let alarms: CfnAlarm[];
  beforeAll(() => {
    // The deploy the README describes (cdk.json's context, an admin named), functions not bundled.
    const context = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context;
    const { stack } = createApp({
      context: {
        ...context,
        secretAdminArns: 'arn:aws:iam::123456789012:role/Deployer',
        alarmEmail: 'ops@example.com',
        crossrefMailto: 'ops@example.com',
        'aws:cdk:bundling-stacks': [],
      },
    });
    alarms = stack.node.findAll().filter((construct): construct is CfnAlarm => construct instanceof CfnAlarm);
  }, 120_000);

  /** The metrics an alarm reads: one, or each metric of its math expression. */
  const metricsRead = (alarm: CfnAlarm) =>
    Array.isArray(alarm.metrics) ? alarm.metrics.filter((query) => 'metricStat' in query && query.metricStat).length : 1;

  it('are as many as the documents say, each time they say it', () => {
    // "429 alarms" are the alarms on 429 answers: an HTTP status is no count.
    const said = figures(/\b(\d+) alarms\b/g).filter(({ match }) => !/^[45]\d\d$/.test(match[1] ?? ''));
    expect(said.length).toBeGreaterThanOrEqual(1);
    expect(said.map(({ where, match }) => `${where}: ${match[0]}`)).toEqual(
      said.map(({ where }) => `${where}: ${alarms.length} alarms`),
    );
  });

  it('read as many metrics as the cost table says, at $0.10 a month each', () => {
    const metrics = alarms.reduce((sum, alarm) => sum + metricsRead(alarm), 0);
    const said = figures(/\b(\d+) alarms reading (\d+) metrics, about \$(\d+\.\d\d) a month/g);
    expect(said.length).toBeGreaterThanOrEqual(1);
    const correct = `${alarms.length} alarms reading ${metrics} metrics, about $${(metrics * 0.1).toFixed(2)} a month`;
    expect(said.map(({ where, match }) => `${where}: ${match[0]}`)).toEqual(said.map(({ where }) => `${where}: ${correct}`));
  });
});

describe('the test suite', () => {
  const testFiles = (readdirSync(join(PROJECT_ROOT, 'test'), { recursive: true }) as string[]).filter((path) =>
    path.endsWith('.test.ts'),
  );
  const declared = testFiles
    .map((path) => readFileSync(join(PROJECT_ROOT, 'test', path), 'utf8'))
    .reduce((sum, text) => sum + (text.match(/(?<![\w.])(?:it|test)(?:\.each\([^)]*\))?\(\s*['"`]/g) ?? []).length, 0);

  it('has about as many files as the README says (within a tenth)', () => {
    const said = figures(/\babout ([\d,]+) tests in about ([\d,]+) files\b/g);
    expect(said.length).toBeGreaterThanOrEqual(1);
    for (const { where, match } of said) {
      const files = number(match[2]);
      expect(
        Math.abs(files - testFiles.length),
        `${where}: "${match[0]}"; there are ${testFiles.length} test files`,
      ).toBeLessThanOrEqual(testFiles.length / 10);
    }
  });

  it('has at least as many tests as it declares (the count of tests itself needs a run: each() rows, generated cases)', () => {
    for (const { where, match } of figures(/\babout ([\d,]+) tests in about ([\d,]+) files\b/g)) {
      expect(number(match[1]), `${where}: "${match[0]}"; ${declared} tests are declared`).toBeGreaterThanOrEqual(declared * 0.9);
    }
  });
});

describe('the quick suite’s measured run (docs/testing.md)', () => {
  const quick = testFiles(PROJECT_ROOT).filter(inQuickSuite);
  const declared = quick
    .map((path) => readFileSync(join(PROJECT_ROOT, path), 'utf8'))
    .reduce((sum, text) => sum + (text.match(/(?<![\w.])(?:it|test)(?:\.each\([^)]*\))?\(\s*['"`]/g) ?? []).length, 0);
  const said = figures(/`time npm run test:quick`[\s\S]*?: ([\d,]+) files, ([\d,]+) tests, ([\d.]+) s wall clock/g);

  it('gives as many files as the quick set holds (within a tenth), as test/support/quick-suite.ts computes it', () => {
    expect(said.length).toBeGreaterThanOrEqual(1);
    for (const { where, match } of said) {
      expect(
        Math.abs(number(match[1]) - quick.length),
        `${where}: "${match[1]} files"; the quick set holds ${quick.length}`,
      ).toBeLessThanOrEqual(quick.length / 10);
    }
  });

  it('gives at least as many tests as those files declare (each() rows and generated cases need a run to count)', () => {
    for (const { where, match } of said) {
      expect(number(match[2]), `${where}: "${match[2]} tests"; the quick files declare ${declared}`).toBeGreaterThanOrEqual(
        declared * 0.9,
      );
    }
  });
});

describe('the smoke run (docs/deploy-and-operations.md)', () => {
  it('spends at most what its calls cost, the budget it runs under, as lib/local/smoke.ts computes it', () => {
    const said = [...figures(/\bIt spends at most (\d+) searches\b/g), ...figures(/\bits hourly budget set to (\d+)\b/g)];
    expect(said.length).toBeGreaterThanOrEqual(2);
    for (const { where, match } of said) expect(number(match[1]), where).toBe(SMOKE_SEARCH_LIMIT);
  });
});

describe('the MCP tools', () => {
  it('are one per route, as many as docs/mcp.md says', () => {
    const said = figures(/\bfor (\d+) tools\b/g);
    expect(said.length).toBeGreaterThanOrEqual(1);
    for (const { where, match } of said) expect(number(match[1]), where).toBe(ROUTES.length);
  });
});

describe('the upstream contract (docs/testing.md)', () => {
  it('covers as many endpoints as the guide says: every route that searches (not usage, citation resolving, the style catalogue or the jobs)', () => {
    const said = figures(/\bfor all (\d+) endpoints that search/g);
    expect(said.length).toBeGreaterThanOrEqual(1);
    const searching = ROUTES.filter(
      (route) => !['usage', 'cite-resolve', 'cite-styles'].includes(route.name) && route.tag !== 'Jobs',
    );
    for (const { where, match } of said) expect(number(match[1]), where).toBe(searching.length);
  });
});

describe('the MCP function’s cold start in docs/mcp.md', () => {
  it('gives the last full run’s figures as bench/results.json holds them', () => {
    const { mcp } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'bench/results.json'), 'utf8'));
    const said = figures(/`initialize` \+ `tools\/list` ([\d.]+) ms\s+against the web search's ([\d.]+) ms,\s+([\d.]+)×/g);
    expect(said.length).toBeGreaterThanOrEqual(1);
    for (const { where, match } of said) {
      expect(match.slice(1, 4).map(Number), where).toEqual([
        mcp.cold_start.initialize_then_tools_list.median_ms,
        mcp.cold_start['endpoint_web-search-alpha'].median_ms,
        mcp.initialize_tools_list_vs_endpoint,
      ]);
    }
  });
});

describe('the benchmark tables in docs/performance.md', () => {
  const results = JSON.parse(readFileSync(join(PROJECT_ROOT, 'bench/results.json'), 'utf8'));
  const performance = readDocument('docs/performance.md');
  /** The rows of the table whose header row starts with `first`, as cells. */
  const table = (first: string) => {
    const start = performance.indexOf(`| ${first} |`);
    expect(start, `a table headed "${first}"`).toBeGreaterThanOrEqual(0);
    const rows = performance.slice(start).split('\n');
    return rows
      .slice(
        2,
        rows.findIndex((row, i) => i > 0 && !row.startsWith('|')),
      )
      .map((row) =>
        row
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
  };

  it('show the targets as bench/results.json holds them: value, limit and verdict', () => {
    const rows = table('Target');
    expect(rows).toHaveLength(results.targets.length);
    results.targets.forEach((target: { name: string; value: number; limit: string; pass: boolean }, i: number) => {
      const [name, measured, limit, verdict] = rows[i] ?? [];
      expect(number(/[\d.,]+/.exec(measured ?? '')?.[0]), `${name}: ${target.name}`).toBe(target.value);
      expect(number(/[\d.,]+/.exec(limit ?? '')?.[0]), `${name}: ${target.name}`).toBe(number(/[\d.,]+/.exec(target.limit)?.[0]));
      expect(verdict, `${name}: ${target.name}`).toBe(target.pass ? 'pass' : '**miss**');
    });
  });

  it('show the overhead run as bench/results.json holds it', () => {
    const rows = table('web-search/alpha');
    const columns = ['direct', 'bare_proxy', 'floor', 'service'] as const;
    const fields: Record<string, [string, string, (value: number) => string]> = {
      'c=1 p50 ms': ['c1', 'p50_ms', String],
      'c=1 p99 ms': ['c1', 'p99_ms', String],
      'c=1 CPU µs/request': ['c1', 'cpu_us_per_request', (value) => String(Math.round(value))],
      'c=32 p50 ms': ['c32', 'p50_ms', String],
      'c=32 p99 ms': ['c32', 'p99_ms', String],
      'c=32 requests/s': ['c32', 'rps', (value) => value.toLocaleString('en-US')],
      'c=32 CPU µs/request': ['c32', 'cpu_us_per_request', (value) => String(Math.round(value))],
    };
    expect(rows.map((row) => row[0])).toEqual(Object.keys(fields));
    for (const [label, ...cells] of rows) {
      const [concurrency, field, shown] = fields[label ?? ''] ?? ['', '', String];
      const expected = columns.map((column) => {
        const value = results.latency[concurrency][column][field];
        return value === null ? '–' : shown(value);
      });
      expect(cells, label).toEqual(expected);
    }
  });

  it('show every function’s deployed bytes and cold start, with its verdict against twice the empty handler’s, as bench/results.json holds them', () => {
    const rows = table('function');
    const shown = (value: unknown) => (value === null || value === undefined ? '–' : String(value));
    expect(rows.map((row) => row[0])).toEqual(Object.keys(results.bundles).map((name) => `\`${name}\``));
    for (const [cell, ...cells] of rows) {
      const name = (cell ?? '').replace(/`/g, '');
      const bundle = results.bundles[name];
      const env = results.cold_start.env_keys[name];
      const secrets = results.cold_start.secrets_manager[name];
      const verdict = env.within_2x_empty === null ? '–' : env.within_2x_empty ? 'pass' : '**miss**';
      expect(cells, name).toEqual([
        shown(bundle.kib),
        shown(bundle.beside_kib),
        shown(bundle.zip_kib),
        shown(env.median_ms),
        shown(env.vs_empty),
        verdict,
        shown(env.load_ms),
        shown(env.first_invoke_ms),
        shown(secrets.median_ms),
        shown(secrets.rss_mib),
      ]);
    }
  });

  it('show every function’s first answer in a new and in a warm container, at realistic latencies, as bench/results.json holds them', () => {
    const rows = table('first answer');
    const answers = results.cold_first_answer as Record<
      string,
      { cold_ms: number; warm_ms: number; cold_less_warm_ms: number; within_300_ms: boolean; styles?: string }
    >;
    expect(rows.map((row) => row[0])).toEqual(Object.keys(answers).map((name) => `\`${name}\``));
    for (const [cell, ...cells] of rows) {
      const answer = answers[(cell ?? '').replace(/`/g, '')];
      expect(cells, cell).toEqual([
        String(answer?.cold_ms),
        String(answer?.warm_ms),
        String(answer?.cold_less_warm_ms),
        answer?.within_300_ms ? 'pass' : '**miss**',
        answer?.styles === undefined ? '–' : answer.styles === 'at_start' ? 'at start-up' : 'on the first request',
      ]);
    }
  });

  it('give the paced page’s figures as bench/results.json holds them', () => {
    const paced = results.citations.paced_page as Record<string, number>;
    const said =
      /a 10-paper page, five of whose links carry their DOIs, took ([\d.,]+) ms beyond the search at Crossref's public pace \((\d+) Crossref requests\) and ([\d.,]+) ms at the polite pace/.exec(
        performance.replace(/\s+/g, ' '),
      );
    expect(said, 'docs/performance.md gives the paced page').not.toBeNull();
    expect([number(said?.[1]), number(said?.[2]), number(said?.[3])]).toEqual([
      paced.public_beyond_search_ms,
      paced.public_crossref_requests_per_page,
      paced.polite_beyond_search_ms,
    ]);
  });
});
