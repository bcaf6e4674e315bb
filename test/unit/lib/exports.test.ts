/**
 * CSL-JSON records from recorded Crossref works and from the recorded scholarly-index page, and the
 * BibTeX and RIS rendered from them, read back with citation-js's own BibTeX and RIS input plugins: what a
 * reference manager imports must be the paper we meant.
 */
import { describe, expect, it } from 'vitest';
import type { CiteSearchData } from '../../../lib/contract/cite-search.js';
import { type CrossrefWork, parseScholarSummary } from '../../../lib/crossref/match.js';
import { crossrefRecording } from '../../../lib/local/replay-crossref.js';
import { sample } from '../../../lib/local/samples.js';
import {
  addExports,
  type CslItem,
  cslFromCrossref,
  cslFromScholar,
  loadCitationJs,
  renderExports,
} from '../../../lib/reshape/exports.js';

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

describe('cslFromCrossref', () => {
  it('turns a recorded journal article into a CSL-JSON item', () => {
    const work = works.find((w) => w.DOI === '10.1007/s12080-013-0192-6') as CrossrefWork;
    expect(cslFromCrossref(work)).toMatchObject({
      id: '10.1007/s12080-013-0192-6',
      type: 'article-journal',
      title: 'Early warning signals: the charted and uncharted territories',
      author: [
        { family: 'Boettiger', given: 'Carl' },
        { family: 'Ross', given: 'Noam' },
        { family: 'Hastings', given: 'Alan' },
      ],
      issued: { 'date-parts': [[2013, 6, 21]] },
      'container-title': 'Theoretical Ecology',
      DOI: '10.1007/s12080-013-0192-6',
    });
  });

  it('strips the markup Crossref keeps in titles', () => {
    const work = works.find((w) => w.DOI === '10.1111/j.2041-210x.2012.00247.x') as CrossrefWork;
    expect(cslFromCrossref(work).title).toBe('Treebase: anRpackage for discovery, access and manipulation of online phylogenies');
  });
});

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

describe('renderExports', () => {
  it('renders only the formats asked for', async () => {
    const csl: CslItem = { id: 'x', type: 'document', title: 'T' };
    expect(Object.keys(await renderExports(csl, ['ris']))).toEqual(['ris']);
    expect(Object.keys(await renderExports(csl, ['csl-json']))).toEqual(['csl_json']);
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
  });
});
