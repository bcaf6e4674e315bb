/**
 * CSL-JSON records from recorded Crossref works: what every citation is rendered from and every export
 * written from.
 */
import { describe, expect, it } from 'vitest';
import {
  cslFromCrossref,
  decodeEntities,
  plainText,
  richText,
  titleLanguage,
  withSubtitle,
} from '../../../lib/citations/model/csl.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
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

describe('decodeEntities', () => {
  it('decodes the named and numeric entities publishers deposit, and leaves unknown names alone', () => {
    expect(decodeEntities('R&amp;D &lt;5&gt; &quot;x&quot; &#8211; &#x2014; &nbsp;&hellip;')).toBe('R&D <5> "x" – — \u00a0…');
    expect(decodeEntities('AT&T &unknown; &#0; &#x110000;')).toBe('AT&T &unknown; &#0; &#x110000;');
  });
});

describe('richText', () => {
  it('keeps italics (and their case), bold, sub- and superscripts as CSL rich text, at word boundaries', () => {
    expect(richText('Antimicrobial resistance of<i>Salmonella enterica</i>from poultry')).toBe(
      'Antimicrobial resistance of <i><span class="nocase">Salmonella enterica</span></i> from poultry',
    );
    expect(richText('The <italic>E. coli</italic> genome, H<sub>2</sub>O and m<sup>2</sup>')).toBe(
      'The <i><span class="nocase">E. coli</span></i> genome, H<sub>2</sub>O and m<sup>2</sup>',
    );
    expect(richText('<bold>Bold</bold> claims')).toBe('<b>Bold</b> claims');
  });

  it('drops small capitals, MathML and an element that never closes, and decodes entities after the markup', () => {
    expect(richText('<scp>T</scp>reebase: an<scp>R</scp>package')).toBe('Treebase: an R package');
    expect(richText('A <mml:math><mml:mi>k</mml:mi></mml:math>-means study')).toBe('A k-means study');
    expect(richText('An <i>unclosed title')).toBe('An unclosed title');
    expect(richText('R&amp;D &lt;i&gt;not markup&lt;/i&gt;')).toBe('R&D <i>not markup</i>');
    expect(richText('<i></i>')).toBeUndefined();
  });
});

describe('titleLanguage', () => {
  it.each([
    ['Die Entwicklung der Stadt und des Landes', 'de'],
    ["Essai de mesure de l'activité photographique de certains minéraux", 'fr'],
    ['Los métodos alternativos de resolución de conflictos', 'es'],
    ['Экология лесов', 'ru'],
    ['森林の生態学', 'ja'],
    ['Early warning signals: the charted and uncharted territories', undefined],
    ['Le Corbusier and the architecture of the city', undefined],
    ['', undefined],
  ])('%s → %s', (title, language) => {
    expect(titleLanguage(title)).toBe(language);
  });
});

describe('cslFromCrossref', () => {
  const work = (fields: Partial<CrossrefWork>): CrossrefWork => ({ DOI: '10.1/x', title: ['A title'], ...fields });

  it('decodes entities in every text field and name', () => {
    const csl = cslFromCrossref(
      work({
        title: ['R&amp;D in <i>Salmonella</i>'],
        'container-title': ['Food &amp; Health'],
        publisher: 'Smith &amp; Sons',
        author: [{ given: 'J&#233;r&#244;me', family: 'O&apos;Neil' }, { name: 'Food &amp; Drug Administration' }],
        type: 'journal-article',
      }),
    );
    expect(csl).toMatchObject({
      title: 'R&D in <i><span class="nocase">Salmonella</span></i>',
      'container-title': 'Food & Health',
      publisher: 'Smith & Sons',
      author: [{ given: 'Jérôme', family: "O'Neil" }, { literal: 'Food & Drug Administration' }],
    });
  });

  it("puts a book's container in its series, and an encyclopedia entry deposited as a book in its reference work", () => {
    expect(cslFromCrossref(work({ type: 'book', 'container-title': ['Graduate Texts in Mathematics'] }))).toMatchObject({
      type: 'book',
      'collection-title': 'Graduate Texts in Mathematics',
    });
    expect(cslFromCrossref(work({ type: 'book', 'container-title': ['Graduate Texts in Mathematics'] }))).not.toHaveProperty(
      'container-title',
    );
    expect(cslFromCrossref(work({ type: 'book', 'container-title': ['Encyclopedia of Database Systems'] }))).toMatchObject({
      type: 'entry-encyclopedia',
      'container-title': 'Encyclopedia of Database Systems',
    });
    // A part with pages is in its container, whatever the container is called.
    expect(cslFromCrossref(work({ type: 'book', page: '1-20', 'container-title': ['Methods in Ecology'] }))).toMatchObject({
      type: 'chapter',
      'container-title': 'Methods in Ecology',
    });
    // A container that repeats the title is no series.
    expect(cslFromCrossref(work({ type: 'book', 'container-title': ['A title'] }))).not.toHaveProperty('collection-title');
  });

  it('labels posted content a preprint, and nothing else', () => {
    expect(cslFromCrossref(work({ type: 'posted-content' }))).toMatchObject({ type: 'article', genre: 'Preprint' });
    for (const type of ['journal-article', 'proceedings-article', 'book', 'report', 'dataset', 'other']) {
      expect(cslFromCrossref(work({ type })), type).not.toHaveProperty('genre');
    }
  });

  it("marks a non-English title's language", () => {
    expect(cslFromCrossref(work({ title: ['Die Entwicklung der Stadt und des Landes'] })).language).toBe('de');
    expect(cslFromCrossref(work({})).language).toBeUndefined();
  });
});
