/**
 * The table grants a route's role gets (infra/api-function.ts, from lib/routes.ts) held to what the code
 * really sends: the service runs in processes of its own against DynamoDB-protocol tables on loopback
 * (dynalite), configured as the stack configures a function, and every operation and every key it uses
 * must be one its role allows. A grant too narrow would fail in AWS only; here it fails first. dynalite
 * enforces no IAM condition, so the table's front reads every key a call names (values, claims, their
 * releases and the reads of a wait alike) and, where asked, refuses as IAM refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_TABLE_ACTIONS, cacheKeyCondition } from '../../infra/api-function.js';
import { BUDGET_READ_ACTIONS, BUDGET_TABLE_ACTIONS } from '../../infra/budget.js';
import { JOBS_WORKER_ROUTE } from '../../infra/jobs.js';
import { PACE_TABLE_ACTIONS, paceKeyCondition } from '../../infra/pace.js';
import { cacheKeyPrefix, ROUTES } from '../../lib/routes.js';
import { type CacheTableServer, startCacheTable, stringLike } from '../support/cache-table.js';
import { startFakeCrossref } from '../support/fake-crossref.js';
import { startFakeDataCite } from '../support/fake-datacite.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { scholarPage } from '../support/index-papers.js';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.js';

const asActions = (operations: readonly string[]) => [...new Set(operations.map((op) => `dynamodb:${op}`))].sort();

let upstream: FakeSerpApi;
const started: { stop(): Promise<void> }[] = [];
const tables: CacheTableServer[] = [];

beforeAll(async () => {
  upstream = await startFakeSerpApi();
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  await Promise.all(tables.map((t) => t.close()));
  await upstream.close();
});

async function container(env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startServiceProcess({
    SERPAPI_BASE_URL: upstream.url,
    // The most a table call may take, not the deployed 150 and 300 ms: what is checked here is which calls
    // and keys are sent and what they store, which must not depend on how busy the machine is.
    CACHE_READ_TIMEOUT_MS: '5000',
    CACHE_WRITE_TIMEOUT_MS: '5000',
    ...env,
  });
  started.push(service);
  return service;
}

/** The route's `dynamodb:LeadingKeys` patterns, as its role's condition holds them. */
const leadingKeys = (route: string) => cacheKeyCondition(route)['ForAllValues:StringLike']['dynamodb:LeadingKeys'];

/** Every key the calls named that none of the route's patterns allows, with the call that named it. */
const keysOutside = (table: CacheTableServer, route: string) =>
  table.calls.flatMap((call) =>
    call.keys
      .filter((key) => !leadingKeys(route).some((pattern) => stringLike(pattern, key)))
      .map((key) => `${call.operation} ${key}`),
  );

describe('the cache grant: its actions, on the route’s own keys', () => {
  let table: CacheTableServer;
  beforeAll(async () => {
    table = await startCacheTable('search-citation-iam-cache');
    tables.push(table);
  });

  it('is all a paid route’s function uses: every call an allowed action, every key it names under its prefix, claims, their releases and the reads of a wait included', async () => {
    const route = 'web-search-alpha';
    const env = { ...table.env, CACHE_KEY_PREFIX: cacheKeyPrefix(route), ANSWER_CACHE_TTL_SECONDS: '3600' };
    const [one, two] = await Promise.all([container(env), container(env)]);
    table.resetLog();
    // A miss: a lookup, a claim, the value written over it.
    expect((await one.post('/v1/web-search/alpha', { q: 'iam matches code' })).status).toBe(200);
    // An answer not worth keeping: its claim is given up (released).
    upstream.respond((q) => (q.get('q') === 'iam nothing found' ? 'noResults' : undefined));
    expect((await one.post('/v1/web-search/alpha', { q: 'iam nothing found' })).status).toBe(200);
    upstream.respond(undefined);
    // The same question from two containers at once: whichever claims second waits, reading the claim's item.
    upstream.latencyMs = 500;
    try {
      const replies = await Promise.all([two, one].map((c) => c.post('/v1/web-search/alpha', { q: 'iam asked twice' })));
      expect(replies.map((r) => r.status)).toEqual([200, 200]);
    } finally {
      upstream.latencyMs = 0;
    }
    const operations = new Set(table.calls.map((call) => call.operation));
    expect([...operations].sort()).toEqual(['GetItem', 'PutItem']);
    // Claims (a PutItem holding no value) and releases were among them, and no call named no key.
    expect(table.calls.filter((call) => call.operation === 'PutItem').length).toBeGreaterThanOrEqual(4);
    expect(table.calls.every((call) => call.keys.length > 0)).toBe(true);
    expect(keysOutside(table, route)).toEqual([]);
    for (const action of asActions(table.operations)) expect(CACHE_TABLE_ACTIONS as readonly string[]).toContain(action);
  });

  it('keeps one route’s answers from another: the same question asked elsewhere is never read from them', async () => {
    const before = upstream.calls();
    const other = await container({ ...table.env, CACHE_KEY_PREFIX: cacheKeyPrefix('mcp'), ANSWER_CACHE_TTL_SECONDS: '3600' });
    expect((await other.post('/v1/web-search/alpha', { q: 'iam matches code' })).status).toBe(200);
    // Not the first container's answer: a search of its own, stored under its own prefix.
    expect(upstream.calls()).toBe(before + 1);
    const keys = (await table.items()).map((item) => item.pk);
    expect(keys.filter((key) => key.startsWith('mcp/'))).toHaveLength(1);
    expect(keys.every((key) => key.startsWith('web-search-alpha/') || key.startsWith('mcp/'))).toBe(true);
    // A second container starts inside this test: seconds on a busy machine, no part of the verdict.
  }, 120_000);
});

describe('the cache grant enforced as AWS enforces it (dynamodb:LeadingKeys)', () => {
  let table: CacheTableServer;
  beforeAll(async () => {
    table = await startCacheTable('search-citation-iam-enforced');
    tables.push(table);
  });

  it('lets profiles with "enrich": 5 store its search and all 5 author pages, which a second container then answers from with no call', async () => {
    const route = 'scholar-profiles';
    table.grantLeadingKeys(leadingKeys(route));
    const env = { ...table.env, CACHE_KEY_PREFIX: cacheKeyPrefix(route), ANSWER_CACHE_TTL_SECONDS: '3600' };
    const [first, second] = await Promise.all([container(env), container(env)]);
    table.resetLog();
    upstream.reset();
    const body = { query: 'Geoffrey Hinton', enrich: 5 };
    const reply = await first.post('/v1/alpha/scholar/profiles', body);
    expect(reply.status).toBe(200);
    expect(upstream.calls()).toBe(6);
    // No call refused: the table never rested, and every answer paid for was kept.
    expect(keysOutside(table, route)).toEqual([]);
    const stored = (await table.items()).filter((item) => item.pk.startsWith(cacheKeyPrefix(route)));
    expect(stored).toHaveLength(6);
    const again = await second.post('/v1/alpha/scholar/profiles', body);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-cache')).toBe('hit');
    expect(upstream.calls()).toBe(6);
  });
});

describe('the budget grants: reserving and reading', () => {
  let table: CacheTableServer;
  let service: ServiceProcess;
  beforeAll(async () => {
    table = await startCacheTable('search-citation-iam-budget');
    tables.push(table);
    const { CACHE_TABLE_NAME: _cache, ...env } = table.env;
    service = await container({ ...env, BUDGET_TABLE_NAME: table.tableName, BUDGET_TIMEOUT_MS: '5000' });
  });

  it('starts, and reads where the budget stands, with exactly the actions /v1/usage is granted (BUDGET_READ_ACTIONS)', async () => {
    // No reset: the container's start (its first connection to the table, opened before any request's
    // budget) is held to the read grant too.
    expect((await service.post('/v1/usage', {})).status).toBe(200);
    expect(asActions(table.operations)).toEqual([...BUDGET_READ_ACTIONS].sort());
  });

  it('reserves a paid search with the actions a paid route is granted (BUDGET_TABLE_ACTIONS) alone', async () => {
    table.resetLog();
    expect((await service.post('/v1/web-search/alpha', { q: 'reserve me' })).status).toBe(200);
    const used = asActions(table.operations);
    expect(used).toContain('dynamodb:UpdateItem');
    for (const action of used) expect(BUDGET_TABLE_ACTIONS as readonly string[]).toContain(action);
  });
});

describe('the pace grant: its actions, on the items of the route’s paces', () => {
  let table: CacheTableServer;
  let service: ServiceProcess;
  const closing: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    const [paces, crossref, dataCite] = await Promise.all([
      startCacheTable('search-citation-iam-pace'),
      startFakeCrossref(),
      startFakeDataCite(),
    ]);
    table = paces;
    tables.push(table);
    closing.push(crossref, dataCite);
    const { CACHE_TABLE_NAME: _cache, ...env } = table.env;
    service = await container({
      ...env,
      PACE_TABLE_NAME: table.tableName,
      PACE_TIMEOUT_MS: '20000',
      CROSSREF_BASE_URL: crossref.url,
      DATACITE_BASE_URL: dataCite.url,
    });
  });
  afterAll(() => Promise.all(closing.map((server) => server.close())));

  /** The route's grant: its actions and the keys its condition names. */
  const grantOf = (name: string) => {
    const paces = [...ROUTES, JOBS_WORKER_ROUTE].find((route) => route.name === name)?.needs.paces ?? [];
    return { keys: paceKeyCondition(paces)['ForAllValues:StringEquals']['dynamodb:LeadingKeys'], paces };
  };

  it('is all citation search, resolve, the reference check and a job’s worker use: every call an allowed action, every key one of the route’s paces', async () => {
    // A page with a journal article (Crossref) and an arXiv preprint (DataCite), then an arXiv DOI resolved.
    upstream.respond((q) =>
      q.get('engine') === 'google_scholar'
        ? {
            json: scholarPage('iam', [
              { title: 'A paper no source has recorded', summary: 'A Nobody - Journal of Nothing, 2019 - example.org' },
              {
                title: 'A preprint no source has recorded',
                summary: 'A Nobody - arXiv preprint arXiv:2101.00001, 2021 - arxiv.org',
                link: 'https://arxiv.org/abs/2101.00001',
              },
            ]),
          }
        : undefined,
    );
    for (const [route, call] of [
      ['cite-search', () => service.post('/v1/cite/search', { query: 'iam pace' })],
      ['cite-resolve', () => service.post('/v1/cite/resolve', { references: ['10.48550/arXiv.2201.06719'] })],
      ['cite-check', () => service.post('/v1/cite/check', { references: ['10.48550/arXiv.2201.06719'] })],
      // A job's worker (the container's embedded queue here): its lookups keep the same paces.
      [
        'jobs-worker',
        async () => {
          const submitted = await service.post('/v1/jobs', {
            kind: 'resolve',
            references: ['10.48550/arXiv.2201.06719', 'A title no source has recorded, by nobody, 2019'],
          });
          expect(submitted.status).toBe(202);
          const jobId = submitted.json.data.job_id as string;
          for (;;) {
            const status = await service.post('/v1/jobs/status', { job_id: jobId });
            if (['done', 'failed'].includes(status.json.data.status)) return status;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        },
      ],
    ] as const) {
      table.resetLog();
      expect((await call()).status, route).toBe(200);
      const { keys, paces } = grantOf(route);
      expect(paces.length, route).toBeGreaterThan(0);
      const named = table.calls.flatMap((call) => call.keys);
      expect(named.length, route).toBeGreaterThan(0);
      for (const key of named) expect(keys, `${route} named ${key}`).toContain(key);
      for (const action of asActions(table.operations)) expect(PACE_TABLE_ACTIONS as readonly string[], route).toContain(action);
    }
    // Both paces were kept in the table (a turn written for each).
    const written = (await table.allKeys()).sort();
    expect(written).toEqual(['crossref', 'datacite']);
    // The container's first citation search builds the citation styles: seconds on a busy machine.
  }, 120_000);
});
