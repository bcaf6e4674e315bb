/**
 * The reference matcher on a labelled set of real reference strings (test/fixtures/crossref/reference-strings.json,
 * written by write-reference-strings.py; sources in test/fixtures/SOURCES.md). Each case is a string as a
 * publisher deposited it with Crossref (or as Crossref's reference-matching evaluation collected it), the
 * DOI it is (null when that work is not among the recorded works), and the five recorded Crossref works
 * most relevant to it, standing in for Crossref's answer. A wrong DOI is the failure that matters: the set
 * must give none. Recall (how many strings whose work is among the candidates got its DOI) is measured,
 * shown in the test names (and logged) and held at what was measured: 60 of 61 real strings (the one
 * missed cites the paper under its title before publication). Every positive is also matched again without
 * its true work among the candidates (must give no DOI). The recorded works rendered by the five styles
 * are a second set, in test/unit/lib/reference-rendered.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { fixture, measure, record, report } from '../../support/reference-strings.js';

const labelled = fixture.cases.map((c, i) => ({
  name: `#${i} ${c.set} "${c.text.slice(0, 80)}"`,
  text: c.text,
  doi: c.doi,
  works: c.candidates.map(record),
}));

// Each set is matched inside the one test that judges it: a mutation tool then knows which test decides each rule.
describe('reference matcher on real reference strings', () => {
  it('holds at least 100 real strings, positives and negatives, each with at most five candidates', () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(100);
    expect(fixture.cases.filter((c) => c.doi).length).toBeGreaterThanOrEqual(60);
    expect(fixture.cases.filter((c) => !c.doi).length).toBeGreaterThanOrEqual(200);
    for (const c of fixture.cases) {
      expect(c.candidates.length).toBeLessThanOrEqual(5);
      if (c.doi) expect(c.candidates).toContain(c.doi);
    }
  });

  it('gives no wrong DOI (the refusals are logged), and finds the DOI of at least 98% of the strings whose work is a candidate (measured: 60 of 61)', () => {
    const tally = measure(labelled);
    report('real strings', tally);
    expect(tally.wrong).toEqual([]);
    expect(tally.right / tally.positives).toBeGreaterThanOrEqual(0.98);
  });

  it('gives no DOI when the true work is left out of the candidates', () => {
    const without = labelled
      .filter((c) => c.doi)
      .map((c) => ({
        ...c,
        name: `${c.name} without its work`,
        doi: null,
        works: c.works.filter((w) => w.DOI.toLowerCase() !== c.doi),
      }));
    const left = measure(without);
    report('real positives without their work', left);
    expect(left.wrong).toEqual([]);
  });
});
