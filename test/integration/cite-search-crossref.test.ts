/**
 * POST /v1/cite/search with citations rendered from Crossref records (`citation_source: "auto"`, the
 * default), over real HTTP: the fake SerpApi lists real papers (the recorded scholar result, retitled),
 * the fake Crossref answers from a recorded Crossref answer, and the paid calls are counted at the fake
 * SerpApi. Each test uses its own scholar result ids, so the caches of one test never answer another's.
 */
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../../lib/contract/cite-search.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { BANANAS, EARLY_WARNING } from '../support/index-papers.js';
import type { Reply } from '../support/service.js';

const PATH = '/v1/cite/search';
const FIVE = ['MLA', 'APA', 'Chicago', 'Harvard', 'Vancouver'];
const { harness, crossref, servePapers } = await useCrossrefService({
  // Repeated requests are answered from the answer cache, as deployed.
  ANSWER_CACHE_TTL_SECONDS: '3600',
});

/** Real papers, as the index lists them; the first three are in the recorded Crossref answer. */
const FORECAST_TRAP = { title: 'The forecast trap', summary: 'C Boettiger - Ecology Letters, 2022 - Wiley Online Library' };
const FROM_NOISE = {
  title: 'From noise to knowledge: how randomness generates novel phenomena and reveals information',
  summary: 'C Boettiger - Ecology letters, 2018 - Wiley Online Library',
};

const citeIds = () => harness.upstream.requests.filter((q) => q.get('engine') === 'google_scholar_cite').map((q) => q.get('q'));

function expectSuccess(reply: Reply) {
  expect(reply.status).toBe(200);
  expect(reply.json.success).toBe(true);
  expect(responseSchema.parse(reply.json.data)).toEqual(reply.json.data);
  return reply.json.data;
}

describe('POST /v1/cite/search, citations from Crossref records', () => {
  it('costs one paid call for a page whose papers Crossref knows, and renders all five formats from the records', async () => {
    servePapers('known page', 'known', [FORECAST_TRAP, EARLY_WARNING, FROM_NOISE]);
    const data = expectSuccess(await harness.service.post(PATH, { query: 'known page' }));

    expect(harness.upstream.calls()).toBe(1);
    expect(citeIds()).toEqual([]);
    expect(crossref.requests).toHaveLength(3);
    expect(data.papers.map((p: { citations_source: string }) => p.citations_source)).toEqual([
      'crossref',
      'crossref',
      'crossref',
    ]);
    for (const paper of data.papers) expect(Object.keys(paper.citations)).toEqual(FIVE);
    expect(data.papers[0].citations).toEqual({
      MLA: 'Boettiger, Carl. “The Forecast Trap.” Ecology Letters, vol. 25, no. 7, May 2022, pp. 1655–64, https://doi.org/10.1111/ele.14024.',
      APA: 'Boettiger, C. (2022). The forecast trap. Ecology Letters, 25(7), 1655–1664. https://doi.org/10.1111/ele.14024',
      Chicago:
        'Boettiger, Carl. “The Forecast Trap.” Ecology Letters 25, no. 7 (2022): 1655–64. https://doi.org/10.1111/ele.14024.',
      Harvard:
        'Boettiger, C. (2022) ‘The forecast trap’, Ecology Letters, 25(7), pp. 1655–1664. Available at: https://doi.org/10.1111/ele.14024.',
      Vancouver: 'Boettiger C. The forecast trap. Ecology Letters. 2022 May 30;25(7):1655–64. doi:10.1111/ele.14024',
    });
    // Every author, not the index's shortened list.
    expect(data.papers[1].citations.APA).toMatch(/^Boettiger, C\., Ross, N\., & Hastings, A\. \(2013\)\. Early warning signals/);
    expect(data.citation_details.map((d: { crossref_fallback: unknown }) => d.crossref_fallback)).toEqual([null, null, null]);
    expect(data.citation_details[0].formats.map((f: { name: string }) => f.name)).toEqual(FIVE);
    expect(data.citation_details[0].links).toEqual([]);
    expect(data.reference_list[0]).toBe(`[1] ${data.papers[0].citations.MLA}`);
    expect(data.citation_count).toBe(3);
    expect(data.note).toContain("Every paper's citations come from their Crossref records.");
    // Not asked for an export: the DOI and the record stay out of the answer, as before.
    expect(data.papers[0]).not.toHaveProperty('doi');
  });

  it("renders the index's own record of the paper Crossref does not know, at no cite call", async () => {
    servePapers('mixed page', 'mixed', [FORECAST_TRAP, BANANAS, EARLY_WARNING]);
    const data = expectSuccess(await harness.service.post(PATH, { query: 'mixed page', format: 'APA' }));

    expect(harness.upstream.calls()).toBe(1);
    expect(citeIds()).toEqual([]);
    expect(data.papers.map((p: { citations_source: string }) => p.citations_source)).toEqual([
      'crossref',
      'index-record',
      'crossref',
    ]);
    expect(data.papers[1].citations.APA).toBe(
      'Robinson, J. C., & Saúco, V. G. (2010). Bananas and plantains. https://books.google.com/books?id=0GxOPqj2UVYC',
    );
    expect(data.papers[1].citation_gaps).toEqual(['publisher']);
    expect(data.papers[0].citation_gaps).toEqual([]);
    expect(data.citation_details[1].crossref_fallback).toMatch(/no work whose title, first author and year match/);
    expect(data.citation_details[1].fallback_reason).toBe(data.citation_details[1].crossref_fallback);
    expect(data.citation_details[1].links).toEqual([]);
    expect(data.reference_list).toHaveLength(3);
    expect(data.note).toContain('Citations come from their Crossref records for 2 of 3 papers');
  });

  it('with citation_source "index", makes one cite call per paper and asks Crossref nothing', async () => {
    servePapers('index only', 'index', [FORECAST_TRAP, EARLY_WARNING]);
    const data = expectSuccess(await harness.service.post(PATH, { query: 'index only', citation_source: 'index' }));

    expect(harness.upstream.calls()).toBe(3);
    expect(citeIds()).toEqual(['index-1', 'index-2']);
    expect(crossref.requests).toHaveLength(0);
    expect(data.papers.map((p: { citations_source: string }) => p.citations_source)).toEqual(['index', 'index']);
    expect(data.citation_details[0].crossref_fallback).toBe(
      'The request asked for the index\'s citations ("citation_source": "index")',
    );
  });

  it('costs no paid call and no render when repeated, and a new search listing known papers costs only its one call', async () => {
    servePapers('repeat me', 'repeat', [FORECAST_TRAP, BANANAS]);
    const body = { query: 'repeat me' };
    const first = expectSuccess(await harness.service.post(PATH, body));
    expect(harness.upstream.calls()).toBe(1);

    harness.upstream.reset();
    crossref.reset();
    servePapers('repeat me', 'repeat', [FORECAST_TRAP, BANANAS]);
    const again = await harness.service.post(PATH, body);
    expect(expectSuccess(again)).toEqual(first);
    expect(harness.upstream.calls()).toBe(0);
    // Crossref (free) is asked again only for the paper it did not know: a miss is not cached, so that a
    // record published since may be found. The matched paper's record and citations come from the cache.
    expect(crossref.requests.map((q) => q.get('query.bibliographic'))).toEqual([BANANAS.title]);
    crossref.reset();

    // Another query listing the same papers: its search is paid, the papers' records and citations are not.
    servePapers('repeat me elsewhere', 'repeat', [FORECAST_TRAP, BANANAS]);
    const other = expectSuccess(await harness.service.post(PATH, { query: 'repeat me elsewhere' }));
    expect(harness.upstream.calls()).toBe(1);
    expect(crossref.requests.map((q) => q.get('query.bibliographic'))).toEqual([BANANAS.title]);
    expect(other.papers.map((p: { citations: unknown }) => p.citations)).toEqual(
      first.papers.map((p: { citations: unknown }) => p.citations),
    );
  });

  it("falls back to the index's record for a paper whose lookup Crossref refuses (429), and asks Crossref nothing during the pause it sets", async () => {
    servePapers('refused', 'refused', [FORECAST_TRAP]);
    crossref.respond(() => ({
      status: 429,
      body: 'Too Many Requests',
      headers: { 'retry-after': '60', 'x-rate-limit-limit': '5', 'x-rate-limit-interval': '1s' },
    }));
    const data = expectSuccess(await harness.service.post(PATH, { query: 'refused' }));
    expect(citeIds()).toEqual([]);
    expect(data.papers[0].citations_source).toBe('index-record');
    // Crossref's Retry-After (60 s) is passed on: when to ask again.
    expect(data.citation_details[0].crossref_fallback).toMatch(
      /^Crossref refused the lookup for rate \(HTTP 429\) \(Retry-After: ask again after \S+Z\)$/,
    );

    // Within the minute Crossref asked for, a paper it knows is not looked up: it is cited from the index's record.
    crossref.reset();
    servePapers('during the pause', 'paused', [EARLY_WARNING]);
    const paused = expectSuccess(await harness.service.post(PATH, { query: 'during the pause' }));
    expect(crossref.requests).toHaveLength(0);
    expect(paused.papers[0].citations_source).toBe('index-record');
    expect(paused.citation_details[0].crossref_fallback).toMatch(
      /^Crossref asked for a pause \(HTTP 429\); not looked up \(Retry-After: ask again after \S+Z\)$/,
    );
  });

  it('answers with the five Crossref formats and its DOI when export is asked too, from one lookup', async () => {
    servePapers('with export', 'export', [EARLY_WARNING]);
    const data = expectSuccess(await harness.service.post(PATH, { query: 'with export', export: ['bibtex'] }));
    expect(crossref.requests).toHaveLength(1);
    expect(harness.upstream.calls()).toBe(1);
    expect(data.papers[0]).toMatchObject({ citations_source: 'crossref', doi: '10.1007/s12080-013-0192-6' });
    expect(data.papers[0].exports.bibtex).toContain('10.1007/s12080-013-0192-6');
  });

  it('accepts country, which changes nothing upstream', async () => {
    servePapers('by country', 'country', [BANANAS]);
    expectSuccess(await harness.service.post(PATH, { query: 'by country', country: 'GB' }));
    const search = harness.upstream.requests.find((q) => q.get('engine') === 'google_scholar');
    expect(search?.has('gl')).toBe(false);
    expect([...(search?.values() ?? [])].join(' ')).not.toMatch(/\bgb\b/i);
  });
});
