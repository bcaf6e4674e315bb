/**
 * DataCite's records read into the shape Crossref's works have (lib/citations/sources/datacite.ts), on
 * recorded DataCite answers (lib/local/samples/datacite/, test/fixtures/datacite/; sources in their
 * SOURCES.md): an arXiv preprint, Dryad, Zenodo and figshare datasets and preprints, an OSF project, a
 * Zenodo journal article, and a recorded list answer; then what the records become in CSL-JSON and the
 * queries sent (words only, so that no character of a title is an operator).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cslFromCrossref } from '../../../lib/citations/model/csl.js';
import {
  arxivDoi,
  crossrefType,
  DATACITE_PREFIXES,
  isDataCiteDoi,
  paperQuery,
  referenceQuery,
  workFromDataCite,
} from '../../../lib/citations/sources/datacite.js';

type Answer = { data: Record<string, unknown> };

function answers(dir: URL): Record<string, Answer> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.endsWith('.json') && name !== 'rdatacite-dois-list.json' && name !== 'not-found.json')
      .map((name) => [name.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as Answer]),
  );
}

const demo = answers(new URL('../../../lib/local/samples/datacite/', import.meta.url));
const fixtures = answers(new URL('../../fixtures/datacite/', import.meta.url));
const list = JSON.parse(readFileSync(new URL('../../fixtures/datacite/rdatacite-dois-list.json', import.meta.url), 'utf8')) as {
  data: unknown[];
};

const work = (answer: Answer | undefined) => {
  const read = workFromDataCite(answer?.data);
  if (!read) throw new Error('no work');
  return read;
};

describe('a DataCite record as a work', () => {
  it('reads an arXiv preprint as posted content, with its authors, year, publisher and link', () => {
    const arxiv = work(demo['doi-10.48550-arxiv.2201.06719']);
    expect(arxiv).toMatchObject({
      DOI: '10.48550/arxiv.2201.06719',
      agency: 'datacite',
      type: 'posted-content',
      publisher: 'arXiv',
      issued: { 'date-parts': [[2022]] },
      URL: 'https://arxiv.org/abs/2201.06719',
    });
    expect(arxiv.title?.[0]).toMatch(/^Determination of hyperfine splittings and Landé/);
    expect(arxiv.author).toHaveLength(9);
    expect(arxiv.author?.[0]).toEqual({ given: 'J. Z.', family: 'Han' });
    expect(arxiv).not.toHaveProperty('container-title');
  });

  it('reads a Dryad dataset (its date of issue, its eight creators) and a Zenodo dataset', () => {
    const dryad = work(demo['doi-10.5061-dryad.8515']);
    expect(dryad).toMatchObject({
      DOI: '10.5061/dryad.8515',
      type: 'dataset',
      publisher: 'Dryad',
      issued: { 'date-parts': [[2011, 2, 1]] },
      title: ['Data from: A new malaria agent in African hominids.'],
    });
    expect(dryad.author).toHaveLength(8);
    expect(dryad.author?.[3]).toEqual({ given: 'Emmanuel J. P.', family: 'Douzery' });
    expect(work(demo['doi-10.5281-zenodo.18951275'])).toMatchObject({ type: 'dataset', publisher: 'Zenodo', agency: 'datacite' });
    expect(work(fixtures['prereview-dryad'])).toMatchObject({ type: 'dataset', publisher: 'Dryad' });
    expect(work(fixtures['prereview-dryad-alt'])).toMatchObject({ type: 'dataset' });
  });

  it('reads preprints whatever DataCite calls them: figshare "Text"/"Preprint", Zenodo "Preprint", an OSF project typed Preprint', () => {
    expect(work(fixtures['prereview-figshare'])).toMatchObject({ type: 'posted-content', publisher: 'figshare' });
    expect(work(fixtures['prereview-zenodo'])).toMatchObject({ type: 'posted-content', publisher: 'Zenodo' });
    expect(work(fixtures['prereview-osf-project'])).toMatchObject({ type: 'posted-content', publisher: 'OSF' });
    expect(work(fixtures['prereview-zenodo-journal-article'])).toMatchObject({ type: 'journal-article' });
  });

  it('keeps a person whose name has no parts whole, and splits "Family, Given" only for a person', () => {
    const osf = work(fixtures['prereview-osf-project']);
    // "Eglídia Carla Figueirêdo Vidal" came with nameType Personal and no parts, no comma.
    expect(osf.author).toContainEqual({ name: 'Eglídia Carla Figueirêdo Vidal' });
    const item = (creator: Record<string, unknown>) =>
      workFromDataCite({ attributes: { doi: '10.1/x', titles: [{ title: 'T' }], creators: [creator], types: {} } })?.author;
    expect(item({ name: 'Kermany, Daniel', nameType: 'Personal' })).toEqual([{ given: 'Daniel', family: 'Kermany' }]);
    expect(item({ name: 'World Health Organization, Geneva', nameType: 'Organizational' })).toEqual([
      { name: 'World Health Organization, Geneva' },
    ]);
    expect(item({ name: 'Doe, Jane' })).toEqual([{ name: 'Doe, Jane' }]);
    expect(item({ familyName: 'Doe' })).toEqual([{ family: 'Doe' }]);
    expect(item({})).toBeUndefined();
  });

  it('reads every record of a recorded list answer, software and a book among them', () => {
    const works = list.data.map((item) => workFromDataCite(item));
    expect(works.map((w) => w?.DOI)).toEqual([
      '10.5281/zenodo.3596961',
      '10.5281/zenodo.3520062',
      '10.5281/zenodo.3520063',
      '10.15468/dl.msish2',
      '10.17605/osf.io/vr6nb',
    ]);
    expect(works.map((w) => w?.type)).toEqual(['software', 'book', 'book', 'dataset', expect.any(String)]);
    expect(works[0]).toMatchObject({ version: 'v1.0.1', issued: { 'date-parts': [[2020, 1, 2]] } });
    // GBIF's download is made by an organisation: one literal name.
    expect(works[3]?.author).toEqual([{ name: 'Occdownload Gbif.Org' }]);
  });

  it('reads a container, its volume, issue and pages, an editor, a subtitle and a publisher object; no DOI is no work', () => {
    const read = workFromDataCite({
      id: '10.1/y',
      attributes: {
        titles: [{ title: 'Main' }, { title: 'Sub', titleType: 'Subtitle' }],
        publisher: { name: 'Press' },
        container: { title: 'Journal', volume: '3', issue: '2', firstPage: '10', lastPage: '12' },
        contributors: [{ name: 'Roe, Ann', nameType: 'Personal', contributorType: 'Editor' }],
        publicationYear: 2021,
        types: { resourceTypeGeneral: 'JournalArticle' },
      },
    });
    expect(read).toMatchObject({
      DOI: '10.1/y',
      title: ['Main'],
      subtitle: ['Sub'],
      publisher: 'Press',
      'container-title': ['Journal'],
      volume: '3',
      issue: '2',
      page: '10-12',
      editor: [{ given: 'Ann', family: 'Roe' }],
      issued: { 'date-parts': [[2021]] },
      type: 'journal-article',
    });
    expect(workFromDataCite({ attributes: { titles: [{ title: 'No DOI' }] } })).toBeUndefined();
    expect(workFromDataCite('nonsense')).toBeUndefined();
  });

  it.each([
    [{ resourceTypeGeneral: 'Dataset' }, 'arXiv', '10.1/a', undefined, 'dataset'],
    [{ resourceTypeGeneral: 'Text' }, 'arXiv', '10.1/a', undefined, 'posted-content'],
    [{ resourceTypeGeneral: 'Text' }, 'Elsewhere', '10.48550/arxiv.1', undefined, 'posted-content'],
    [{ resourceTypeGeneral: 'Text', resourceType: 'Article' }, 'Zenodo', '10.1/a', 'A journal', 'journal-article'],
    [{ resourceTypeGeneral: 'Text', resourceType: 'Article' }, 'Zenodo', '10.1/a', undefined, 'other'],
    [{ resourceTypeGeneral: 'Text', resourceType: 'PhD thesis' }, 'X', '10.1/a', undefined, 'dissertation'],
    [{ resourceTypeGeneral: 'Text', resourceType: 'Technical report' }, 'X', '10.1/a', undefined, 'report'],
    [{ resourceTypeGeneral: 'Text', resourceType: 'Book' }, 'X', '10.1/a', undefined, 'book'],
    [{ resourceTypeGeneral: 'BookChapter' }, 'X', '10.1/a', undefined, 'book-chapter'],
    [{ resourceTypeGeneral: 'ConferencePaper' }, 'X', '10.1/a', undefined, 'proceedings-article'],
    [{ resourceTypeGeneral: 'Software' }, 'X', '10.1/a', undefined, 'software'],
    [{ resourceTypeGeneral: 'Image' }, 'X', '10.1/a', undefined, 'other'],
  ])('types %j of %s (%s, container %s) as %s', (types, publisher, doi, container, expected) => {
    expect(crossrefType(types, publisher, doi, container)).toBe(expected);
  });

  it('makes CSL-JSON of a preprint and a dataset that the styles label as such', () => {
    expect(cslFromCrossref(work(demo['doi-10.48550-arxiv.2201.06719']))).toMatchObject({
      type: 'article',
      genre: 'Preprint',
      publisher: 'arXiv',
      DOI: '10.48550/arxiv.2201.06719',
    });
    expect(cslFromCrossref(work(demo['doi-10.5061-dryad.8515']))).toMatchObject({ type: 'dataset', publisher: 'Dryad' });
    expect(cslFromCrossref(work({ data: list.data[0] as Answer['data'] }))).toMatchObject({
      type: 'software',
      version: 'v1.0.1',
    });
  });
});

describe('DataCite identifiers and queries', () => {
  it("knows its repositories' prefixes and an arXiv identifier's DOI", () => {
    expect(isDataCiteDoi('10.48550/arxiv.2201.06719')).toBe(true);
    expect(isDataCiteDoi('10.5061/dryad.8515')).toBe(true);
    expect(isDataCiteDoi('10.1111/ele.14024')).toBe(false);
    expect(DATACITE_PREFIXES.size).toBe(8);
    expect(arxivDoi('2201.06719v2')).toBe('10.48550/arxiv.2201.06719');
  });

  it('sends words only: no character of a title or a reference can be an operator', () => {
    const record = {
      title: 'Mode-II (pullout) model: "AND" OR* nanofibers …',
      authors: [{ given: 'A', family: "O'Neil" }],
      year: 2019,
      venue: null,
    };
    expect(paperQuery(record)).toBe(
      'titles.title:(mode ii pullout model and or nanofibers) AND creators.name:(neil) AND publicationYear:[2018 TO 2020]',
    );
    expect(paperQuery({ ...record, authors: [], year: null })).toBe('titles.title:(mode ii pullout model and or nanofibers)');
    expect(referenceQuery('Ollomo, B. (2011). Data from: A new malaria agent [Data set]. Dryad. doi:x')).toBe(
      'ollomo 2011 data from new malaria agent data set dryad doi',
    );
  });
});
