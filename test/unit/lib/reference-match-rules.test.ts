/**
 * The reference matcher's reading of a title, its numbers, its first author, its pages and its venue, rule by
 * rule, through matchReference on constructed works shaped like Crossref's: where the title is looked for
 * in the text, what numbers it around, which words count as the first author's name, which pages and
 * volume agree, and when a container counts as named. test/unit/lib/reference-match.test.ts holds the
 * matcher's rules as a whole; the real strings are test/unit/lib/reference-labelled.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { matchReference } from '../../../lib/citations/match/reference-match.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { doiOf, ruleOf, articleWork as work } from '../../support/match-records.js';

const NITROGEN = 'Nitrogen uptake by tropical seedlings';
const nitrogen = work('10.1/n', NITROGEN, 'Okafor', 2016);

describe('where the title is in the text', () => {
  it('a title the text carries letter for letter scores 1', () => {
    const outcome = matchReference(`Okafor A (2016) ${NITROGEN}. Tree Physiol 36:1–10`, [nitrogen]);
    expect(outcome.matched).toMatchObject({ doi: '10.1/n', score: 1, rule: 'title_author_year' });
  });

  it('a title without two letters in a row (one letter, punctuation alone) is in no text, not even that letter', () => {
    for (const title of ['A', '—']) {
      expect(matchReference('A', [work('10.1/a', title, 'Okafor', 2016)])).toEqual({
        matched: null,
        rule: 'title',
        reason: expect.any(String),
      });
    }
  });

  it('a title that ends the text is found there', () => {
    expect(doiOf(matchReference(`Okafor A, 2016. ${NITROGEN}`, [nitrogen]))).toBe('10.1/n');
  });

  it('a title the text writes in two more words (two hyphenated compounds) is found whole', () => {
    const title = 'Postoperative nonalcoholic fatty liver disease';
    const text = 'Okafor A (2016) Post-operative non-alcoholic fatty liver disease. Hepatology 12:5–9';
    expect(doiOf(matchReference(text, [work('10.1/p', title, 'Okafor', 2016)]))).toBe('10.1/p');
  });

  it('a title with more words than the whole text, less two, is not in it', () => {
    // Five words hold 28 of its 37 letter pairs, more than the threshold needs; its runs start at six words.
    const title = 'Global tuberculosis report of the WHO in 2019';
    expect(matchReference('WHO (2019) Global tuberculosis report', [work('10.1/g', title, 'Okafor', 2019)])).toEqual({
      matched: null,
      rule: 'title',
      reason: expect.any(String),
    });
  });

  it('a title is scored on runs of about its own word count: its last words alone, at the end of the text, do not make its score', () => {
    const title = 'Seed dispersal by birds in fragmented tropical forests';
    const text =
      'Seed dispersal by birds, Intergovernmental Commission on Biodiversity and Ecosystem Services, Abernathy-Kowalczyk Foundation, in fragmented tropical forests';
    const outcome = matchReference(text, [work('10.1/t', title, 'Okafor', 2016)]);
    // The best run of six to ten words; the last four words alone would score 0.72.
    expect(outcome).toEqual({ matched: null, rule: 'title', reason: expect.any(String), score: 0.59 });
  });

  it('a title is looked for when the whole text holds the share of its letter pairs the threshold needs (51 of 69), not one fewer', () => {
    const title = 'Seed dispersal by frugivorous birds in fragmented tropical forests of the Cerrado';
    const cerrado = work('10.1/c', title, 'Okafor', 2016);
    const near = 'Okafor A (2016) Seed dispersal by birds in fragmented tropical forests of Brazil. Oecologia 12:5–9';
    expect(matchReference(near, [cerrado])).toEqual({ matched: null, rule: 'title', reason: expect.any(String), score: 0.78 });
    const far = 'Okafor A (2016) Seed dispersal by birds in fragmented tropical forests. Oecologia 12:5–9';
    expect(matchReference(far, [cerrado])).toEqual({ matched: null, rule: 'title', reason: expect.any(String) });
  });

  it('a title the text gives twice is read where it first appears: the book of the same title numbered after it does not number the chapter', () => {
    const chapter = work('10.1/c', 'Seed banks of tropical forests', 'Okafor', 2016, { type: 'book-chapter' });
    const text = 'Okafor A (2016) Seed banks of tropical forests. In: Seed banks of tropical forests, Part 2. Springer, Berlin';
    expect(doiOf(matchReference(text, [chapter]))).toBe('10.1/c');
  });

  it('a title word misspelt in the title is not made up for by the same word elsewhere in the text', () => {
    const text = 'Okafor A (2016) Nitrogen uptake by tropicl seedlings. Journal of Tropical Ecology 36:1–10';
    expect(ruleOf(matchReference(text, [nitrogen]))).toBe('title');
  });
});

describe('numbers around the title', () => {
  it('a part numbered before the title ("Part 2: …") refuses the unnumbered work', () => {
    const text = `Okafor A (2016) Part 2: ${NITROGEN}. Tree Physiol 36:1–10`;
    expect(ruleOf(matchReference(text, [nitrogen]))).toBe('numbers');
  });

  it('a numbering word after the title not followed by a number ("Book of abstracts") numbers nothing', () => {
    const title = 'Seed banks of tropical forests';
    const text = `Okafor A (2016) ${title}. Book of abstracts, Tropical Ecology Congress, Lima`;
    expect(doiOf(matchReference(text, [work('10.1/s', title, 'Okafor', 2016)]))).toBe('10.1/s');
  });
});

describe('the first author', () => {
  const RICE = 'Rice yields under drought in the Sahel';

  it('a family name that is the title’s first word does not name the author', () => {
    const text = `Okafor A (2016) ${RICE}. Field Crops Res 36:1–10`;
    expect(ruleOf(matchReference(text, [work('10.1/r', RICE, 'Rice', 2016)]))).toBe('author');
  });

  it('a family name right after the title names the author', () => {
    const text = `${RICE}. Rice A, 2016. Field Crops Res 36:1–10`;
    expect(doiOf(matchReference(text, [work('10.1/r', RICE, 'Rice', 2016)]))).toBe('10.1/r');
  });

  it('an organisation right before the title is named by its whole name, never by one of its words', () => {
    const who = work('10.1/who', 'Global tuberculosis report 2019', 'x', 2019, {
      author: [{ name: 'World Health Organization' }],
    });
    expect(doiOf(matchReference('World Health Organization. Global tuberculosis report 2019. Geneva; 2019.', [who]))).toBe(
      '10.1/who',
    );
    expect(ruleOf(matchReference('World Bank (2019). Global tuberculosis report 2019. Geneva; 2019.', [who]))).toBe('author');
  });

  it('the family name’s last word names the author ("Ferreira de Almeida" by "Almeida")', () => {
    const text = `Almeida F, Okafor A (2016) ${NITROGEN}. Tree Physiol 36:1–10`;
    const almeida = { ...nitrogen, author: [{ given: 'F.', family: 'Ferreira de Almeida' }] };
    expect(doiOf(matchReference(text, [almeida]))).toBe('10.1/n');
  });

  it('a one-letter family name (an initial in the family field) names no one', () => {
    const text = `Okafor A (2016) ${NITROGEN}. Tree Physiol 36:1–10`;
    expect(ruleOf(matchReference(text, [{ ...nitrogen, author: [{ given: 'Okafor', family: 'A' }] }]))).toBe('author');
  });

  it('the first author is the first with a family or organisation name', () => {
    const text = `Okafor A (2016) ${NITROGEN}. Tree Physiol 36:1–10`;
    const unnamedFirst = { ...nitrogen, author: [{ given: 'B.' }, { given: 'A.', family: 'Okafor' }] };
    expect(doiOf(matchReference(text, [unnamedFirst]))).toBe('10.1/n');
  });

  it('a work with no named author or editor, or an organisation without letters, is never matched', () => {
    const text = `Okafor A (2016) ${NITROGEN}. Tree Physiol 36:1–10`;
    for (const people of [
      { author: undefined },
      { author: [] },
      { author: [{ given: 'A.' }] },
      { author: [], editor: [] },
      { author: [{ name: '—' }] },
    ]) {
      expect(ruleOf(matchReference(text, [{ ...nitrogen, ...people }]))).toBe('author');
    }
  });
});

describe('pages and volume: one of two works of one title, authors and year', () => {
  const twin = (DOI: string, extra: Partial<CrossrefWork>) => ({ ...nitrogen, DOI, ...extra });
  const text = (place: string) => `Okafor A (2016) ${NITROGEN}. ${place}`;

  it('the one whose first page the text holds is the match', () => {
    const a = twin('10.1/a', { page: '45-60' });
    const b = twin('10.1/b', { page: '101-110' });
    expect(matchReference(text('Tree Physiol, p 45'), [a, b]).matched).toMatchObject({
      doi: '10.1/a',
      rule: 'title_author_year_place',
    });
    expect(ruleOf(matchReference(text('Tree Physiol, p 52'), [a, b]))).toBe('ambiguous');
  });

  it('a page is its digits without leading zeros, and a part without digits (Roman front matter) is no page', () => {
    const b = twin('10.1/b', { page: '101-110' });
    expect(doiOf(matchReference(text('Tree Physiol, p 45'), [twin('10.1/a', { page: '0045-0060' }), b]))).toBe('10.1/a');
    expect(doiOf(matchReference(text('Tree Physiol, p 45'), [twin('10.1/a', { page: 'iv, 45-60' }), b]))).toBe('10.1/a');
    // Leading zeros in the text's range are read the same way.
    expect(doiOf(matchReference(text('Tree Physiol 36:0045–0060'), [twin('10.1/a', { page: '45-60' })]))).toBe('10.1/a');
  });

  it('the one whose volume the text holds with its venue is the match, a volume read without leading zeros', () => {
    const b = twin('10.1/b', { 'container-title': ['Forest Ecology'], volume: '12' });
    for (const volume of ['36', '0036']) {
      const a = twin('10.1/a', { 'container-title': ['Tree Physiology'], volume });
      expect(doiOf(matchReference(text('Tree Physiology 36'), [a, b]))).toBe('10.1/a');
    }
    // A zero inside the volume is kept: 105 is not 15.
    const a105 = twin('10.1/a', { 'container-title': ['Tree Physiology'], volume: '105' });
    expect(doiOf(matchReference(text('Tree Physiology 105'), [a105, b]))).toBe('10.1/a');
    expect(ruleOf(matchReference(text('Tree Physiology 15'), [a105, b]))).toBe('ambiguous');
  });

  it('a volume agrees only with its own venue, and a venue only with its own volume', () => {
    const a = twin('10.1/a', { 'container-title': ['Tree Physiology'], volume: '36' });
    const b = twin('10.1/b', { 'container-title': ['Forest Ecology'], volume: '12' });
    expect(ruleOf(matchReference(text('Forest Ecology 36'), [a, b]))).toBe('ambiguous');
    // A work without volume or pages agrees on nothing.
    expect(doiOf(matchReference(text('Tree Physiology 36'), [a, twin('10.1/c', {})]))).toBe('10.1/a');
    expect(ruleOf(matchReference(text('Tree Physiology 37'), [a, twin('10.1/c', {})]))).toBe('ambiguous');
  });
});

describe('the container named', () => {
  const TITLE = 'Seed banks of tropical forests';
  const chapter = (containers: string[] | undefined) =>
    work('10.1/ch', TITLE, 'Okafor', 2016, {
      type: 'book-chapter',
      ...(containers ? { 'container-title': containers } : {}),
    });
  const text = (book: string) => `Okafor A (2016) ${TITLE}. ${book}. Springer, Berlin`;

  it('a chapter is given when the text names its book, under any of the book’s names', () => {
    expect(doiOf(matchReference(text('Tropical Forest Ecology'), [chapter(['Tropical Forest Ecology'])]))).toBe('10.1/ch');
    expect(
      doiOf(matchReference(text('Tropical Forest Ecology'), [chapter(['Ecological Studies', 'Tropical Forest Ecology'])])),
    ).toBe('10.1/ch');
  });

  it('a book is named at the title threshold (0.85) and not below it', () => {
    // "Biology" for "Ecology": 17 of the 20 letter pairs, 2·17 / (20 + 20) = 0.85.
    expect(doiOf(matchReference(text('Tropical Forest Biology'), [chapter(['Tropical Forest Ecology'])]))).toBe('10.1/ch');
    expect(ruleOf(matchReference(text('Tropical Forest Restoration'), [chapter(['Tropical Forest Regeneration'])]))).toBe(
      'version',
    );
  });

  it('a chapter without a book’s name is given only by what the text says of it', () => {
    expect(ruleOf(matchReference(text('Tropical Forest Ecology'), [chapter(undefined)]))).toBe('version');
  });

  it('a venue of four letters or more places a generic title, one of three ("BMJ") is too easily found', () => {
    const editorial = (venue: string) => work('10.1/e', 'Editorial', 'Okafor', 2016, { 'container-title': [venue] });
    expect(doiOf(matchReference('Okafor A (2016) Editorial. Cell.', [editorial('Cell')]))).toBe('10.1/e');
    expect(ruleOf(matchReference('Okafor A (2016) Editorial. BMJ.', [editorial('BMJ')]))).toBe('generic_title');
  });
});
