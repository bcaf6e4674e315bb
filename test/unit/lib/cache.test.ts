import { describe, expect, it } from 'vitest';
import { createCache } from '../../../lib/cache/memory.js';

function clock(start = 1_000) {
  const time = { now: start };
  return { time, now: () => time.now };
}

describe('createCache', () => {
  it('returns what was set, and undefined for a key never set', () => {
    const cache = createCache<string>({ max: 10, ttlMs: 1_000 });
    cache.set('a', 'alpha');
    expect(cache.get('a')).toBe('alpha');
    expect(cache.get('b')).toBeUndefined();
  });

  it('drops the least recently used entry beyond max', () => {
    const cache = createCache<string>({ max: 2, ttlMs: 60_000 });
    cache.set('a', 'alpha');
    cache.set('b', 'bravo');
    cache.get('a');
    cache.set('c', 'charlie');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('alpha');
    expect(cache.get('c')).toBe('charlie');
    expect(cache.size).toBe(2);
  });

  it('forgets an entry once its time to live has passed', () => {
    const { time, now } = clock();
    const cache = createCache<string>({ max: 10, ttlMs: 1_000, now });
    cache.set('a', 'alpha');
    time.now += 999;
    expect(cache.get('a')).toBe('alpha');
    time.now += 2;
    expect(cache.get('a')).toBeUndefined();
  });

  it.each([
    { max: 0, ttlMs: 1_000 },
    { max: 10, ttlMs: 0 },
  ])('holds nothing when turned off with %o', (options) => {
    const cache = createCache<string>(options);
    cache.set('a', 'alpha');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  describe('remember', () => {
    it('loads once, then answers from the cache and reports each hit', async () => {
      const cache = createCache<string>({ max: 10, ttlMs: 60_000 });
      let loads = 0;
      let hits = 0;
      const load = async () => `value ${++loads}`;
      const onHit = () => {
        hits += 1;
      };
      expect(await cache.remember('k', load, { onHit })).toBe('value 1');
      expect(await cache.remember('k', load, { onHit })).toBe('value 1');
      expect(await cache.remember('k', load, { onHit })).toBe('value 1');
      expect(loads).toBe(1);
      expect(hits).toBe(2);
    });

    it('never stores a failed load, so the next call tries again', async () => {
      const cache = createCache<string>({ max: 10, ttlMs: 60_000 });
      let loads = 0;
      const flaky = async () => {
        loads += 1;
        if (loads === 1) throw new Error('upstream down');
        return 'recovered';
      };
      await expect(cache.remember('k', flaky)).rejects.toThrow('upstream down');
      expect(cache.get('k')).toBeUndefined();
      expect(await cache.remember('k', flaky)).toBe('recovered');
      expect(loads).toBe(2);
    });

    it('does not store a value that store() refuses', async () => {
      const cache = createCache<string[]>({ max: 10, ttlMs: 60_000 });
      let loads = 0;
      const empty = async () => {
        loads += 1;
        return [];
      };
      await cache.remember('k', empty, { store: (value) => value.length > 0 });
      await cache.remember('k', empty, { store: (value) => value.length > 0 });
      expect(loads).toBe(2);
    });

    it('with fresh, loads again without a hit and keeps the fresh value', async () => {
      const cache = createCache<string>({ max: 10, ttlMs: 60_000 });
      let loads = 0;
      let hits = 0;
      const load = async () => `value ${++loads}`;
      const onHit = () => {
        hits += 1;
      };
      await cache.remember('k', load, { onHit });
      expect(await cache.remember('k', load, { fresh: true, onHit })).toBe('value 2');
      expect(hits).toBe(0);
      expect(await cache.remember('k', load, { onHit })).toBe('value 2');
      expect(hits).toBe(1);
    });
  });

  it('keeps an entry for its own shorter time to live, never longer than the cache allows', () => {
    const { time, now } = clock();
    const cache = createCache<string>({ max: 10, ttlMs: 1_000, now });
    cache.set('short', 's', 100);
    cache.set('long', 'l', 5_000);
    cache.set('never', 'n', 0);
    time.now += 150;
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')).toBe('l');
    expect(cache.get('never')).toBeUndefined();
    time.now += 900;
    expect(cache.get('long')).toBeUndefined();
  });
});
