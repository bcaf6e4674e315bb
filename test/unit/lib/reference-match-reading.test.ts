/**
 * How the reference matcher reads what it is given: a request's entry as a DOI or as text
 * (parseReferenceInput), the text it sends Crossref (bibliographicQuery), and the numbers, years and page
 * ranges it reads in a reference before it judges a candidate (seen through matchReference).
 */
import { describe, expect, it } from 'vitest';
import { bibliographicQuery, matchReference, parseReferenceInput } from '../../../lib/citations/match/reference-match.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { ruleOf, SHEA_TITLE as TITLE } from '../../support/match-records.js';

function shea(extra: Partial<CrossrefWork> = {}): CrossrefWork {
  return {
    DOI: '10.1103/PhysRevB.47.9967',
    title: [TITLE],
    author: [
      { given: 'M. J.', family: 'Shea' },
      { given: 'R. N.', family: 'Compton' },
    ],
    issued: { 'date-parts': [[1993]] },
    type: 'journal-article',
    'container-title': ['Physical Review B'],
    volume: '47',
    page: '9967-9970',
    ...extra,
  };
}

/** The reference in APA, with the date and the place (volume, pages) given. */
function apa(date: string, place: string): string {
  return `Shea, M. J., & Compton, R. N. (${date}). ${TITLE}. Physical Review B, ${place}`;
}

describe('parseReferenceInput reads an entry that is only a DOI as a DOI', () => {
  it.each([
    [
      'quoted and bracketed, both ends: “(https://doi.org/10.1038/nphys1170)”',
      '“(https://doi.org/10.1038/nphys1170)”',
      '10.1038/nphys1170',
    ],
    ['copied from a list with its quote and comma: "10.1038/nphys1170",', '"10.1038/nphys1170",', '10.1038/nphys1170'],
    ['a link broken across a line after doi.org/', 'https://doi.org/\n10.1038/nphys1170', '10.1038/nphys1170'],
    ['a registrant code of five digits (arXiv, OSF)', 'https://doi.org/10.48550/arXiv.2301.00001', '10.48550/arxiv.2301.00001'],
    ['a closing bracket that closes one the DOI opened', 'doi:10.5555/report(2)', '10.5555/report(2)'],
    ['a closing bracket inside the DOI, even one it never opened', '10.5555/part1)2', '10.5555/part1)2'],
    ['a "%" that encodes nothing', '10.5555/50%-off', '10.5555/50%-off'],
    [
      'a SICI DOI whose angle brackets the link encodes',
      'https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C455::AID-JBM5%3E3.0.CO;2-D',
      '10.1002/(sici)1097-4636(199706)35:4<455::aid-jbm5>3.0.co;2-d',
    ],
    [
      'a SICI DOI encoded whole, slash and angle brackets',
      `https://doi.org/${encodeURIComponent('10.1002/(SICI)1097-4636(199706)35:4<455::AID-JBM5>3.0.CO;2-D')}`,
      '10.1002/(sici)1097-4636(199706)35:4<455::aid-jbm5>3.0.co;2-d',
    ],
  ])('%s', (_, input, doi) => {
    expect(parseReferenceInput(input)).toEqual({ kind: 'doi', doi });
  });

  it('an entry with words before or after its DOI is text that holds the DOI', () => {
    for (const text of ['10.1038/nphys1170 Nature Physics', 'see 10.1038/nphys1170']) {
      expect(parseReferenceInput(text)).toEqual({ kind: 'text', text, doi: '10.1038/nphys1170' });
    }
  });

  it('a DOI at the end of a reference loses what follows it, a full stop inside a bracket the reference closed included', () => {
    const text = `${apa('1993', '47(15), 9967–9970')} (https://doi.org/10.1103/PhysRevB.47.9967.)`;
    expect(parseReferenceInput(text)).toEqual({ kind: 'text', text, doi: '10.1103/physrevb.47.9967' });
    const bracketed = `${apa('1993', '47(15), 9967–9970')} [doi:10.5555/report(2)].`;
    expect(parseReferenceInput(bracketed)).toEqual({ kind: 'text', text: bracketed, doi: '10.5555/report(2)' });
  });
});

describe('bibliographicQuery sends Crossref at most 300 characters, cut between words', () => {
  const words = 'abcd '.repeat(59); // 295 characters, ending in a space

  it('a text of exactly 300 characters is sent whole', () => {
    const text = `${words}abcde`;
    expect(text).toHaveLength(300);
    expect(bibliographicQuery(text)).toBe(text);
  });

  it('a text whose 301st character is a space keeps its first 300', () => {
    expect(bibliographicQuery(`${words}abcde more words`)).toBe(`${words}abcde`);
  });

  it('a word that crosses the 300th character is left out whole', () => {
    expect(bibliographicQuery(`${words}abcdefgh more`)).toBe(words.trim());
  });

  it('a text without a space in its first 300 characters is cut at 300', () => {
    expect(bibliographicQuery('x'.repeat(400))).toBe('x'.repeat(300));
  });
});

describe('the reference matcher reads a reference’s title, years and pages', () => {
  it('a reference carrying the title letter for letter scores 1', () => {
    const outcome = matchReference(apa('1993', '47(15), 9967–9970.'), [shea()]);
    expect(outcome.matched).toMatchObject({ doi: '10.1103/physrevb.47.9967', score: 1, rule: 'title_author_year' });
  });

  it('a year inside the reference’s DOI is not its year: a reference without one in its text is refused on the year', () => {
    const text = `Shea, M. J., & Compton, R. N. ${TITLE}. Physical Review B, 47(15), 9967–9970. doi:10.5555/prb.1993.9967`;
    expect(ruleOf(matchReference(text, [shea()]))).toBe('year');
  });

  it.each([
    ['without a space after "pp."', apa('1993', '47(15), pp.68–82')],
    ['with spaces around the dash', apa('1993', '47(15), 68 – 82')],
    ['with a doubled hyphen, as BibTeX writes ranges', apa('1993', '47(15), 68--82')],
    ['followed by a full stop and more text', `Shea MJ, Compton RN. ${TITLE}. Phys Rev B. 1993;47(15):68–82. PMID: 10004802.`],
    ['of five-digit pages cut to two digits (12001–15)', apa('1993', '47(15), 12001–15')],
    ['of four digits that read as a year, to three (1605–612)', apa('1993', '47(15), 1605–612')],
    ['of five-digit pages that begin as a year (19965–70)', apa('1993', '47(15), 19965–70')],
  ])('a page range %s is pages, and the work’s other pages refuse it', (_, text) => {
    expect(ruleOf(matchReference(text, [shea({ page: '100-110' })]))).toBe('pages');
  });

  it('pages written with leading zeros (pp. 007–009) are the work’s pages 7–9', () => {
    const outcome = matchReference(apa('1993', '47(15), pp. 007–009.'), [shea({ page: '7-9' })]);
    expect(ruleOf(outcome)).toBe('title_author_year');
  });

  it.each([
    ['a span of years cut to two digits', '1993–94', 1993],
    ['a span of years spaced around the dash', '1993 – 1995', 1993],
    ['a span of years across the century', '1999–2000', 2000],
  ])('%s (%s) is not a page range: the work’s pages are not asked for', (_, span, year) => {
    const work = shea({ page: '100-110', issued: { 'date-parts': [[year]] } });
    expect(ruleOf(matchReference(apa(span, '47(15).'), [work]))).toBe('title_author_year');
  });
});
