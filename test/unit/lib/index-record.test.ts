/**
 * The record of a paper built from what the index says of it: the kind of work it is, what it holds, and
 * what it lacks (citation_gaps), never more than the index said.
 */
import { describe, expect, it } from 'vitest';
import { AUTHORS_CUT } from '../../../lib/citations/model/csl.js';
import { citableLink, type IndexedFacts, indexRecordOf } from '../../../lib/citations/model/index-record.js';
import { parseScholarSummary } from '../../../lib/citations/model/scholar.js';
import { sample } from '../../../lib/local/samples.js';

function recordOf(title: string, summary: string | null, facts: Partial<IndexedFacts> = {}) {
  return indexRecordOf('id', parseScholarSummary(title, summary), {
    summary,
    link: null,
    profileAuthors: [],
    kind: null,
    ...facts,
  });
}

describe('indexRecordOf', () => {
  it("reads the recorded page's two books: the [BOOK] mark and Google Books link, and a venue that repeats the title", () => {
    const [bananas, evolution] = sample('google_scholar').organic_results as {
      title: string;
      link: string;
      type?: string;
      publication_info: { summary: string };
    }[];
    const book = recordOf(bananas?.title ?? '', bananas?.publication_info.summary ?? null, {
      link: bananas?.link ?? null,
      kind: bananas?.type ?? null,
    });
    expect(book).toEqual({
      csl: {
        id: 'id',
        type: 'book',
        title: 'Bananas and plantains',
        author: [
          { family: 'Robinson', given: 'J. C.' },
          { family: 'Saúco', given: 'V. G.' },
        ],
        issued: { 'date-parts': [[2010]] },
        URL: 'https://books.google.com/books?id=0GxOPqj2UVYC',
      },
      // The site is a web address, not a publisher: a book's publisher is what to check.
      gaps: ['publisher'],
    });
    const other = recordOf(evolution?.title ?? '', evolution?.publication_info.summary ?? null, {
      link: evolution?.link ?? null,
    });
    expect(other.csl).toMatchObject({ type: 'book', title: 'The evolution of the bananas', issued: { 'date-parts': [[1962]] } });
    expect(other.csl).not.toHaveProperty('container-title');
  });

  it('takes a named site for a book as its publisher, never a web address', () => {
    expect(recordOf('Soil ecology', 'JC Doe - 2010 - CABI', { kind: 'Book' }).csl.publisher).toBe('CABI');
    expect(recordOf('Soil ecology', 'JC Doe - 2010 - cabi.org', { kind: 'Book' }).csl).not.toHaveProperty('publisher');
    // For an article, the site is where it is hosted: no publisher is taken from it.
    expect(recordOf('Soil ecology', 'JC Doe - Soil Biology, 2010 - Elsevier').csl).not.toHaveProperty('publisher');
  });

  it('reads a thesis from its venue or its repository, and lists the university and degree as gaps', () => {
    for (const [summary, link] of [
      ['MR Okafor - Doctoral dissertation, 2011 - example.edu', null],
      ['MR Okafor - 2011 - etd.lib.example.edu', 'https://etd.lib.example.edu/1'],
      ['MR Okafor - PhD thesis, 2011 - ora.ox.ac.uk', null],
    ] as const) {
      const record = recordOf('Fire regimes', summary, { link });
      expect(record.csl.type, summary).toBe('thesis');
      expect(record.gaps).toEqual(['institution', 'degree']);
    }
  });

  it('reads a preprint server as a preprint: genre, server and arXiv identifier', () => {
    const record = recordOf(
      'Deep residual learning for image recognition',
      'K He, X Zhang, S Ren, J Sun - arXiv preprint arXiv:1512.03385, 2015 - arxiv.org',
    );
    expect(record.csl).toMatchObject({ type: 'article', genre: 'Preprint', publisher: 'arXiv', number: 'arXiv:1512.03385' });
    expect(record.gaps).toEqual(['doi']);
    expect(recordOf('A study', 'A Doe - bioRxiv, 2020 - biorxiv.org').csl).toMatchObject({
      type: 'article',
      publisher: 'bioRxiv',
    });
  });

  it("tells a conference's proceedings from the journals named Proceedings", () => {
    expect(
      recordOf('A paper', 'A Doe - Proceedings of the 58th annual meeting of the ACL, 2020 - aclanthology.org').csl.type,
    ).toBe('paper-conference');
    expect(recordOf('A paper', 'A Doe - International Conference on Machine Learning, 2020 - PMLR').csl.type).toBe(
      'paper-conference',
    );
    for (const journal of ['Proceedings of the Royal Society B', 'Proceedings of the National Academy of Sciences']) {
      expect(recordOf('A paper', `A Doe - ${journal}, 2012 - royalsocietypublishing.org`).csl).toMatchObject({
        type: 'article-journal',
        'container-title': journal,
      });
    }
  });

  it('takes anything else for a journal article, and lists what the index never gives', () => {
    const record = recordOf('Grazing and savannas', 'LT Ndlovu, P Smith - Journal of Arid Environments, 1998 - Elsevier');
    expect(record.csl).toEqual({
      id: 'id',
      type: 'article-journal',
      title: 'Grazing and savannas',
      author: [
        { family: 'Ndlovu', given: 'L. T.' },
        { family: 'Smith', given: 'P.' },
      ],
      issued: { 'date-parts': [[1998]] },
      'container-title': 'Journal of Arid Environments',
    });
    expect(record.gaps).toEqual(['volume', 'issue', 'pages', 'doi']);
  });

  it('takes a paper without a venue (and no other sign of its kind) for a document of no known kind, never an article without its journal', () => {
    const record = recordOf('Grazing', 'LT Ndlovu - 1998 - example.org');
    expect(record.csl).toEqual({
      id: 'id',
      type: 'document',
      title: 'Grazing',
      author: [{ family: 'Ndlovu', given: 'L. T.' }],
      issued: { 'date-parts': [[1998]] },
    });
    expect(record.gaps).toEqual(['venue', 'doi']);
  });

  it('says what the index cut short: the author list, the venue, the title', () => {
    const record = recordOf(
      'Attention is all you need for …',
      'A Vaswani, N Shazeer, N Parmar… - Advances in neural …, 2017 - proceedings.neurips.cc',
    );
    expect(record.gaps).toEqual(['title truncated', 'authors truncated', 'venue truncated', 'volume', 'issue', 'pages', 'doi']);
    // Printed as cut, with its "…", never as a whole title or venue; the list said cut (AUTHORS_CUT).
    expect(record.csl.title).toBe('Attention is all you need for …');
    expect(record.csl['container-title']).toBe('Advances in neural …');
    expect(record.csl.author).toHaveLength(3);
    expect(record.csl[AUTHORS_CUT]).toBe(true);
  });

  it('says what is missing: authors and year; and takes the profile authors when the summary names none', () => {
    const bare = recordOf('A paper', 'example.org');
    expect(bare.gaps).toEqual(['authors', 'year', 'venue', 'doi']);
    expect(bare.csl).not.toHaveProperty('author');
    expect(bare.csl).not.toHaveProperty('issued');
    const profiles = recordOf('A paper', 'example.org', { profileAuthors: ['Carl Boettiger', 'A Hastings'] });
    expect(profiles.csl.author).toEqual([
      { family: 'Boettiger', given: 'Carl' },
      { family: 'Hastings', given: 'A.' },
    ]);
    expect(profiles.gaps).not.toContain('authors');
    // The authors with a profile are some of the authors: the list is printed as cut.
    expect(profiles.gaps).toContain('authors truncated');
    expect(profiles.csl[AUTHORS_CUT]).toBe(true);
  });

  it("marks a non-English title's language, so that no style puts it in English title case", () => {
    expect(recordOf('Die Entwicklung der Stadt und des Landes', 'K Müller - Stadtforschung, 2001 - JSTOR').csl.language).toBe(
      'de',
    );
    expect(recordOf('Bananas and plantains', 'JC Robinson - 2010 - books.google.com').csl).not.toHaveProperty('language');
  });
});

describe('citableLink', () => {
  it('cuts a Google Books link to the book, and keeps every other link as it is', () => {
    expect(citableLink('https://books.google.de/books?hl=en&id=AbC-1_&pg=PR5&dq=x&sig=y')).toBe(
      'https://books.google.de/books?id=AbC-1_',
    );
    expect(citableLink('https://example.org/a?b=1&c=2')).toBe('https://example.org/a?b=1&c=2');
    expect(citableLink('not a url')).toBeUndefined();
    expect(citableLink(null)).toBeUndefined();
  });
});
