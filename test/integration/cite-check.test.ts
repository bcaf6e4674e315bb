/**
 * POST /v1/cite/check over real HTTP: a fake Crossref and DataCite holding recorded works (and the
 * constructed notices and retractions the labelled set also uses), a fake SerpApi whose request log
 * shows every Google Scholar search. The labelled set's figures are test/integration/cite-check-labelled.test.ts;
 * the budget and the pace plan, which need services of their own, test/integration/cite-check-limits.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { CrossrefWork } from '../../lib/citations/model/work.js';
import { responseSchema } from '../../lib/contract/cite-check.js';
import { useCrossrefService } from '../support/crossref-service.js';
import type { Reply } from '../support/service.js';

const { harness, crossref, dataCite } = await useCrossrefService({
  CROSSREF_REQUESTS_PER_SECOND: '1000',
  DATACITE_REQUESTS_PER_SECOND: '1000',
});
const PATH = '/v1/cite/check';

const BOETTIGER =
  'Boettiger, C. (2018). From noise to knowledge: how randomness generates novel phenomena and reveals information. Ecology Letters, 21(8), 1255–1267.';
const NOBODY = 'Okafor, T. A., & Lindqvist, E. (2024). A catalogue of seedlings no registry holds. Journal of Nothing, 3, 1–9.';

function expectSuccess(reply: Reply) {
  expect(reply.status, reply.text.slice(0, 500)).toBe(200);
  expect(reply.json.success).toBe(true);
  expect(responseSchema.parse(reply.json.data)).toEqual(reply.json.data);
  return reply.json.data as ReturnType<typeof responseSchema.parse>;
}

/** The simulated registries of the labelled set, loaded once the service has set the configuration up. */
async function registries() {
  const set = await import('../support/check-labelled-set.js');
  const { registries: held } = set.simulatedRegistries();
  crossref.respond(set.crossrefResponder(held.crossref));
  dataCite.respond(set.dataCiteResponder(held.dataCite));
  harness.upstream.respond(set.scholarResponder(held.scholar));
  return { ...set, held };
}

describe('POST /v1/cite/check', () => {
  it('answers free text, a DOI, BibTeX, RIS and CSL-JSON in list order, each with its verdict, issues and record', async () => {
    const data = expectSuccess(
      await harness.service.post(PATH, {
        references: [
          BOETTIGER,
          BOETTIGER.replace('(2018)', '(2031)'),
          '10.1111/ele.14024',
          '@article{b, author = {Boettiger, Carl}, title = {From noise to knowledge: how randomness generates novel phenomena and reveals information}, journal = {Ecology Letters}, year = {2018}}',
          'TY  - JOUR\nAU  - Boettiger, Carl\nTI  - From noise to knowledge: how randomness generates novel phenomena and reveals information\nPY  - 2019\nER  - ',
          {
            type: 'article-journal',
            title: 'From noise to knowledge: how randomness generates novel phenomena and reveals information',
            author: [{ family: 'Boettiger', given: 'Carl' }],
            issued: { 'date-parts': [[2018]] },
          },
          '',
        ],
        export: ['bibtex'],
        styles: ['nature'],
      }),
    );
    expect(data.results.map((r) => [r.index, r.format, r.verdict])).toEqual([
      [1, 'text', 'verified'],
      [2, 'text', 'mismatch'],
      [3, 'text', 'verified'],
      [4, 'bibtex', 'verified'],
      [5, 'ris', 'mismatch'],
      [6, 'csl-json', 'verified'],
      [7, 'text', 'unreadable'],
    ]);
    expect(data.results[1]?.issues).toEqual([
      expect.objectContaining({ rule: 'year_future', field: 'year', severity: 'error', cited: '2031', recorded: '2018' }),
    ]);
    expect(data.results[4]?.issues.map((issue) => issue.rule)).toEqual(['year_differs']);
    expect(data.results[0]).toMatchObject({ doi: '10.1111/ele.13085', source: 'crossref', updates: [] });
    expect(data.results[0]?.record).toMatchObject({ DOI: '10.1111/ele.13085', type: 'article-journal' });
    expect(data.results[0]?.exports?.bibtex).toMatch(/^@article\{boettiger2018noise,/);
    expect(Object.keys(data.results[0]?.styled_citations ?? {})).toEqual(['nature']);
    expect(data.results[6]).toMatchObject({ record: null, message: 'The reference is empty.' });
    expect(data.counts).toEqual({ verified: 4, mismatch: 2, retracted: 0, not_found: 0, ambiguous: 0, unreadable: 1 });
    expect(data.scholar_searches).toBe(0);
  });

  it('splits a bibliography and answers a broken entry unreadable, never failing the list', async () => {
    const bibliography = `@string{el = {Ecology Letters}}
@article{a, author = {Boettiger, Carl}, title = {From noise to knowledge: how randomness generates novel phenomena and reveals information}, journal = el, year = 2018}
@article{broken, title = {No closing brace,
@article{c, author = {Boettiger, Carl}, title = {From noise to knowledge: how randomness generates novel phenomena and reveals information}, year = 2018}`;
    const data = expectSuccess(await harness.service.post(PATH, { bibliography }));
    expect(data.results.map((r) => r.verdict)).toEqual(['verified', 'unreadable', 'verified']);
    expect(data.results[1]?.message).toMatch(/^The BibTeX entry cannot be read/);
  });

  it('sends the bibliographic query of a reference without a DOI beside the DOI lookups, not once they answered', async () => {
    // The DOIs' batch is answered only once the other reference's query has arrived: a query sent only after
    // the batch's answer would never come, and the batch would time out, its reference unanswered.
    let queried = () => {};
    const arrived = new Promise<void>((resolve) => {
      queried = resolve;
    });
    crossref.hold = (query) => {
      if ((query.get('filter') ?? '').startsWith('doi:')) return arrived;
      if (query.get('query.bibliographic')) queried();
      return undefined;
    };
    const data = expectSuccess(await harness.service.post(PATH, { references: ['10.1111/ele.14024', NOBODY] }));
    expect(data.results[0]).toMatchObject({ doi: '10.1111/ele.14024' });
    expect(data.results[0]?.message).not.toMatch(/could not be looked up|did not answer/);
    expect(data.results[1]).toMatchObject({ verdict: 'not_found', doi: null });
    expect(crossref.requests.map((query) => (query.get('filter') ?? '').startsWith('doi:'))).toEqual([true, false]);
  });

  it('says where it looked for a reference no source holds, and never calls it fabricated', async () => {
    const data = expectSuccess(await harness.service.post(PATH, { references: [NOBODY] }));
    expect(data.results[0]).toMatchObject({ verdict: 'not_found', doi: null, record: null });
    expect(data.results[0]?.message).toMatch(
      /^Not in Crossref; DataCite was not asked: the reference names a journal or proceedings, and DataCite holds preprints, data and software; Google Scholar was not asked: set "scholar": true to search it \(paid\)\. A work no source holds is not thereby fabricated/,
    );
    expect(data.results[0]?.message).not.toMatch(/\bis fabricated|\bfake\b/i);
    expect(harness.upstream.calls()).toBe(0);
  });

  it('asks Google Scholar only with "scholar": true, once per reference no registry confirmed, never for one it did', async () => {
    const { held } = await registries();
    const scholarTitle = String(held.scholar[0]?.title);
    const references = [BOETTIGER, `Robinson, J. C., & Saúco, V. G. (2010). ${scholarTitle}. CABI.`, NOBODY];
    expectSuccess(await harness.service.post(PATH, { references }));
    expect(harness.upstream.calls()).toBe(0);
    const data = expectSuccess(await harness.service.post(PATH, { references, scholar: true }));
    // The two references no registry has, one search each; the one Crossref confirmed, none.
    expect(harness.upstream.requests.map((q) => q.get('engine'))).toEqual(['google_scholar', 'google_scholar']);
    expect(harness.upstream.requests.map((q) => q.get('q')).some((q) => /noise to knowledge/i.test(q ?? ''))).toBe(false);
    expect(data.results.map((r) => [r.verdict, r.source])).toEqual([
      ['verified', 'crossref'],
      ['verified', 'scholar'],
      ['not_found', null],
    ]);
    expect(data.results[1]).toMatchObject({ doi: null, record: expect.objectContaining({ title: scholarTitle }) });
    expect(data.results[2]?.message).toMatch(/^Not in Crossref or Google Scholar/);
    expect(data.scholar_searches).toBe(2);
  });

  it.each(['reset', 'html502', 'status500', 'rate429', 'garbage', 'searchError503'] as const)(
    'answers a reference whose Google Scholar search failed (%s) as not found there, never "not in" it',
    async (fault) => {
      await registries();
      harness.upstream.respond(() => fault);
      const data = expectSuccess(await harness.service.post(PATH, { references: [NOBODY, BOETTIGER], scholar: true }));
      expect(data.results.map((r) => r.verdict)).toEqual(['not_found', 'verified']);
      const message = data.results[0]?.message ?? '';
      expect(message).toMatch(/^Not in Crossref; not all could be asked: Google Scholar: /);
      expect(message).not.toMatch(/or Google Scholar/);
      expect(message).not.toMatch(/\bis fabricated|\bfake\b/i);
    },
  );

  it('says of a registry that failed that it did not answer, never that the work is not in it', async () => {
    crossref.respond(() => 'status500');
    const data = expectSuccess(await harness.service.post(PATH, { references: [NOBODY, 'doi:10.1111/ele.13085'] }));
    expect(data.results.map((r) => r.verdict)).toEqual(['not_found', 'not_found']);
    const [text, doi] = data.results.map((r) => r.message);
    expect(text).toMatch(/^Not confirmed: Crossref: Crossref answered HTTP 500; DataCite was not asked: /);
    // The DOI's Crossref batch failed: the DOI may well be Crossref's, whatever DataCite says.
    expect(doi).toMatch(/^Not confirmed: the DOI could not be looked up \(Crossref answered HTTP 500\)/);
    for (const message of [text, doi]) expect(message).not.toMatch(/Not in Crossref|or Crossref/);
  });

  it('names the work a DOI belongs to, a notice for its article, and a retraction from the update metadata', async () => {
    const set = await registries();
    const notice = set.NOTICES[0] as CrossrefWork;
    const article = set.CORRECTED_ARTICLES[0] as CrossrefWork;
    const retracted = set.held.crossref.find((work) => work['updated-by']?.some((u) => u.type === 'retraction')) as CrossrefWork;
    const cite = (work: CrossrefWork, doi: string) =>
      `${work.author?.[0]?.family}, ${work.author?.[0]?.given?.[0]}. (${work.issued?.['date-parts']?.[0]?.[0]}). ${work.title?.[0]}. ${work['container-title']?.[0] ?? ''}. https://doi.org/${doi}`;
    const data = expectSuccess(
      await harness.service.post(PATH, {
        references: [cite(notice, article.DOI), cite(article, notice.DOI), cite(retracted, retracted.DOI)],
      }),
    );
    expect(data.results.map((r) => r.verdict)).toEqual(['mismatch', 'mismatch', 'retracted']);
    expect(data.results[0]?.issues[0]).toMatchObject({
      rule: 'doi_other_work',
      severity: 'error',
      cited: article.DOI.toLowerCase(),
    });
    // The reference's own work, found by its text: the notice itself.
    expect(data.results[0]?.doi).toBe(notice.DOI.toLowerCase());
    expect(data.results[1]?.issues[0]?.message).toMatch(/a notice about a work/);
    expect(data.results[2]?.updates).toEqual([expect.objectContaining({ type: 'retraction', source: 'retraction-watch' })]);
  });

  it('names another work of the same author’s DOI as another work’s, not as the reference’s with its title, year and venue wrong', async () => {
    await registries();
    // "From noise to knowledge…" (Boettiger, 2018) given the DOI of "The forecast trap" (Boettiger, 2022).
    const data = expectSuccess(
      await harness.service.post(PATH, { references: [`${BOETTIGER} https://doi.org/10.1111/ele.14024`] }),
    );
    const [result] = data.results;
    expect(result?.verdict).toBe('mismatch');
    expect(result?.issues.map((one) => one.rule)).toEqual(['doi_other_work']);
    expect(result?.issues[0]?.message).toMatch(
      /^The DOI 10\.1111\/ele\.14024 is the record of “The forecast trap” \(Carl Boettiger, 2022\).* The reference describes “From noise to knowledge/,
    );
    // Its own work, found by its text.
    expect(result?.doi).toBe('10.1111/ele.13085');
  });

  it('answers 400 naming the field for more than 100 references, for both or neither list, and for a bibliography over 100', async () => {
    const refuse = async (body: unknown, details: RegExp) => {
      const reply = await harness.service.post(PATH, body);
      expect(reply.status, reply.text).toBe(400);
      expect(reply.json.error).toMatchObject({ code: 'INVALID_REQUEST', details: expect.stringMatching(details) });
    };
    await refuse({ references: Array(101).fill(BOETTIGER) }, /^references: at most 100 references/);
    await refuse({}, /^references: is required \(or give `bibliography`\)/);
    await refuse(
      { references: [BOETTIGER], bibliography: BOETTIGER },
      /^references: give `references` or `bibliography`, not both/,
    );
    await refuse(
      { bibliography: Array.from({ length: 101 }, (_, i) => `${i + 1}. ${BOETTIGER}`).join('\n') },
      /^bibliography: holds 101 references; at most 100/,
    );
    await refuse({ bibliography: 'x'.repeat(205_000) }, /^bibliography: at most 200 KiB/);
    expect(crossref.requests).toHaveLength(0);
  });

  it('takes a body over every other route’s 16 KiB up to its own 256 KiB, and answers 413 beyond', async () => {
    const list = Array.from({ length: 100 }, (_, i) => `${BOETTIGER} [${i}] ${'x'.repeat(150)}`);
    const body = JSON.stringify({ references: list });
    expect(Buffer.byteLength(body)).toBeGreaterThan(16 * 1024);
    expect((await harness.service.post(PATH, body)).status).toBe(200);
    const over = await harness.service.post(PATH, JSON.stringify({ references: [BOETTIGER], pad: 'x'.repeat(256 * 1024) }));
    expect(over.status).toBe(413);
    expect(over.json.error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: expect.stringMatching(/^body: must be at most 262144 bytes/),
    });
    const resolve = await harness.service.post(
      '/v1/cite/resolve',
      JSON.stringify({ references: [BOETTIGER], pad: 'x'.repeat(17 * 1024) }),
    );
    expect(resolve.json.error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: expect.stringMatching(/^body: must be at most 16384 bytes/),
    });
  });
});
