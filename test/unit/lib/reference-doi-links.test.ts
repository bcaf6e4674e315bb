/**
 * DOIs as people paste them (match/reference-match.ts parseReferenceInput): bare, after "doi:", or as a link
 * that carries what browsers and publishers add to it — a query (ScienceDirect's "?via%3Dihub"), a fragment
 * ("#abstract"), percent-encoded white space or an invisible character a copy took along ("%20",
 * "%E2%80%8B"). Each must be read as the DOI it names: a DOI read wrong is looked up, not found, and
 * answered "Neither Crossref nor DataCite has a record of this DOI", which is false of the DOI meant.
 */
import { describe, expect, it } from 'vitest';
import { parseReferenceInput } from '../../../lib/citations/match/reference-match.js';

const DOI = '10.1016/j.cell.2020.01.001';

/** Twenty ways a DOI reaches the service as a reference of its own. */
const VARIANTS = [
  DOI,
  `doi:${DOI}`,
  `DOI: ${DOI}`,
  `https://doi.org/${DOI}`,
  `http://dx.doi.org/${DOI}`,
  `https://doi.org/10.1016%2Fj.cell.2020.01.001`,
  `https://doi.org/${DOI.toUpperCase()}`,
  `<https://doi.org/${DOI}>`,
  `https://doi.org/${DOI}.`,
  `https://doi.org/${DOI}\u200b`,
  `doi.org/${DOI}`,
  `https://www.doi.org/${DOI}`,
  `https://doi.org/${DOI}?via%3Dihub`,
  `https://doi.org/${DOI}?via=ihub`,
  `https://doi.org/${DOI}#abstract`,
  `https://doi.org/${DOI}%20`,
  `https://doi.org/${DOI}%E2%80%8B`,
  `https://doi.org/%20${DOI}`,
  `https://doi.org/${DOI}%3Fvia%3Dihub`,
  `https://doi.org/${DOI}%23abstract`,
];

describe('a DOI as a link carries it', () => {
  it.each(VARIANTS.map((variant) => [variant]))('%s is the DOI it names', (variant) => {
    expect(parseReferenceInput(variant)).toEqual({ kind: 'doi', doi: DOI });
  });

  it('reads the DOI a reference holds the same way, the rest of the text kept for the search', () => {
    for (const tail of ['?via%3Dihub', '%20', '#abstract', '%E2%80%8B', '%0A', '%C2%A0', '/', '?utm_source=x&utm_medium=y']) {
      const text = `Smith J (2020) A title. Cell 180:1–10. https://doi.org/${DOI}${tail}`;
      expect(parseReferenceInput(text), tail).toEqual({ kind: 'text', text, doi: DOI });
    }
    const publisher = `https://onlinelibrary.wiley.com/doi/abs/${DOI}?af=R`;
    expect(parseReferenceInput(publisher)).toEqual({ kind: 'text', text: publisher, doi: DOI });
  });

  it('takes the other prefixes a DOI is written with: info:doi/, urn:doi:, doi: inside a link, "DOI" without a colon or with a space before it', () => {
    // "DOI 10.…" as Springer prints it, "DOI : 10.…" as French typography spaces a colon.
    for (const variant of [`info:doi/${DOI}`, `urn:doi:${DOI}`, `https://doi.org/doi:${DOI}`, `DOI ${DOI}`, `DOI : ${DOI}`]) {
      expect(parseReferenceInput(variant), variant).toEqual({ kind: 'doi', doi: DOI });
    }
  });

  it('drops only encoded characters that are blank before a link’s DOI, and keeps a DOI’s own encoded characters', () => {
    // Several encoded characters: a zero-width space is three bytes, and a space may come twice.
    for (const before of ['%E2%80%8B', '%20%20']) {
      expect(parseReferenceInput(`https://doi.org/${before}${DOI}`), before).toEqual({ kind: 'doi', doi: DOI });
    }
    // "%41" is an "A": not blank, so the entry is no link to a DOI.
    expect(parseReferenceInput(`https://doi.org/%41${DOI}`)).toEqual({
      kind: 'text',
      text: `https://doi.org/%41${DOI}`,
      doi: DOI,
    });
    // A SICI DOI's angle brackets, encoded in its link, are the DOI's.
    expect(parseReferenceInput('https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C435::AID-JBM4%3E3.0.CO;2-K')).toEqual({
      kind: 'doi',
      doi: '10.1002/(sici)1097-4636(199706)35:4<435::aid-jbm4>3.0.co;2-k',
    });
  });

  it("reads a SICI DOI's angle brackets as the DOI's when written as they are, bare or in a reference, and a tag after a DOI as none of it", () => {
    const sici = '10.1002/(sici)1097-4636(199706)35:4<435::aid-jbm4>3.0.co;2-k';
    expect(parseReferenceInput('10.1002/(SICI)1097-4636(199706)35:4<435::AID-JBM4>3.0.CO;2-K')).toEqual({
      kind: 'doi',
      doi: sici,
    });
    expect(parseReferenceInput('doi:10.1002/(SICI)1097-4636(199706)35:4<435::AID-JBM4>3.0.CO;2-K.')).toEqual({
      kind: 'doi',
      doi: sici,
    });
    const text =
      'Smith, A. (1997). A title. J. Biomed. Mater. Res., 35(4), 435-441. doi:10.1002/(SICI)1097-4636(199706)35:4<435::AID-JBM4>3.0.CO;2-K';
    expect(parseReferenceInput(text)).toEqual({ kind: 'text', text, doi: sici });
    // A tag is no SICI segment (it holds no "::"): the DOI ends before it.
    const linked = 'A title. <a href="x">doi:10.1000/182</a> <b>2020</b>';
    expect(parseReferenceInput(linked)).toEqual({ kind: 'text', text: linked, doi: '10.1000/182' });
  });
});
