/**
 * CSL-JSON records from recorded Crossref works and from the recorded scholarly-index page, and the
 * BibTeX and RIS rendered from them, read back with citation-js's own BibTeX and RIS input plugins: what a
 * reference manager imports must be the paper we meant. Then each rule the exports add to citation-js's
 * output, checked with Better BibTeX's parser (@retorquere/bibtex-parser) and the RIS tag lines: TeX
 * escaping, rich text, entry types and their fields, month macros, URLs, corporate names, RIS IDs, the
 * tags of a container and line breaks in RIS values. Each test fails when its rule is broken in exports.ts.
 */
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bibtexDoi, loadCitationJs, renderExports } from '../../../lib/citations/exports/exports.js';
import { citationKey, readableKey, uniqueKeys } from '../../../lib/citations/exports/keys.js';
import { AUTHORS_CUT, type CslItem, cslFromCrossref, type PaperRecord } from '../../../lib/citations/model/csl.js';
import { cslFromScholar, indexRecordOf } from '../../../lib/citations/model/index-record.js';
import { parseScholarSummary, type ScholarRecord } from '../../../lib/citations/model/scholar.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import type { SearchPaper } from '../../../lib/citations/search/paper.js';
import { addExports } from '../../../lib/citations/search/paper-exports.js';
import type { CiteSearchData } from '../../../lib/contract/cite-search.js';
import { crossrefRecording } from '../../../lib/local/replay-crossref.js';
import { sample } from '../../../lib/local/samples.js';
import { EXPORT_RECORDS } from '../../fixtures/export-records.js';

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
/** A paper of an answer as citation search carries it: the index's parsed summary, and what its lookup found. */
function searchPaper(
  listed: CiteSearchData['papers'][number] | undefined,
  scholar: ScholarRecord,
  record: PaperRecord,
): SearchPaper {
  const paper = listed as CiteSearchData['papers'][number];
  const facts = { summary: paper.publication, link: paper.source_url, profileAuthors: [], kind: null };
  return {
    listed: paper,
    facts,
    scholar,
    indexRecord: indexRecordOf(paper.scholar_id || 'paper', scholar, facts),
    doiCandidate: null,
    record,
  };
}

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
    const fresh = await import('../../../lib/citations/exports/exports.js');
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
        searchPaper(
          data.papers[0],
          { ...scholar, title: 'The forecast trap' },
          { doi: work.DOI, csl: cslFromCrossref(work), source: 'crossref' },
        ),
        searchPaper(data.papers[1], scholar, { doi: null, reason: 'Crossref did not answer in time' }),
      ],
    );
    expect(out.papers[0]).toMatchObject({ doi: '10.1111/ele.14024', exports: { source: 'crossref', fallback_reason: null } });
    expect(out.papers[0]?.exports?.bibtex).toContain('10.1111/ele.14024');
    expect(out.papers[1]).toMatchObject({
      doi: null,
      exports: { source: 'scholar', fallback_reason: 'Crossref did not answer in time' },
    });
    expect(out.papers[1]?.exports?.bibtex).toMatch(/Robinson, J\.? ?C/);
    expect(out.papers[1]?.exports).not.toHaveProperty('ris');
    // Readable keys, as reference managers make them: first author, year, first significant title word.
    expect(out.papers.map((paper) => keyOf(paper.exports?.bibtex))).toEqual(['boettiger2022forecast', 'robinson2010bananas']);
  });

  it('keys a record with no readable key by its scholar id, else its place, each its own: ids alike once made safe', async () => {
    const base = { source_url: null, pdf_url: null, cited_by: null, publication: null, snippet: null, citations: {} };
    const ids = ['x-1', 'x-2', 'x_1', '', ''];
    // Author-less, and titles with no ASCII letter: nothing to make a readable key of.
    const data = {
      papers: ids.map((scholar_id, i) => ({ ...base, index: i + 1, title: `无题 ${i + 1}`, scholar_id })),
    } as unknown as CiteSearchData;
    const lookups = ids.map((_id, i) =>
      searchPaper(
        data.papers[i],
        { title: `无题 ${i + 1}`, authors: [], year: null, venue: null },
        { doi: null, reason: 'The index gave no title and author to look the paper up by' },
      ),
    );
    const out = await addExports(data, ['bibtex'], lookups);
    const keys = out.papers.map((paper) => keyOf(paper.exports?.bibtex));
    expect(keys).toEqual(['x_1', 'x_2', 'x_1a', 'paper_4', 'paper_5']);
    // The same answer gets the same keys again: a re-export replaces entries rather than duplicating them.
    expect((await addExports(data, ['bibtex'], lookups)).papers.map((paper) => keyOf(paper.exports?.bibtex))).toEqual(keys);
    const file = out.papers.map((paper) => paper.exports?.bibtex).join('\n\n');
    expect((await readAll(file)).map((entry) => entry.title)).toEqual(ids.map((_id, i) => `无题 ${i + 1}`));
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
        searchPaper(data.papers[0], scholar, { doi: '10.1/bad', csl: rejected, source: 'crossref' }),
        searchPaper(data.papers[1], scholar, { doi: work.DOI, csl: cslFromCrossref(work), source: 'crossref' }),
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

/** One constructed record by its key (test/fixtures/export-records.ts). */
function record(key: string): CslItem {
  const found = EXPORT_RECORDS.find((entry) => entry.key === key);
  if (!found) throw new Error(`no record ${key}`);
  return found.csl;
}

/** A BibTeX entry as Better BibTeX's parser reads it: its type and its fields, LaTeX turned into text. */
function bibtexFields(bibtex: string | undefined) {
  const library = parseBibtex(bibtex ?? '', { english: false });
  expect(library.errors).toEqual([]);
  expect(library.entries).toHaveLength(1);
  const [entry] = library.entries;
  return { type: entry?.type, fields: (entry?.fields ?? {}) as { [field: string]: unknown } };
}

/** RIS text as tag lines; every line must be one (`TY  - JOUR`). */
function risTags(ris: string | undefined): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const line of (ris ?? '').split('\n')) {
    const found = /^([A-Z][A-Z0-9]) {2}- ?(.*)$/.exec(line);
    if (!found) throw new Error(`not an RIS line: ${JSON.stringify(line)}`);
    const [, tag, value] = found as unknown as [string, string, string];
    tags.set(tag, [...(tags.get(tag) ?? []), value]);
  }
  return tags;
}

describe('BibTeX for TeX and reference managers', () => {
  it.each([
    ['&', '\\&'],
    ['%', '\\%'],
    ['$', '\\$'],
    ['#', '\\#'],
    ['_', '\\_'],
    ['~', '\\textasciitilde{}'],
    ['^', '\\textasciicircum{}'],
    ['\\', '\\textbackslash{}'],
    ['{', '\\textbraceleft{}'],
    ['}', '\\textbraceright{}'],
    ['<', '\\textless{}'],
    ['>', '\\textgreater{}'],
  ])('escapes %s in text as %s, and a BibTeX parser reads the character back', async (char, escaped) => {
    const csl: CslItem = { id: 'x', type: 'book', title: `a${char}b`, publisher: `p${char}q`, 'collection-title': `s${char}t` };
    const { bibtex } = await renderExports(csl, ['bibtex']);
    expect(bibtex).toContain(`a${escaped}b`);
    expect(bibtex).toContain(`publisher = {p${escaped}q}`);
    const { fields } = bibtexFields(bibtex);
    expect(fields.title).toBe(`a${char}b`);
    expect(fields.publisher).toEqual([`p${char}q`]);
    expect(fields.series).toBe(`s${char}t`);
  });

  it('writes CSL rich text as LaTeX: italics, bold, sub- and superscripts, small capitals, nocase', async () => {
    const { bibtex } = await renderExports(record('journal_article'), ['bibtex']);
    const title = /\ttitle = \{(.*)\},$/m.exec(bibtex ?? '')?.[1];
    expect(title).toBe(
      '\\textit{{{Salmonella} enterica}} in {H}\\textsubscript{2}{O} at 10\\textsuperscript{3} {K}: \\textbf{bold} \\textsc{{Nasa}} and {van der waals}',
    );
    expect(bibtexFields(bibtex).fields.title).toBe(
      '<i>Salmonella enterica</i> in H₂O at 10³ K: <b>bold</b> <span style="font-variant:small-caps;">Nasa</span> and van der waals',
    );
  });

  it('writes rich text in containers and series too, and keeps an unpaired tag as text', async () => {
    const chapter = { ...record('book_chapter'), title: 'a <i>b and c</b> d <b>e' };
    const { bibtex } = await renderExports(chapter, ['bibtex']);
    expect(bibtex).toContain('booktitle = {Handbook of \\textit{{Enzymes}}}');
    expect(bibtex).toContain(
      'title = {a \\textless{}i\\textgreater{}b and c\\textless{}/b\\textgreater{} d \\textless{}b\\textgreater{}e}',
    );
    const { bibtex: series } = await renderExports(record('book_in_series'), ['bibtex']);
    expect(series).toContain('series = {Lecture {Notes} in \\textit{{Mathematics}}}');
  });

  it('writes a book in a series as @book with `series`, and the series an older record gives as container', async () => {
    const { type, fields } = bibtexFields((await renderExports(record('book_in_series'), ['bibtex'])).bibtex);
    expect(type).toBe('book');
    expect(fields).toMatchObject({ series: 'Lecture Notes in <i>Mathematics</i>', number: '1234' });
    expect(fields).not.toHaveProperty('howpublished');
    const older: CslItem = { id: 'b', type: 'book', title: 'B', 'container-title': 'Studies in Logic' };
    const olderFields = bibtexFields((await renderExports(older, ['bibtex'])).bibtex).fields;
    expect(olderFields.series).toBe('Studies in Logic');
    expect(olderFields).not.toHaveProperty('howpublished');
  });

  it("writes a chapter as @incollection with its book in `booktitle` and the book's series in `series`", async () => {
    const { type, fields } = bibtexFields((await renderExports(record('book_chapter'), ['bibtex'])).bibtex);
    expect(type).toBe('incollection');
    expect(fields).toMatchObject({ booktitle: 'Handbook of <i>Enzymes</i>', series: 'Methods in Molecular Biology' });
  });

  it.each([
    ['proceedings_paper', 'inproceedings', 'booktitle'],
    ['encyclopedia_entry', 'incollection', 'booktitle'],
    ['journal_article', 'article', 'journal'],
    ['dataset', 'misc', 'howpublished'],
    ['preprint', 'article', 'journal'],
  ])('writes %s as @%s with its container in `%s`', async (key, type, field) => {
    const csl = record(key);
    const read = bibtexFields((await renderExports(csl, ['bibtex'])).bibtex);
    expect(read.type).toBe(type);
    expect(read.fields[field]).toBe(csl['container-title']);
  });

  it('writes a thesis as @phdthesis, "Thesis" unless its genre says more, and a master\'s thesis as @mastersthesis', async () => {
    const thesis = record('thesis');
    const phd = bibtexFields((await renderExports(thesis, ['bibtex'])).bibtex);
    expect(phd).toMatchObject({ type: 'phdthesis', fields: { school: 'Wageningen University', type: 'Thesis' } });
    const masters = bibtexFields((await renderExports({ ...thesis, genre: "Master's thesis" }, ['bibtex'])).bibtex);
    expect(masters.type).toBe('mastersthesis');
  });

  it("moves what an entry type has no field for to one it has, and leaves out an article's publisher", async () => {
    const report: CslItem = { id: 'r', type: 'report', title: 'R', 'container-title': 'NBER Working Paper', number: '7' };
    expect(bibtexFields((await renderExports(report, ['bibtex'])).bibtex)).toMatchObject({
      type: 'techreport',
      fields: { type: 'NBER Working Paper', number: '7' },
    });
    const misc: CslItem = { id: 'm', type: 'document', title: 'M', publisher: 'Acme' };
    const miscRead = bibtexFields((await renderExports(misc, ['bibtex'])).bibtex);
    expect(miscRead.fields).toMatchObject({ howpublished: 'Acme' });
    expect(miscRead.fields).not.toHaveProperty('publisher');
    const preprint = bibtexFields((await renderExports({ ...record('preprint'), publisher: 'CSHL' }, ['bibtex'])).bibtex);
    expect(preprint.fields).toMatchObject({ note: 'Preprint' });
    expect(preprint.fields).not.toHaveProperty('publisher');
    expect(preprint.fields).not.toHaveProperty('type');
    const alone: CslItem = { ...record('preprint') };
    delete alone['container-title'];
    expect(bibtexFields((await renderExports(alone, ['bibtex'])).bibtex).type).toBe('misc');
  });

  it.each([
    [1, 'jan'],
    [3, 'mar'],
    [12, 'dec'],
  ])('writes month %i as the macro %s, without the day', async (month, macro) => {
    const csl: CslItem = { id: 'x', type: 'article-journal', title: 'T', issued: { 'date-parts': [[1906, month, 22]] } };
    const { bibtex } = await renderExports(csl, ['bibtex']);
    expect(bibtex).toMatch(new RegExp(`^\\tyear = \\{1906\\},\\n\\tmonth = ${macro},$`, 'm'));
    expect(bibtex).not.toMatch(/22/);
    expect(bibtexFields(bibtex).fields).toMatchObject({ year: '1906', month: String(month) });
  });

  it('writes no month that is not one (a season, a bad number) and none without a year', async () => {
    for (const parts of [
      [2020, 21],
      [2020, 0],
      [2020, 13],
    ]) {
      const csl: CslItem = { id: 'x', type: 'article-journal', title: 'T', issued: { 'date-parts': [parts] } };
      expect((await renderExports(csl, ['bibtex'])).bibtex).not.toContain('month');
    }
  });

  it('writes the URL in `url` only, as it is where TeX reads it whole, percent-encoded where not', async () => {
    for (const key of ['hostile_text', 'dataset', 'journal_article']) {
      const csl = record(key);
      const { bibtex } = await renderExports(csl, ['bibtex']);
      expect(bibtex).toContain(`\turl = {${csl.URL}},`);
      expect(bibtex?.split(String(csl.URL))).toHaveLength(2);
      expect(bibtex).not.toMatch(/howpublished = \{http/);
      expect(bibtexFields(bibtex).fields.url).toBe(csl.URL);
    }
    const odd: CslItem = { id: 'x', type: 'document', title: 'T', URL: 'https://example.org/Müller page/{a}\\b' };
    expect(bibtexFields((await renderExports(odd, ['bibtex'])).bibtex).fields.url).toBe(
      'https://example.org/M%C3%BCller%20page/%7Ba%7D%5Cb',
    );
  });

  it('writes corporate authors and editors as one name in braces, never split into family and given names', async () => {
    const { bibtex } = await renderExports(record('corporate_author'), ['bibtex']);
    expect(bibtex).toContain('author = {{World Health Organization} and Cavaco‐Paulo, Artur}');
    expect(bibtexFields(bibtex).fields.author).toEqual([
      { name: 'World Health Organization' },
      { lastName: 'Cavaco‐Paulo', firstName: 'Artur' },
    ]);
    const chapter = bibtexFields((await renderExports(record('book_chapter'), ['bibtex'])).bibtex);
    expect(chapter.fields.editor).toEqual([
      { lastName: 'Menten', firstName: 'Maud' },
      { name: 'International Union of Biochemistry' },
    ]);
  });
});

describe('RIS for reference managers', () => {
  it('identifies each record by the key it is given, so that no two records of one answer share an ID', async () => {
    // Two DOIs of one publisher share their first 20 characters, which is all citation-js keeps.
    const first: CslItem = { id: '10.1007/978-3-030-12345-1_1', type: 'chapter', title: 'One' };
    const second: CslItem = { ...first, id: '10.1007/978-3-030-12345-1_2', title: 'Two' };
    const ids = await Promise.all(
      [
        [first, 'paper_a'],
        [second, 'paper_b'],
      ].map(async ([csl, key]) => risTags((await renderExports(csl as CslItem, ['ris'], key as string)).ris).get('ID')),
    );
    expect(ids).toEqual([['paper_a'], ['paper_b']]);
    expect(risTags((await renderExports(first, ['ris'])).ris).get('ID')).toEqual(['10_1007_978_3_030_12345_1_1']);
  });

  it('writes rich text as plain text: no tag in a title, container or series', async () => {
    const article = risTags((await renderExports(record('journal_article'), ['ris'])).ris);
    expect(article.get('TI')).toEqual(['Salmonella enterica in H2O at 103 K: bold Nasa and van der waals']);
    expect(article.get('JF')).toEqual(['Journal of R&D']);
    const chapter = risTags((await renderExports({ ...record('book_chapter'), title: 'a <i>b</b> c' }, ['ris'])).ris);
    expect(chapter.get('TI')).toEqual(['a <i>b</b> c']);
    expect(chapter.get('T2')).toEqual(['Handbook of Enzymes']);
    const book = risTags((await renderExports(record('book_in_series'), ['ris'])).ris);
    expect(book.get('T2')).toEqual(['Lecture Notes in Mathematics']);
  });

  it.each([
    ['book_chapter', 'CHAP', { T2: 'Handbook of Enzymes', BT: 'Handbook of Enzymes', T3: 'Methods in Molecular Biology' }],
    [
      'proceedings_paper',
      'CONF',
      {
        C3: 'Proceedings of the Seventh International Learning Analytics & Knowledge Conference',
        T2: 'Proceedings of the Seventh International Learning Analytics & Knowledge Conference',
      },
    ],
    ['encyclopedia_entry', 'ENCYC', { T2: 'Encyclopedia of Ecology', BT: 'Encyclopedia of Ecology' }],
    ['journal_article', 'JOUR', { T2: 'Journal of R&D', JF: 'Journal of R&D' }],
    ['dataset', 'DATA', { T2: 'Zenodo' }],
    ['book_in_series', 'BOOK', { T2: 'Lecture Notes in Mathematics' }],
  ])('writes the container of %s (%s) under every tag readers look for it in', async (key, ty, expected) => {
    const tags = risTags((await renderExports(record(key), ['ris'])).ris);
    expect(tags.get('TY')).toEqual([ty]);
    for (const [tag, value] of Object.entries(expected)) expect(tags.get(tag), tag).toEqual([value]);
  });

  it('writes a corporate author or editor with the trailing comma that keeps the name whole', async () => {
    const article = risTags((await renderExports(record('corporate_author'), ['ris'])).ris);
    expect(article.get('AU')).toEqual(['World Health Organization,', 'Cavaco‐Paulo, Artur']);
    const chapter = risTags((await renderExports(record('book_chapter'), ['ris'])).ris);
    expect(chapter.get('A2')).toEqual(['Menten, Maud', 'International Union of Biochemistry,']);
  });

  it.each([
    ['LF', '\n'],
    ['CR LF', '\r\n'],
    ['CR', '\r'],
    ['line separator', '\u2028'],
    ['blank line', '\n\n  '],
  ])('writes a value with a line break (%s) on one line', async (_name, lineBreak) => {
    const csl: CslItem = {
      id: 'x',
      type: 'article-journal',
      title: `first${lineBreak}second`,
      'container-title': `Journal${lineBreak}of Things`,
      author: [{ family: `Smith${lineBreak}Jones`, given: 'A' }],
    };
    const tags = risTags((await renderExports(csl, ['ris'])).ris);
    expect(tags.get('TI')).toEqual(['first second']);
    expect(tags.get('JF')).toEqual(['Journal of Things']);
    expect(tags.get('AU')).toEqual(['Smith Jones, A']);
  });
});

describe('what reference managers read: RIS types, DOIs and keys (issue: preprints, braces, keys)', () => {
  /** RIS as a tag-line reader takes it: TY and every tag's values. */
  const ris = (text: string | undefined) => {
    const tags = new Map<string, string[]>();
    for (const line of (text ?? '').split('\n')) {
      const match = /^([A-Z][A-Z0-9]) {2}- ?(.*)$/.exec(line);
      if (match) tags.set(match[1] as string, [...(tags.get(match[1] as string) ?? []), match[2] as string]);
    }
    return tags;
  };
  const item = (extra: Partial<CslItem>): CslItem => ({
    id: 'x',
    type: 'article',
    title: 'A title',
    author: [{ family: 'Doe', given: 'Jane' }],
    issued: { 'date-parts': [[2020]] },
    ...extra,
  });

  it('gives a preprint RIS type UNPB, an article in no periodical GEN, a dataset DATA, software COMP', async () => {
    const types = await Promise.all(
      [
        item({ genre: 'Preprint', publisher: 'arXiv' }),
        item({}),
        item({ type: 'dataset', publisher: 'Dryad' }),
        item({ type: 'software', version: '1.0' }),
        item({ type: 'article-journal', 'container-title': 'Ecology' }),
      ].map(async (csl) => ris((await renderExports(csl, ['ris'])).ris).get('TY')),
    );
    expect(types).toEqual([['UNPB'], ['GEN'], ['DATA'], ['COMP'], ['JOUR']]);
    // The preprint's server stays where RIS readers take the publisher.
    expect(ris((await renderExports(item({ genre: 'Preprint', publisher: 'arXiv' }), ['ris'])).ris).get('PB')).toEqual(['arXiv']);
  });

  it('writes a DOI verbatim in BibTeX, paired braces and backslashes included; only a lone brace is percent-encoded', async () => {
    const doi = async (DOI: string) => {
      const { bibtex } = await renderExports(item({ DOI, type: 'article-journal', 'container-title': 'J' }), ['bibtex']);
      const parsed = parseBibtex(bibtex ?? '');
      expect(parsed.errors).toEqual([]);
      return { raw: /doi = \{(.*)\},$/m.exec(bibtex ?? '')?.[1], read: parsed.entries[0]?.fields.doi };
    };
    expect(await doi('10.1002/(SICI)1097-4636(199706)35:4<435::AID-JBM4>3.0.CO;2-K')).toEqual({
      raw: '10.1002/(SICI)1097-4636(199706)35:4<435::AID-JBM4>3.0.CO;2-K',
      read: '10.1002/(SICI)1097-4636(199706)35:4<435::AID-JBM4>3.0.CO;2-K',
    });
    expect((await doi('10.1000/a{b}c_d%e')).raw).toBe('10.1000/a{b}c_d%e');
    expect((await doi('10.1000/a\\b')).raw).toBe('10.1000/a\\b');
    expect((await doi('10.1000/x}y{z')).raw).toBe('10.1000/x%7Dy%7Bz');
    expect(bibtexDoi('10.1/{a}}{')).toBe('10.1/{a}%7D%7B');
  });

  it('ends a cut author list with "and others", which BibTeX readers take for "et al."', async () => {
    const csl = item({
      type: 'article-journal',
      'container-title': 'Cell',
      author: [
        { family: 'Kermany', given: 'D. S.' },
        { family: 'Goldbaum', given: 'M.' },
      ],
    });
    csl[AUTHORS_CUT] = true;
    const { bibtex, csl_json } = await renderExports(csl, ['bibtex', 'csl-json']);
    expect(bibtex).toMatch(/author = \{Kermany, D\. S\. and Goldbaum, M\. and others\},/);
    expect(parseBibtex(bibtex ?? '').errors).toEqual([]);
    // The CSL-JSON record holds what the index said: the authors shown, no made-up name, no extra field.
    expect(JSON.parse(JSON.stringify(csl_json)).author).toEqual([
      { family: 'Kermany', given: 'D. S.' },
      { family: 'Goldbaum', given: 'M.' },
    ]);
    delete csl[AUTHORS_CUT];
    expect((await renderExports(csl, ['bibtex'])).bibtex).not.toContain('others');
  });

  it('makes readable keys: first author, year, first significant title word; ASCII; unique with a, b, …', () => {
    const key = (extra: Partial<CslItem>) => readableKey(item(extra));
    expect(
      key({
        author: [{ family: 'Boettiger', given: 'Carl' }],
        issued: { 'date-parts': [[2018]] },
        title: 'From noise to knowledge: how randomness generates',
      }),
    ).toBe('boettiger2018noise');
    expect(key({ author: [{ family: 'Sørensen', given: 'T.' }], title: 'Über die Ästhetik' })).toBe('sorensen2020uber');
    expect(key({ author: [{ family: 'van der Berg' }], title: 'The <i>Salmonella</i> problem' })).toBe(
      'vanderberg2020salmonella',
    );
    expect(key({ author: [{ literal: 'The World Health Organization' }], title: 'A report' })).toBe('world2020report');
    expect(key({ author: undefined, editor: [{ family: 'Roe' }], title: 'Handbook' })).toBe('roe2020handbook');
    expect(key({ author: undefined, title: 'Of mice and men' })).toBe('mice2020');
    expect(key({ author: undefined, issued: undefined, title: '2019: a year' })).toBe('year');
    expect(key({ author: [{ family: 'Łukasiewicz' }], title: 'Ætiology', issued: { 'date-parts': [['1999']] } })).toBe(
      'lukasiewicz1999aetiology',
    );
    expect(key({ author: undefined, title: '生态预测' })).toBe('');
    const keys = uniqueKeys([
      ...Array.from({ length: 28 }, () => ({ csl: item({ title: 'Same' }), fallback: 'x' })),
      { csl: item({ author: undefined, title: '生态预测' }), fallback: 'W2-1' },
      { fallback: '' },
    ]);
    expect(keys.slice(0, 4)).toEqual(['doe2020same', 'doe2020samea', 'doe2020sameb', 'doe2020samec']);
    expect(keys[26]).toBe('doe2020samez');
    expect(keys[27]).toBe('doe2020sameaa');
    expect(keys.slice(28)).toEqual(['W2_1', 'reference']);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keys every entry of a file so that a BibTeX parser reads each under its own key', async () => {
    const records = [
      item({ type: 'article-journal', 'container-title': 'J', title: 'Same words' }),
      item({ type: 'article-journal', 'container-title': 'J', title: 'Same words' }),
      item({ type: 'dataset', title: 'Data from: same words', publisher: 'Dryad' }),
    ];
    const keys = uniqueKeys(records.map((csl) => ({ csl, fallback: 'x' })));
    const file = (await Promise.all(records.map((csl, i) => renderExports(csl, ['bibtex'], keys[i]))))
      .map((r) => r.bibtex)
      .join('\n\n');
    const parsed = parseBibtex(file);
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.map((entry) => entry.key)).toEqual(['doe2020same', 'doe2020samea', 'doe2020data']);
  });
});
