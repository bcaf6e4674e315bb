/**
 * How the reference matcher judges one candidate and what it answers when several are judged: the titles
 * a work is read by, the bounds of each rule (the 0.85 title threshold, a tenth of the title's letters
 * missing, a short title's words and letters), the refusal reported when every candidate is refused, and
 * the choice among accepted works. Constructed works shaped like Crossref's; the rules' main cases are in
 * test/unit/lib/reference-match.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { matchReference } from '../../../lib/citations/match/reference-match.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { doiOf, ruleOf, SHEA, SHEA_TITLE, scoreOf, sheaWork as shea, articleWork as work } from '../../support/match-records.js';

/** Shea's title without its "a": one letter pair short of the text's, similarity 0.98. */
const SHEA_TITLE_NEAR = SHEA_TITLE.replace(' of a ', ' of ');

const FORECAST = 'Boettiger C (2018) The forecast trap [Data set]. Dryad.';
function dataset(title: string): CrossrefWork {
  return work('10.5061/dryad.forecast', title, 'Boettiger', 2018, { type: 'dataset', publisher: 'Dryad' });
}

describe('the titles a work is read by', () => {
  it.each([
    ['Data from: The forecast trap'],
    ['Data  from: The forecast trap'],
    ['Data from : The forecast trap'],
    ['Data from:The forecast trap'],
    [' Data from: The forecast trap'],
    ['data from: The forecast trap'],
  ])('a dataset deposited as %j is read by its title without the depositor’s prefix, however it is spaced', (title) => {
    expect(doiOf(matchReference(FORECAST, [dataset(title)]))).toBe('10.5061/dryad.forecast');
  });

  it('only a leading "Data from:" is the depositor’s prefix: the words before a later one stay in the title', () => {
    const text = 'Boettiger C (2018) Supplementary: The forecast trap [Data set]. Dryad.';
    expect(ruleOf(matchReference(text, [dataset('Supplementary data from: The forecast trap')]))).toBe('title');
  });

  it('only a dataset is read without "Data from:": a component deposited under that title is not the article', () => {
    const component = { ...dataset('Data from: The forecast trap'), type: 'component' };
    const text = 'Boettiger C (2018) The forecast trap. Ecology Letters 21:1255–1267.';
    expect(ruleOf(matchReference(text, [component]))).toBe('title');
  });

  it('of two titles the text carries equally well, the work’s own title is judged, not the one without its prefix', () => {
    // "Forecast traps" alone is a short title, which needs a venue; "Data from: Forecast traps" is not.
    const text = 'Boettiger C (2018) Data from: Forecast traps. Dryad Digital Repository.';
    expect(doiOf(matchReference(text, [dataset('Data from: Forecast traps')]))).toBe('10.5061/dryad.forecast');
  });
});

describe('the bounds of each rule', () => {
  it('a title the text carries at a similarity of exactly 0.85 is accepted, and one below it is refused', () => {
    const traits = work('10.1/traits', 'Leaf traits of grasses', 'Okafor', 2016);
    const at = matchReference('Okafor A (2016) Leaf traits of wild grasses. Oikos 12:5', [traits]);
    expect(at.matched).toMatchObject({ doi: '10.1/traits', score: 0.85 });
    // Every word of the title is in the text, among others: 0.84 is not the title.
    const banks = work('10.1/banks', 'Seed banks of tropical forests', 'Okafor', 2016);
    const below = matchReference('Okafor A (2016) Seed banks of lowland tropical forests. Oikos 12:5', [banks]);
    expect(below).toEqual({
      matched: null,
      rule: 'title',
      reason: 'No candidate’s title appears in the reference.',
      score: 0.84,
    });
  });

  it('a text may lack a tenth of the title’s letters in whole words, and no more', () => {
    // "Root" is 4 of the title's 40 letters.
    const root = work('10.1/root', 'Root growth and nitrogen uptake of oak saplings', 'Okafor', 2016);
    const typo = 'Okafor A (2016) Rot growth and nitrogen uptake of oak saplings. Oikos 12:5';
    expect(doiOf(matchReference(typo, [root]))).toBe('10.1/root');
    // "Growth" is 6 of them.
    const more = 'Okafor A (2016) Root grwth and nitrogen uptake of oak saplings. Oikos 12:5';
    expect(matchReference(more, [root])).toMatchObject({
      matched: null,
      rule: 'title',
      reason: 'No candidate’s title appears in the reference.',
    });
  });

  it('a numbered title followed by the volume it is printed in is not refused for the volume’s number', () => {
    const part2 = work('10.1/p2', 'Nitrogen uptake by tropical seedlings, Part II', 'Okafor', 2016);
    const text = 'Okafor A (2016) Nitrogen uptake by tropical seedlings, Part II. Vol. 36, pp. 1–10.';
    expect(doiOf(matchReference(text, [part2]))).toBe('10.1/p2');
  });

  it('a work without a year is refused for the year', () => {
    expect(matchReference(SHEA, [{ ...shea, issued: undefined }])).toEqual({
      matched: null,
      rule: 'year',
      reason: 'The reference’s year is not the year of the work whose title it carries.',
      score: 1,
    });
  });

  it('the last page of a range printed in two runs counts as its last page', () => {
    const runs = { ...shea, page: '9966-9968, 9969-9970' };
    expect(doiOf(matchReference(SHEA, [runs]))).toBe('10.1103/physrevb.47.9967');
    expect(ruleOf(matchReference(SHEA.replace('9967–9970', '9967–9980'), [runs]))).toBe('pages');
  });

  it('a text names a notice in up to three words before the title it carries', () => {
    const component = { ...shea, DOI: '10.1103/PhysRevB.47.9967.s1', type: 'component', page: undefined };
    const named = SHEA.replace('Surface-plasmon', 'Supplementary material to: Surface-plasmon');
    expect(doiOf(matchReference(named, [component]))).toBe('10.1103/physrevb.47.9967.s1');
    expect(ruleOf(matchReference(SHEA, [component]))).toBe('notice');
    // Four words before it are too far: "supplementary material to the" is not the notice's name.
    const far = SHEA.replace('Surface-plasmon', 'Supplementary material to the: Surface-plasmon');
    expect(ruleOf(matchReference(far, [component]))).toBe('notice');
  });

  it('a title that names a dataset does not make its text a reference to a dataset', () => {
    const wright = work('10.1038/nature02403', 'A global dataset of leaf traits', 'Wright', 2004, { page: '821-827' });
    const text = 'Wright IJ et al. (2004) A global dataset of leaf traits. Nature 428:821–827.';
    expect(doiOf(matchReference(text, [wright]))).toBe('10.1038/nature02403');
  });

  it('a generic title is placed by its first page alone, without the venue’s name', () => {
    const editorial = work('10.1/ed', 'Editorial', 'Okafor', 2016, { 'container-title': ['Tree Physiology'], page: '1-2' });
    expect(doiOf(matchReference('Okafor A (2016) Editorial. Tree Phys 36:1–2', [editorial]))).toBe('10.1/ed');
  });

  it('a title is short under three words or under fifteen letters, and needs a venue', () => {
    const fewLetters = work('10.1/few', 'On seed banks', 'Okafor', 2016, { 'container-title': ['Oikos'] });
    expect(ruleOf(matchReference('Okafor A (2016) On seed banks. Nature 3:7', [fewLetters]))).toBe('generic_title');
    expect(doiOf(matchReference('Okafor A (2016) On seed banks. Oikos 3:7', [fewLetters]))).toBe('10.1/few');
    const fewWords = work('10.1/two', 'Photosynthetic acclimation', 'Okafor', 2016, { 'container-title': ['Oikos'] });
    expect(ruleOf(matchReference('Okafor A (2016) Photosynthetic acclimation. Nature 3:7', [fewWords]))).toBe('generic_title');
    // Three words of fifteen letters are enough.
    const enough = work('10.1/trap', 'The forecast trap', 'Okafor', 2016, { 'container-title': ['Oikos'] });
    expect(doiOf(matchReference('Okafor A (2016) The forecast trap. Nature 3:7', [enough]))).toBe('10.1/trap');
  });

  it('a work in a preprint server’s journal is a preprint, whatever its type; one without a journal is not', () => {
    const ssrn = { ...shea, DOI: '10.2139/ssrn.1', 'container-title': ['SSRN Electronic Journal'], page: undefined };
    expect(matchReference(SHEA, [ssrn])).toEqual({
      matched: null,
      rule: 'version',
      reason: 'The work found is a preprint, and the reference does not cite a preprint.',
      score: 1,
    });
    expect(doiOf(matchReference(SHEA, [{ ...shea, 'container-title': [] }]))).toBe('10.1103/physrevb.47.9967');
  });
});

/** One candidate for each refusal of Shea's text, in the order a candidate gets through the rules. */
const REFUSED: [rule: string, candidate: CrossrefWork, reason: string, score: number | undefined][] = [
  [
    'title',
    work('10.1/title', 'Surface-plasmon ejection of Cu+ ions from laser irradiation of a smooth copper surface', 'Shea', 1993),
    'No candidate’s title appears in the reference.',
    0.79,
  ],
  [
    'numbers',
    { ...shea, DOI: '10.1/numbers', title: [`${SHEA_TITLE} II`] },
    'The reference numbers its title (a part, volume or edition) differently from the work found.',
    0.99,
  ],
  [
    'author',
    { ...shea, DOI: '10.1/author', author: [{ given: 'R. N.', family: 'Miller' }] },
    'The reference does not name the first author of the work whose title it carries.',
    1,
  ],
  [
    'year',
    { ...shea, DOI: '10.1/year', issued: { 'date-parts': [[1990]] } },
    'The reference’s year is not the year of the work whose title it carries.',
    1,
  ],
  [
    'pages',
    { ...shea, DOI: '10.1/pages', page: '1201-1204' },
    'The reference’s pages are not those of the work whose title it carries.',
    1,
  ],
  [
    'notice',
    { ...shea, DOI: '10.1/notice', title: [`Erratum: ${SHEA_TITLE}`], page: '9967' },
    'The only work found is a notice (a correction, reply or deposit) about the referenced work.',
    0.95,
  ],
  [
    'generic_title',
    {
      ...shea,
      DOI: '10.1/short',
      title: ['Plasmon ejection'],
      'container-title': ['Surface Science'],
      volume: undefined,
      page: undefined,
    },
    'The title is one many works share, and the venue, pages or year do not single one out.',
    1,
  ],
  [
    'version',
    { ...shea, DOI: '10.1/preprint', type: 'posted-content', 'container-title': [], page: undefined },
    'The work found is a preprint, and the reference does not cite a preprint.',
    1,
  ],
];

describe('what is answered when every candidate is refused', () => {
  it.each(REFUSED)(
    'a candidate refused for its %s is answered with that rule, why, and how like the text its title is',
    (rule, candidate, reason, score) => {
      expect(matchReference(SHEA, [candidate])).toEqual({ matched: null, rule, reason, score });
    },
  );

  it.each([
    [
      'the text cites a preprint',
      SHEA.replace('Physical Review B, 47(15), 9967–9970.', 'bioRxiv preprint.'),
      { ...shea, page: undefined },
      'The reference cites a preprint, and the work found is not one.',
    ],
    [
      'the text cites a dataset',
      SHEA.replace('Physical Review B, 47(15), 9967–9970.', '[Data set]. Dryad.'),
      { ...shea, page: undefined },
      'The reference cites a dataset, and the work found is not one.',
    ],
    [
      'the work is a chapter the text does not place',
      SHEA.replace('Physical Review B, 47(15), 9967–9970.', 'Phys Rev B 47.'),
      { ...shea, type: 'book-chapter', 'container-title': ['Laser Surface Workshop 1993'], page: undefined },
      'The work found is a chapter or conference paper, and the reference names neither its book nor its pages.',
    ],
  ])('a candidate of another version is refused, saying why: %s', (_, text, candidate, reason) => {
    expect(matchReference(text, [candidate])).toEqual({ matched: null, rule: 'version', reason, score: 1 });
  });

  it('the refusal reported is that of the candidate that got furthest through the rules, whatever the candidates’ order', () => {
    for (const [i, [, earlier]] of REFUSED.entries()) {
      for (const [rule, later] of REFUSED.slice(i + 1)) {
        expect(ruleOf(matchReference(SHEA, [later, earlier]))).toBe(rule);
        expect(ruleOf(matchReference(SHEA, [earlier, later]))).toBe(rule);
      }
    }
  });

  it('the candidate that got furthest is reported even when another’s title is more like the text', () => {
    const author = { ...shea, DOI: '10.1/author', author: [{ given: 'R. N.', family: 'Miller' }] };
    const pages = { ...shea, DOI: '10.1/pages', title: [SHEA_TITLE_NEAR], page: '1201-1204' };
    for (const works of [
      [author, pages],
      [pages, author],
    ]) {
      expect(matchReference(SHEA, works)).toMatchObject({ matched: null, rule: 'pages', score: 0.98 });
    }
  });

  it('of two candidates refused by one rule, the one most like the text is reported', () => {
    const near = { ...shea, DOI: '10.1/near', title: [SHEA_TITLE_NEAR], author: [{ family: 'Miller' }] };
    const exact = { ...shea, DOI: '10.1/exact', author: [{ family: 'Miller' }] };
    expect(scoreOf(matchReference(SHEA, [near, exact]))).toBe(1);
    expect(scoreOf(matchReference(SHEA, [exact, near]))).toBe(1);
  });

  it('a DOI in the text that no candidate has does not hide why the candidates were refused', () => {
    const text = `${SHEA} https://doi.org/10.5061/dryad.x1`;
    expect(ruleOf(matchReference(text, [{ ...shea, issued: { 'date-parts': [[1990]] } }]))).toBe('year');
  });

  it('without candidates the answer says none was found', () => {
    expect(matchReference(SHEA, [])).toEqual({
      matched: null,
      rule: 'no_candidates',
      reason: 'No work was found for this reference.',
    });
    expect(matchReference(`${SHEA} doi:10.1103/PhysRevB.47.9967`, [])).toEqual({
      matched: null,
      rule: 'no_candidates',
      reason: 'No work was found for this reference.',
    });
  });
});

describe('the choice among accepted works', () => {
  const near = { ...shea, DOI: '10.1/near', title: [SHEA_TITLE_NEAR] };

  it('a DOI in the text that no accepted work has refuses them all, scored by the most similar', () => {
    const text = `${SHEA} doi:10.5061/dryad.x1`;
    for (const works of [
      [near, shea],
      [shea, near],
    ]) {
      expect(matchReference(text, works)).toEqual({
        matched: null,
        rule: 'doi_conflict',
        reason: 'The reference holds a DOI that none of the works found has.',
        score: 1,
      });
    }
  });

  it('two DOIs that both agree on pages or venue are ambiguous, scored by the most similar', () => {
    for (const works of [
      [near, shea],
      [shea, near],
    ]) {
      expect(matchReference(SHEA, works)).toEqual({
        matched: null,
        rule: 'ambiguous',
        reason: 'Several works carry the title, authors and year of the reference, and nothing in it tells them apart.',
        score: 1,
      });
    }
  });

  it('of one DOI accepted twice the most similar record is the match, and of equals the first', () => {
    const nearSame = { ...near, DOI: '10.1103/PHYSREVB.47.9967' };
    for (const works of [
      [nearSame, shea],
      [shea, nearSame],
    ]) {
      const outcome = matchReference(SHEA, works);
      expect(outcome.matched).toMatchObject({ doi: '10.1103/physrevb.47.9967', score: 1, rule: 'title_author_year' });
      expect(outcome.matched?.work).toBe(shea);
    }
    const again = { ...shea };
    expect(matchReference(SHEA, [shea, again]).matched?.work).toBe(shea);
    expect(matchReference(SHEA, [again, shea]).matched?.work).toBe(again);
  });

  it('of two DOIs where one agrees on place, the most similar record of that DOI is the match', () => {
    const elsewhere = { ...shea, DOI: '10.1/elsewhere', 'container-title': ['Surface Science'], volume: '12', page: undefined };
    const nearSame = { ...near, DOI: '10.1103/PHYSREVB.47.9967' };
    const outcome = matchReference(SHEA, [elsewhere, nearSame, shea]);
    expect(outcome.matched).toMatchObject({ doi: '10.1103/physrevb.47.9967', score: 1, rule: 'title_author_year_place' });
    expect(outcome.matched?.work).toBe(shea);
  });
});
