/**
 * The budget's pure parts: its windows at calendar edges, the memory counter's exactness, the local
 * key form with a key's own limits, the secret's `hourlySearches` and `dailySearches`, and what is kept of
 * an Account API answer.
 */
import { describe, expect, it } from 'vitest';
import { parseAccount } from '../../../lib/budget/account.js';
import { createMemoryCounter, newToken } from '../../../lib/budget/counter.js';
import { dayWindow, expiresAtSeconds, hourWindow, monthWindow, secondsUntilReset } from '../../../lib/budget/windows.js';
import { parseClientKeySecret, parseLocalKeys, sha256 } from '../../../lib/credentials/client-keys.js';
import { SecretShapeError } from '../../../lib/credentials/secrets.js';
import { FAKE_ACCOUNT } from '../../support/fake-serpapi.js';

const at = (iso: string) => Date.parse(iso);

describe('budget windows', () => {
  it('keys each window by its UTC hour, month or day, and ends it at the next one', () => {
    const now = at('2026-12-31T23:59:30.000Z');
    expect(hourWindow(now, 10)).toMatchObject({ key: 'hour#2026-12-31T23', endsAt: at('2027-01-01T00:00:00Z') });
    expect(monthWindow(now, 10)).toMatchObject({ key: 'month#2026-12', endsAt: at('2027-01-01T00:00:00Z') });
    expect(dayWindow(now, 'team-a', 5)).toMatchObject({
      key: 'day#2026-12-31#client#team-a',
      endsAt: at('2027-01-01T00:00:00Z'),
    });
    expect(secondsUntilReset(hourWindow(now, 10), now)).toBe(30);
    // Never 0: a client told to retry after 0 seconds would retry at once.
    expect(secondsUntilReset(hourWindow(now, 10), at('2026-12-31T23:59:59.999Z'))).toBe(1);
  });

  it('lets an item outlive its window by a day, so a clock a little off never reads a fresh zero', () => {
    const window = hourWindow(at('2026-11-23T21:10:00Z'), 10);
    expect(expiresAtSeconds(window)).toBe(at('2026-11-24T22:00:00Z') / 1000);
  });
});

describe('the memory counter', () => {
  it('grants exactly the limit to concurrent reservations and refuses the rest, naming the window', async () => {
    const counter = createMemoryCounter(() => at('2026-11-23T21:00:00Z'));
    const now = at('2026-11-23T21:00:00Z');
    const windows = [dayWindow(now, 'a', 100), hourWindow(now, 10)];
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => counter.reserve(windows, 1)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ ok: false, refused: { kind: 'hour' } });
    // A refusal adds nothing to any window.
    expect(await counter.read(windows)).toEqual([10, 10]);
  });

  it('starts a new window at zero', async () => {
    let now = at('2026-11-23T21:59:00Z');
    const counter = createMemoryCounter(() => now);
    expect((await counter.reserve([hourWindow(now, 1)], 1)).ok).toBe(true);
    expect((await counter.reserve([hourWindow(now, 1)], 1)).ok).toBe(false);
    now = at('2026-11-23T22:00:00Z');
    expect((await counter.reserve([hourWindow(now, 1)], 1)).ok).toBe(true);
  });
});

describe('client keys with limits of their own', () => {
  it('reads plain keys, name:key and name:key with :hourly=N and :daily=N (or none) from API_KEYS', () => {
    expect(
      parseLocalKeys(
        ' plain-key-1 , alice:alice-key:daily=50,bob:bob-key,carol:carol-key:hourly=9:daily=none,dan:dan-key:hourly=none',
      ),
    ).toEqual([
      { name: 'local-1', digest: sha256('plain-key-1') },
      { name: 'alice', digest: sha256('alice-key'), dailySearches: 50 },
      { name: 'bob', digest: sha256('bob-key') },
      { name: 'carol', digest: sha256('carol-key'), hourlySearches: 9, dailySearches: null },
      { name: 'dan', digest: sha256('dan-key'), hourlySearches: null },
    ]);
    // Either order; an option given twice, or one it does not know, is no entry of this form.
    expect(parseLocalKeys('eve:eve-key:daily=3:hourly=2')).toEqual([
      { name: 'eve', digest: sha256('eve-key'), dailySearches: 3, hourlySearches: 2 },
    ]);
    expect(parseLocalKeys('eve:eve-key:daily=3:daily=4,fay:fay-key:weekly=3')).toEqual([
      { name: 'local-1', digest: sha256('eve:eve-key:daily=3:daily=4') },
      { name: 'local-2', digest: sha256('fay:fay-key:weekly=3') },
    ]);
  });

  it('reads hourlySearches and dailySearches from the secret, null for none, and refuses one that is not a whole number', () => {
    const digest = 'a'.repeat(64);
    expect(parseClientKeySecret({ keys: [{ name: 'ci', sha256: digest, dailySearches: 200, hourlySearches: 20 }] })).toEqual([
      { name: 'ci', digest: Buffer.from(digest, 'hex'), dailySearches: 200, hourlySearches: 20 },
    ]);
    expect(parseClientKeySecret({ keys: [{ name: 'ops', sha256: digest, dailySearches: null, hourlySearches: null }] })).toEqual([
      { name: 'ops', digest: Buffer.from(digest, 'hex'), dailySearches: null, hourlySearches: null },
    ]);
    for (const field of ['dailySearches', 'hourlySearches']) {
      expect(() => parseClientKeySecret({ keys: [{ name: 'ci', sha256: digest, [field]: '200' }] })).toThrow(SecretShapeError);
      expect(() => parseClientKeySecret({ keys: [{ name: 'ci', sha256: digest, [field]: 1.5 }] })).toThrow(SecretShapeError);
      expect(() => parseClientKeySecret({ keys: [{ name: 'ci', sha256: digest, [field]: -1 }] })).toThrow(
        `keys[0] has a "${field}" that is not a whole number (or null for none)`,
      );
    }
  });
});

describe('the Account API answer', () => {
  it('keeps the plan numbers and drops the key and the e-mail', () => {
    const kept = parseAccount({ ...FAKE_ACCOUNT, api_key: 'SECRET_API_KEY' }, at('2026-11-23T21:00:00Z'));
    expect(kept).toEqual({
      plan_name: 'Big Data Plan',
      searches_per_month: 30000,
      plan_searches_left: 5958,
      this_month_usage: 24042,
      this_hour_searches: 42,
      last_hour_searches: 42,
      account_rate_limit_per_hour: 6000,
      read_at: '2026-11-23T21:00:00.000Z',
    });
    expect(JSON.stringify(kept)).not.toMatch(/SECRET_API_KEY|demo@serpapi.com/);
    expect(parseAccount({ error: 'Invalid API key.' }, 0)).toBeUndefined();
  });

  it('reads both hour fields, each on its own, and every field as optional', () => {
    const readAt = at('2026-11-23T21:00:00Z');
    expect(parseAccount({ last_hour_searches: 7 }, readAt)).toMatchObject({ this_hour_searches: null, last_hour_searches: 7 });
    expect(parseAccount({ this_hour_searches: 3 }, readAt)).toMatchObject({ this_hour_searches: 3, last_hour_searches: null });
    expect(parseAccount({ this_hour_searches: 3, last_hour_searches: 9 }, readAt)).toMatchObject({
      this_hour_searches: 3,
      last_hour_searches: 9,
    });
    // An answer missing every field, or holding junk in them, is still read: nulls, not a lost answer.
    const nothing = {
      plan_name: null,
      searches_per_month: null,
      plan_searches_left: null,
      this_month_usage: null,
      this_hour_searches: null,
      last_hour_searches: null,
      account_rate_limit_per_hour: null,
      read_at: '2026-11-23T21:00:00.000Z',
    };
    expect(parseAccount({}, readAt)).toEqual(nothing);
    expect(parseAccount({ plan_name: 5, searches_per_month: 'lots', this_hour_searches: -1 }, readAt)).toEqual(nothing);
    // Only the rate cap: the budget still gets it.
    expect(parseAccount({ account_rate_limit_per_hour: 1000 }, readAt)).toMatchObject({ account_rate_limit_per_hour: 1000 });
  });
});

describe('BUDGET_EXHAUSTED in the published contract', () => {
  it('is in the OpenAPI document, on every endpoint, with Retry-After, and in the generated client', async () => {
    const { buildOpenApiDocument } = await import('../../../lib/openapi.js');
    const document = JSON.stringify(await buildOpenApiDocument());
    expect(document).toContain('"BUDGET_EXHAUSTED"');
    type Response = { $ref?: string; headers?: Record<string, unknown>; content?: unknown };
    const usage = (await buildOpenApiDocument()) as unknown as {
      paths: Record<string, { post: { responses: Record<string, Response> } }>;
      components: { responses: Record<string, Response> };
    };
    const resolve = (r: Response | undefined) =>
      r?.$ref ? usage.components.responses[r.$ref.replace('#/components/responses/', '')] : r;
    for (const [path, item] of Object.entries(usage.paths)) {
      const refused = resolve(item.post.responses['429']);
      expect(Object.keys(refused?.headers ?? {}), path).toContain('Retry-After');
      expect(JSON.stringify(refused?.content), path).toContain('BUDGET_EXHAUSTED');
    }
    expect(usage.paths['/v1/usage']).toBeDefined();
    const { readFileSync } = await import('node:fs');
    const client = readFileSync(new URL('../../client/api.d.ts', import.meta.url), 'utf8');
    expect(client).toContain("'BUDGET_EXHAUSTED'");
    expect(client).toContain("'/v1/usage'");
  });
});

describe('reservation tokens', () => {
  it('are 12 URL-safe characters (9 random bytes), each its own, across refills of the random pool', () => {
    const tokens = Array.from({ length: 2_000 }, newToken);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
