/**
 * The DOIs a search result's link carries (lib/citations/model/identifiers.ts): doi.org links, a DOI in a
 * publisher's path (`/doi/abs/10.…`, Springer's `/article/10.…`), with the views and file extensions
 * publishers add taken off, a bioRxiv version, Nature's article ids, PLOS's `id=` parameter, and arXiv
 * identifiers as DataCite's DOIs; none from a link that carries none. Measured on the project's real
 * Scholar recordings: the share of papers whose link carries a DOI, which the citation guide states.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { arxivDoi, arxivIdOfLink, doiOfLink } from '../../../lib/citations/model/identifiers.js';
import { readDocument } from '../../support/docs-blocks.js';

describe('the DOI a link carries', () => {
  it.each([
    ['https://doi.org/10.1111/ele.14024', '10.1111/ele.14024'],
    ['http://dx.doi.org/10.1002/ECE3.2314', '10.1002/ece3.2314'],
    [
      'https://doi.org/10.1002%2F(SICI)1097-4636(199706)35%3A4%3C435%3A%3AAID-JBM4%3E3.0.CO%3B2-K',
      '10.1002/(sici)1097-4636(199706)35:4<435::aid-jbm4>3.0.co;2-k',
    ],
    ['https://www.tandfonline.com/doi/abs/10.1080/09523987.2016.1254877', '10.1080/09523987.2016.1254877'],
    ['https://onlinelibrary.wiley.com/doi/full/10.1111/j.1398-9995.2010.02406.x', '10.1111/j.1398-9995.2010.02406.x'],
    ['https://onlinelibrary.wiley.com/doi/pdf/10.1111/ele.13085', '10.1111/ele.13085'],
    ['https://www.nejm.org/doi/full/10.1056/NEJM199206043262306', '10.1056/nejm199206043262306'],
    ['https://search.informit.org/doi/abs/10.3316/aeipt.195598', '10.3316/aeipt.195598'],
    ['https://link.springer.com/article/10.1007/s12080-013-0192-6', '10.1007/s12080-013-0192-6'],
    ['https://link.springer.com/content/pdf/10.1007/s10994-021-05961-4.pdf', '10.1007/s10994-021-05961-4'],
    ['https://link.springer.com/chapter/10.1007/978-3-319-24574-4_28', '10.1007/978-3-319-24574-4_28'],
    ['https://www.frontiersin.org/articles/10.3389/fpsyg.2019.01234/full', '10.3389/fpsyg.2019.01234'],
    ['https://journals.aps.org/prl/abstract/10.1103/PhysRevLett.116.061102', '10.1103/physrevlett.116.061102'],
    ['https://www.biorxiv.org/content/10.1101/055319v1', '10.1101/055319'],
    ['https://www.biorxiv.org/content/10.1101/2020.01.01.123456v2.full.pdf', '10.1101/2020.01.01.123456'],
    ['https://datadryad.org/stash/dataset/doi:10.15146/zf0j-5m50', '10.15146/zf0j-5m50'],
    ['https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0163962', '10.1371/journal.pone.0163962'],
    ['https://www.nature.com/articles/nature14539', '10.1038/nature14539'],
    ['https://www.nature.com/articles/s41586-020-2649-2.pdf', '10.1038/s41586-020-2649-2'],
    ['https://pubs.acs.org/doi/10.1021/acs.jcim.9b00237;jsessionid=AB12', '10.1021/acs.jcim.9b00237'],
    ['https://arxiv.org/abs/2201.06719', '10.48550/arxiv.2201.06719'],
    ['https://arxiv.org/pdf/2201.06719v2', '10.48550/arxiv.2201.06719'],
    ['http://arxiv.org/abs/hep-th/9901001v1', '10.48550/arxiv.hep-th/9901001'],
  ])('reads %s as %s', (link, doi) => {
    expect(doiOfLink(link)).toBe(doi);
  });

  it.each([
    ['https://www.sciencedirect.com/science/article/pii/S1081120618300073'],
    ['https://books.google.com/books?hl=en&lr=&id=0GxOPqj2UVYC&oi=fnd&pg=PR5'],
    ['https://www.jstor.org/stable/pdf/jeductechsoci.19.2.355.pdf?&seq=1'],
    ['https://erj.ersjournals.com/content/45/4/906.short'],
    ['https://doi.org/not-a-doi'],
    ['https://arxiv.org/list/hep-th/new'],
    ['not a link'],
    [''],
  ])('finds none in %s', (link) => {
    expect(doiOfLink(link)).toBeUndefined();
  });

  it('reads arXiv identifiers, new and old, without their version', () => {
    expect(arxivIdOfLink('https://arxiv.org/abs/2201.06719v3')).toBe('2201.06719');
    expect(arxivIdOfLink('https://export.arxiv.org/abs/math.GT/0309136')).toBe('math.GT/0309136');
    expect(arxivIdOfLink('https://example.org/abs/2201.06719')).toBeUndefined();
    expect(arxivDoi('2201.06719v2')).toBe('10.48550/arxiv.2201.06719');
  });
});

/** The project's real Scholar recordings (their sources: lib/local/samples/SOURCES.md, test/fixtures/SOURCES.md). */
const RECORDINGS = [
  'lib/local/samples/google_scholar.json',
  'lib/local/samples/google_scholar_authors.json',
  'test/fixtures/serpapi/google_scholar-2023-11-20.json',
];

describe('on the real Scholar recordings', () => {
  const links = RECORDINGS.flatMap((path) =>
    (JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')).organic_results as { link?: string }[]).map(
      (result) => result.link,
    ),
  );
  const found = links.flatMap((link) => doiOfLink(link) ?? []);

  it('finds the DOI every link that carries one holds, and none where the link carries none', () => {
    expect(links).toHaveLength(17);
    expect(found).toEqual([
      '10.3316/aeipt.195598',
      '10.1080/09523987.2016.1254877',
      '10.1080/09523987.2015.1075103',
      '10.1056/nejm199206043262306',
      '10.1111/j.1398-9995.2010.02406.x',
    ]);
  });

  it('is the share the citation guide states', () => {
    const said = /On the project's real Scholar recordings, (\d+) of (\d+) results' links carry their DOI/.exec(
      readDocument('docs/citations.md').replace(/\s+/g, ' '),
    );
    expect(said, 'docs/citations.md states the share').not.toBeNull();
    expect([Number(said?.[1]), Number(said?.[2])]).toEqual([found.length, links.length]);
  });
});
