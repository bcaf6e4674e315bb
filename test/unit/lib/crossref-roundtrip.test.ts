/**
 * Exports that lose nothing, checked by readers other than the one that wrote them: each record's
 * BibTeX is read back by @retorquere/bibtex-parser (the parser of Zotero's Better BibTeX), its RIS by a
 * line reader written here from the RIS tag list, and its CSL-JSON is validated against the official
 * CSL-JSON schema (citation-style-language/schema, test/fixtures/csl-schema). Title, authors, year, DOI
 * and container must survive in every format.
 *
 * The records are real Crossref works (test/fixtures/SOURCES.md): journal articles, preprints,
 * proceedings papers, book chapters, reference entries, works without a year, a dataset, titles with
 * JATS markup and U+2010 hyphens. The recordings hold no record in a non-Latin script, with a corporate
 * author or with 100+ authors; those are constructed from real records, and named so.
 */
import { readFileSync } from 'node:fs';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { renderExports } from '../../../lib/citations/exports/exports.js';
import { type CslItem, cslFromCrossref } from '../../../lib/citations/model/csl.js';
import { normalizeText } from '../../../lib/citations/model/text.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { crossrefRecording } from '../../../lib/local/replay-crossref.js';

function fixture<T>(path: string): T {
  return JSON.parse(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8')) as T;
}

const boettiger = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items;
const matcher = fixture<{ works: { work: CrossrefWork }[] }>('crossref/works-reference-matcher.json').works.map(
  ({ work }) => work,
);
const answers = fixture<{ items: CrossrefWork[] }[]>('crossref/recorded-answers-items.json').flatMap((answer) => answer.items);
/** From the trimmed recordings: the kinds the full ones lack (chapters and entries without a year, proceedings). */
const trimmed = [
  '10.1007/978-1-4302-0197-7_9',
  '10.1007/springerreference_66110',
  '10.1007/978-1-4842-6700-4_5',
  '10.1109/afrcon.2009.5308146',
  '10.1145/3027385.3027428',
  '10.1201/9781003134046-6',
  '10.59350/7mtwq-q3661',
  '10.1093/obo/9780199830060-0238',
  '10.1016/j.ymben.2025.04.005',
].map((doi) => answers.find((work) => work.DOI.toLowerCase() === doi) as CrossrefWork);

const base = boettiger[0] as CrossrefWork;
const constructed: CrossrefWork[] = [
  {
    ...base,
    DOI: '10.9999/constructed-arabic',
    title: ['تحليل البيانات البيئية: دراسة حالة'],
    author: [
      { given: 'علي', family: 'محمد' },
      { given: 'فاطمة', family: 'الزهراء' },
    ],
    'container-title': ['مجلة العلوم البيئية'],
  },
  {
    ...base,
    DOI: '10.9999/constructed-chinese',
    title: ['生态预测的极限：不确定性估计'],
    author: [{ given: '伟', family: '王' }],
    'container-title': ['生态学报'],
  },
  {
    ...base,
    DOI: '10.9999/constructed-corporate',
    title: ['Global tuberculosis report 2023'],
    author: [{ name: 'World Health Organization' }, { given: 'Artur', family: 'Cavaco‐Paulo' }],
  },
  {
    ...base,
    DOI: '10.9999/constructed-many-authors',
    title: ['Observation of a new particle in the search for the Standard Model Higgs boson'],
    author: Array.from({ length: 120 }, (_, i) => ({ given: `A${i}`, family: `Physicist${i}` })),
    'container-title': ['Physics Letters B'],
  },
];

interface Record {
  label: string;
  csl: CslItem;
}

const records: Record[] = [
  ...[...boettiger, ...matcher, ...trimmed].map((work) => ({ label: `${work.DOI} (${work.type})`, csl: cslFromCrossref(work) })),
  ...constructed.map((work) => ({ label: `${work.DOI} (constructed)`, csl: cslFromCrossref(work) })),
];

type Name = { family?: string; given?: string; literal?: string };
const families = (csl: CslItem) =>
  ((csl.author as Name[] | undefined) ?? []).map((name) => normalizeText(name.family ?? name.literal ?? ''));
const year = (csl: CslItem) => (csl.issued as { 'date-parts': number[][] } | undefined)?.['date-parts'][0]?.[0];
/** Where a record is published, as text: its container, or a book's series. */
const container = (csl: CslItem) => {
  const venue = csl['container-title'] ?? (csl.type === 'book' ? csl['collection-title'] : undefined);
  return typeof venue === 'string' ? normalizeText(venue) : undefined;
};

/** RIS as its tag lines: `TY  - JOUR` … `ER  - `, each tag's values in order. */
function readRis(text: string): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const found = /^([A-Z][A-Z0-9]) {2}- ?(.*)$/.exec(line);
    if (!found) throw new Error(`not an RIS line: ${line}`);
    const [, tag, value] = found as unknown as [string, string, string];
    tags.set(tag, [...(tags.get(tag) ?? []), value]);
  }
  return tags;
}

const validate = new Ajv({ allErrors: true, strict: false }).compile(fixture<object>('csl-schema/csl-data.json'));

describe('exports read back by independent readers', () => {
  it('covers at least 30 varied records', () => {
    expect(records.length).toBeGreaterThanOrEqual(30);
    const types = new Set(records.map(({ csl }) => csl.type));
    expect([...types].sort()).toEqual(
      expect.arrayContaining(['article', 'article-journal', 'chapter', 'dataset', 'entry-encyclopedia', 'paper-conference']),
    );
    expect(records.filter(({ csl }) => year(csl) === undefined).length).toBeGreaterThan(0);
  });

  it.each(records)('$label: CSL-JSON is valid by the official schema', ({ csl }) => {
    const valid = validate([csl]);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it.each(records)('$label: BibTeX keeps title, authors, year, DOI and container', async ({ csl }) => {
    const { bibtex, render_error } = await renderExports(csl, ['bibtex']);
    expect(render_error).toBeUndefined();
    const library = parseBibtex(bibtex ?? '');
    expect(library.errors).toEqual([]);
    const [entry] = library.entries;
    const fields = entry?.fields as { [field: string]: unknown };
    expect(normalizeText(String(fields.title))).toBe(normalizeText(String(csl.title)));
    // The parser reads "de Valpine" as BibTeX does: "de" is the prefix ("von part") of "Valpine".
    const authors = ((fields.author as { lastName?: string; prefix?: string; name?: string }[] | undefined) ?? []).map((name) =>
      normalizeText(name.name ?? [name.prefix, name.lastName].filter(Boolean).join(' ')),
    );
    expect(authors).toEqual(families(csl));
    expect(fields.year === undefined ? undefined : Number(fields.year)).toBe(year(csl));
    expect(fields.doi).toBe(csl.DOI);
    // A book's series in `series`, a report's in `type`; a `@misc` prints its container, then its publisher.
    const venue = fields.journal ?? fields.booktitle ?? fields.series ?? (entry?.type === 'techreport' ? fields.type : undefined);
    const published = fields.howpublished === undefined ? undefined : normalizeText(String(fields.howpublished));
    const publisher = typeof csl.publisher === 'string' ? normalizeText(csl.publisher) : undefined;
    if (venue !== undefined) expect(normalizeText(String(venue))).toBe(container(csl));
    else if (container(csl) !== undefined) expect(published?.startsWith(container(csl) ?? '')).toBe(true);
    else expect(published).toBe(publisher);
  });

  it.each(records)('$label: RIS keeps title, authors, year, DOI and container', async ({ csl }) => {
    const { ris, render_error } = await renderExports(csl, ['ris']);
    expect(render_error).toBeUndefined();
    const tags = readRis(ris ?? '');
    expect(normalizeText(tags.get('TI')?.[0] ?? '')).toBe(normalizeText(String(csl.title)));
    // A corporate name ends in the comma that keeps it whole; a person is "Family, Given".
    expect((tags.get('AU') ?? []).map((name) => normalizeText(name.split(',')[0] ?? ''))).toEqual(families(csl));
    const risYear = tags.get('PY')?.[0] ?? tags.get('DA')?.[0]?.slice(0, 4);
    expect(risYear === undefined ? undefined : Number(risYear)).toBe(year(csl));
    for (const date of tags.get('DA') ?? []) expect(date).toMatch(/^\d{4}\/(\d\d)?\/(\d\d)?\//);
    expect(tags.get('DO')?.[0]).toBe(csl.DOI);
    // JF: a journal's full name; C3: a proceedings' title; T2: a book's or a repository's.
    const venue = tags.get('JF')?.[0] ?? tags.get('C3')?.[0] ?? tags.get('T2')?.[0] ?? tags.get('BT')?.[0];
    expect(venue === undefined ? undefined : normalizeText(venue)).toBe(container(csl));
    if (tags.get('TY')?.[0] === 'JOUR' && venue !== undefined) expect(tags.get('JF')).toBeDefined();
  });
});

/**
 * Every Crossref work type (api.crossref.org/types) as the CSL type cslFromCrossref gives it, and as the
 * BibTeX entry type and RIS type the exports write for it: a changed mapping anywhere fails here. Book
 * types are books whose container is their series; any other type, known or not, keeps its container.
 */
const TYPE_MAPPINGS: [crossref: string, csl: string, bibtex: string, ris: string][] = [
  ['journal-article', 'article-journal', 'article', 'JOUR'],
  ['proceedings-article', 'paper-conference', 'inproceedings', 'CONF'],
  ['book-chapter', 'chapter', 'incollection', 'CHAP'],
  ['book-section', 'chapter', 'incollection', 'CHAP'],
  ['book-part', 'chapter', 'incollection', 'CHAP'],
  ['book', 'book', 'book', 'BOOK'],
  ['monograph', 'book', 'book', 'BOOK'],
  ['edited-book', 'book', 'book', 'BOOK'],
  ['reference-book', 'book', 'book', 'BOOK'],
  ['book-series', 'book', 'book', 'BOOK'],
  // A preprint is an unpublished work in RIS (UNPB), as Zotero writes one, not a journal article.
  ['posted-content', 'article', 'article', 'UNPB'],
  ['dataset', 'dataset', 'misc', 'DATA'],
  // DataCite's types, read into Crossref's (lib/citations/sources/datacite.ts).
  ['software', 'software', 'misc', 'COMP'],
  ['proceedings', 'book', 'book', 'BOOK'],
  ['report', 'report', 'techreport', 'RPRT'],
  ['dissertation', 'thesis', 'phdthesis', 'THES'],
  ['reference-entry', 'entry-encyclopedia', 'incollection', 'ENCYC'],
  ['standard', 'standard', 'misc', 'STAND'],
  ['other', 'document', 'misc', 'GEN'],
  ['peer-review', 'document', 'misc', 'GEN'],
];

describe('Crossref work types', () => {
  it.each(TYPE_MAPPINGS)('%s is CSL %s, BibTeX @%s and RIS %s', async (crossref, cslType, bibtexType, risType) => {
    const work = {
      DOI: `10.9999/${crossref}`,
      type: crossref,
      title: ['A work'],
      'container-title': ['Where it is published'],
      issued: { 'date-parts': [[2020]] },
    } as CrossrefWork;
    const csl = cslFromCrossref(work);
    expect(csl.type).toBe(cslType);
    if (cslType === 'book') expect(csl).toMatchObject({ 'collection-title': 'Where it is published' });
    else expect(csl).toMatchObject({ 'container-title': 'Where it is published' });
    const { bibtex, ris } = await renderExports(csl, ['bibtex', 'ris']);
    expect(parseBibtex(bibtex ?? '').entries[0]?.type).toBe(bibtexType);
    expect(readRis(ris ?? '').get('TY')).toEqual([risType]);
  });
});
