/**
 * CSL-JSON records from recorded Crossref works and from the recorded scholarly-index page, and the
 * BibTeX and RIS rendered from them, read back with citation-js's own BibTeX and RIS input plugins: what a
 * reference manager imports must be the paper we meant.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CslItem, cslFromCrossref, cslFromScholar, plainText, withSubtitle } from '../../../lib/citations/csl.js';
import { citationKey, loadCitationJs, renderExports } from '../../../lib/citations/exports.js';
import { type CrossrefWork, parseScholarSummary } from '../../../lib/citations/match.js';
import { addExports } from '../../../lib/citations/paper-exports.js';
import type { CiteSearchData } from '../../../lib/contract/cite-search.js';
import { crossrefRecording } from '../../../lib/local/replay-crossref.js';
import { sample } from '../../../lib/local/samples.js';
import { EARLY_WARNING_CSL } from '../../fixtures/csl-items.js';

const works = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items;
const scholarResults = sample('google_scholar').organic_results as {
  title: string;
  result_id: string;
  link: string;
  publication_info: { summary: string };
}[];

/** What a reference manager keys a record on: title, authors, year, DOI. */
function essentials(item: Record<string, unknown>) {
  type Person = { family?: string; given?: string; literal?: string; 'non-dropping-particle'?: string };
  const people = (item.author as Person[] | undefined) ?? [];
  // BibTeX reads "de Valpine, Perry" as the particle "de" and the family name "Valpine": one name still.
  const family = (person: Person) => [person['non-dropping-particle'], person.family].filter(Boolean).join(' ');
  return {
    title: item.title,
    authors: people.map((person) => person.literal ?? `${family(person)}, ${person.given ?? ''}`.trim()),
    year: (item.issued as { 'date-parts': number[][] } | undefined)?.['date-parts'][0]?.[0],
    doi: typeof item.DOI === 'string' ? item.DOI.toLowerCase() : undefined,
  };
}

async function readBack(text: string): Promise<Record<string, unknown>> {
  const Cite = await loadCitationJs();
  const parsed = new Cite(text).data;
  expect(parsed).toHaveLength(1);
  return parsed[0] as Record<string, unknown>;
}

describe('BibTeX and RIS read back with citation-js', () => {
  it.each(works.map((work) => [work.DOI, work] as const))('keep title, authors, year and DOI of %s', async (_doi, work) => {
    const csl = cslFromCrossref(work);
    const rendered = await renderExports(csl, ['csl-json', 'bibtex', 'ris']);
    expect(rendered.csl_json).toEqual(csl);
    expect(rendered.bibtex).toMatch(/^@\w+\{/);
    expect(rendered.ris).toMatch(/^TY {2}- /);
    const expected = essentials(csl);
    expect(essentials(await readBack(rendered.bibtex ?? ''))).toEqual(expected);
    expect(essentials(await readBack(rendered.ris ?? ''))).toEqual(expected);
  });

  it("keep title, authors and year of the index's own data when no Crossref work matched", async () => {
    for (const result of scholarResults) {
      const csl = cslFromScholar(
        result.result_id,
        parseScholarSummary(result.title, result.publication_info.summary),
        result.link,
      );
      const rendered = await renderExports(csl, ['bibtex', 'ris']);
      const expected = essentials(csl);
      expect(expected.authors.length).toBeGreaterThan(0);
      expect(expected.year).toBeGreaterThan(1900);
      expect(essentials(await readBack(rendered.bibtex ?? ''))).toEqual(expected);
      expect(essentials(await readBack(rendered.ris ?? ''))).toEqual(expected);
    }
  });
});

/** Every entry citation-js's BibTeX parser reads from `text`, and the keys it finds them under. */
async function readAll(text: string): Promise<Record<string, unknown>[]> {
  const Cite = await loadCitationJs();
  return new Cite(text).data as Record<string, unknown>[];
}

/** The key of a single BibTeX entry: what follows "@type{" up to the comma. */
function keyOf(bibtex: string | undefined): string | undefined {
  return bibtex?.match(/^@\w+\{([^,]*),/)?.[1];
}

describe('renderExports', () => {
  it('renders only the formats asked for', async () => {
    const csl: CslItem = { id: 'x', type: 'document', title: 'T' };
    expect(Object.keys(await renderExports(csl, ['ris']))).toEqual(['ris']);
    expect(Object.keys(await renderExports(csl, ['csl-json']))).toEqual(['csl_json']);
  });

  it("keys the BibTeX entry as asked, else by the id made safe, never by citation-js's own guess", async () => {
    const csl: CslItem = { id: '10.1007/s12080-013-0192-6', type: 'document', title: 'T' };
    expect(keyOf((await renderExports(csl, ['bibtex'], 'abc_DEF')).bibtex)).toBe('abc_DEF');
    expect(keyOf((await renderExports(csl, ['bibtex'])).bibtex)).toBe('10_1007_s12080_013_0192_6');
    expect(keyOf((await renderExports({ ...csl, id: '' }, ['bibtex'])).bibtex)).toBe('paper');
  });

  it('writes hostile names, DOI and URL so that one entry reads back, and the entries after it too', async () => {
    const hostile: CslItem = {
      id: 'hostile',
      type: 'article-journal',
      title: 'A {lone brace',
      author: [
        { family: '{' },
        { family: 'Smith}', given: 'J{' },
        { literal: 'Open {Science' },
        { family: 'Back\\', given: 'S' },
      ],
      editor: [{ family: '}' }],
      issued: { 'date-parts': [[2020]] },
      DOI: '10.1/x}',
      URL: 'https://doi.org/10.1/x}',
    };
    const rendered = await renderExports(hostile, ['csl-json', 'bibtex', 'ris']);
    expect(rendered.csl_json).toEqual(hostile);
    expect(rendered.render_error).toBeUndefined();
    // The name that was only a brace is gone; the DOI keeps its brace percent-encoded, as doi.org reads it.
    expect(await readBack(rendered.bibtex ?? '')).toMatchObject({
      title: 'A {lone brace',
      author: [{ family: 'Smith', given: 'J' }, { family: 'Open Science' }, { family: 'Back', given: 'S' }],
      issued: { 'date-parts': [[2020]] },
      DOI: '10.1/x%7D',
      URL: 'https://doi.org/10.1/x%7D',
    });
    // Every brace the file holds is one of a pair, as BibTeX itself counts them (escaped or not).
    const braces = [...(rendered.bibtex ?? '')].filter((char) => char === '{' || char === '}');
    let depth = 0;
    for (const brace of braces) {
      depth += brace === '{' ? 1 : -1;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);

    const plainItem = (await renderExports({ id: 'after', type: 'document', title: 'After' }, ['bibtex'])).bibtex;
    const file = [rendered.bibtex, plainItem].join('\n\n');
    expect((await readAll(file)).map((entry) => entry.title)).toEqual(['A {lone brace', 'After']);
  });

  it('leaves out only the format citation-js rejects, and says so; the CSL-JSON record is kept', async () => {
    // citation-js's BibTeX writer calls string methods on every name; its RIS writer does not.
    const rejected = { id: 'bad', type: 'document', title: 'Numbers for names', author: [{ literal: 5 }] } as CslItem;
    const rendered = await renderExports(rejected, ['csl-json', 'bibtex', 'ris']);
    expect(rendered.csl_json).toEqual(rejected);
    expect(rendered).not.toHaveProperty('bibtex');
    expect(rendered.ris).toContain('TI  - Numbers for names');
    expect(rendered.render_error).toBe('The record could not be rendered as BibTeX');
  });
});

describe('citationKey', () => {
  it('keeps letters, digits and underscores, and makes every other run one underscore', () => {
    expect(citationKey('U8rVlcvQXBYJ')).toBe('U8rVlcvQXBYJ');
    expect(citationKey('a-b c}d{')).toBe('a_b_c_d');
    expect(citationKey('{}')).toBe('');
  });
});

describe('loadCitationJs', () => {
  afterEach(() => {
    vi.doUnmock('@citation-js/plugin-ris');
    vi.resetModules();
  });

  it('tries again after a failed load instead of keeping the failure; until then exports say why they are missing', async () => {
    vi.resetModules();
    vi.doMock('@citation-js/plugin-ris', () => {
      throw new Error('chunk could not be read');
    });
    const fresh = await import('../../../lib/citations/exports.js');
    await expect(fresh.loadCitationJs()).rejects.toThrow();
    const csl: CslItem = { id: 'x', type: 'document', title: 'T' };
    expect(await fresh.renderExports(csl, ['csl-json', 'bibtex', 'ris'])).toEqual({
      csl_json: csl,
      render_error: 'The BibTeX and RIS renderer could not be loaded; try again',
    });

    vi.doUnmock('@citation-js/plugin-ris');
    const rendered = await fresh.renderExports(csl, ['bibtex', 'ris']);
    expect(rendered.render_error).toBeUndefined();
    expect(rendered.bibtex).toContain('title = {T}');
    expect(rendered.ris).toContain('TI  - T');
  });
});

describe('addExports', () => {
  it('marks each paper with its DOI and where its record comes from', async () => {
    const work = works.find((w) => w.DOI === '10.1111/ele.14024') as CrossrefWork;
    const base = { source_url: null, pdf_url: null, cited_by: 'Cited by 0', publication: null, snippet: null, citations: {} };
    const data = {
      papers: [
        { ...base, index: 1, title: 'The forecast trap', scholar_id: 'a' },
        { ...base, index: 2, title: 'Bananas and plantains', scholar_id: 'b' },
      ],
    } as unknown as CiteSearchData;
    const scholar = { title: 'Bananas and plantains', authors: [{ given: 'JC', family: 'Robinson' }], year: 2010, venue: null };
    const out = await addExports(
      data,
      ['bibtex'],
      [
        { scholar: { ...scholar, title: 'The forecast trap' }, record: { doi: work.DOI, csl: cslFromCrossref(work) } },
        { scholar, record: { doi: null, reason: 'Crossref did not answer in time' } },
      ],
    );
    expect(out.papers[0]).toMatchObject({ doi: '10.1111/ele.14024', exports: { source: 'crossref', fallback_reason: null } });
    expect(out.papers[0]?.exports?.bibtex).toContain('10.1111/ele.14024');
    expect(out.papers[1]).toMatchObject({
      doi: null,
      exports: { source: 'scholar', fallback_reason: 'Crossref did not answer in time' },
    });
    expect(out.papers[1]?.exports?.bibtex).toContain('Robinson, JC');
    expect(out.papers[1]?.exports).not.toHaveProperty('ris');
    expect(out.papers.map((paper) => keyOf(paper.exports?.bibtex))).toEqual(['a', 'b']);
  });

  it('gives every entry its own key: author-less papers, an empty scholar id and ids alike once made safe', async () => {
    const base = { source_url: null, pdf_url: null, cited_by: null, publication: null, snippet: null, citations: {} };
    const ids = ['x-1', 'x-2', 'x_1', '', ''];
    const data = {
      papers: ids.map((scholar_id, i) => ({ ...base, index: i + 1, title: `Untitled ${i + 1}`, scholar_id })),
    } as unknown as CiteSearchData;
    const lookups = ids.map((_id, i) => ({
      scholar: { title: `Untitled ${i + 1}`, authors: [], year: null, venue: null },
      record: { doi: null, reason: 'The index gave no title and author to look the paper up by' },
    }));
    const out = await addExports(data, ['bibtex'], lookups);
    const keys = out.papers.map((paper) => keyOf(paper.exports?.bibtex));
    expect(keys).toEqual(['x_1', 'x_2', 'x_1_2', 'paper_4', 'paper_5']);
    // The same answer gets the same keys again: a re-export replaces entries rather than duplicating them.
    expect((await addExports(data, ['bibtex'], lookups)).papers.map((paper) => keyOf(paper.exports?.bibtex))).toEqual(keys);
    const file = out.papers.map((paper) => paper.exports?.bibtex).join('\n\n');
    expect((await readAll(file)).map((entry) => entry.title)).toEqual(ids.map((_id, i) => `Untitled ${i + 1}`));
  });

  it('answers for every paper when one record cannot be rendered: that paper loses its BibTeX, no other', async () => {
    const base = { source_url: null, pdf_url: null, cited_by: null, publication: null, snippet: null, citations: {} };
    const work = works.find((w) => w.DOI === '10.1111/ele.14024') as CrossrefWork;
    const rejected = { id: '10.1/bad', type: 'document', title: 'Numbers for names', author: [{ literal: 5 }] } as CslItem;
    const data = {
      papers: [
        { ...base, index: 1, title: 'Numbers for names', scholar_id: 'bad' },
        { ...base, index: 2, title: 'The forecast trap', scholar_id: 'good' },
      ],
    } as unknown as CiteSearchData;
    const scholar = { title: '', authors: [], year: null, venue: null };
    const out = await addExports(
      data,
      ['csl-json', 'bibtex'],
      [
        { scholar, record: { doi: '10.1/bad', csl: rejected } },
        { scholar, record: { doi: work.DOI, csl: cslFromCrossref(work) } },
      ],
    );
    expect(out.papers[0]).toMatchObject({
      doi: '10.1/bad',
      exports: {
        source: 'crossref',
        fallback_reason: null,
        csl_json: rejected,
        render_error: 'The record could not be rendered as BibTeX',
      },
    });
    expect(out.papers[0]?.exports).not.toHaveProperty('bibtex');
    expect(out.papers[1]?.exports?.bibtex).toContain('10.1111/ele.14024');
    expect(out.papers[1]?.exports).not.toHaveProperty('render_error');
  });
});
