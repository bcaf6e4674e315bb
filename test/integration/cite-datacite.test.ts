/**
 * DataCite beside Crossref, over real HTTP: the fake DataCite answers from recorded DataCite records
 * (lib/local/samples/datacite/, test/fixtures/datacite/), the fake Crossref from recorded Crossref answers.
 * An arXiv DOI and a dataset DOI resolve in the five formats and every export; a DOI Crossref does not
 * know is asked of DataCite; an arXiv identifier in a reference is its DOI; a reference to a dataset gets
 * the dataset's DOI, not the article's; a page of the index with an arXiv paper cites it from DataCite.
 */
import { readFileSync } from 'node:fs';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { responseSchema as resolveSchema } from '../../lib/contract/cite-resolve.js';
import { responseSchema as searchSchema } from '../../lib/contract/cite-search.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { dataCiteList } from '../support/fake-datacite.js';
import type { Reply } from '../support/service.js';

const FIVE = ['MLA', 'APA', 'Chicago', 'Harvard', 'Vancouver'];
const { harness, crossref, dataCite, servePapers } = await useCrossrefService();

const ARXIV = '10.48550/arxiv.2201.06719';
const DRYAD = '10.5061/dryad.8515';
const ZENODO = '10.5281/zenodo.18951275';
const recorded = (file: string) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { data: { id: string } };
const DRYAD_ALT = recorded('../fixtures/datacite/prereview-dryad-alt.json');

/**
 * The article the Dryad dataset's data belong to, as Crossref would list it: constructed here from the
 * citation DataCite's own record of the dataset gives for it ("Ollomo B, Durand P, Prugnolle F, Douzery
 * EJP, Arnathau C, Nkoghe D, Leroy E, Renaud F (2009) A new malaria agent in African hominids. PLoS
 * Pathogens 5(5): e1000446"; no recording of its Crossref record was found).
 */
const MALARIA_ARTICLE = {
  DOI: '10.1371/journal.ppat.1000446',
  type: 'journal-article',
  title: ['A New Malaria Agent in African Hominids'],
  author: [
    { given: 'Benjamin', family: 'Ollomo' },
    { given: 'Patrick', family: 'Durand' },
    { given: 'Franck', family: 'Prugnolle' },
  ],
  issued: { 'date-parts': [[2009, 5, 29]] },
  'container-title': ['PLoS Pathogens'],
  volume: '5',
  issue: '5',
  page: 'e1000446',
};

function expectSuccess(reply: Reply, schema: { parse(value: unknown): unknown }) {
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  expect(schema.parse(reply.json.data)).toEqual(reply.json.data);
  return reply.json.data;
}

const works = (items: unknown[]) => ({
  status: 200,
  body: JSON.stringify({ status: 'ok', message: { 'total-results': items.length, items } }),
});

const cslSchema = JSON.parse(readFileSync(new URL('../fixtures/csl-schema/csl-data.json', import.meta.url), 'utf8'));
const validCsl = new Ajv({ strict: false }).compile(cslSchema);

describe('POST /v1/cite/resolve with DataCite', () => {
  it('resolves an arXiv DOI and a dataset DOI from DataCite in the five formats and every export, asking Crossref nothing', async () => {
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', {
        references: [`https://doi.org/10.48550/arXiv.2201.06719`, `doi:${DRYAD}`],
        styles: ['nature'],
        export: ['csl-json', 'bibtex', 'ris'],
      }),
      resolveSchema,
    );
    expect(crossref.requests).toHaveLength(0);
    // Both DOIs in one DataCite lookup (`ids`), as Crossref takes twenty to a request.
    expect(dataCite.requests.map((r) => [r.path, r.query.get('ids')])).toEqual([['/dois', `${ARXIV},${DRYAD}`]]);
    expect(data.resolved).toBe(2);
    const [arxiv, dryad] = data.references;
    expect(arxiv).toMatchObject({
      doi: ARXIV,
      citations_source: 'datacite',
      type: 'article',
      year: 2022,
      match: { rule: 'doi' },
    });
    expect(dryad).toMatchObject({ doi: DRYAD, citations_source: 'datacite', type: 'dataset', year: 2011, container: null });
    for (const reference of [arxiv, dryad]) {
      expect(Object.keys(reference.citations)).toEqual(FIVE);
      expect(Object.keys(reference.styled_citations)).toEqual(['nature']);
      expect(validCsl([reference.exports.csl_json]), JSON.stringify(validCsl.errors)).toBe(true);
      const bib = parseBibtex(reference.exports.bibtex);
      expect(bib.errors).toEqual([]);
      expect(bib.entries[0]?.fields.doi).toBe(reference.doi);
    }
    // The styles say what each is: a preprint on arXiv, a dataset in Dryad.
    expect(arxiv.citations.APA).toMatch(
      /^Han, J\. Z\., Si, R\., .*\(2022\)\. .*\[Preprint\]\. arXiv\. https:\/\/doi\.org\/10\.48550\/arxiv\.2201\.06719$/,
    );
    expect(dryad.citations.APA).toMatch(
      /^Ollomo, B\., .*\(2011\)\. Data from: A new malaria agent in African hominids\. \(Version 1\) \[Dataset\]\. Dryad\./,
    );
    expect(arxiv.exports.ris).toMatch(/^TY {2}- UNPB$/m);
    expect(dryad.exports.ris).toMatch(/^TY {2}- DATA$/m);
  });

  it('asks DataCite for a DOI Crossref does not know, and says when neither knows it', async () => {
    dataCite.respond((path, query) =>
      path === '/dois' && query.get('ids')?.split(',').includes('10.15146/zf0j-5m50')
        ? dataCiteList([DRYAD_ALT.data])
        : undefined,
    );
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', { references: ['10.15146/zf0j-5m50', '10.5555/nobody-registered-this'] }),
      resolveSchema,
    );
    // One Crossref lookup for both DOIs (it knows neither), then one DataCite lookup for both.
    expect(crossref.requests.map((q) => q.get('filter'))).toEqual(['doi:10.15146/zf0j-5m50,doi:10.5555/nobody-registered-this']);
    expect(dataCite.requests.map((r) => r.query.get('ids'))).toEqual(['10.15146/zf0j-5m50,10.5555/nobody-registered-this']);
    expect(data.references[0]).toMatchObject({ doi: '10.15146/zf0j-5m50', citations_source: 'datacite', type: 'dataset' });
    expect(data.references[1]).toMatchObject({ doi: null, citations_source: null, match: { method: 'exact', rule: 'doi' } });
    expect(data.references[1].reason).toMatch(/^Neither Crossref nor DataCite has a record of this DOI/);
  });

  it("asks DataCite for its repositories' DOIs at once, beside Crossref's batch, and for Crossref's misses after it", async () => {
    crossref.respond((query) => (query.get('filter')?.startsWith('doi:') ? 'status500' : undefined));
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', { references: ['10.5555/crossref-failed-here', ZENODO] }),
      resolveSchema,
    );
    expect(crossref.requests.map((q) => q.get('filter'))).toEqual(['doi:10.5555/crossref-failed-here']);
    // Zenodo's DOI did not wait for Crossref's answer to be asked: it went alone, first; the DOI Crossref could
    // not answer for went after.
    expect(dataCite.requests.map((r) => r.query.get('ids'))).toEqual([ZENODO, '10.5555/crossref-failed-here']);
    expect(data.references[1]).toMatchObject({ doi: ZENODO, citations_source: 'datacite', type: 'dataset' });
    // Crossref's failure is kept over DataCite's "no record": the DOI may well be Crossref's.
    expect(data.references[0]).toMatchObject({ doi: null });
    expect(data.references[0].reason).not.toMatch(/^Neither Crossref nor DataCite/);
  });

  it('reads an arXiv identifier in a reference as its DOI', async () => {
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', {
        references: [
          'Han JZ, Si R, Qin HR, et al. Determination of hyperfine splittings. arXiv preprint arXiv:2201.06719v2; 2022.',
        ],
      }),
      resolveSchema,
    );
    expect(data.references[0]).toMatchObject({
      doi: ARXIV,
      citations_source: 'datacite',
      match: { method: 'exact', rule: 'arxiv_id' },
    });
  });

  it("gives a reference to a dataset the dataset's DOI, not the article's, and the article's to a reference to the article", async () => {
    crossref.respond((query) => (query.get('query.bibliographic') ? works([MALARIA_ARTICLE]) : undefined));
    const dataset =
      'Ollomo B, Durand P, Prugnolle F, Douzery EJP, Arnathau C, Nkoghe D, Leroy E, Renaud F (2011) Data from: A new malaria agent in African hominids. Dryad Digital Repository. [Data set]';
    const article =
      'Ollomo B, Durand P, Prugnolle F, Douzery EJP, Arnathau C, Nkoghe D, Leroy E, Renaud F (2009) A new malaria agent in African hominids. PLoS Pathogens 5(5): e1000446.';
    const data = expectSuccess(await harness.service.post('/v1/cite/resolve', { references: [dataset, article] }), resolveSchema);
    expect(data.references[0]).toMatchObject({
      doi: DRYAD,
      citations_source: 'datacite',
      type: 'dataset',
      match: { method: 'search' },
    });
    expect(data.references[1]).toMatchObject({ doi: MALARIA_ARTICLE.DOI.toLowerCase(), citations_source: 'crossref' });
    // The reference to the article names no repository: DataCite is not asked for it.
    expect(dataCite.requests.map((r) => r.query.get('query'))).toEqual([expect.stringContaining('malaria')]);
  });
});

describe('POST /v1/cite/search with DataCite', () => {
  it('cites a paper the index shows on arXiv from its DataCite record, with its DOI', async () => {
    servePapers('hyperfine', 'arxiv', [
      {
        title:
          'Determination of hyperfine splittings and Landé g_J factors of 5s 2S1/2 and 5p 2P1/2,3/2 states of 111,113Cd+ for a …',
        summary: 'JZ Han, R Si, HR Qin, NC Xin, YT Chen… - arXiv preprint arXiv:2201.06719, 2022 - arxiv.org',
        link: 'https://arxiv.org/abs/2201.06719',
      },
    ]);
    const data = expectSuccess(
      await harness.service.post('/v1/cite/search', { query: 'hyperfine', export: ['bibtex'] }),
      searchSchema,
    );
    // Its link's arXiv identifier is its DataCite DOI, asked in one batched lookup (a page's arXiv papers together).
    expect(dataCite.requests.map((r) => [r.path, r.query.get('ids')])).toEqual([['/dois', ARXIV]]);
    expect(data.papers[0]).toMatchObject({ citations_source: 'datacite', doi: ARXIV, citation_gaps: [] });
    expect(data.papers[0].exports.source).toBe('datacite');
    expect(data.citation_details[0].crossref_fallback).toBeNull();
    expect(Object.keys(data.papers[0].citations)).toEqual(FIVE);
    expect(data.note).toContain('their DataCite records');
  });

  it("asks DataCite for a paper on a data repository that Crossref has no match for, and nothing for a journal's", async () => {
    dataCite.respond((path) => (path === '/dois' ? dataCiteList([DRYAD_ALT.data]) : undefined));
    servePapers('denman', 'glacier', [
      {
        title: 'Grounding line of Denman Glacier, East Antarctica from satellite radar interferometry',
        summary: 'V Brancato, E Rignot, P Milillo, M Morlighem… - 2020 - datadryad.org',
        link: 'https://datadryad.org/stash/dataset/doi:10.15146/zf0j-5m50',
      },
      { title: 'A journal paper nobody recorded', summary: 'A Nobody - Journal of Nothing, 2019 - Elsevier' },
    ]);
    const data = expectSuccess(
      await harness.service.post('/v1/cite/search', { query: 'denman', export: ['csl-json'] }),
      searchSchema,
    );
    expect(dataCite.requests).toHaveLength(1);
    expect(dataCite.requests[0]?.query.get('query')).toMatch(/^titles\.title:\(grounding line of denman glacier/);
    expect(data.papers[0]).toMatchObject({ citations_source: 'datacite', doi: '10.15146/zf0j-5m50' });
    expect(data.papers[1]).toMatchObject({ citations_source: 'index-record', doi: null });
  });
});
