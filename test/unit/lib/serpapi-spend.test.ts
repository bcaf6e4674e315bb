/**
 * The SerpApi client and the request's budget (lib/upstream/serpapi.ts, lib/budget/spend.ts): a search
 * takes one unit before its first attempt and gives it back unless an answer was billed; nothing is sent
 * once the request's deadline has passed or the request has been answered, however long the wait for the
 * budget took. The unit test environment's upstream is a closed port: an attempt that is sent fails at once.
 */
import { describe, expect, it } from 'vitest';
import type { RequestSpend, SearchUnit } from '../../../lib/budget/spend.js';
import { AppError } from '../../../lib/errors.js';
import { serpApiSearch } from '../../../lib/upstream/serpapi.js';

/** A request's spending whose unit is handed out after `delayMs`, recording how each unit ended. */
function slowSpend(delayMs: number, closed = false) {
  const ended: boolean[] = [];
  const spend: RequestSpend = {
    plan: () => undefined,
    async take(): Promise<SearchUnit> {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { done: (billed) => ended.push(billed) };
    },
    close: async () => undefined,
    closed,
  };
  return { spend, ended };
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as AppError,
  );

describe('a search and its unit of the budget', () => {
  it('sends nothing when the deadline passed while it waited for the budget, and gives its unit back', async () => {
    const stats = { calls: 0, latencyMs: 0 };
    const { spend, ended } = slowSpend(60);
    const error = await rejection(serpApiSearch('webAlpha', { q: 'late' }, { deadline: Date.now() + 20, stats, spend }));
    expect(error).toBeInstanceOf(AppError);
    expect(error?.code).toBe('UPSTREAM_TIMEOUT');
    expect(stats.calls).toBe(0);
    expect(ended).toEqual([false]);
  });

  it('sends nothing once the request has been answered', async () => {
    const stats = { calls: 0, latencyMs: 0 };
    const { spend, ended } = slowSpend(0, true);
    const error = await rejection(serpApiSearch('webAlpha', { q: 'answered' }, { deadline: Date.now() + 5_000, stats, spend }));
    expect(error?.details).toMatch(/already answered/);
    expect(stats.calls).toBe(0);
    expect(ended).toEqual([false]);
  });

  it('gives the unit back when no attempt got an answer (every retry included)', async () => {
    const stats = { calls: 0, latencyMs: 0 };
    const { spend, ended } = slowSpend(0);
    const error = await rejection(
      serpApiSearch('webAlpha', { q: 'unreachable' }, { deadline: Date.now() + 5_000, stats, spend, retries: 2 }),
    );
    expect(error?.code).toBe('UPSTREAM_ERROR');
    expect(stats.calls).toBe(3);
    expect(ended).toEqual([false]);
  });
});
