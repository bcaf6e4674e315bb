/**
 * The watch on the index's cite engine (lib/citations/sources/index-cite.ts, CiteEngineWatch), on times the
 * test gives: in doubt until an answer with citations is heard, resting after `limit` empty answers in a
 * row for `restMs`, then resting again after one more empty answer; never resting when the rest is 0.
 */
import { describe, expect, it } from 'vitest';
import { type CiteAnswer, CiteEngineWatch } from '../../../lib/citations/sources/index-cite.js';

const EMPTY: CiteAnswer = { citations: {}, formats: [], links: [] };
const CITED: CiteAnswer = { citations: { MLA: 'm' }, formats: [{ name: 'MLA', text: 'm' }], links: [] };

describe('the watch on the index’s cite engine', () => {
  it('is in doubt in a new container and after an empty answer, not after an answer with citations', () => {
    const watch = new CiteEngineWatch(3, 60_000, () => 0);
    expect(watch.doubtful()).toBe(true);
    watch.heard(CITED);
    expect(watch.doubtful()).toBe(false);
    watch.heard(EMPTY);
    expect(watch.doubtful()).toBe(true);
    watch.heard(CITED);
    expect(watch.doubtful()).toBe(false);
  });

  it('rests after `limit` empty answers in a row, until the rest is over; one answer with citations between resets the count', () => {
    let now = 1_000;
    const watch = new CiteEngineWatch(3, 60_000, () => now);
    watch.heard(EMPTY);
    watch.heard(EMPTY);
    watch.heard(CITED);
    watch.heard(EMPTY);
    watch.heard(EMPTY);
    expect(watch.resting()).toBeUndefined();
    watch.heard(EMPTY);
    expect(watch.resting()).toBe(61_000);
    expect(watch.reason(61_000)).toBe(
      "the index's cite engine answered 3 papers in a row without citations, and is not asked again until 1970-01-01T00:01:01Z",
    );
    now = 60_999;
    expect(watch.resting()).toBe(61_000);
    now = 61_000;
    expect(watch.resting()).toBeUndefined();
    // Past the rest one more empty answer rests it again; one with citations ends the doubt.
    watch.heard(EMPTY);
    expect(watch.resting()).toBe(121_000);
    now = 121_000;
    watch.heard(CITED);
    watch.heard(EMPTY);
    expect(watch.resting()).toBeUndefined();
  });

  it('never rests when the rest is 0 (CITE_EMPTY_REST_SECONDS=0)', () => {
    const watch = new CiteEngineWatch(1, 0, () => 0);
    for (let i = 0; i < 5; i++) watch.heard(EMPTY);
    expect(watch.resting()).toBeUndefined();
  });
});
