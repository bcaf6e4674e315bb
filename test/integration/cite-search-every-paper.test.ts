/**
 * Every paper cited, over real HTTP against the fakes: a page no record source knows costs its one paid
 * call and still cites every paper; the index's cite call, when asked for and empty, leaves no paper
 * uncited; a Crossref record's HTML entities never reach a citation or an export; HTML citations; RIS IDs
 * unique within an answer.
 */
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../../lib/contract/cite-search.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { BANANAS, EARLY_WARNING, type IndexPaper, scholarPage } from '../support/index-papers.js';
import type { Reply } from '../support/service.js';

const PATH = '/v1/cite/search';
const FIVE = ['MLA', 'APA', 'Chicago', 'Harvard', 'Vancouver'];
const { harness, crossref, servePapers } = await useCrossrefService();

/** Papers no recorded Crossref answer holds: a book, a thesis, a preprint, a conference paper, an article. */
const UNKNOWN: (IndexPaper & { author: string })[] = [
  { ...BANANAS, author: 'Robinson' },
  {
    title: 'Fire regimes of the southern Appalachian forests',
    summary: 'MR Okafor - Doctoral dissertation, 2011 - etd.lib.example.edu',
    author: 'Okafor',
  },
  {
    title: 'Deep residual learning for image recognition',
    summary: 'K He, X Zhang, S Ren, J Sun - arXiv preprint arXiv:1512.03385, 2015 - arxiv.org',
    author: 'He',
  },
  {
    title: 'Attention is all you need',
    summary: 'A Vaswani, N Shazeer, N Parmar… - Proceedings of the 31st Conference on Neural …, 2017 - dl.acm.org',
    author: 'Vaswani',
  },
  {
    title: 'Grazing and the dynamics of savanna vegetation',
    summary: 'LT Ndlovu, P Smith - Journal of Arid Environments, 1998 - Elsevier',
    author: 'Ndlovu',
  },
];

/** A real Crossref record (Big Data & Society, deposited with "&amp;"), as Crossref's /works answers it. */
const BIG_DATA_SOCIETY = {
  DOI: '10.1177/2053951719836258',
  title: ['Enforcing public data archiving policies in academic publishing: A study of ecology journals'],
  author: [
    { given: 'Dan', family: 'Sholler' },
    { given: 'Karthik', family: 'Ram' },
    { given: 'Carl', family: 'Boettiger' },
    { given: 'Daniel S', family: 'Katz' },
  ],
  issued: { 'date-parts': [[2019, 1]] },
  'container-title': ['Big Data &amp; Society'],
  type: 'journal-article',
  volume: '6',
  issue: '1',
  publisher: 'SAGE Publications',
  URL: 'https://doi.org/10.1177/2053951719836258',
};
const SHOLLER: IndexPaper = {
  title: BIG_DATA_SOCIETY.title[0] as string,
  summary: 'D Sholler, K Ram, C Boettiger, DS Katz - Big Data & Society, 2019 - journals.sagepub.com',
};

function expectSuccess(reply: Reply) {
  expect(reply.status).toBe(200);
  expect(responseSchema.parse(reply.json.data)).toEqual(reply.json.data);
  return reply.json.data;
}

const citeCalls = () => harness.upstream.calls('google_scholar_cite');

describe('every paper cited', () => {
  it('costs one paid call for a page no record source knows, and cites every paper by its title and first author', async () => {
    servePapers('unknown page', 'unknown', UNKNOWN);
    const data = expectSuccess(await harness.service.post(PATH, { query: 'unknown page' }));
    expect(harness.upstream.calls()).toBe(1);
    expect(citeCalls()).toBe(0);
    expect(crossref.requests.length).toBe(UNKNOWN.length);
    data.papers.forEach((paper: { title: string; citations: Record<string, string> }, i: number) => {
      expect(Object.keys(paper.citations)).toEqual(FIVE);
      const title = (UNKNOWN[i]?.title ?? '').toLowerCase();
      for (const format of FIVE) {
        expect(paper.citations[format]?.toLowerCase(), format).toContain(title);
        expect(paper.citations[format], format).toContain(UNKNOWN[i]?.author);
      }
    });
    expect(data.papers.map((p: { citations_source: string }) => p.citations_source)).toEqual(Array(5).fill('index-record'));
    expect(data.papers.map((p: { citation_gaps: string[] }) => p.citation_gaps)).toEqual([
      ['publisher'],
      ['institution', 'degree'],
      ['doi'],
      ['authors truncated', 'venue truncated', 'pages', 'publisher', 'doi'],
      ['volume', 'issue', 'pages', 'doi'],
    ]);
    // What the index said, in the form each kind of work is cited in; nothing it did not say.
    expect(data.papers[2].citations.APA).toBe(
      'He, K., Zhang, X., Ren, S., & Sun, J. (2015). Deep residual learning for image recognition (Preprint arXiv:1512.03385). arXiv. https://example.org/papers/unknown-3',
    );
    expect(data.papers[4].citations.APA).toBe(
      'Ndlovu, L. T., & Smith, P. (1998). Grazing and the dynamics of savanna vegetation. Journal of Arid Environments. https://example.org/papers/unknown-5',
    );
    expect(data.papers[4].citations.Harvard).not.toMatch(/preprint/i);
    expect(data.citation_count).toBe(5);
  });

  it('with "citation_source": "index" and every cite answer empty, still cites every paper, saying why', async () => {
    const page = scholarPage('empty-cites', UNKNOWN);
    const empty = { search_metadata: { status: 'Success' }, citations: [], links: [] };
    harness.upstream.respond((q) => {
      if (q.get('engine') === 'google_scholar_cite') return { json: empty };
      return q.get('engine') === 'google_scholar' ? { json: page } : undefined;
    });
    const data = expectSuccess(await harness.service.post(PATH, { query: 'empty cites', citation_source: 'index' }));
    for (const paper of data.papers) {
      expect(Object.keys(paper.citations)).toEqual(FIVE);
      expect(paper.citations_source).toBe('index-record');
    }
    // Each paper asked says its answer was empty; after three empty answers in a row the engine is not asked
    // (test/integration/cite-index-empty.test.ts), and the papers left say so.
    const reasons = data.citation_details.map((detail: { fallback_reason: string }) => detail.fallback_reason);
    expect(reasons.filter((reason: string) => reason === "The index's cite answer held no citations")).toHaveLength(citeCalls());
    expect(citeCalls()).toBeLessThanOrEqual(UNKNOWN.length);
    for (const reason of reasons) {
      expect(reason).toMatch(/^The index's cite (?:answer held no citations|call was not made: .+)$/);
    }
    for (const detail of data.citation_details) expect(detail.error).toBeNull();
  });

  it('gives "&" for a record deposited with "&amp;", in every citation and every export', async () => {
    servePapers('entities', 'entities', [SHOLLER]);
    crossref.respond(() => ({ status: 200, body: JSON.stringify({ status: 'ok', message: { items: [BIG_DATA_SOCIETY] } }) }));
    const data = expectSuccess(await harness.service.post(PATH, { query: 'entities', export: ['csl-json', 'bibtex', 'ris'] }));
    const [paper] = data.papers;
    expect(paper.citations_source).toBe('crossref');
    expect(paper.doi).toBe('10.1177/2053951719836258');
    for (const format of FIVE) {
      expect(paper.citations[format], format).toContain('Big Data & Society');
      expect(paper.citations[format], format).not.toContain('&amp;');
    }
    expect(paper.exports.csl_json['container-title']).toBe('Big Data & Society');
    expect(paper.exports.ris).toMatch(/^(?:JO|T2|JF) {2}- Big Data & Society$/m);
    expect(paper.exports.bibtex).toContain('Big Data \\& Society');
    expect(JSON.stringify(paper.exports)).not.toContain('&amp;');
  });

  it('writes the journal in italics in APA when asked for HTML', async () => {
    servePapers('html page', 'html', [EARLY_WARNING]);
    const data = expectSuccess(await harness.service.post(PATH, { query: 'html page', citation_markup: 'html', format: 'APA' }));
    expect(data.papers[0].citations_source).toBe('crossref');
    expect(data.papers[0].citations.APA).toContain('<i>Theoretical Ecology</i>');
    expect(data.reference_list[0]).toBe(`[1] ${data.papers[0].citations.APA}`);
    // The same paper as text has no markup: the two are cached apart.
    const text = expectSuccess(await harness.service.post(PATH, { query: 'html page', format: 'APA' }));
    expect(text.papers[0].citations.APA).not.toContain('<');
    expect(text.papers[0].citations.APA).toContain('Theoretical Ecology');
  });

  it('gives each paper of an answer its own RIS ID, also for DOIs alike in their first characters', async () => {
    servePapers('ris ids', 'ris-ids', UNKNOWN);
    const data = expectSuccess(await harness.service.post(PATH, { query: 'ris ids', export: ['ris'] }));
    const ids = data.papers.map((paper: { exports: { ris: string } }) => /^ID {2}- (.+)$/m.exec(paper.exports.ris)?.[1]);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
