/**
 * The reference matcher's patterns, each decided by a case only it decides (match/reference-match.ts): the
 * numbers a numbering word takes ("Part 12", not only "Part 2"), the anchors of the numbering words (whose
 * letters are inside family names: "Moreno", "Nowak"), an organisation named whole (never by its last
 * word), ". In <Book>" as the mark of a chapter, and "[Dataset]" as the mark of a dataset without a
 * repository's name. Found undecided by mutation testing with the patterns' own mutants counted
 * (docs/citations.md, "Mutation testing"). Constructed works shaped like Crossref's.
 */
import { describe, expect, it } from 'vitest';
import { matchReference } from '../../../lib/citations/match/reference-match.js';
import { doiOf, ruleOf, articleWork as work } from '../../support/match-records.js';

const TITLE = 'Nitrogen uptake by tropical seedlings';

describe('numbers around the title', () => {
  const unnumbered = work('10.1/n', TITLE, 'Okafor', 2016);

  it.each([
    [`Okafor A (2016) Part 12: ${TITLE}. Tree Physiol 36:1–10`],
    [`Okafor A (2016) ${TITLE}, Part 12. Tree Physiol 36:1–10`],
    [`Okafor A (2016) ${TITLE}. Vol. 12. Tree Physiol 36:1–10`],
    [`Okafor A (2016) ${TITLE} XII. Tree Physiol 36:1–10`],
  ])('a part of two digits or letters refuses the unnumbered work: %s', (text) => {
    expect(ruleOf(matchReference(text, [unnumbered]))).toBe('numbers');
  });

  it.each([['Moreno'], ['Nowak'], ['Bono'], ['Partington']])(
    'a family name holding a numbering word’s letters (%s) before the year numbers nothing',
    (family) => {
      const text = `${family} (2016) ${TITLE}. Tree Physiol 36:1–10`;
      expect(doiOf(matchReference(text, [work('10.1/n', TITLE, family, 2016)]))).toBe('10.1/n');
    },
  );

  it('a numbering word right before the title numbers it only with a number after it', () => {
    const text = `Okafor A (2016) Part A: ${TITLE}. Tree Physiol 36:1–10`;
    expect(doiOf(matchReference(text, [unnumbered]))).toBe('10.1/n');
  });
});

describe('an organisation as the first author', () => {
  const who = work('10.1/who', 'Global tuberculosis report 2019', 'x', 2019, { author: [{ name: 'World Health Organization' }] });

  it('is named by its whole name, never by its last word: another organisation of that word is not it', () => {
    const text = 'Pan American Health Organization. Global tuberculosis report 2019. Washington, DC; 2019.';
    expect(ruleOf(matchReference(text, [who]))).toBe('author');
    const named = 'World Health Organization. Global tuberculosis report 2019. Geneva; 2019.';
    expect(doiOf(matchReference(named, [who]))).toBe('10.1/who');
  });
});

describe('how a reference names a chapter’s book', () => {
  const TITLE_CH = 'Seed banks of tropical forests';
  // A chapter whose book the text does not name as Crossref does: only the text's own marks can place it.
  const chapter = work('10.1/ch', TITLE_CH, 'Okafor', 2016, { type: 'book-chapter', 'container-title': ['Forest Dynamics'] });

  it('". In <Book>" after the title is a chapter’s mark', () => {
    for (const mark of ['. In Tropical Ecology', ', In Tropical Ecology', '; In Tropical Ecology', ') In Tropical Ecology']) {
      const text = `Okafor A (2016) ${TITLE_CH}${mark}, pp. 5–9. Springer`;
      expect(doiOf(matchReference(text, [chapter])), mark).toBe('10.1/ch');
    }
  });

  it('"In" is no mark before a lower-case word, nor without the punctuation before it', () => {
    expect(ruleOf(matchReference(`Okafor A (2016) ${TITLE_CH}. In vitro assays. Springer`, [chapter]))).toBe('version');
    expect(ruleOf(matchReference(`Okafor A (2016) ${TITLE_CH} In Tropical Ecology. Springer`, [chapter]))).toBe('version');
  });
});

describe('how a reference names a dataset', () => {
  const article = work('10.1/article', TITLE, 'Okafor', 2016, { 'container-title': ['Tree Physiology'] });
  const dataset = work('10.1/dataset', TITLE, 'Okafor', 2016, { type: 'dataset' });

  it.each([['[Dataset]'], ['[Data set]'], ['[Datasets]'], ['Data sets.']])(
    '%s without a repository’s name cites a dataset: the article is refused, the dataset taken',
    (mark) => {
      const text = `Okafor A (2016) ${TITLE} ${mark}`;
      expect(ruleOf(matchReference(text, [article]))).toBe('version');
      expect(doiOf(matchReference(text, [dataset]))).toBe('10.1/dataset');
    },
  );

  it('a word that only holds "data" or "dataset" names no dataset', () => {
    expect(doiOf(matchReference(`Okafor A (2016) ${TITLE}. Metadata sets. Tree Physiology 36:1–10`, [article]))).toBe(
      '10.1/article',
    );
  });
});
