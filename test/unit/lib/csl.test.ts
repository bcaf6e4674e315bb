/**
 * CSL-JSON records from recorded Crossref works: what every citation is rendered from and every export
 * written from.
 */
import { describe, expect, it } from 'vitest';
import { cslFromCrossref, plainText, withSubtitle } from '../../../lib/citations/csl.js';
import type { CrossrefWork } from '../../../lib/citations/match.js';
import { crossrefRecording } from '../../../lib/local/replay-crossref.js';
import { EARLY_WARNING_CSL } from '../../fixtures/csl-items.js';

const works = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items;

describe('cslFromCrossref', () => {
  it('turns a recorded journal article into a CSL-JSON item', () => {
    const work = works.find((w) => w.DOI === '10.1007/s12080-013-0192-6') as CrossrefWork;
    expect(cslFromCrossref(work)).toMatchObject({ ...EARLY_WARNING_CSL, id: '10.1007/s12080-013-0192-6' });
  });

  it('strips the markup Crossref keeps in titles', () => {
    const work = works.find((w) => w.DOI === '10.1111/j.2041-210x.2012.00247.x') as CrossrefWork;
    expect(cslFromCrossref(work).title).toBe(
      'Treebase: an R package for discovery, access and manipulation of online phylogenies',
    );
  });
});

describe('plainText', () => {
  it('keeps a word boundary where a tag stood between words, none inside a word', () => {
    expect(plainText('Antimicrobial resistance of<i>Salmonella enterica</i>from poultry')).toBe(
      'Antimicrobial resistance of Salmonella enterica from poultry',
    );
    expect(plainText('Removal of NO<sub>x</sub>and H<sub>2</sub>O vapour')).toBe('Removal of NOx and H2O vapour');
    expect(plainText('<scp>T</scp>reebase: an<scp>R</scp>package')).toBe('Treebase: an R package');
    expect(plainText('A <mml:math><mml:mi>k</mml:mi></mml:math>-means study')).toBe('A k-means study');
    expect(plainText('The role of\n                    <scp>AI</scp>\n in ecology')).toBe('The role of AI in ecology');
  });
});

describe('withSubtitle', () => {
  it('adds a real subtitle, not a running title, a repeat or a translation', () => {
    expect(withSubtitle('Early warning signals', 'the charted and uncharted territories')).toBe(
      'Early warning signals: the charted and uncharted territories',
    );
    // Wiley deposits running titles as subtitles: a short form of the title.
    expect(
      withSubtitle('Grazer behaviour can regulate large-scale patterning of community states', 'Grazer behaviour and patterning'),
    ).toBe('Grazer behaviour can regulate large-scale patterning of community states');
    expect(withSubtitle('Bananas and plantains', 'Bananas and plantains')).toBe('Bananas and plantains');
    expect(withSubtitle('Экология лесов', 'Forest ecology')).toBe('Экология лесов');
  });
});

describe('cslFromCrossref containers', () => {
  it("keeps a reference entry's work and a chapter's series", () => {
    const entry = cslFromCrossref({
      DOI: '10.1/e',
      title: ['Web Widget'],
      type: 'reference-entry',
      'container-title': ['Encyclopedia of Database Systems'],
    });
    expect(entry).toMatchObject({ type: 'entry-encyclopedia', 'container-title': 'Encyclopedia of Database Systems' });
    const chapter = cslFromCrossref({
      DOI: '10.1/c',
      title: ['A chapter'],
      type: 'book-chapter',
      'container-title': ['Research and Advanced Technology for Digital Libraries', 'Lecture Notes in Computer Science'],
    });
    expect(chapter).toMatchObject({
      'container-title': 'Research and Advanced Technology for Digital Libraries',
      'collection-title': 'Lecture Notes in Computer Science',
    });
  });
});
