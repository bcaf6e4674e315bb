/**
 * POST /v1/cite/resolve and POST /v1/cite/styles over real HTTP: the fake Crossref answers DOI look-ups and
 * bibliographic queries with works Crossref's own reference matcher recorded (test/fixtures/SOURCES.md),
 * the style catalogue is the shipped pack, and the fake SerpApi counts paid calls (there must be none).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { responseSchema as resolveSchema } from '../../lib/contract/cite-resolve.js';
import { responseSchema as searchSchema } from '../../lib/contract/cite-search.js';
import { responseSchema as stylesSchema } from '../../lib/contract/cite-styles.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { BANANAS, EARLY_WARNING } from '../support/index-papers.js';
import type { Reply } from '../support/service.js';

const FIVE = ['MLA', 'APA', 'Chicago', 'Harvard', 'Vancouver'];
const { harness, crossref, servePapers } = await useCrossrefService();

interface RecordedWork {
  DOI: string;
  [field: string]: unknown;
}
const WORKS = (
  JSON.parse(readFileSync(new URL('../fixtures/crossref/works-reference-matcher.json', import.meta.url), 'utf8')) as {
    works: { work: RecordedWork }[];
  }
).works.map(({ work }) => work);
const work = (doi: string) => WORKS.find((w) => w.DOI.toLowerCase() === doi.toLowerCase()) as RecordedWork;

const CERMINE = '10.1007/s10032-015-0249-8';
const CERMINE_DAS = '10.1109/das.2014.63';
const HADOOP = '10.1007/978-3-319-04714-0_10';
const HADOOP_TEXT =
  'Dendek, P. J., Czeczko, A., Fedoryszak, M., Kawa, A., Wendykier, P., & Bolikowski, Ł. (2014). Content analysis of scientific articles in Apache Hadoop ecosystem. In Intelligent Tools for Building a Scientific Information Platform (Studies in Computational Intelligence, pp. 157–172). Springer.';

const answer = (items: RecordedWork[]) => ({
  status: 200,
  body: JSON.stringify({ status: 'ok', message: { 'total-results': items.length, items } }),
});

/** Crossref as it answers: a DOI filter gives those works; a bibliographic query its ranked candidates. */
function crossrefAnswers(query: URLSearchParams) {
  const filter = query.get('filter');
  if (filter?.startsWith('doi:')) {
    const dois = filter.split(',').map((part) => part.replace(/^doi:/, '').toLowerCase());
    return answer(WORKS.filter((w) => dois.includes(w.DOI.toLowerCase())));
  }
  if (query.get('query.bibliographic')?.includes('Hadoop')) {
    // The right work among others of its authors and its publisher, as a real answer ranks them.
    return answer([work(HADOOP), work('10.1109/das.2012.4'), work(CERMINE), work('10.1007/978-3-319-25518-7_8')]);
  }
  return answer([]);
}

function expectSuccess(reply: Reply, schema: { parse(value: unknown): unknown }) {
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  expect(reply.json.success).toBe(true);
  expect(schema.parse(reply.json.data)).toEqual(reply.json.data);
  return reply.json.data;
}

describe('POST /v1/cite/resolve', () => {
  it('resolves two DOIs and a free-text reference with no paid call, each in the five formats and the asked styles', async () => {
    crossref.respond(crossrefAnswers);
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', {
        references: [CERMINE, `https://doi.org/${CERMINE_DAS.toUpperCase()}`, HADOOP_TEXT],
        styles: ['ieee', 'nature'],
      }),
      resolveSchema,
    );
    expect(harness.upstream.calls()).toBe(0);
    expect(data.references.map((r: { doi: string }) => r.doi)).toEqual([CERMINE, CERMINE_DAS, HADOOP]);
    expect(data.references.map((r: { match: { method: string } }) => r.match.method)).toEqual(['exact', 'exact', 'search']);
    expect(data.references[2].match.score).toBeGreaterThan(0.8);
    expect(data.resolved).toBe(3);
    for (const reference of data.references) {
      expect(Object.keys(reference.citations)).toEqual(FIVE);
      expect(Object.keys(reference.styled_citations).sort()).toEqual(['ieee', 'nature']);
    }
    expect(data.references[0].title).toBe('CERMINE: automatic extraction of structured metadata from scientific literature');
    expect(data.references[0].year).toBe(2015);
    expect(data.references[0].authors[0]).toBe('Dominika Tkaczyk');
    // IEEE: initials first, the title in quotes, no list number; Nature: numbered styles lose their number too.
    expect(data.references[0].styled_citations.ieee).toMatch(/^D\. Tkaczyk, .*“CERMINE: automatic extraction/);
    expect(data.references[0].styled_citations.nature).toBe(
      'Tkaczyk, D., Szostek, P., Fedoryszak, M., Dendek, P. J. & Bolikowski, Ł. CERMINE: automatic extraction of structured metadata from scientific literature. International Journal on Document Analysis and Recognition (IJDAR) 18, 317–335 (2015).',
    );
    // One look-up for both DOIs, one search for the text.
    const filters = crossref.requests.filter((q) => q.get('filter'));
    expect(filters).toHaveLength(1);
    expect(crossref.requests.filter((q) => q.get('query.bibliographic'))).toHaveLength(1);
  });

  it('answers an unknown DOI and an unmatched text with a reason, never failing the list', async () => {
    crossref.respond(crossrefAnswers);
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', {
        references: ['doi:10.5555/not-registered', 'A paper nobody wrote. Journal of Nothing, 1999.', CERMINE],
      }),
      resolveSchema,
    );
    expect(data.references.map((r: { doi: string | null }) => r.doi)).toEqual([null, null, CERMINE]);
    expect(data.references[0].reason).toMatch(/^Neither Crossref nor DataCite has a record of this DOI/);
    expect(data.references[0].citations_source).toBeNull();
    expect(data.references[1].reason).toBeTruthy();
    expect(data.references[1].citations).toEqual({});
    expect(data.resolved).toBe(1);
  });

  it('answers a failed Crossref with a reason per reference', async () => {
    crossref.respond(() => 'status500');
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', { references: ['10.5555/failing-lookup'] }),
      resolveSchema,
    );
    expect(data.references[0].doi).toBeNull();
    expect(data.references[0].reason).toMatch(/HTTP 500/);
  });

  it('gives BibTeX keys no two references share', async () => {
    crossref.respond(crossrefAnswers);
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', { references: [CERMINE, CERMINE.toUpperCase()], export: ['bibtex'] }),
      resolveSchema,
    );
    const keys = data.references.map((r: { exports: { bibtex: string } }) => /^@\w+\{([^,]+),/.exec(r.exports.bibtex)?.[1]);
    expect(keys[0]).toBeTruthy();
    expect(new Set(keys).size).toBe(2);
  });

  it('looks DOIs up twenty to a request', async () => {
    crossref.respond(crossrefAnswers);
    const dois = Array.from({ length: 45 }, (_, i) => `10.5555/batch-${i}`);
    const data = expectSuccess(await harness.service.post('/v1/cite/resolve', { references: dois }), resolveSchema);
    expect(data.references).toHaveLength(45);
    const filters = crossref.requests.map((q) => q.get('filter')?.split(',').length);
    expect(filters).toEqual([20, 20, 5]);
  });

  it('takes a DOI written in a reference; one Crossref does not know is searched by its text, and a title found under another DOI refused', async () => {
    crossref.respond(crossrefAnswers);
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', {
        references: [`${HADOOP_TEXT} https://doi.org/10.5555/mistyped`, `Tkaczyk D. et al. CERMINE. IJDAR 2015. doi:${CERMINE}`],
      }),
      resolveSchema,
    );
    // The reference names another DOI than the work its title finds (a dataset's, a typo): no guess.
    expect(data.references.map((r: { doi: string }) => r.doi)).toEqual([null, CERMINE]);
    expect(data.references.map((r: { match: { rule: string } }) => r.match.rule)).toEqual(['doi_conflict', 'doi_in_text']);
    expect(crossref.requests.filter((q) => q.get('query.bibliographic'))).toHaveLength(1);
  });

  it('caches a resolved reference, not an unresolved one', async () => {
    crossref.respond(crossrefAnswers);
    const body = { references: [HADOOP_TEXT.replace('2014', '2014 '), 'Nobody. A work nobody wrote. 1999.'] };
    await harness.service.post('/v1/cite/resolve', body);
    expect(crossref.requests).toHaveLength(2);
    crossref.reset();
    crossref.respond(crossrefAnswers);
    const again = expectSuccess(await harness.service.post('/v1/cite/resolve', body), resolveSchema);
    expect(again.references[0].doi).toBe(HADOOP);
    // Only the unresolved one is looked up again.
    expect(crossref.requests.map((q) => q.get('query.bibliographic'))).toEqual(['Nobody. A work nobody wrote. 1999.']);
  });

  it('refuses an unknown style with a 400 naming styles and close ids, before any lookup', async () => {
    const reply = await harness.service.post('/v1/cite/resolve', { references: [CERMINE], styles: ['nature', 'ieeee'] });
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe('INVALID_REQUEST');
    expect(reply.json.error.details).toMatch(/^styles\.1: no CSL style "ieeee"; close ids: ieee/);
    expect(crossref.requests).toHaveLength(0);
  });

  it('refuses more than 50 references and more than 5 styles', async () => {
    const many = await harness.service.post('/v1/cite/resolve', {
      references: Array.from({ length: 51 }, (_, i) => `10.5555/${i}`),
    });
    expect(many.status).toBe(400);
    expect(many.json.error.details).toMatch(/^references: at most 50 references/);
    const styles = await harness.service.post('/v1/cite/resolve', {
      references: [CERMINE],
      styles: ['a', 'b', 'c', 'd', 'e', 'f'],
    });
    expect(styles.status).toBe(400);
    expect(styles.json.error.details).toMatch(/^styles: at most 5 styles/);
  });
});

describe('POST /v1/cite/styles', () => {
  it('finds nature first and counts the whole catalogue', async () => {
    const data = expectSuccess(await harness.service.post('/v1/cite/styles', { query: 'nature' }), stylesSchema);
    expect(data.total_styles).toBeGreaterThanOrEqual(2000);
    expect(data.styles[0].id).toBe('nature');
    expect(data.styles[0].parent).toBeNull();
    expect(data.total_matches).toBeGreaterThan(data.styles.length);
    expect(data.has_more).toBe(true);
    expect(harness.upstream.calls()).toBe(0);
  });

  it("filters by field and names a dependent style's parent", async () => {
    const data = expectSuccess(await harness.service.post('/v1/cite/styles', { field: 'medicine', results: 100 }), stylesSchema);
    expect(data.styles.length).toBe(100);
    for (const style of data.styles) expect(style.fields).toContain('medicine');
    const dependents = expectSuccess(await harness.service.post('/v1/cite/styles', { query: 'lab animal' }), stylesSchema);
    expect(dependents.styles.find((style: { id: string }) => style.id === 'lab-animal')).toMatchObject({ parent: 'nature' });
  });
});

describe('POST /v1/cite/search with styles', () => {
  it('gives every paper each asked style, keeps citations to the five, and can list in a style beyond them', async () => {
    crossref.respond(() => answer([]));
    servePapers('styled page', 'styled', [EARLY_WARNING, BANANAS]);
    const data = expectSuccess(
      await harness.service.post('/v1/cite/search', { query: 'styled page', styles: ['nature', 'ieee'], format: 'ieee' }),
      searchSchema,
    );
    expect(harness.upstream.calls()).toBe(1);
    for (const paper of data.papers) {
      expect(Object.keys(paper.styled_citations).sort()).toEqual(['ieee', 'nature']);
      expect(Object.keys(paper.citations).every((format) => FIVE.includes(format))).toBe(true);
    }
    expect(data.format).toBe('ieee');
    expect(data.reference_list[0]).toBe(`[1] ${data.papers[0].styled_citations.ieee}`);
  });

  it('refuses an unknown format id before the paid search', async () => {
    const reply = await harness.service.post('/v1/cite/search', { query: 'styled page', format: 'naturee' });
    expect(reply.status).toBe(400);
    expect(reply.json.error.details).toMatch(/^format: no CSL style "naturee"; close ids: .*nature/);
    expect(harness.upstream.calls()).toBe(0);
  });
});

describe('POST /v1/cite/resolve: a DOI in a reference is a claim', () => {
  it('gives no DOI (doi_conflict) to a reference whose DOI is the record of a work of another title and first author, naming that work', async () => {
    crossref.respond(crossrefAnswers);
    // The Hadoop chapter's reference, with the DOI of the Urdu OCR article.
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', {
        references: [`${HADOOP_TEXT} https://doi.org/10.1007/s10032-015-0250-2`],
      }),
      resolveSchema,
    );
    expect(data.references[0]).toMatchObject({
      doi: null,
      citations_source: null,
      match: { method: 'exact', rule: 'doi_conflict' },
    });
    expect(data.references[0].reason).toMatch(
      /^The reference holds the DOI 10\.1007\/s10032-015-0250-2, which is the record of “Nastalique segmentation-based approach for Urdu OCR” \(.*Hussain.*2015\)/,
    );
  });

  it('keeps the DOI of a reference whose title is its record’s, or whose title is cut but first author its record’s', async () => {
    crossref.respond(crossrefAnswers);
    const data = expectSuccess(
      await harness.service.post('/v1/cite/resolve', {
        references: [
          `${HADOOP_TEXT} https://doi.org/${HADOOP}`,
          `Dendek PJ, Czeczko A, et al. Content analysis (2014). doi:${HADOOP}`,
          `doi:${HADOOP} Dendek 2014`,
        ],
      }),
      resolveSchema,
    );
    expect(data.references.map((r: { doi: string }) => r.doi)).toEqual([HADOOP, HADOOP, HADOOP]);
  });
});
