/**
 * Hand-checked citations (test/fixtures/citations/hand-checked.json): real Crossref works of every class the
 * renderer treats differently, each rendered in the five formats and compared with what a reader of the style
 * guides checked. The expected values are the renderer's output; where that departs from the guide the
 * fixture says so per format (`deviates`), so that a change either way shows here. Besides the exact
 * outputs, each class's property is asserted on its own, so that a failure names the rule that broke.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { citableItem, cslFromCrossref } from '../../../lib/citations/model/csl.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { type CitationRenderer, citationRenderer } from '../../../lib/citations/render/render.js';
import { CITATION_FORMATS, type CitationFormat, type Citations } from '../../../lib/contract/cite-search.js';

interface FormatCheck {
  text?: string;
  html?: string;
  absent?: true;
  checked_against: string;
  deviates?: string;
}

interface HandChecked {
  id: string;
  source: { repository: string; commit: string; path: string } | { constructed: string };
  classes: string[];
  note?: string;
  work: CrossrefWork;
  formats: Record<CitationFormat, FormatCheck>;
}

const { records } = JSON.parse(readFileSync(new URL('../../fixtures/citations/hand-checked.json', import.meta.url), 'utf8')) as {
  records: HandChecked[];
};

const record = (id: string): HandChecked => {
  const found = records.find((each) => each.id === id);
  if (!found) throw new Error(`no hand-checked record ${id}`);
  return found;
};
const withClass = (name: string) => records.filter((each) => each.classes.some((c) => c === name || c.startsWith(`${name}:`)));

let renderer: CitationRenderer;
const rendered = new Map<string, { text: Citations; html: Citations }>();
const text = (id: string) => rendered.get(id)?.text ?? {};
const html = (id: string) => rendered.get(id)?.html ?? {};

// Building the five styles takes seconds of CPU, many more on a busy machine.
beforeAll(async () => {
  renderer = await citationRenderer();
  for (const each of records) {
    const item = citableItem(cslFromCrossref(each.work));
    rendered.set(each.id, { text: renderer.render(item, 'text'), html: renderer.render(item, 'html') });
  }
}, 180_000);

/** HTML as citeproc escapes text: "&" as "&#38;". */
const escaped = (plain: string) => plain.replace(/&/g, '&#38;');

describe('the hand-checked fixture', () => {
  it('holds at least 20 records, most of them real Crossref records, each with its provenance and a check per format', () => {
    expect(records.length).toBeGreaterThanOrEqual(20);
    const real = records.filter((each) => 'repository' in each.source);
    expect(real.length).toBeGreaterThan(records.length / 2);
    for (const each of records) {
      if ('repository' in each.source) {
        expect(each.source.commit, each.id).toMatch(/^[0-9a-f]{40}$/);
        expect(each.source.path, each.id).not.toBe('');
      } else {
        expect(each.source.constructed.length, each.id).toBeGreaterThan(20);
      }
      expect(each.classes.length, each.id).toBeGreaterThan(0);
      for (const format of CITATION_FORMATS) {
        const check = each.formats[format];
        expect(check.checked_against.length, `${each.id} ${format}`).toBeGreaterThan(10);
        expect(check.absent === true || typeof check.text === 'string', `${each.id} ${format}`).toBe(true);
      }
      expect(typeof each.formats.APA.html === 'string' || each.formats.APA.absent, each.id).toBe(true);
      expect(typeof each.formats.MLA.html === 'string' || each.formats.MLA.absent, each.id).toBe(true);
    }
    expect(new Set(records.map((each) => each.id)).size).toBe(records.length);
  });

  it('covers every class the renderer treats differently', () => {
    for (const name of [
      'journal-article',
      'html-entity',
      'species-italics',
      'non-english',
      'book-in-series',
      'edited-book',
      'chapter-in-edited-book',
      'proceedings-paper',
      'encyclopedia-entry-as-book',
      'reference-entry',
      'preprint',
      'dissertation',
      'report',
      'dataset',
      'corporate-author',
      'many-authors-21',
    ]) {
      expect(withClass(name).length, name).toBeGreaterThan(0);
    }
    const publishers = new Set(withClass('publisher').flatMap((each) => each.classes.filter((c) => c.startsWith('publisher:'))));
    expect(publishers.size).toBeGreaterThanOrEqual(4);
  });
});

describe.each(records.map((each) => [each.id, each] as const))('%s', (id, each) => {
  it.each(CITATION_FORMATS.map((format) => [format] as const))('%s text is as hand-checked', (format) => {
    const check = each.formats[format];
    if (check.absent) expect(text(id)[format]).toBeUndefined();
    else expect(text(id)[format]).toBe(check.text);
  });

  it.each(CITATION_FORMATS.filter((format) => each.formats[format].html !== undefined).map((format) => [format] as const))(
    '%s HTML is as hand-checked',
    (format) => {
      expect(html(id)[format]).toBe(each.formats[format].html);
    },
  );
});

describe('class properties', () => {
  it('no entity is left encoded: no "&amp;" (or any named entity) in any text, and HTML escapes "&" once', () => {
    for (const each of records) {
      for (const format of CITATION_FORMATS) {
        expect(text(each.id)[format] ?? '', `${each.id} ${format}`).not.toMatch(/&(?:amp|lt|gt|quot|#\d+);/);
        expect(html(each.id)[format] ?? '', `${each.id} ${format}`).not.toMatch(/&amp;|&#38;amp;|&#38;#/);
      }
    }
    for (const each of withClass('html-entity')) {
      for (const format of CITATION_FORMATS) expect(text(each.id)[format], `${each.id} ${format}`).toContain(' & ');
    }
  });

  it('APA and MLA HTML italicise the journal; APA the volume too', () => {
    for (const each of records.filter((r) => r.work.type === 'journal-article')) {
      const journal = escaped(each.work['container-title']?.[0]?.replace(/&amp;/g, '&') ?? '');
      expect(html(each.id).APA, each.id).toContain(`<i>${journal}</i>, <i>${each.work.volume}</i>`);
      expect(html(each.id).MLA, each.id).toContain(`<i>${journal}</i>, vol. ${each.work.volume}`);
    }
  });

  it('a species name set in italics stays italic in HTML and keeps its lower-case epithet under title case', () => {
    const peerj = record('peerj-species-italics');
    for (const format of ['APA', 'MLA'] as const) {
      expect(html(peerj.id)[format]).toContain('<i>Phragmites australis</i>');
    }
    for (const format of ['MLA', 'Chicago'] as const) {
      expect(text(peerj.id)[format]).toContain('Phragmites australis (Common Reed)');
    }
    // The tags stood for the spaces the publisher left out.
    const hindawi = record('hindawi-species-no-spaces');
    expect(text(hindawi.id).APA).toContain('Activity of Anthocephalus indicus Root');
    expect(html(hindawi.id).MLA).toContain('of <i>Anthocephalus indicus</i> Root');
  });

  it('a non-English title is written as deposited in MLA and Chicago, never title-cased', () => {
    const nonEnglish = withClass('non-english').filter((each) => each.work.type === 'journal-article');
    expect(nonEnglish.length).toBeGreaterThanOrEqual(4);
    for (const each of nonEnglish) {
      const title = each.work.title?.[0] ?? '';
      for (const format of ['MLA', 'Chicago'] as const) {
        expect(text(each.id)[format], `${each.id} ${format}`).toContain(`“${title}.”`);
      }
    }
    // The German book's title keeps its lower-case words too ("der", "forstlichen").
    const book = record('book-in-series-german');
    expect(text(book.id).Chicago).toContain(book.work.title?.[0]);
  });

  it('Cite Them Right uses en-GB punctuation: an article title in single quotation marks, the comma outside them', () => {
    for (const each of records.filter((r) => r.work.type === 'journal-article')) {
      const harvard = text(each.id).Harvard ?? '';
      expect(harvard, each.id).toMatch(/\(\d{4}\) ‘.+’, /);
      expect(harvard, each.id).not.toMatch(/[“”]|,’/);
    }
  });

  it('a book in a series is a book: the series named, never "In" it as a chapter', () => {
    for (const each of withClass('book-in-series').filter((r) => r.work.type === 'book')) {
      const series = each.work['container-title']?.[0] ?? '';
      for (const format of CITATION_FORMATS) {
        const entry = text(each.id)[format] ?? '';
        expect(entry, `${each.id} ${format}`).not.toMatch(/\bIn:? /);
        expect(entry, `${each.id} ${format}`).not.toMatch(/\bpp?\. /);
      }
      for (const format of ['MLA', 'Chicago', 'Harvard', 'Vancouver'] as const) {
        expect(text(each.id)[format], `${each.id} ${format}`).toContain(series);
      }
      // APA gives no series; the series is never set in italics as if it were the book.
      expect(text(each.id).APA).not.toContain(series);
      expect(html(each.id).MLA).not.toContain(`<i>${series}</i>`);
    }
    // A chapter's second container is its book's series: named, while the chapter is "In" the book.
    const chapter = record('chapter-in-book-in-series');
    expect(text(chapter.id).APA).toContain('In Next Generation DNA Led Technologies (pp. 135–140).');
    expect(text(chapter.id).Chicago).toContain('SpringerBriefs in Applied Sciences and Technology');
  });

  it('only a preprint carries "Preprint"', () => {
    for (const each of records) {
      const preprint = each.classes.includes('preprint');
      for (const format of ['MLA', 'APA', 'Chicago', 'Vancouver'] as const) {
        expect(text(each.id)[format]?.includes('Preprint') ?? false, `${each.id} ${format}`).toBe(preprint);
      }
      // Cite Them Right labels no journal article without volume and pages (and, lacking a container, not
      // even the preprint: a recorded deviation).
      expect(text(each.id).Harvard ?? '', each.id).not.toContain('Preprint');
    }
    expect(text('biorxiv-preprint').APA).toContain('[Preprint]');
  });

  it('an encyclopedia entry deposited as a book is an entry in its encyclopedia', () => {
    const entry = record('encyclopedia-entry-deposited-as-book');
    expect(html(entry.id).APA).toContain('Climate Change Adaptation. In <i>Oxford Research Encyclopedia of Climate Science</i>.');
    expect(html(entry.id).MLA).toContain('“Climate Change Adaptation.” <i>Oxford Research Encyclopedia of Climate Science</i>,');
  });

  it('Chicago renders nothing for an author-less reference entry; the other formats do', () => {
    const entry = record('reference-entry-no-author');
    expect(text(entry.id).Chicago).toBeUndefined();
    expect(Object.keys(text(entry.id)).sort()).toEqual(['APA', 'Harvard', 'MLA', 'Vancouver']);
  });

  it('an organisation author is written as its name, never inverted', () => {
    expect(text('corporate-author-plos').APA).toMatch(/^The PLOS ONE Staff\. \(2018\)/);
    expect(text('corporate-author-plos').Vancouver).toMatch(/^The PLOS ONE Staff\. Correction/);
    expect(text('report-corporate-author').MLA).toMatch(/^Geological Survey of Canada\. /);
  });

  it('many authors: APA lists 19, an ellipsis and the last; Vancouver six and et al.; Chicago three and et al.; MLA one', () => {
    for (const id of ['many-authors-21', 'many-authors-71-collaboration']) {
      const authors = record(id).work.author ?? [];
      const apa = text(id).APA ?? '';
      const [listed = '', last = ''] = apa.split(' … ');
      expect(listed.split(/\., /).length, id).toBe(19);
      const final = authors.at(-1);
      expect(last, id).toMatch(new RegExp(`^${final?.family ?? final?.name}`));
      expect(text(id).Vancouver?.split(', et al.')[0]?.split(', ').length, id).toBe(6);
      expect(text(id).Chicago, id).toMatch(/^[^,]+, [^,]+, [^,]+, [^,]+, et al\. /);
      expect(text(id).MLA, id).toMatch(/^[^,]+, [^,]+, et al\. /);
    }
  });

  it('every recorded deviation names what the guide wants', () => {
    const deviations = records.flatMap((each) =>
      CITATION_FORMATS.flatMap((format) => (each.formats[format].deviates ? [each.formats[format].deviates] : [])),
    );
    expect(deviations.length).toBeGreaterThan(0);
    for (const deviation of deviations) expect(deviation?.length).toBeGreaterThan(20);
  });
});
