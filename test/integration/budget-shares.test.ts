/**
 * One client key of several cannot spend the deployment's whole budget (docs/decisions.md §8): in a
 * deployment of two keys with no limits of their own, each key has half of the hour and half of the
 * deployment's day, so one key searching as fast as it can is refused at its share, before it takes the
 * whole hour, and the other still searches. A key's own limit in its `API_KEYS` entry replaces its share.
 * The service runs in this process (memory counter), over real HTTP; the tests run in order, as one hour.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { dayWindow } from '../../lib/budget/windows.js';
import { useService } from '../support/service.js';
import { clearOfWindowEdges } from '../support/window-edges.js';

const HOURLY = 10;
const MONTHLY = 100_000;
const KEYS = { alice: 'alice-key-0123456789abcdef', bob: 'bob-key-0123456789abcdef', carol: 'carol-key-0123456789abcdef' };

beforeAll(() => clearOfWindowEdges(120_000), 150_000);
const running = useService({
  SEARCHES_PER_HOUR: String(HOURLY),
  SEARCHES_PER_MONTH: String(MONTHLY),
  API_KEYS: `alice:${KEYS.alice},bob:${KEYS.bob},carol:${KEYS.carol}:hourly=2`,
});

const as = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });
const search = (q: string, key: string) => running.service.post('/v1/web-search/alpha', { q }, as(key));
const endOfHour = (at: number) => Math.ceil((Math.floor(at / 3_600_000) + 1) * 3_600_000);

describe('keys sharing a deployment', () => {
  it('refuses one key searching alone at its share of the hour, half of it, before it takes the whole hour', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < HOURLY; i++) statuses.push((await search(`alice ${i}`, KEYS.alice)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    expect(running.upstream.calls()).toBe(HOURLY / 2);
    const before = Date.now();
    const refused = await search('alice again', KEYS.alice);
    expect(refused.json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(refused.json.error.details).toMatch(
      /^Your key's share of the deployment's budget, 5 of its 10 searches this hour, is used up \(the deployment's other keys can still search/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(Math.ceil((endOfHour(before) - before) / 1000));
    const usage = await running.service.post('/v1/usage', {}, as(KEYS.alice));
    expect(usage.json.data.hour).toMatchObject({ limit: HOURLY, used: 5, left: 5 });
    expect(usage.json.data.client.this_hour).toMatchObject({ limit: 5, share: true, used: 5, left: 0 });
  });

  it('lets the other key search meanwhile', async () => {
    expect((await search('bob 1', KEYS.bob)).status).toBe(200);
    expect((await search('bob 2', KEYS.bob)).status).toBe(200);
    expect(running.upstream.calls()).toBe(2);
  });

  it('shows each key its share of the deployment’s day: half of the month spread over its days', async () => {
    const { json } = await running.service.post('/v1/usage', {}, as(KEYS.bob));
    const now = new Date();
    const days = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
    expect(json.data.client.today).toMatchObject({ limit: Math.ceil(Math.ceil(MONTHLY / days) / 2), share: true, used: 2 });
    expect(json.data.client.today.resets_at).toBe(
      new Date(dayWindow(Date.now(), 'bob', 1).endsAt).toISOString().replace('.000Z', 'Z'),
    );
  });

  it('keeps a key’s own limit instead of its share, and says it is its own', async () => {
    for (let i = 0; i < 2; i++) expect((await search(`carol ${i}`, KEYS.carol)).status).toBe(200);
    const refused = await search('carol 2', KEYS.carol);
    expect(refused.status).toBe(429);
    expect(refused.json.error.details).toMatch(
      /^Your key's own limit of 2 searches this hour is used up \(other clients are not affected\)/,
    );
    const usage = await running.service.post('/v1/usage', {}, as(KEYS.carol));
    expect(usage.json.data.client.this_hour).toMatchObject({ limit: 2, share: false, used: 2, left: 0 });
    expect(usage.json.data.hour).toMatchObject({ used: 9, left: 1 });
  });
});
