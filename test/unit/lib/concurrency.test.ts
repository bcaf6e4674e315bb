import { describe, expect, it } from 'vitest';
import { createLimiter, mapSettled } from '../../../lib/concurrency.js';

/** A promise and its resolve, so a test decides when each call finishes. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('mapSettled', () => {
  it('starts every call at once when the limit covers all items', async () => {
    const gates = Array.from({ length: 20 }, () => deferred<number>());
    const started: number[] = [];
    const running = mapSettled(gates, 20, (gate, i) => {
      started.push(i);
      return gate.promise;
    });
    // Nothing has finished yet, and all 20 calls are already under way.
    expect(started).toHaveLength(20);
    gates.forEach((gate, i) => {
      gate.resolve(i * 10);
    });
    const results = await running;
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : null))).toEqual(gates.map((_, i) => i * 10));
  });

  it('never has more than limit calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapSettled([...Array(10).keys()], 3, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return n;
    });
    expect(most).toBe(3);
    expect(results).toHaveLength(10);
  });

  it('returns results in input order even when later items finish first', async () => {
    const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
    const running = mapSettled(gates, 3, (gate) => gate.promise);
    gates[2]?.resolve('c');
    gates[1]?.resolve('b');
    gates[0]?.resolve('a');
    expect(await running).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'fulfilled', value: 'b' },
      { status: 'fulfilled', value: 'c' },
    ]);
  });

  it('settles a rejected or synchronously throwing call without stopping the others', async () => {
    const failure = new Error('one cite failed');
    const results = await mapSettled([1, 2, 3, 4], 2, (n) => {
      if (n === 2) return Promise.reject(failure);
      if (n === 3) throw failure;
      return Promise.resolve(n);
    });
    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
      { status: 'fulfilled', value: 4 },
    ]);
  });

  it('answers [] for no items without calling anything', async () => {
    let calls = 0;
    expect(
      await mapSettled([], 5, async () => {
        calls += 1;
      }),
    ).toEqual([]);
    expect(calls).toBe(0);
  });

  it('rejects a limit that is not a positive integer', async () => {
    await expect(mapSettled([1], 0, async (n) => n)).rejects.toThrow(RangeError);
    await expect(mapSettled([1], 1.5, async (n) => n)).rejects.toThrow(RangeError);
  });
});

describe('createLimiter', () => {
  it('runs at most `limit` calls at once, in the order asked, a call asked later waiting with the rest', async () => {
    const limit = createLimiter(2);
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const gates = new Map<string, () => void>();
    const task = (name: string) =>
      limit(async () => {
        started.push(name);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => gates.set(name, resolve));
        running -= 1;
        return name;
      });
    const a = task('a');
    const b = task('b');
    const c = task('c');
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    // A freed slot goes to the first call waiting, before a call asked after it.
    gates.get('a')?.();
    const d = task('d');
    await a;
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b', 'c']);
    for (const name of ['b', 'c']) gates.get(name)?.();
    await Promise.all([b, c]);
    await new Promise((resolve) => setImmediate(resolve));
    gates.get('d')?.();
    expect(await d).toBe('d');
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(most).toBe(2);
  });

  it('frees the slot of a call that rejects', async () => {
    const limit = createLimiter(1);
    await expect(limit(() => Promise.reject(new Error('lookup failed')))).rejects.toThrow('lookup failed');
    expect(await limit(async () => 'next')).toBe('next');
    expect(() => createLimiter(0)).toThrow(RangeError);
  });
});
