import { describe, expect, it } from 'vitest';
import { type CiteSearchRequest, requestSchema, toScholarParams } from '../../../functions/cite-search.js';
import type { CslItem } from '../../../lib/citations/model/csl.js';
import type { CitationRenderer } from '../../../lib/citations/render/render.js';
import { citePapers } from '../../../lib/citations/search/cite.js';
import { assemble, groupThousands, reshapeScholarPage, type ScholarPage } from '../../../lib/citations/search/page.js';
import { type SearchPaper, searchPapers } from '../../../lib/citations/search/paper.js';
import type { CitedRecord } from '../../../lib/citations/search/records.js';
import { type CiteAnswer, citeAll, reshapeCite } from '../../../lib/citations/sources/index-cite.js';
import { type Citations, responseSchema } from '../../../lib/contract/cite-search.js';
import { AppError } from '../../../lib/errors.js';
import { sample } from '../../../lib/local/samples.js';
import { formatIssues } from '../../../lib/middleware/validate.js';

const FIVE = ['MLA', 'APA', 'Chicago', 'Harvard', 'Vancouver'];

function request(fields: Record<string, unknown> = {}): CiteSearchRequest {
  return requestSchema.parse({ query: 'bananas', ...fields });
}

function rejection(fields: Record<string, unknown>): string {
  const parsed = requestSchema.safeParse({ query: 'bananas', ...fields });
  if (parsed.success) throw new Error('expected the request to be rejected');
  return formatIssues(parsed.error.issues);
}

/** The page's papers as the pipeline carries them, with the records and cite answers a test gives them. */
function papersOf(
  page: ScholarPage,
  given: { records?: CitedRecord[]; cites?: PromiseSettledResult<CiteAnswer>[] } = {},
): SearchPaper[] {
  return searchPapers(page).map((paper, i) => ({
    ...paper,
    ...(given.records?.[i] ? { record: given.records[i] } : {}),
    ...(given.cites?.[i] ? { cite: given.cites[i] } : {}),
  }));
}

const ok = (value: CiteAnswer): PromiseSettledResult<CiteAnswer> => ({ status: 'fulfilled', value });
const failed = (reason: unknown): PromiseSettledResult<CiteAnswer> => ({ status: 'rejected', reason });

describe('cite-search request', () => {
  it('defaults results to 10, page to 0, format to MLA, country to us, citation_source to auto and no_cache to false', () => {
    expect(request()).toMatchObject({
      query: 'bananas',
      results: 10,
      page: 0,
      format: 'MLA',
      country: 'us',
      citation_source: 'auto',
      no_cache: false,
    });
  });

  it('accepts a two-letter country in any case, and sends nothing for it (the scholarly search takes none)', () => {
    expect(request({ country: 'GB' }).country).toBe('GB');
    expect(toScholarParams(request({ country: 'de' }))).toEqual({ q: 'bananas', num: 10, start: 0 });
  });

  it('sends q, num = results and start = page × results, and no gl (the scholarly search has none)', () => {
    expect(toScholarParams(request({ results: 20, page: 3 }))).toEqual({ q: 'bananas', num: 20, start: 60 });
    expect(toScholarParams(request())).toEqual({ q: 'bananas', num: 10, start: 0 });
  });

  it.each([
    [{ results: 0 }, 'results: must be an integer from 1 to 20'],
    [{ results: 21 }, 'results: must be an integer from 1 to 20'],
    [{ results: '5' }, 'results: must be an integer from 1 to 20'],
    [{ page: 100 }, 'page: must be an integer from 0 to 99'],
    [{ country: 'usa' }, 'country: must be a two-letter country code, such as us or gb'],
    [{ country: 7 }, 'country: must be a string'],
    [{ citation_source: 'crossref' }, 'citation_source: must be one of: auto, index'],
    [{ format: 'apa 7' }, 'format: must be one of MLA, APA, Chicago, Harvard, Vancouver or a CSL style id'],
    [{ no_cache: 'yes' }, 'no_cache: must be true or false'],
    [{ num: 5 }, 'num: unknown field'],
  ])('rejects %o naming the field', (fields, message) => {
    expect(rejection(fields)).toContain(message);
  });
});

describe('reshapeScholarPage', () => {
  it('reads the recorded page: ids, links, "Cited by N", publication, total and next page', () => {
    const page = reshapeScholarPage(sample('google_scholar'), request());
    expect(page.total_results).toBe(1_140_000);
    expect(page.has_more).toBe(true);
    expect(page.papers).toEqual([
      {
        title: 'Bananas and plantains',
        source_url: expect.stringMatching(/^https:\/\/books\.google\.com\//),
        pdf_url: null,
        scholar_id: 'dyZ4bDycdLQJ',
        cited_by: 'Cited by 1179',
        publication: 'JC Robinson, VG Saúco - 2010 - books.google.com',
        snippet: expect.any(String),
        // The links a client needs to go on: the authors (none has a profile here), the citing papers, the versions.
        authors: [
          { name: 'JC Robinson', author_id: null },
          { name: 'VG Saúco', author_id: null },
        ],
        cites_id: '13003189807457248887',
        cluster_id: '13003189807457248887',
        result_type: 'Book',
      },
      expect.objectContaining({ scholar_id: 'l2aiAreIuHsJ', cited_by: 'Cited by 956', pdf_url: null }),
    ]);
  });

  it('takes the PDF resource as pdf_url and says "Cited by 0" when the index gives no count', () => {
    const json = {
      organic_results: [
        {
          title: 'A paper',
          result_id: 'abc',
          resources: [
            { title: 'example.org', file_format: 'HTML', link: 'https://example.org/a.html' },
            { title: 'example.org', file_format: 'PDF', link: 'https://example.org/a.pdf' },
          ],
        },
      ],
    };
    const [paper] = reshapeScholarPage(json, request()).papers;
    expect(paper).toEqual({
      title: 'A paper',
      source_url: null,
      pdf_url: 'https://example.org/a.pdf',
      scholar_id: 'abc',
      cited_by: 'Cited by 0',
      publication: null,
      snippet: null,
      authors: [],
      cites_id: null,
      cluster_id: null,
      result_type: null,
    });
  });

  it('keeps at most `results` papers, and reports no next page without one or past page 99', () => {
    const json = sample('google_scholar');
    expect(reshapeScholarPage(json, request({ results: 1 })).papers).toHaveLength(1);
    expect(reshapeScholarPage(json, request({ page: 99 })).has_more).toBe(false);
    const { serpapi_pagination: _a, pagination: _b, ...last } = json;
    expect(reshapeScholarPage(last, request()).has_more).toBe(false);
  });

  it('answers an empty page for the upstream "no results" answer', () => {
    const page = reshapeScholarPage({ error: "Google hasn't returned any results for this query." }, request());
    expect(page).toEqual({ papers: [], facts: [], total_results: null, has_more: false });
  });
});

describe('reshapeCite', () => {
  it('keys the five formats by name and keeps every format and export link', () => {
    const answer = reshapeCite(sample('google_scholar_cite'));
    expect(Object.keys(answer.citations)).toEqual(FIVE);
    expect(answer.citations.APA).toBe(
      'Schwertmann, U. T. R. M., & Taylor, R. M. (1989). Iron oxides. Minerals in soil environments, 1, 379-438.',
    );
    expect(answer.formats.map((f) => f.name)).toEqual(FIVE);
    expect(answer.links.map((l) => l.name)).toEqual(['BibTeX', 'EndNote', 'RefMan', 'RefWorks']);
    expect(answer.links[0]?.url).toMatch(/^https:\/\/scholar\.googleusercontent\.com\/scholar\.bib/);
  });

  it('keeps a format beyond the five in formats only, and tolerates an answer with nothing', () => {
    const answer = reshapeCite({ citations: [{ title: 'ABNT', snippet: 'SCHWERTMANN, U.' }, { title: 'MLA' }] });
    expect(answer).toEqual({ citations: {}, formats: [{ name: 'ABNT', text: 'SCHWERTMANN, U.' }], links: [] });
    expect(reshapeCite({})).toEqual({ citations: {}, formats: [], links: [] });
  });
});

/**
 * A renderer that writes what it was given, so that each citation shows which record it came from; a
 * record whose title says so gets nothing in the formats it names (a style that renders nothing).
 */
const echoRenderer: CitationRenderer = {
  render(item: CslItem, markup = 'text') {
    const citations: Citations = {};
    const family = (item.author as { family?: string }[] | undefined)?.[0]?.family ?? 'anonymous';
    for (const format of FIVE as (keyof Citations)[]) {
      if (String(item.title).includes(`no ${format}`)) continue;
      citations[format] = `${format}${markup === 'html' ? ' <i>html</i>' : ''}: ${family}, ${item.title} (${item.type})`;
    }
    return citations;
  },
};

const matched = (citations: Citations): CitedRecord => ({
  doi: '10.1/x',
  source: 'crossref',
  csl: { id: '10.1/x', type: 'article-journal', title: 'x' },
  citations,
});
const unmatched = (reason: string): CitedRecord => ({ doi: null, reason });

describe('assemble with citePapers', () => {
  const page = reshapeScholarPage(sample('google_scholar'), request());
  const cite = reshapeCite(sample('google_scholar_cite'));

  it("fills every field on the recorded samples with the index's cite answers, and the contract schema accepts it", () => {
    const cited = citePapers(papersOf(page, { cites: [ok(cite), ok(cite)] }), {
      renderer: echoRenderer,
      markup: 'text',
      askedIndex: true,
    });
    const data = assemble(request(), page, cited);
    expect(responseSchema.parse(data)).toEqual(data);
    expect(data).toMatchObject({
      total_found: 2,
      total_results: 1_140_000,
      citation_count: 2,
      format: 'MLA',
      citation_markup: 'text',
      page: 0,
      has_more: true,
      index_offset: 0,
    });
    expect(data.reference_list).toEqual([`[1] ${cite.citations.MLA}`, `[2] ${cite.citations.MLA}`]);
    expect(data.url_list).toEqual(page.papers.map((p) => p.source_url));
    expect(data.papers.map((p) => p.index)).toEqual([1, 2]);
    expect(data.citation_details[1]).toEqual({
      index: 2,
      scholar_id: 'l2aiAreIuHsJ',
      formats: cite.formats.map((format) => ({ ...format, source: 'index' })),
      links: cite.links,
      error: null,
      fallback_reason: null,
      crossref_fallback: 'The request asked for the index\'s citations ("citation_source": "index")',
    });
    expect(data.papers.map((p) => p.citations_source)).toEqual(['index', 'index']);
    expect(data.papers.map((p) => p.citation_gaps)).toEqual([[], []]);
    expect(data.note).toBe(
      'Papers 1–2 of about 1,140,000; reference_list holds 2 in MLA style. Every paper\'s citations come from the index\'s cite answers. For the next page, send the same request with "page": 1.',
    );
  });

  it('numbers papers from index_offset = page × results, in the chosen format', () => {
    const cited = citePapers(papersOf(page, { cites: [ok(cite), ok(cite)] }), {
      renderer: echoRenderer,
      markup: 'text',
      askedIndex: true,
    });
    const data = assemble(request({ page: 2, results: 7, format: 'Vancouver' }), page, cited);
    expect(data.index_offset).toBe(14);
    expect(data.papers.map((p) => p.index)).toEqual([15, 16]);
    expect(data.reference_list[0]).toBe(`[15] ${cite.citations.Vancouver}`);
  });

  it("renders the index's own record of a paper whose cite call failed or was empty, and says why", () => {
    const timeout = new AppError('UPSTREAM_TIMEOUT', { details: 'The search provider did not answer within the deadline' });
    const empty: CiteAnswer = { citations: {}, formats: [], links: [] };
    const cited = citePapers(papersOf(page, { cites: [failed(timeout), ok(empty)] }), {
      renderer: echoRenderer,
      markup: 'text',
      askedIndex: true,
    });
    const data = assemble(request(), page, cited);
    expect(responseSchema.parse(data)).toEqual(data);
    for (const paper of data.papers) {
      expect(Object.keys(paper.citations)).toEqual(FIVE);
      expect(paper.citations_source).toBe('index-record');
      expect(paper.citations.MLA).toContain(paper.title.replace(/\.$/, ''));
    }
    expect(data.papers[0]?.citations.APA).toBe('APA: Robinson, Bananas and plantains (book)');
    expect(data.papers[0]?.citation_gaps).toEqual(['publisher']);
    expect(data.citation_details[0]?.fallback_reason).toBe(
      "The index's cite call failed: The search provider did not answer within the deadline",
    );
    expect(data.citation_details[1]?.fallback_reason).toBe("The index's cite answer held no citations");
    expect(data.citation_details[0]?.error).toBeNull();
    expect(data.citation_count).toBe(2);
    expect(data.note).toContain("Every paper's citations come from the index's own records of them");
  });

  it("takes only the formats a source lacks from the next source, and names each one's source", () => {
    const fourFormats: CiteAnswer = { ...cite, citations: { ...cite.citations, Chicago: undefined } };
    delete fourFormats.citations.Chicago;
    const cited = citePapers(
      papersOf(page, {
        records: [
          matched({ MLA: 'crossref MLA', APA: 'crossref APA', Harvard: 'h', Vancouver: 'v' }),
          unmatched('Crossref did not answer in time'),
        ],
      }),
      { renderer: echoRenderer, markup: 'text', askedIndex: false },
    );
    const data = assemble(request(), page, cited);
    expect(responseSchema.parse(data)).toEqual(data);
    expect(data.papers[0]?.citations).toEqual({
      MLA: 'crossref MLA',
      APA: 'crossref APA',
      Chicago: 'Chicago: Robinson, Bananas and plantains (book)',
      Harvard: 'h',
      Vancouver: 'v',
    });
    expect(data.papers[0]?.citations_source).toBe('crossref');
    expect(data.citation_details[0]?.formats.map((f) => f.source)).toEqual([
      'crossref',
      'crossref',
      'index-record',
      'crossref',
      'crossref',
    ]);
    expect(data.citation_details[0]?.fallback_reason).toBe('Chicago: the style renders nothing for the Crossref record');
    expect(data.citation_details[0]?.crossref_fallback).toBe('Chicago: the style renders nothing for the Crossref record');
    expect(data.papers[1]?.citations_source).toBe('index-record');
    expect(data.citation_details[1]?.crossref_fallback).toBe('Crossref did not answer in time');
    expect(data.note).toContain('Citations come from their Crossref records for 1 of 2 papers');
    // With a cite answer lacking one format, the index's record fills only that one.
    const mixed = citePapers(papersOf(page, { cites: [ok(fourFormats), ok(cite)] }), {
      renderer: echoRenderer,
      markup: 'text',
      askedIndex: true,
    });
    expect(mixed[0]?.citations.Chicago).toBe('Chicago: Robinson, Bananas and plantains (book)');
    expect(mixed[0]?.citations.MLA).toBe(cite.citations.MLA);
    expect(mixed[0]?.source).toBe('index');
    expect(mixed[0]?.fallbackReason).toBe("The index's cite answer lacked Chicago");
  });

  it('names as citations_source the source of most formats, the earlier one on a tie', () => {
    const twoFormats: CiteAnswer = { citations: { MLA: 'index MLA', APA: 'index APA' }, formats: [], links: [] };
    const [paper] = citePapers(
      papersOf(page, {
        records: [matched({ Chicago: 'crossref Chicago', Harvard: 'crossref Harvard' })],
        cites: [ok(twoFormats)],
      }),
      { renderer: echoRenderer, markup: 'text', askedIndex: true },
    );
    expect(paper?.formats.map((f) => f.source)).toEqual(['index', 'index', 'crossref', 'crossref', 'index-record']);
    expect(paper?.source).toBe('index');
  });

  it('asks the renderer for HTML when the request does, and says so', () => {
    const cited = citePapers(papersOf(page), { renderer: echoRenderer, markup: 'html', askedIndex: false });
    const data = assemble(request({ citation_markup: 'html' }), page, cited);
    expect(data.citation_markup).toBe('html');
    expect(data.papers[0]?.citations.APA).toBe('APA <i>html</i>: Robinson, Bananas and plantains (book)');
  });

  it('lists a paper with no citations at all with citations {} and its reason, and counts only generated entries', () => {
    const timeout = new AppError('UPSTREAM_TIMEOUT', { details: 'The search provider did not answer within the deadline' });
    const cited = citePapers(papersOf(page, { cites: [failed(timeout), ok(cite)] }), {
      renderer: undefined,
      markup: 'text',
      askedIndex: true,
    });
    const data = assemble(request(), page, cited);
    expect(responseSchema.parse(data)).toEqual(data);
    expect(data.papers[0]?.citations).toEqual({});
    expect(data.papers[1]?.citations).toEqual(cite.citations);
    expect(data.citation_details[0]).toMatchObject({
      index: 1,
      formats: [],
      links: [],
      error: 'The citation styles could not be loaded; the next request tries again',
    });
    expect(data.papers[0]?.citations_source).toBeNull();
    expect(data.citation_count).toBe(1);
    expect(data.reference_list).toEqual([`[2] ${cite.citations.MLA}`]);
    expect(data.note).toContain('1 of 2 papers lack citations');
  });

  it('does not reveal an unexpected error, and prefers the PDF link in url_list', () => {
    const withPdf = {
      ...page,
      papers: page.papers.map((p, i) => (i === 0 ? { ...p, pdf_url: 'https://example.org/a.pdf' } : p)),
    };
    const cited = citePapers(papersOf(withPdf, { cites: [ok(cite), failed(new Error('secret internals'))] }), {
      renderer: echoRenderer,
      markup: 'text',
      askedIndex: true,
    });
    const data = assemble(request(), withPdf, cited);
    expect(data.citation_details[1]?.fallback_reason).toBe(
      "The index's cite call failed: Unexpected error while fetching the citations",
    );
    expect(JSON.stringify(data)).not.toContain('secret internals');
    expect(data.url_list).toEqual(['https://example.org/a.pdf', page.papers[1]?.source_url]);
  });

  it('says this is the last page, or that nothing was found', () => {
    const cited = citePapers(papersOf(page), { renderer: echoRenderer, markup: 'text', askedIndex: false });
    expect(assemble(request(), { ...page, has_more: false }, cited).note).toMatch(/This is the last page\.$/);
    const empty = assemble(request({ page: 4 }), { papers: [], facts: [], total_results: null, has_more: false }, []);
    expect(empty).toMatchObject({
      total_found: 0,
      citation_count: 0,
      papers: [],
      reference_list: [],
      url_list: [],
      has_more: false,
    });
    expect(empty.note).toBe('No papers on page 4 for this query. Try an earlier page.');
  });
});

describe('citeAll', () => {
  const cite = reshapeCite(sample('google_scholar_cite'));
  const papers = Array.from({ length: 20 }, (_, i) => ({
    title: `paper ${i + 1}`,
    source_url: null,
    pdf_url: null,
    scholar_id: `id-${i + 1}`,
    cited_by: 'Cited by 0',
    publication: null,
    snippet: null,
  }));

  it('with the default concurrency, starts all 20 cite calls before any answers', async () => {
    const started: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const running = citeAll(papers, async (id) => {
      started.push(id);
      await gate;
      return cite;
    });
    expect(started).toEqual(papers.map((p) => p.scholar_id));
    release();
    const results = await running;
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
  });

  it('settles a failed cite without failing the others, and never looks up a paper with no id', async () => {
    const asked: string[] = [];
    const results = await citeAll(
      papers.slice(0, 3).map((p, i) => (i === 1 ? { ...p, scholar_id: '' } : p)),
      async (id) => {
        asked.push(id);
        if (id === 'id-3') throw new AppError('UPSTREAM_TIMEOUT');
        return cite;
      },
    );
    expect(asked).toEqual(['id-1', 'id-3']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
  });
});

describe('groupThousands', () => {
  it('groups digits by three with commas, as the note shows the index estimate', () => {
    expect(groupThousands(1_234_567)).toBe('1,234,567');
    expect(groupThousands(999)).toBe('999');
    expect(groupThousands(0)).toBe('0');
  });
});
