/**
 * The rules of the reference matcher, one block each, on constructed works shaped like Crossref's. The
 * measurement on real reference strings is test/unit/lib/reference-labelled.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { bibliographicQuery, matchReference, parseReferenceInput } from '../../../lib/citations/match/reference-match.js';
import { doiOf, ruleOf, SHEA, sheaWork as shea, articleWork as work } from '../../support/match-records.js';

describe('parseReferenceInput', () => {
  it.each([
    ['10.1038/nphys1170', '10.1038/nphys1170'],
    ['  10.1038/NPHYS1170. ', '10.1038/nphys1170'],
    ['doi:10.1038/nphys1170', '10.1038/nphys1170'],
    ['DOI: 10.1038/nphys1170', '10.1038/nphys1170'],
    ['https://doi.org/10.1038/nphys1170', '10.1038/nphys1170'],
    ['http://dx.doi.org/10.1038/nphys1170;', '10.1038/nphys1170'],
    ['(https://doi.org/10.1016/0003-2697(85)90071-5)', '10.1016/0003-2697(85)90071-5'],
    ['https://doi.org/10.1002%2Fapp.35676', '10.1002/app.35676'],
  ])('%s is the DOI %s', (input, doi) => {
    expect(parseReferenceInput(input)).toEqual({ kind: 'doi', doi });
  });

  it('a reference is text, with the DOI it ends in, lower-cased and without the full stop', () => {
    const text = `${SHEA} https://doi.org/10.1103/PhysRevB.47.9967.`;
    expect(parseReferenceInput(text)).toEqual({ kind: 'text', text, doi: '10.1103/physrevb.47.9967' });
  });

  it('a reference without a DOI is text alone', () => {
    expect(parseReferenceInput(SHEA)).toEqual({ kind: 'text', text: SHEA });
  });
});

describe('bibliographicQuery', () => {
  it('removes URLs and collapses whitespace', () => {
    expect(
      bibliographicQuery(
        '  Shea, M. J.\n (1993).   Surface  plasmon. https://doi.org/10.1103/x www.example.org/a doi.org/10.1/y ',
      ),
    ).toBe('Shea, M. J. (1993). Surface plasmon.');
  });

  it('cuts a long text at a word boundary, at most 300 characters', () => {
    const long = `${'reference '.repeat(40)}end`;
    const query = bibliographicQuery(long);
    expect(query.length).toBeLessThanOrEqual(300);
    expect(query.endsWith('reference')).toBe(true);
    expect(bibliographicQuery(SHEA)).toBe(SHEA);
  });
});

describe('matchReference', () => {
  it('accepts the work whose title, first author and year the text carries', () => {
    const outcome = matchReference(SHEA, [work('10.1/other', 'Laser ablation of copper', 'Miller', 1993), shea]);
    expect(doiOf(outcome)).toBe('10.1103/physrevb.47.9967');
    expect(outcome.matched?.rule).toBe('title_author_year');
    expect(outcome.matched?.score).toBeGreaterThan(0.95);
  });

  it('refuses when no candidate’s title is in the text, with the best score when one came near', () => {
    const near = work(
      '10.1/x',
      'Surface-plasmon ejection of Cu+ ions from laser irradiation of a smooth copper surface',
      'Shea',
      1993,
    );
    const outcome = matchReference(SHEA, [near]);
    expect(outcome).toMatchObject({ matched: null, rule: 'title' });
    expect(outcome.matched === null && outcome.score).toBeGreaterThan(0.6);
    expect(outcome.matched === null && outcome.score).toBeLessThan(0.85);
    // A title far from the text has no score.
    expect(matchReference(SHEA, [work('10.1/y', 'Gut microbiota of honey bees', 'Shea', 1993)])).toEqual({
      matched: null,
      rule: 'title',
      reason: expect.any(String),
    });
  });

  it('refuses a title whose words the text lacks, however many letter pairs they share (two real papers of one team)', () => {
    const text =
      'Polyzos SA, Patsiaoura K, Zachou K (2009) Histological alterations following thyroid fine needle biopsy: a systematic review. Diagn Cytopathol 37:455–465';
    const clinical = work(
      '10.1111/j.1365-2265.2009.03522.x',
      'Clinical complications following thyroid fine-needle biopsy: a systematic review',
      'Polyzos',
      2009,
    );
    expect(ruleOf(matchReference(text, [clinical]))).toBe('title');
    // A misspelt word is a small share of the title's letters: "fie" for "fine".
    const typo = text.replace('Histological alterations', 'Clinical complications').replace('fine', 'fie');
    expect(doiOf(matchReference(typo, [clinical]))).toBe('10.1111/j.1365-2265.2009.03522.x');
  });

  it('refuses a title whose numbers differ: Part II is not Part I', () => {
    const text = 'Okafor A (2016) Nitrogen uptake by tropical seedlings, Part I. Tree Physiol 36:1–10';
    const part2 = work('10.1/p2', 'Nitrogen uptake by tropical seedlings, Part II', 'Okafor', 2016);
    expect(ruleOf(matchReference(text, [part2]))).toBe('numbers');
    expect(doiOf(matchReference(text, [work('10.1/p1', 'Nitrogen uptake by tropical seedlings, Part I', 'Okafor', 2016)]))).toBe(
      '10.1/p1',
    );
  });

  it('needs the first author’s family name outside the title', () => {
    expect(ruleOf(matchReference(SHEA, [{ ...shea, author: [{ given: 'R. N.', family: 'Miller' }] }]))).toBe('author');
    // "Silver" is a word of the title: it does not name an author called Silver.
    expect(ruleOf(matchReference(SHEA.replace('Shea, M. J.', 'Smith, J.'), [{ ...shea, author: [{ family: 'Silver' }] }]))).toBe(
      'author',
    );
    // An organisation is named by its whole name.
    const who = work('10.1/who', 'Global tuberculosis report 2019', 'x', 2019, {
      author: [{ name: 'World Health Organization' }],
    });
    expect(doiOf(matchReference('World Health Organization. Global tuberculosis report 2019. Geneva; 2019.', [who]))).toBe(
      '10.1/who',
    );
  });

  it('takes the first editor of an edited book without authors', () => {
    const book = work('10.1/book', 'Handbook of seed physiology and seedling ecology', 'x', 2004, {
      author: undefined,
      editor: [{ given: 'R. L.', family: 'Benech-Arnold' }],
      type: 'edited-book',
    });
    const text = 'Benech-Arnold RL, Sánchez RA (eds) (2004) Handbook of seed physiology and seedling ecology. Haworth, New York';
    expect(doiOf(matchReference(text, [book]))).toBe('10.1/book');
  });

  it('accepts a year one off and refuses two off or none', () => {
    expect(doiOf(matchReference(SHEA.replace('1993', '1994'), [shea]))).toBe('10.1103/physrevb.47.9967');
    expect(ruleOf(matchReference(SHEA.replace('1993', '1995'), [shea]))).toBe('year');
    expect(ruleOf(matchReference(SHEA.replace('(1993). ', ''), [shea]))).toBe('year');
  });

  it('refuses pages that conflict, and accepts either end of the range agreeing', () => {
    expect(ruleOf(matchReference(SHEA.replace('9967–9970', '1201–1204'), [shea]))).toBe('pages');
    expect(doiOf(matchReference(SHEA.replace('9967–9970', '9966–9970'), [shea]))).toBe('10.1103/physrevb.47.9967');
    // A span of years is not a page range.
    expect(doiOf(matchReference(SHEA.replace(', 47(15), 9967–9970', ' (1992–1993)'), [shea]))).toBe('10.1103/physrevb.47.9967');
  });

  it('refuses a notice about the referenced work, unless the text names the notice', () => {
    const erratum = { ...shea, DOI: '10.1/erratum', title: [`Erratum: ${shea.title?.[0]}`], page: '9967' };
    expect(ruleOf(matchReference(SHEA, [erratum]))).toBe('notice');
    expect(doiOf(matchReference(SHEA, [erratum, shea]))).toBe('10.1103/physrevb.47.9967');
    const named = SHEA.replace('Surface-plasmon', 'Erratum: Surface-plasmon');
    expect(doiOf(matchReference(named, [erratum]))).toBe('10.1/erratum');
  });

  it('accepts a generic or short title only with the venue or pages and the very year', () => {
    const editorial = work('10.1/ed', 'Editorial', 'Okafor', 2016, { 'container-title': ['Tree Physiology'], page: '1-2' });
    expect(ruleOf(matchReference('Okafor A (2016) Editorial. Forest Ecology 12:5', [editorial]))).toBe('generic_title');
    expect(doiOf(matchReference('Okafor A (2016) Editorial. Tree Physiology 36:1–2', [editorial]))).toBe('10.1/ed');
    expect(ruleOf(matchReference('Okafor A (2017) Editorial. Tree Physiology 36:1–2', [editorial]))).toBe('generic_title');
    const short = work('10.1/s', 'Seed banks', 'Okafor', 2016, { 'container-title': ['Oikos'], page: '40-50' });
    expect(ruleOf(matchReference('Okafor A (2016) Seed banks. Nature 3:7', [short]))).toBe('generic_title');
  });

  it('gives a preprint only for a text that cites a preprint, and a preprint citation only a preprint', () => {
    const preprint = { ...shea, DOI: '10.1101/pre', type: 'posted-content', 'container-title': [], page: undefined };
    expect(ruleOf(matchReference(SHEA, [preprint]))).toBe('version');
    const cited = SHEA.replace('Physical Review B, 47(15), 9967–9970.', 'bioRxiv preprint.');
    expect(doiOf(matchReference(cited, [preprint]))).toBe('10.1101/pre');
    expect(ruleOf(matchReference(cited, [{ ...shea, page: undefined }]))).toBe('version');
  });

  it('gives a chapter or conference paper only when the text names its book, pages or a contained work', () => {
    const paper = {
      ...shea,
      DOI: '10.1/conf',
      type: 'proceedings-article',
      'container-title': ['Laser Surface Workshop 1993'],
      page: undefined,
    };
    const asJournal = SHEA.replace('Physical Review B, 47(15), 9967–9970.', 'Phys Rev B 47.');
    expect(ruleOf(matchReference(asJournal, [paper]))).toBe('version');
    expect(doiOf(matchReference(asJournal.replace('Phys Rev B 47.', 'In: Proc. LSW, 1993.'), [paper]))).toBe('10.1/conf');
    expect(doiOf(matchReference(asJournal.replace('Phys Rev B 47.', 'Laser Surface Workshop 1993.'), [paper]))).toBe('10.1/conf');
  });

  it('refuses two works of one title, authors and year unless exactly one agrees on pages or venue', () => {
    const twin = { ...shea, DOI: '10.1/twin', 'container-title': ['Surface Science'], volume: '12', page: undefined };
    const noPlace = SHEA.replace(' Physical Review B, 47(15), 9967–9970.', '');
    expect(ruleOf(matchReference(noPlace, [shea, twin]))).toBe('ambiguous');
    const outcome = matchReference(SHEA, [twin, shea]);
    expect(doiOf(outcome)).toBe('10.1103/physrevb.47.9967');
    expect(outcome.matched?.rule).toBe('title_author_year_place');
    // The same DOI twice (in two cases) is one work.
    expect(doiOf(matchReference(noPlace, [shea, { ...shea, DOI: '10.1103/PHYSREVB.47.9967' }]))).toBe('10.1103/physrevb.47.9967');
  });

  it('takes the DOI the text holds when a candidate has it, and refuses a title match under another DOI', () => {
    const other = work('10.1/other', 'Laser ablation of copper', 'Miller', 1993);
    const withDoi = `${SHEA} https://doi.org/10.1103/PhysRevB.47.9967`;
    expect(matchReference(withDoi, [other, shea]).matched).toMatchObject({
      doi: '10.1103/physrevb.47.9967',
      rule: 'doi_in_text',
    });
    expect(ruleOf(matchReference(`${SHEA} doi:10.5061/dryad.x1`, [shea]))).toBe('doi_conflict');
  });

  it('refuses without candidates, saying why', () => {
    expect(matchReference(SHEA, [])).toEqual({ matched: null, rule: 'no_candidates', reason: expect.any(String) });
  });
});

describe('a reference to a notice', () => {
  it('is that notice, never the article whose title it repeats, even when the article is the only candidate', () => {
    for (const kind of ['Erratum: ', 'Correction to: ', 'Retraction: ', 'Expression of concern: ', 'Reply to ', 'Comment on ']) {
      const notice = SHEA.replace('Surface-plasmon', `${kind}Surface-plasmon`);
      expect(ruleOf(matchReference(notice, [shea])), kind).toBe('notice');
      expect(doiOf(matchReference(notice, [shea])), kind).toBeNull();
    }
  });

  it('takes the notice when Crossref gives both, whatever their order', () => {
    const erratum = { ...shea, DOI: '10.1/erratum', title: [`Erratum: ${shea.title?.[0]}`], page: '9967' };
    const named = SHEA.replace('Surface-plasmon', 'Erratum: Surface-plasmon');
    expect(doiOf(matchReference(named, [shea, erratum]))).toBe('10.1/erratum');
    expect(doiOf(matchReference(named, [erratum, shea]))).toBe('10.1/erratum');
  });
});
