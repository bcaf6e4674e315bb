/**
 * One work deposited in two repositories has two DOIs and one title: a dataset on Dryad and its copy on
 * Zenodo, a preprint on figshare and on arXiv. A reference (match/reference-match.ts) or a search result
 * (match/match.ts) that names one repository must not take the other's record. The Dryad dataset is
 * DataCite's recorded record (lib/local/samples/datacite/); its Zenodo copy is constructed beside it, as
 * Zenodo writes one (its DOI prefix, publisher and link).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bestMatch } from '../../../lib/citations/match/match.js';
import { matchReference } from '../../../lib/citations/match/reference-match.js';
import { REPOSITORIES, repositoriesNamed, repositoryOf } from '../../../lib/citations/model/repository.js';
import { parseScholarSummary } from '../../../lib/citations/model/scholar.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { workFromDataCite } from '../../../lib/citations/sources/datacite.js';
import { articleWork, doiOf, ruleOf } from '../../support/match-records.js';

const recorded = (path: string) =>
  workFromDataCite((JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { data: unknown }).data) as CrossrefWork;

const dryad = recorded('../../../lib/local/samples/datacite/doi-10.5061-dryad.8515.json');
/** Constructed: the same dataset as Zenodo would hold a copy of it. */
const zenodoCopy: CrossrefWork = {
  ...dryad,
  DOI: '10.5281/zenodo.8515',
  publisher: 'Zenodo',
  URL: 'https://zenodo.org/records/8515',
};

const AUTHORS = 'Ollomo B, Durand P, Prugnolle F, et al. (2011)';
const TITLE = 'Data from: A new malaria agent in African hominids';

describe('a reference that names a repository', () => {
  it('takes the record deposited there, never its copy in another repository', () => {
    const text = `${AUTHORS} ${TITLE} [Dataset]. Dryad.`;
    expect(doiOf(matchReference(text, [zenodoCopy, dryad]))).toBe('10.5061/dryad.8515');
    const copyOnly = matchReference(text, [zenodoCopy]);
    expect(copyOnly).toEqual({
      matched: null,
      rule: 'version',
      reason: 'The reference names Dryad, and the work found is deposited in Zenodo.',
      score: 1,
    });
    expect(doiOf(matchReference(`${AUTHORS} ${TITLE} [Dataset]. Zenodo.`, [dryad, zenodoCopy]))).toBe('10.5281/zenodo.8515');
  });

  it('is read in a link too, and a reference naming both repositories takes either', () => {
    const linked = `${AUTHORS} ${TITLE} [Dataset]. https://datadryad.org/stash/dataset/8515`;
    expect(doiOf(matchReference(linked, [zenodoCopy, dryad]))).toBe('10.5061/dryad.8515');
    const both = `${AUTHORS} ${TITLE} [Dataset]. Dryad; a copy on Zenodo.`;
    expect(ruleOf(matchReference(both, [zenodoCopy, dryad]))).toBe('ambiguous');
  });

  it('names every repository it names when the work found is deposited in another', () => {
    const figshareCopy: CrossrefWork = {
      ...zenodoCopy,
      DOI: '10.6084/m9.figshare.8515',
      publisher: 'figshare',
      URL: 'https://figshare.com/x',
    };
    const both = `${AUTHORS} ${TITLE} [Dataset]. Dryad; a copy on Zenodo.`;
    expect(matchReference(both, [figshareCopy])).toMatchObject({
      rule: 'version',
      reason: 'The reference names Zenodo or Dryad, and the work found is deposited in figshare.',
    });
  });

  it('leaves a reference that names no repository as it was: two deposits of one dataset are a tie', () => {
    expect(ruleOf(matchReference(`${AUTHORS} ${TITLE} [Dataset].`, [zenodoCopy, dryad]))).toBe('ambiguous');
  });

  it('still takes a work deposited in no repository, a journal article, when the reference names one for its code', () => {
    const article = articleWork('10.1111/ele.13000', 'Seed banks of tropical forests', 'Okafor', 2018, {
      'container-title': ['Ecology Letters'],
      publisher: 'Wiley',
    });
    const text = 'Okafor A (2018) Seed banks of tropical forests. Ecology Letters 21:5–9. Code archived on Zenodo.';
    expect(doiOf(matchReference(text, [article]))).toBe('10.1111/ele.13000');
  });
});

describe('a search result the index shows on a repository', () => {
  it('takes the record deposited there, never its copy in another repository', () => {
    const paper = parseScholarSummary(TITLE, 'B Ollomo, P Durand, F Prugnolle - 2011 - datadryad.org');
    expect(bestMatch(paper, [zenodoCopy, dryad])?.work.DOI).toBe('10.5061/dryad.8515');
    expect(bestMatch(paper, [zenodoCopy])).toBeUndefined();
    const onZenodo = parseScholarSummary(TITLE, 'B Ollomo, P Durand, F Prugnolle - 2011 - zenodo.org');
    expect(bestMatch(onZenodo, [dryad, zenodoCopy])?.work.DOI).toBe('10.5281/zenodo.8515');
    expect(bestMatch(onZenodo, [dryad])).toBeUndefined();
  });

  it('takes a deposited record for a result the index shows on no repository: only a repository named refuses another’s', () => {
    const paper = parseScholarSummary(TITLE, 'B Ollomo, P Durand, F Prugnolle - 2011 - ird.fr');
    expect(bestMatch(paper, [dryad])?.work.DOI).toBe('10.5061/dryad.8515');
  });

  it('still takes a work deposited in no repository, the published article of a paper the index shows on Zenodo', () => {
    const article = articleWork('10.1111/ele.13000', 'Seed banks of tropical forests', 'Okafor', 2018, { publisher: 'Wiley' });
    const paper = parseScholarSummary('Seed banks of tropical forests', 'A Okafor - 2018 - zenodo.org');
    expect(bestMatch(paper, [article])?.work.DOI).toBe('10.1111/ele.13000');
  });
});

describe('where a record is deposited', () => {
  it('is read from its DOI prefix, else its publisher, link or container; a journal article is in none', () => {
    expect(repositoryOf(dryad)?.name).toBe('Dryad');
    // Dryad registers DOIs under other prefixes too: its publisher says where.
    const dryadAlt = recorded('../../fixtures/datacite/prereview-dryad-alt.json');
    expect(dryadAlt.DOI).toBe('10.15146/zf0j-5m50');
    expect(repositoryOf(dryadAlt)?.name).toBe('Dryad');
    expect(repositoryOf({ DOI: '10.9999/x', URL: 'https://figshare.com/articles/x' })?.name).toBe('figshare');
    expect(repositoryOf({ DOI: '10.9999/x', 'container-title': ['Harvard Dataverse'] })?.name).toBe('Dataverse');
    expect(
      repositoryOf({ DOI: '10.1111/ele.14024', publisher: 'Wiley', URL: 'https://doi.org/10.1111/ele.14024' }),
    ).toBeUndefined();
  });

  it('names each repository by its prefix and its names in a text', () => {
    for (const repository of REPOSITORIES) {
      expect(repositoryOf({ DOI: `${repository.prefixes[0]}/x` }), repository.name).toBe(repository);
    }
    expect(
      repositoriesNamed('Global Biodiversity Information Facility; Open Science Framework; PANGAEA; arXiv').map((r) => r.name),
    ).toEqual(['arXiv', 'PANGAEA', 'GBIF', 'OSF']);
    expect(repositoriesNamed('https://osf.io/x, gbif.org, datadryad.org, figshare.com').map((r) => r.name)).toEqual([
      'Dryad',
      'figshare',
      'GBIF',
      'OSF',
    ]);
    // A word that only holds a name is not it.
    expect(repositoriesNamed('Dryads and nymphs; zenodorus; osfa')).toEqual([]);
  });
});
