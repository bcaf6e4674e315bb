/**
 * How the reference check reads a list (lib/citations/check/read.ts): each entry of `references` by its
 * kind (free text, BibTeX, RIS, CSL-JSON), a whole `bibliography` split into its references (a .bib file, a
 * .ris file, a CSL-JSON array, a pasted list numbered, bulleted, by paragraph or by line), and an entry that
 * cannot be read answered as such, never failing the list.
 */
import { describe, expect, it } from 'vitest';
import { type ReadReference, readBibliography, readReferenceEntry, splitPastedList } from '../../../lib/citations/check/read.js';

const reference = (read: ReadReference) => {
  if (!('reference' in read)) throw new Error(`unreadable: ${read.unreadable}`);
  return read.reference;
};

const BIB = String.raw`@string{el = "Ecology Letters"}
% a comment
@article{boettiger2018,
  author = {Boettiger, Carl and M{\"u}ller, J{\"o}rg and Garc\'{\i}a, Ana and others},
  title = {From noise to knowledge: how {R}andomness generates \emph{novel} phenomena},
  journal = el # ", Special issue",
  year = 2018, volume = {21}, number = {8}, pages = {1255--1267},
  doi = {10.1111/ele.13085}
}
@article{broken,
  title = {Missing its closing brace,
  year = 2001
}
@inproceedings{vaswani2017,
  author = "Vaswani, Ashish and Shazeer, Noam",
  title = "Attention is all you need",
  booktitle = "Advances in Neural Information Processing Systems",
  year = "2017",
  eprint = {1706.03762}, archivePrefix = {arXiv}
}`;

describe('BibTeX', () => {
  it('reads @string macros, nested braces, TeX accents and "and others", each entry in its order, a broken one unreadable', async () => {
    const read = await readBibliography(BIB);
    expect(read).toHaveLength(3);
    const first = reference(read[0] as ReadReference);
    expect(first).toMatchObject({ format: 'bibtex', doi: '10.1111/ele.13085' });
    expect(first.fields).toEqual({
      title: 'From noise to knowledge: how Randomness generates novel phenomena',
      authors: [
        { family: 'Boettiger', given: 'Carl' },
        { family: 'Müller', given: 'Jörg' },
        { family: 'García', given: 'Ana' },
      ],
      authorsCut: true,
      year: 2018,
      venue: 'Ecology Letters, Special issue',
      volume: '21',
      issue: '8',
      pages: '1255–1267',
      type: 'article-journal',
    });
    expect(read[1]).toMatchObject({ format: 'bibtex', unreadable: expect.stringMatching(/^The BibTeX entry cannot be read: /) });
    expect(read[1]?.input).toMatch(/^@article\{broken/);
    expect(reference(read[2] as ReadReference)).toMatchObject({ arxiv: '1706.03762', fields: { type: 'paper-conference' } });
  });

  it('takes one entry as one item of `references`, and says so when an item holds several', async () => {
    expect(
      reference(await readReferenceEntry('@misc{a, title={One entry}, author={Okafor, A.}, year={2016}}')).fields?.title,
    ).toBe('One entry');
    expect(await readReferenceEntry('@misc{a, title={A}, year=1} @misc{b, title={B}, year=2}')).toMatchObject({
      unreadable: expect.stringMatching(/several BibTeX entries/),
    });
  });

  it('answers an entry that states neither a title nor a DOI as unreadable', async () => {
    expect(await readReferenceEntry('@misc{empty, year = 2020}')).toMatchObject({
      unreadable: expect.stringMatching(/neither a title nor a DOI/),
    });
  });
});

describe('RIS', () => {
  const RIS = [
    'TY  - JOUR',
    'AU  - Boettiger, Carl',
    'AU  - Hastings, Alan',
    'TI  - Early warning signals and the prosecutor’s fallacy',
    'T2  - Proceedings of the Royal Society B',
    'PY  - 2012',
    'VL  - 279',
    'IS  - 1748',
    'SP  - 4734',
    'EP  - 4739',
    'DO  - 10.1098/rspb.2012.2085',
    'ER  - ',
    '',
    'TY  - CHAP',
    'AU  - World Health Organization',
    'TI  - A chapter',
    'PY  - 2010',
    'ER  - ',
    'TY  - JOUR',
    'PY  - 2001',
    'ER  - ',
  ].join('\n');

  it('reads each record by its tags, and one without a title or DOI as unreadable', async () => {
    const read = await readBibliography(RIS);
    expect(read).toHaveLength(3);
    expect(reference(read[0] as ReadReference)).toMatchObject({
      format: 'ris',
      doi: '10.1098/rspb.2012.2085',
      fields: {
        title: 'Early warning signals and the prosecutor’s fallacy',
        authors: [
          { family: 'Boettiger', given: 'Carl' },
          { family: 'Hastings', given: 'Alan' },
        ],
        year: 2012,
        venue: 'Proceedings of the Royal Society B',
        volume: '279',
        issue: '1748',
        pages: '4734-4739',
        type: 'article-journal',
      },
    });
    expect(reference(read[1] as ReadReference).fields).toMatchObject({
      authors: [{ literal: 'World Health Organization' }],
      type: 'chapter',
    });
    expect(read[2]).toMatchObject({ format: 'ris', unreadable: expect.stringMatching(/neither a title nor a DOI/) });
  });
});

describe('CSL-JSON', () => {
  const item = {
    id: 'x',
    type: 'article-journal',
    title: 'From noise to knowledge',
    author: [{ family: 'Boettiger', given: 'Carl' }, { literal: 'The Ecology Group' }],
    issued: { 'date-parts': [[2018, 8]] },
    'container-title': 'Ecology Letters',
    DOI: 'https://doi.org/10.1111/ELE.13085',
  };

  it('reads an item given as an object, or as its JSON, and a whole array as a bibliography', async () => {
    const fromObject = reference(await readReferenceEntry(item));
    expect(fromObject).toMatchObject({
      format: 'csl-json',
      doi: '10.1111/ele.13085',
      fields: { year: 2018, venue: 'Ecology Letters' },
    });
    expect(fromObject.fields?.authors).toEqual([{ family: 'Boettiger', given: 'Carl' }, { literal: 'The Ecology Group' }]);
    expect(reference(await readReferenceEntry(JSON.stringify(item))).fields).toEqual(fromObject.fields);
    expect((await readBibliography(JSON.stringify([item, { id: 'y', type: 'book' }]))).map((one) => 'reference' in one)).toEqual([
      true,
      false,
    ]);
  });
});

describe('free text', () => {
  it('notes a DOI and an arXiv identifier, and answers an empty or overlong reference as unreadable', async () => {
    expect(
      reference(await readReferenceEntry('Han J et al. Determination of hyperfine splittings. arXiv:2201.06719v2 (2022)')),
    ).toMatchObject({
      format: 'text',
      arxiv: '2201.06719',
    });
    expect(reference(await readReferenceEntry('https://doi.org/10.1111/ELE.13085'))).toEqual({
      format: 'text',
      text: 'doi:10.1111/ele.13085',
      doi: '10.1111/ele.13085',
    });
    expect(await readReferenceEntry('  \n ')).toMatchObject({ unreadable: 'The reference is empty.' });
    expect(await readReferenceEntry('x'.repeat(2_001))).toMatchObject({
      unreadable: expect.stringMatching(/longer than 2,000 characters/),
    });
  });
});

describe('a pasted list', () => {
  const A = 'Boettiger, C. (2018). From noise to knowledge. Ecology Letters, 21(8), 1255–1267.';
  const B = 'Shea, M. J., & Compton, R. N. (1993). Surface-plasmon ejection of Ag+ ions. Physical Review B, 47(15), 9967–9970.';

  it('splits at list numbers, dropping a heading before the first', () => {
    expect(splitPastedList(`References\n[1] ${A}\n[2] ${B}`)).toEqual([A, B]);
    expect(splitPastedList(`1. ${A}\n2. ${B}`)).toEqual([A, B]);
    expect(splitPastedList(`(1) ${A}\n(2) ${B}`)).toEqual([A, B]);
  });

  it('splits at bullets, at blank lines, and line by line joining a reference wrapped by the paste', () => {
    expect(splitPastedList(`• ${A}\n• ${B}`)).toEqual([A, B]);
    const wrapped = (text: string) => text.replace(/(.{40,50}?) /g, '$1\n');
    expect(splitPastedList(`${wrapped(A)}\n\n${wrapped(B)}`).map((one) => one.replace(/\n/g, ' '))).toEqual([A, B]);
    expect(splitPastedList(`${wrapped(A)}\n${wrapped(B)}`).map((one) => one.replace(/\n/g, ' '))).toEqual([A, B]);
  });

  it('reads a pasted bibliography into free-text references', async () => {
    const read = await readBibliography(`1. ${A}\n2. ${B}`);
    expect(read.map((one) => reference(one).text)).toEqual([A, B]);
  });
});
