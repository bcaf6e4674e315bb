/**
 * `npm run smoke` (lib/local/smoke.ts) against the real service and the fake upstream: every route is
 * called once and answers 200 with no field missing or new, the paid searches stay within the limit and
 * within each row's stated cost, a field the document does not know fails the run, and without `--live`
 * (or with `--help`) nothing is called at all.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sample } from '../../lib/local/samples.js';
import { HELP, main, paidCalls, SMOKE_SEARCH_LIMIT, type SmokeIo } from '../../lib/local/smoke.js';
import { ROUTES } from '../../lib/routes.js';
import { TEST_CLIENT_KEY, TEST_UPSTREAM_KEY, useService } from '../support/service.js';

const harness = useService();
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number;
  out: string;
  err: string;
  /** Each call the smoke run made: its URL and the upstream calls it caused. */
  calls: { url: string; upstream: number }[];
}

/** Runs main() in this process with a fetch that records each call; `alter` may rewrite an answer. */
async function smoke(argv: string[], alter?: (url: string, body: Record<string, unknown>) => void): Promise<Run> {
  const run: Run = { code: -1, out: '', err: '', calls: [] };
  const io: SmokeIo = {
    env: {},
    out: (text) => {
      run.out += `${text}\n`;
    },
    err: (text) => {
      run.err += `${text}\n`;
    },
    fetch: async (input, init) => {
      const url = String(input);
      const before = harness.upstream.calls();
      const response = await fetch(input, init);
      run.calls.push({ url, upstream: harness.upstream.calls() - before });
      if (!alter) return response;
      const body = (await response.json()) as Record<string, unknown>;
      alter(url, body);
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    },
  };
  run.code = await main(argv, io);
  return run;
}

/** The table's rows by endpoint: status, paid, missing, new, other. */
function rows(out: string): Map<string, { status: string; paid: number; missing: string; new: string; other: string }> {
  const table = new Map<string, { status: string; paid: number; missing: string; new: string; other: string }>();
  for (const line of out.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| endpoint ')) continue;
    const [endpoint = '', status = '', paid = '', missing = '', added = '', other = ''] = line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    table.set(endpoint, { status, paid: Number(paid), missing, new: added, other });
  }
  return table;
}

const live = () => ['--live', '--url', harness.service.url, '--key', TEST_CLIENT_KEY];

describe('npm run smoke --live against the local service', () => {
  it('calls every route once; each answers its success status (200; 202 for a job) with no field missing or new; exit code 0', async () => {
    const run = await smoke(live());
    expect(run.code, run.out + run.err).toBe(0);
    const table = rows(run.out);
    expect([...table.keys()].sort()).toEqual(ROUTES.map((route) => route.name).sort());
    for (const route of ROUTES) {
      const row = table.get(route.name);
      expect(row, `${route.name} is not in the table`).toBeDefined();
      expect(row?.status, `${route.name}: ${run.out}`).toBe(String(route.successStatus ?? 200));
      expect(row?.missing, `${route.name} misses fields`).toBe('-');
      expect(row?.new, `${route.name} has fields the document does not know`).toBe('-');
      expect(row?.other, `${route.name}: ${run.out}`).toBe('0');
    }
    expect(run.calls.map((call) => new URL(call.url).pathname).sort()).toEqual(ROUTES.map((route) => route.path).sort());
    // A deployment's answers from SerpApi are out of the run's sight: it says so rather than list nothing.
    expect(run.out).toContain('Upstream fields not carried: listed with --upstream only');
  });

  it('spends at most the searches the help states, its table’s total, and no call more than its row states', async () => {
    const run = await smoke(live());
    const table = rows(run.out);
    const stated = [...table.values()].reduce((sum, row) => sum + row.paid, 0);
    expect(stated).toBeLessThanOrEqual(SMOKE_SEARCH_LIMIT);
    expect(SMOKE_SEARCH_LIMIT).toBe(stated);
    expect(HELP).toContain(`at most ${stated} a run`);
    expect(HELP).toMatch(new RegExp(`^  total +${stated}$`, 'm'));
    expect(run.out).toContain(`paid searches at most ${stated} (limit ${stated})`);
    expect(harness.upstream.calls()).toBeLessThanOrEqual(stated);
    for (const route of ROUTES) {
      const call = run.calls.find((c) => new URL(c.url).pathname === route.path);
      expect(call?.upstream, `${route.name} made more upstream calls than its row states`).toBeLessThanOrEqual(
        table.get(route.name)?.paid ?? -1,
      );
    }
  });

  it('fails (exit 1) on a field the document does not know, one it requires that is absent, or a null it forbids', async () => {
    const run = await smoke(live(), (url, body) => {
      const path = new URL(url).pathname;
      const data = body.data as Record<string, unknown>;
      if (path === '/v1/web-search/alpha') data.surprise = 1;
      if (path === '/v1/alpha/news') body.extra = 'x';
      if (path === '/v1/usage') delete data[Object.keys(data)[0] ?? ''];
      if (path === '/v1/cite/search') data.papers = null;
    });
    expect(run.code).toBe(1);
    const table = rows(run.out);
    expect(table.get('web-search-alpha')?.new).toBe('data.surprise');
    expect(table.get('alpha-news')?.new).toBe('extra');
    expect(table.get('usage')?.missing).toMatch(/^data\./);
    expect(table.get('cite-search')?.missing).toBe('data.papers (null)');
    expect(table.get('web-search-bravo')?.new).toBe('-');
    expect(run.out).toContain('4 failing');
  });
});

describe('the cost of a smoke body', () => {
  it('counts web search alpha as 2 paid searches only with fetch_ai_overview', () => {
    expect(paidCalls('web-search-alpha', { q: 'coffee' })).toBe(1);
    expect(paidCalls('web-search-alpha', { q: 'coffee', fetch_ai_overview: false })).toBe(1);
    expect(paidCalls('web-search-alpha', { q: 'coffee', fetch_ai_overview: true })).toBe(2);
  });

  it('counts a reference check as a search per reference only with scholar, at most the table’s', () => {
    expect(paidCalls('cite-check', { references: ['a', 'b', 'c'] })).toBe(0);
    expect(paidCalls('cite-check', { references: ['a', 'b', 'c'], scholar: true })).toBe(3);
    expect(paidCalls('cite-check', { bibliography: 'a\n\nb', scholar: true })).toBe(100);
  });
});

describe('npm run smoke without --live', () => {
  it('--help prints the help with every route and its cost, calls nothing, exit code 0', async () => {
    const run = await smoke(['--help']);
    expect(run.code).toBe(0);
    expect(run.out).toBe(`${HELP}\n`);
    for (const route of ROUTES) expect(run.out).toMatch(new RegExp(`^ {2}${route.name} +\\d+ `, 'm'));
    expect(run.out).toMatch(/--live/);
    expect(run.out).toMatch(/--upstream +instead of a deployment/);
    expect(run.calls).toEqual([]);
    expect(harness.upstream.calls()).toBe(0);
  });

  it('refuses without --live: prints the help, calls nothing, exit code 2', async () => {
    const run = await smoke(['--url', harness.service.url, '--key', TEST_CLIENT_KEY]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/without --live/);
    expect(run.out).toBe(`${HELP}\n`);
    expect(run.calls).toEqual([]);
    expect(harness.upstream.calls()).toBe(0);
  });

  it('as a command: --help exits 0 and no --live exits 2, both printing the help', () => {
    const command = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'lib/local/smoke.ts', ...args], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      });
    const help = command(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: npm run smoke -- --live');
    const refused = command(['--url', harness.service.url, '--key', TEST_CLIENT_KEY]);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toContain('Usage: npm run smoke -- --live');
    expect(harness.upstream.calls()).toBe(0);
  }, 30_000);
});

describe('npm run smoke --live --upstream', () => {
  /** The command in a process of its own (async: the fake upstream answers from this process). */
  function command(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'lib/local/smoke.ts', ...args], {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString('utf8');
      });
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, out, err }));
    });
  }

  it("starts the service with the team's key, calls every route once through it, within the table's total", async () => {
    const run = await command(['--live', '--upstream'], {
      SERPAPI_API_KEY: TEST_UPSTREAM_KEY,
      SERPAPI_BASE_URL: harness.upstream.url,
      CROSSREF_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(run.code, run.out + run.err).toBe(0);
    const table = rows(run.out);
    expect([...table.keys()].sort()).toEqual(ROUTES.map((route) => route.name).sort());
    for (const [name, row] of table) {
      // Each route's success status (202 for a job's submission), nothing missing, new or otherwise wrong.
      const success = String(ROUTES.find((route) => route.name === name)?.successStatus ?? 200);
      expect([row.status, row.missing, row.new, row.other], name).toEqual([success, '-', '-', '0']);
    }
    expect(harness.upstream.calls()).toBeGreaterThan(0);
    expect(harness.upstream.calls()).toBeLessThanOrEqual(SMOKE_SEARCH_LIMIT);
    expect(harness.upstream.requests.every((query) => query.get('api_key') === TEST_UPSTREAM_KEY)).toBe(true);
    expect(run.out + run.err).not.toContain(TEST_UPSTREAM_KEY);
  }, 60_000);

  it('refuses without an upstream key, calling nothing', async () => {
    const run = await command(['--live', '--upstream'], {});
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/SERPAPI_API_KEY/);
    expect(harness.upstream.calls()).toBe(0);
  }, 30_000);

  it('lists the fields of SerpApi’s answers an endpoint does not carry: an unknown block, an unknown result field', async () => {
    harness.upstream.respond((query) => {
      if (query.get('engine') !== 'google' || query.get('tbm')) return undefined;
      const answer = sample('google');
      const organic = answer.organic_results as Record<string, unknown>[];
      organic[0] = { ...organic[0], shiny_new_field: 'x' };
      return { json: { ...answer, brand_new_block: [{ title: 'Something Google started to show' }] } };
    });
    const run = await command(['--live', '--upstream'], {
      SERPAPI_API_KEY: TEST_UPSTREAM_KEY,
      SERPAPI_BASE_URL: harness.upstream.url,
      CROSSREF_BASE_URL: 'http://127.0.0.1:9',
    });
    // Still a pass: every answer validates; the list shows what the upstream sends that the service leaves out.
    expect(run.code, run.out + run.err).toBe(0);
    const listed = run.out.slice(run.out.indexOf('Upstream fields not carried'));
    const line = (endpoint: string, engine: string) =>
      listed.split('\n').find((text) => text.startsWith(`  ${endpoint} ${engine}: `)) ?? '';
    const alpha = line('web-search-alpha', 'google').split(': ')[1]?.split(', ') ?? [];
    expect(alpha).toContain('brand_new_block[]');
    expect(alpha).toContain('organic_results[].shiny_new_field');
    // What the recording holds and the service leaves out, by design (lib/reshape/carried.ts).
    expect(alpha).toEqual(expect.arrayContaining(['inline_videos[]', 'recipes_results[]', 'organic_results[].thumbnail']));
    expect(alpha).not.toContain('organic_results[].title');
    expect(alpha).not.toContain('related_questions[].question');
    // Every endpoint that made a search has its line, each engine it called.
    expect(line('web-search-bravo', 'duckduckgo')).not.toBe('');
    expect(line('alpha-news', 'google')).not.toBe('');
    expect(line('alpha-trends', 'google_trends')).not.toBe('');
    expect(line('web-search-bravo', 'duckduckgo')).not.toContain('shiny_new_field');
    expect(run.out + run.err).not.toContain(TEST_UPSTREAM_KEY);
  }, 60_000);
});
