/**
 * The pace of the free record sources (lib/citations/sources/pace.ts), on times the test gives: the
 * configured rate for the whole container, the stricter pace an answer states, a 429's pause for its
 * Retry-After (seconds or an HTTP date), and no lookup sent past its deadline or during a pause.
 */
import { describe, expect, it } from 'vitest';
import { intervalMs, Pace, rateWindow, retryAfterMs } from '../../../lib/citations/sources/pace.js';

/** The start times `n` lookups asked for at `at` get, in order. */
function starts(pace: Pace, n: number, at = 0, deadline = Number.POSITIVE_INFINITY): (number | string)[] {
  return Array.from({ length: n }, () => {
    const turn = pace.slot(deadline, at);
    return 'startAt' in turn ? turn.startAt : turn.refused.code;
  });
}

describe('the pace of a record source', () => {
  it('reads a rate as whole starts per window: 5/s is 5 per second, 1.5/s one per 667 ms, 0.5/s one per 2 s', () => {
    expect(rateWindow(5)).toEqual({ limit: 5, ms: 1_000 });
    expect(rateWindow(10)).toEqual({ limit: 10, ms: 1_000 });
    expect(rateWindow(1.5)).toEqual({ limit: 1, ms: (1 / 1.5) * 1_000 });
    expect(rateWindow(0.5)).toEqual({ limit: 1, ms: 2_000 });
    expect(rateWindow(3.3).limit).toBe(3);
  });

  it('starts at most the configured number of lookups in any window, whoever asks', () => {
    const pace = new Pace('Crossref', 5);
    expect(starts(pace, 12)).toEqual([0, 0, 0, 0, 0, 1_000, 1_000, 1_000, 1_000, 1_000, 2_000, 2_000]);
    // A lookup asked later than its window's start keeps the spacing from the starts before it.
    const later = new Pace('Crossref', 2);
    expect(starts(later, 2, 0)).toEqual([0, 0]);
    expect(starts(later, 1, 300)).toEqual([1_000]);
    expect(starts(later, 1, 2_500)).toEqual([2_500]);
  });

  it('keeps the stricter of the configured rate and the pace an answer states', () => {
    const pace = new Pace('Crossref', 10);
    pace.note(200, { 'x-rate-limit-limit': '2', 'x-rate-limit-interval': '1s' }, 0);
    expect(starts(pace, 4)).toEqual([0, 0, 1_000, 1_000]);
    const generous = new Pace('Crossref', 2);
    generous.note(200, { 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '1s' }, 0);
    expect(starts(generous, 3)).toEqual([0, 0, 1_000]);
    // A header it cannot read changes nothing.
    const unread = new Pace('Crossref', 1);
    unread.note(200, { 'x-rate-limit-limit': 'many', 'x-rate-limit-interval': '1s' }, 0);
    unread.note(200, { 'x-rate-limit-limit': '0', 'x-rate-limit-interval': '1s' }, 0);
    unread.note(200, { 'x-rate-limit-limit': '5', 'x-rate-limit-interval': 'soon' }, 0);
    expect(starts(unread, 2)).toEqual([0, 1_000]);
  });

  it('pauses every lookup for Retry-After after a 429, then starts again at the configured rate', () => {
    const pace = new Pace('Crossref', 5);
    pace.note(429, { 'retry-after': '30' }, 1_000);
    expect(pace.pausedUntil).toBe(31_000);
    const refused = pace.slot(Number.POSITIVE_INFINITY, 30_999);
    expect(refused).toMatchObject({ refused: { code: 'UPSTREAM_QUOTA_EXCEEDED' } });
    // The source's Retry-After is passed on: when to ask again, in words and as the header.
    expect('refused' in refused && refused.refused.details).toBe(
      'Crossref asked for a pause (HTTP 429); not looked up (Retry-After: ask again after 1970-01-01T00:00:31Z)',
    );
    expect('refused' in refused && refused.refused.headers).toEqual({ 'Retry-After': '1' });
    expect(pace.retryAfter(1_000)).toEqual({
      said: ' (Retry-After: ask again after 1970-01-01T00:00:31Z)',
      headers: { 'Retry-After': '30' },
    });
    expect(starts(pace, 6, 31_000)).toEqual([31_000, 31_000, 31_000, 31_000, 31_000, 32_000]);
    expect(pace.retryAfter(31_000)).toEqual({ said: '' });
  });

  it('says no time to ask again when the 429 gave no Retry-After (its pause is the stated interval, or a second)', () => {
    const pace = new Pace('DataCite', 5);
    pace.note(429, { 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '1s' }, 0);
    expect(pace.pausedUntil).toBe(1_000);
    const refused = pace.refusal(500);
    expect(refused?.details).toBe('DataCite asked for a pause (HTTP 429); not looked up');
    expect(refused?.headers).toEqual({});
  });

  it('reads Retry-After as seconds or as an HTTP date, and pauses one stated interval (else a second) without it', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 26 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Thu, 26 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect([retryAfterMs('soon', now), retryAfterMs(undefined, now), retryAfterMs('-5', now)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const stated = new Pace('Crossref', 5);
    stated.note(429, { 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '2s' }, 100);
    expect(stated.pausedUntil).toBe(2_100);
    const bare = new Pace('DataCite', 1.5);
    bare.note(429, {}, 100);
    expect(bare.pausedUntil).toBe(1_100);
    // A shorter pause never cuts a longer one short.
    bare.note(429, { 'retry-after': '60' }, 200);
    bare.note(429, { 'retry-after': '1' }, 300);
    expect(bare.pausedUntil).toBe(60_200);
  });

  it('sends no lookup that could only start at or past its deadline, and takes no start for it', () => {
    const pace = new Pace('DataCite', 1);
    expect(starts(pace, 1, 0, 500)).toEqual([0]);
    expect(starts(pace, 1, 0, 1_000)).toEqual(['UPSTREAM_TIMEOUT']);
    expect(starts(pace, 1, 0, 1_001)).toEqual([1_000]);
  });

  it('says of a lookup its deadline left unsent that it was not asked, never that the source did not answer', () => {
    const pace = new Pace('DataCite', 1);
    pace.slot(Number.POSITIVE_INFINITY, 0);
    const turn = pace.slot(1_000, 0);
    expect('refused' in turn && turn.refused.details).toBe(
      "DataCite was not asked: the request's time ran out before its turn at DataCite's pace",
    );
  });

  it('reads the interval header in its forms', () => {
    expect([intervalMs('1s'), intervalMs('60s'), intervalMs('1m'), intervalMs('500ms'), intervalMs('soon')]).toEqual([
      1_000,
      60_000,
      60_000,
      500,
      undefined,
    ]);
  });

  it('forgets every start, stated pace and pause on reset, and takes a new rate', () => {
    const pace = new Pace('Crossref', 1);
    pace.note(429, { 'x-rate-limit-limit': '1', 'x-rate-limit-interval': '10s', 'retry-after': '5' }, 0);
    pace.reset(2);
    expect(pace.rate).toBe(2);
    expect(pace.pausedUntil).toBe(0);
    expect(starts(pace, 3)).toEqual([0, 0, 1_000]);
  });
});
