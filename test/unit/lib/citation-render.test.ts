/**
 * The five citation formats rendered locally (lib/citations/render/render.ts) from recorded Crossref works, the
 * shipped CSL styles (the pace of the record sources: pace.test.ts).
 */
import { readFileSync } from 'node:fs';
import CSL from 'citeproc';
import { beforeAll, describe, expect, it } from 'vitest';
import { bestMatch } from '../../../lib/citations/match/match.js';
import { citableItem, cslFromCrossref } from '../../../lib/citations/model/csl.js';
import { parseScholarSummary } from '../../../lib/citations/model/scholar.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { unindexedMacroLookup } from '../../../lib/citations/render/citeproc-macro-index.js';
import {
  type CitationRenderer,
  citationRenderer,
  forOneEntry,
  labelsOnlyPreprints,
  styleSources,
  tidy,
} from '../../../lib/citations/render/render.js';
import { PINNED_FILES } from '../../../lib/citations/render/styles/pack-write.js';
import { CITATION_FORMATS } from '../../../lib/contract/cite-search.js';
import { citeReplay } from '../../../lib/local/replay-cite.js';
import { crossrefRecording } from '../../../lib/local/replay-crossref.js';

const works = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items;
const sideBySide = JSON.parse(
  readFileSync(new URL('../../fixtures/citations/iron-oxides-side-by-side.json', import.meta.url), 'utf8'),
) as { record: Parameters<CitationRenderer['render']>[0]; index: object; local: object };

let renderer: CitationRenderer;
// Seconds of CPU, many more on a busy machine: a limit of its own, so that no verdict depends on speed.
beforeAll(async () => {
  renderer = await citationRenderer();
}, 180_000);

describe('the shipped CSL styles', () => {
  it('are what the renderer builds: the pinned texts of the style pack, exactly as in their files', async () => {
    const sources = await styleSources();
    const file = (name: string) => readFileSync(new URL(`../../../lib/citations/render/styles/${name}`, import.meta.url), 'utf8');
    expect(sources.MLA).toBe(file(PINNED_FILES.styles.mla));
    expect(sources.Chicago).toBe(file(PINNED_FILES.styles.chicago));
  });

  it.each(Object.values(PINNED_FILES.styles))('%s keeps its metadata: title, authors, CC BY-SA 3.0 rights', (file) => {
    const xml = readFileSync(new URL(`../../../lib/citations/render/styles/${file}`, import.meta.url), 'utf8');
    expect(xml).toMatch(/<title>[^<]+<\/title>/);
    expect(xml).toMatch(/<author>\s*<name>[^<]+<\/name>/);
    expect(xml).toContain('<rights license="http://creativecommons.org/licenses/by-sa/3.0/">');
  });
});

describe('forOneEntry', () => {
  it('leaves each style one bibliography without sort keys and a one-variable citation, the rest unchanged', async () => {
    for (const [format, xml] of Object.entries(await styleSources())) {
      const trimmed = forOneEntry(xml);
      expect(trimmed.match(/<citation\b[\s\S]*?<\/citation>/g), format).toEqual([
        '<citation><layout><text variable="title"/></layout></citation>',
      ]);
      const bibliography = /<bibliography\b[\s\S]*<\/bibliography>/.exec(trimmed)?.[0] ?? '';
      expect(bibliography, format).toContain('<layout');
      expect(bibliography, format).not.toContain('<sort>');
      // Everything outside the two elements (macros, locale terms, options) is as published.
      const outside = (text: string) =>
        text.replace(/<citation\b[\s\S]*?<\/citation>|<bibliography\b[\s\S]*<\/bibliography>/g, '');
      expect(outside(trimmed), format).toBe(outside(xml));
    }
  });
});

describe('citationRenderer', () => {
  it('builds its engines once per container', async () => {
    expect(await citationRenderer()).toBe(renderer);
  });

  it('renders exactly what the unchanged styles render (no trimmed style, no macro index), for 60 works of every recorded type', () => {
    const golden = JSON.parse(
      readFileSync(new URL('../../fixtures/citations/rendered-by-unchanged-styles.json', import.meta.url), 'utf8'),
    ) as { works: { doi: string; citations: Record<string, string> }[] };
    const fixture = <T>(path: string) =>
      JSON.parse(readFileSync(new URL(`../../fixtures/crossref/${path}`, import.meta.url), 'utf8')) as T;
    // The first recording of a DOI: the later files hold some of the same works trimmed.
    const recorded = new Map<string, CrossrefWork>();
    for (const work of [
      ...works,
      ...fixture<{ works: { work: CrossrefWork }[] }>('works-reference-matcher.json').works.map(({ work }) => work),
      ...fixture<{ items: CrossrefWork[] }[]>('recorded-answers-items.json').flatMap((answer) => answer.items),
    ]) {
      if (!recorded.has(work.DOI)) recorded.set(work.DOI, work);
    }
    expect(golden.works).toHaveLength(60);
    for (const { doi, citations } of golden.works) {
      const work = recorded.get(doi);
      expect(work, doi).toBeDefined();
      let rendered: Record<string, string>;
      try {
        rendered = renderer.render(citableItem(cslFromCrossref(work as CrossrefWork))) as Record<string, string>;
      } catch (error) {
        rendered = { error: String(error) };
      }
      expect(rendered, doi).toEqual(citations);
    }
  });

  it("finds each macro of every style through its index exactly as citeproc's own walk of the style finds it", () => {
    const walk = unindexedMacroLookup(CSL);
    expect(walk, 'the index is in place once the renderer is built').toBeDefined();
    type Xml = { dataObj: object; getNodesByName(node: object, name: string, attribute?: string): { attrs: { name: string } }[] };
    const engines = Object.values(renderer.engines ?? {}) as unknown as { cslXml: Xml }[];
    expect(engines).toHaveLength(CITATION_FORMATS.length);
    let macros = 0;
    for (const { cslXml } of engines) {
      const walked = (name?: string) => walk?.call(cslXml as never, cslXml.dataObj, 'macro', name) ?? [];
      for (const name of new Set(walked().map((macro) => macro.attrs?.name))) {
        const indexed = cslXml.getNodesByName(cslXml.dataObj, 'macro', name);
        const expected = walked(name);
        expect(indexed.length, name).toBe(expected.length);
        for (const [i, node] of indexed.entries()) expect(node, name).toBe(expected[i]);
        macros += 1;
      }
    }
    expect(macros).toBeGreaterThan(100);
  });

  it("changes one thing in a published style: Cite Them Right's preprint label, and only there", async () => {
    const sources = await styleSources();
    for (const format of CITATION_FORMATS) {
      const changed = labelsOnlyPreprints(sources[format]);
      if (format === 'Harvard') {
        expect(changed).not.toBe(sources[format]);
        expect(changed.replace('<if type="article" match="any"><choose><if match="none" variable="page volume">', '')).toBe(
          sources[format].replace(
            '<if type="article article-journal" match="any"><choose><if match="none" variable="page volume">',
            '',
          ),
        );
      } else expect(changed).toBe(sources[format]);
    }
  });

  it('renders every recorded work in the five formats, each with its DOI and first author', () => {
    for (const work of works) {
      const citations = renderer.render(citableItem(cslFromCrossref(work)));
      expect(Object.keys(citations)).toEqual([...CITATION_FORMATS]);
      const family = work.author?.[0]?.family ?? work.author?.[0]?.name ?? '';
      for (const format of CITATION_FORMATS) {
        const text = citations[format] ?? '';
        expect(text.toLowerCase(), `${format} of ${work.DOI}`).toContain(work.DOI.toLowerCase());
        expect(text, `${format} of ${work.DOI}`).toContain(family);
        expect(text, `${format} of ${work.DOI}`).not.toMatch(/\n|^\d+\. /);
      }
    }
  });

  it('renders the recorded "Forecast trap" as each style writes a journal article', () => {
    const work = works.find((w) => w.DOI === '10.1111/ele.14024') as CrossrefWork;
    expect(renderer.render(citableItem(cslFromCrossref(work)))).toEqual({
      MLA: 'Boettiger, Carl. “The Forecast Trap.” Ecology Letters, vol. 25, no. 7, May 2022, pp. 1655–64, https://doi.org/10.1111/ele.14024.',
      APA: 'Boettiger, C. (2022). The forecast trap. Ecology Letters, 25(7), 1655–1664. https://doi.org/10.1111/ele.14024',
      Chicago:
        'Boettiger, Carl. “The Forecast Trap.” Ecology Letters 25, no. 7 (2022): 1655–64. https://doi.org/10.1111/ele.14024.',
      Harvard:
        'Boettiger, C. (2022) ‘The forecast trap’, Ecology Letters, 25(7), pp. 1655–1664. Available at: https://doi.org/10.1111/ele.14024.',
      Vancouver: 'Boettiger C. The forecast trap. Ecology Letters. 2022 May 30;25(7):1655–64. doi:10.1111/ele.14024',
    });
  });

  it("leaves out a journal's handling editor, whom Crossref lists as the article's editor", () => {
    const work = works.find((w) => w.DOI === '10.1111/ele.14024') as CrossrefWork;
    expect(work.editor?.[0]?.family).toBe('Munch');
    const withEditor = renderer.render(cslFromCrossref(work));
    expect(withEditor.MLA).toContain('edited by Stephan Munch');
    for (const text of Object.values(renderer.render(citableItem(cslFromCrossref(work))))) expect(text).not.toContain('Munch');
    // A book's editors are its editors, and stay.
    const book = { id: 'b', type: 'book', title: 'A book', editor: [{ family: 'Munch', given: 'Stephan' }] };
    expect(citableItem(book)).toEqual(book);
  });

  it("renders each paper on its own: another paper of the same author and year never changes it (no APA's 2022a)", () => {
    const work = works.find((w) => w.DOI === '10.1111/ele.14024') as CrossrefWork;
    const a = citableItem(cslFromCrossref(work));
    // The same author and year, another title: rendered together in one bibliography, APA would say 2022a/b.
    const b = { ...a, id: 'other', DOI: '10.1111/ele.00000', title: 'A forecast of traps' };
    const alone = renderer.render(a);
    renderer.render(b);
    expect(renderer.render(a)).toEqual(alone);
    expect(alone.APA).toContain('(2022)');
  });

  it("renders the side-by-side fixture as recorded beside the index's own answer", () => {
    expect(renderer.render(sideBySide.record)).toEqual(sideBySide.local);
    expect(Object.keys(sideBySide.index)).toEqual([...CITATION_FORMATS]);
  });

  it('leaves out each format citeproc cannot render, and renders nothing without a title, rather than an empty citation', () => {
    expect(renderer.render({ id: 'y', type: 'article-journal', author: [{ family: 'Doe' }] })).toEqual({});
    // A field of the wrong shape costs nothing but itself.
    expect(renderer.render({ id: 'x', type: 'article-journal', title: 'T', author: 'not a list' } as never).APA).toBe(
      '(n.d.). T.',
    );
  });

  it('leaves out only the format whose style renders nothing: Chicago for an author-less reference entry', () => {
    const entry = {
      id: 'e',
      type: 'entry-encyclopedia',
      title: 'Web widget',
      'container-title': 'Encyclopedia of Database Systems',
    };
    expect(Object.keys(renderer.render(entry))).toEqual(['MLA', 'APA', 'Harvard', 'Vancouver']);
  });

  it('writes HTML when asked: the journal in italics in APA, no wrapper element, characters escaped', () => {
    const work = works.find((w) => w.DOI === '10.1111/ele.14024') as CrossrefWork;
    const html = renderer.render(citableItem(cslFromCrossref(work)), 'html');
    expect(html.APA).toBe(
      'Boettiger, C. (2022). The forecast trap. <i>Ecology Letters</i>, <i>25</i>(7), 1655–1664. https://doi.org/10.1111/ele.14024',
    );
    for (const format of CITATION_FORMATS) expect(html[format]).not.toMatch(/<div|^\d+\. /);
    const ampersand = renderer.render(
      { id: 'a', type: 'article-journal', title: 'R&D', 'container-title': 'Food & Health' },
      'html',
    );
    expect(ampersand.APA).toContain('R&#38;D');
  });

  it('renders Cite Them Right with its British punctuation and every other style in US English', () => {
    const work = works.find((w) => w.DOI === '10.1111/ele.14024') as CrossrefWork;
    const citations = renderer.render(citableItem(cslFromCrossref(work)));
    expect(citations.Harvard).toContain('‘The forecast trap’, Ecology Letters');
    expect(citations.MLA).toContain('“The Forecast Trap.”');
    expect(citations.Chicago).toContain('“The Forecast Trap.”');
  });

  it('labels "[Preprint]" what is a preprint, and no journal article that lacks volume and pages', () => {
    const article = {
      id: 'n',
      type: 'article-journal',
      title: 'A news item',
      author: [{ family: 'Doe', given: 'J.' }],
      'container-title': 'Nature',
      issued: { 'date-parts': [[2020]] },
    };
    for (const text of Object.values(renderer.render(article))) expect(text).not.toMatch(/preprint/i);
    const preprint = { ...article, type: 'article', genre: 'Preprint', 'container-title': 'bioRxiv' };
    const rendered = renderer.render(preprint);
    expect(rendered.APA).toContain('[Preprint]');
    expect(rendered.Harvard).toContain('[Preprint]');
  });

  it('keeps the case of a non-English title and of what the publisher set in italics', () => {
    const german = renderer.render(
      cslFromCrossref({
        DOI: '10.1/d',
        type: 'journal-article',
        title: ['Die Entwicklung der Stadt und des Landes'],
        author: [{ family: 'Müller', given: 'Karl' }],
        'container-title': ['Zeitschrift'],
        issued: { 'date-parts': [[2001]] },
      }),
    );
    expect(german.MLA).toContain('Die Entwicklung der Stadt und des Landes');
    const species = renderer.render(
      cslFromCrossref({
        DOI: '10.1/s',
        type: 'journal-article',
        title: ['Resistance of<i>Salmonella enterica</i>from poultry'],
        author: [{ family: 'Doe', given: 'Jane' }],
        'container-title': ['Food'],
        issued: { 'date-parts': [[2001]] },
      }),
    );
    expect(species.MLA).toContain('Resistance of Salmonella enterica from Poultry');
    expect(
      renderer.render(
        cslFromCrossref({
          DOI: '10.1/s',
          type: 'journal-article',
          title: ['Resistance of<i>Salmonella enterica</i>from poultry'],
          author: [{ family: 'Doe', given: 'Jane' }],
          'container-title': ['Food'],
          issued: { 'date-parts': [[2001]] },
        }),
        'html',
      ).MLA,
    ).toContain('<i>Salmonella enterica</i>');
  });
});

describe('tidy', () => {
  it("drops citeproc's line break, and Vancouver's list number only", () => {
    expect(tidy('1. Boettiger C. The forecast trap.\n', 'Vancouver')).toBe('Boettiger C. The forecast trap.');
    expect(tidy('1. Boettiger C. The forecast trap.\n', 'APA')).toBe('1. Boettiger C. The forecast trap.');
  });
});

describe("the demo's citation search", () => {
  it('gives a cite call the recorded answer only for the paper it was recorded for, else no citations', () => {
    const cite = (q: string) => JSON.parse(citeReplay(new URLSearchParams({ engine: 'google_scholar_cite', q })) ?? 'null');
    expect(cite('FDc6HiktlqEJ').citations[0].snippet).toContain('Iron oxides');
    expect(cite('dyZ4bDycdLQJ')).toMatchObject({ citations: [], links: [] });
  });

  it('answers a search naming a recorded author with papers that each match their own recorded Crossref work', () => {
    const page = JSON.parse(citeReplay(new URLSearchParams({ engine: 'google_scholar', q: 'Boettiger ecology' })) ?? 'null');
    expect(page.organic_results.length).toBe(10);
    for (const paper of page.organic_results) {
      const match = bestMatch(parseScholarSummary(paper.title, paper.publication_info.summary), works);
      expect(match?.work.URL, paper.title).toBe(paper.link);
    }
    expect(citeReplay(new URLSearchParams({ engine: 'google_scholar', q: 'bananas' }))).toBeUndefined();
  });
});
