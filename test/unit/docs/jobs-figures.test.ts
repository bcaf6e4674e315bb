/**
 * The figures the guides give for jobs: the deploy guide's cost of a job of 10,000 references, recomputed
 * from the stack's own numbers (the workers sized to Crossref's public pace, the functions' memory, the
 * batch and invocation sizes) and the prices the guide states; and the performance guide's jobs benchmark,
 * as bench/jobs-results.json holds it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOB_TARGETS } from '../../../bench/jobs.js';
import { JOBS_MESSAGES_PER_INVOCATION, WORKER_LOOKUPS_IN_FLIGHT } from '../../../infra/jobs.js';
import { DEFAULT_SETTINGS } from '../../../infra/settings.js';
import { publishedInFlight, publishedPace } from '../../../lib/citations/sources/published-pace.js';
import { JOB_BATCH_SIZE_DEFAULT } from '../../../lib/contract/jobs.js';
import { workerConcurrency } from '../../../lib/jobs/sizing.js';
import { WINDOW_MARGIN } from '../../../lib/pace/rules.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const deploy = read('docs/deploy-and-operations.md');
const between = (text: string, start: string, end: string) => text.slice(text.indexOf(start), text.indexOf(end));
const number = (text: string) => Number(text.replace(/,/g, ''));

describe("the deploy guide's cost of a job of 10,000 references", () => {
  const table = between(deploy, '<!-- jobs-cost:start', '<!-- jobs-cost:end');
  const row = (name: string) => {
    const found = table.split('\n').find((line) => line.startsWith(`| ${name}`));
    if (!found) throw new Error(`no row ${name}`);
    const [, units = '', cost = ''] = found
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    return { units, cost: number(cost.replace(/^\$|\*/g, '')) };
  };
  // The prices the guide's Cost table states.
  const PRICES = { gbSecond: 0.0000133334, lambdaRequest: 0.2e-6, write: 0.625e-6, read: 0.125e-6, sqsRequest: 0.4e-6 };
  const N = 10_000;

  it('states the prices it computes with', () => {
    expect(deploy).toContain('$0.0000133334 per GB-second, plus $0.20 per million requests');
    expect(deploy).toContain('$0.125 per million read units, $0.625 per million write units');
    expect(table).toContain('$0.40 per million requests');
  });

  it("gives Lambda the workers the stack runs, at Crossref's polite pace (crossrefMailto, required by default), for as long as the lookups take", () => {
    const workers = workerConcurrency(
      publishedPace('crossref', true),
      WORKER_LOOKUPS_IN_FLIGHT,
      publishedInFlight('crossref', true),
    );
    // The pace keeps each second's window 3 % wider (lib/pace/rules.ts): the lookups take that much longer.
    const seconds = Math.round((N / publishedPace('crossref', true)) * (1 + WINDOW_MARGIN));
    const gb = DEFAULT_SETTINGS.memorySize / 1024;
    const invocations = N / JOB_BATCH_SIZE_DEFAULT / JOBS_MESSAGES_PER_INVOCATION;
    const lambda = row('Lambda');
    expect(lambda.units).toContain(`${workers} workers × ${seconds.toLocaleString('en-US')} s`);
    expect(lambda.units).toContain(
      `× ${gb} GB = ${(workers * seconds * gb).toLocaleString('en-US')} GB-s; ${invocations} invocations`,
    );
    expect(lambda.cost).toBe(Number((workers * seconds * gb * PRICES.gbSecond + invocations * PRICES.lambdaRequest).toFixed(3)));
  });

  it('adds up the table, the SQS and DynamoDB units included', () => {
    const batches = N / JOB_BATCH_SIZE_DEFAULT;
    const writes = row('DynamoDB writes');
    const writeUnits = N * 2 + batches * 3 + batches * 2;
    expect(writes.units).toContain(`= ${writeUnits.toLocaleString('en-US')} units`);
    expect(writes.cost).toBe(Number((writeUnits * PRICES.write).toFixed(3)));
    const reads = row('DynamoDB reads');
    const readUnits = batches * 36 + 3_750;
    expect(reads.units).toContain(`= ${readUnits.toLocaleString('en-US')} units`);
    expect(reads.cost).toBe(Number((readUnits * PRICES.read).toFixed(3)));
    const sqs = row('SQS');
    const requests = batches / 10 + 2 * (N / JOB_BATCH_SIZE_DEFAULT / JOBS_MESSAGES_PER_INVOCATION);
    expect(sqs.units).toContain(`= ${requests} requests`);
    expect(sqs.cost).toBe(Number((requests * PRICES.sqsRequest).toFixed(4)));
    const total = [row('Lambda'), writes, reads, sqs].reduce((sum, r) => sum + r.cost, 0) + 0.002;
    expect(table).toContain(`**about $${total.toFixed(2)}**`);
  });
});

describe("the performance guide's jobs benchmark", () => {
  const results = JSON.parse(read('bench/jobs-results.json'));
  const guide = read('docs/performance.md');
  const table = between(guide, '<!-- jobs-bench:start', '<!-- jobs-bench:end');

  it('gives the last run as bench/jobs-results.json holds it, and its verdicts by the targets', () => {
    expect(results.references).toBe(10_000);
    expect(table).toContain(`| ${results.wall_s} s |`);
    expect(table).toContain(`| ${results.floor_s} s |`);
    expect(table).toContain(`${(results.wall_over_floor * 100).toFixed(1)} %`);
    expect(table).toContain(`| ${results.rss_growth_mib} MiB |`);
    expect(table).toContain(`${results.crossref_refused_429} of ${results.crossref_lookups + results.crossref_refused_429}`);
    const wallMet = results.wall_over_floor <= JOB_TARGETS.wallWithinFloor;
    const rssMet = results.rss_growth_mib <= JOB_TARGETS.rssGrowthMib;
    expect(table).toMatch(new RegExp(`within 10 % of the floor \\| ${wallMet ? 'met' : 'missed'}`));
    expect(table).toMatch(new RegExp(`≤ 50 MiB \\| ${rssMet ? 'met' : 'missed'}`));
    expect(JOB_TARGETS).toEqual({ wallWithinFloor: 0.1, rssGrowthMib: 50 });
  });
});
