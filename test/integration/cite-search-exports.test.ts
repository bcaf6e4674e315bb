/**
 * POST /v1/cite/search with `export`, over real HTTP: the fake SerpApi gives a page of real papers (the
 * recorded scholar result, retitled) and the fake Crossref answers from recorded Crossref answers. Each
 * test uses its own scholar result ids, so the record cache of one test never answers another's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCitationJs } from '../../lib/citations/exports/exports.js';
import { responseSchema } from '../../lib/contract/cite-search.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { BANANAS, EARLY_WARNING } from '../support/index-papers.js';
import type { Reply } from '../support/service.js';
import { watchTimerLag } from '../support/timer-lag.js';

const PATH = '/v1/cite/search';
const { harness, crossref, servePapers } = await useCrossrefService({
  // A hanging lookup gives up after its own short timeout, and all of them within the budget, long before
  // the request's deadline.
  CROSSREF_TIMEOUT_MS: '400',
  CROSSREF_BUDGET_MS: '500',
});
afterEach(() => vi.restoreAllMocks());

/** Real papers, as the index would list them. */
/** Same first author, shared words, a year earlier: another paper, which Crossref's answer does not hold. */
const PROSECUTOR = {
  title: "Early warning signals and the prosecutor's fallacy",
  summary: 'C Boettiger, A Hastings - Proceedings of the Royal Society B, 2012 - royalsocietypublishing.org',
};

function expectSuccess(reply: Reply) {
  expect(reply.status).toBe(200);
  expect(reply.json.success).toBe(true);
  expect(responseSchema.parse(reply.json.data)).toEqual(reply.json.data);
  return reply.json.data;
}

// The timing tests ask for the index's citations: with "auto", the first request of the file would also
// build the citation styles (render.ts), CPU work these tests do not measure.
describe('POST /v1/cite/search with export', () => {
  it('answers as before, and asks Crossref nothing, without export and with citations from the index', async () => {
    servePapers('no export', 'plain', [EARLY_WARNING]);
    const data = expectSuccess(await harness.service.post(PATH, { query: 'no export', citation_source: 'index' }));
    expect(data.papers[0]).not.toHaveProperty('doi');
    expect(data.papers[0]).not.toHaveProperty('exports');
    expect(crossref.requests).toHaveLength(0);
  });

  it('gives the matching paper its DOI and Crossref record, the near-miss and the unknown paper doi: null', async () => {
    servePapers('three papers', 'three', [EARLY_WARNING, PROSECUTOR, BANANAS]);
    const reply = await harness.service.post(PATH, { query: 'three papers', export: ['csl-json', 'bibtex', 'ris'] });
    const [early, prosecutor, bananas] = expectSuccess(reply).papers;

    expect(early.doi).toBe('10.1007/s12080-013-0192-6');
    expect(early.exports).toMatchObject({
      source: 'crossref',
      fallback_reason: null,
      csl_json: { DOI: '10.1007/s12080-013-0192-6', type: 'article-journal', 'container-title': 'Theoretical Ecology' },
    });
    const Cite = await loadCitationJs();
    for (const text of [early.exports.bibtex, early.exports.ris]) {
      const [parsed] = new Cite(text).data;
      // The year survives both formats; how much of the date does is the exports' own matter (exports tests).
      expect((parsed as { issued: { 'date-parts': number[][] } }).issued['date-parts'][0]?.[0]).toBe(2013);
      expect(parsed).toMatchObject({
        title: EARLY_WARNING.title,
        DOI: '10.1007/s12080-013-0192-6',
        author: [
          { family: 'Boettiger', given: 'Carl' },
          { family: 'Ross', given: 'Noam' },
          { family: 'Hastings', given: 'Alan' },
        ],
      });
    }

    // The recorded answer holds "Early warning signals: the charted…" by the same author a year later: not this paper.
    expect(prosecutor.doi).toBeNull();
    expect(prosecutor.exports.source).toBe('scholar');
    expect(prosecutor.exports.fallback_reason).toMatch(/no work whose title, first author and year match/);
    expect(prosecutor.exports.csl_json).toMatchObject({
      title: PROSECUTOR.title,
      author: [
        { given: 'C.', family: 'Boettiger' },
        { given: 'A.', family: 'Hastings' },
      ],
      issued: { 'date-parts': [[2012]] },
      type: 'article-journal',
      'container-title': 'Proceedings of the Royal Society B',
    });
    expect(prosecutor.exports.bibtex).not.toMatch(/doi/i);

    expect(bananas.doi).toBeNull();
    expect(bananas.exports.source).toBe('scholar');
    expect(bananas.exports.ris).toContain('TI  - Bananas and plantains');
    // The same record of the index the paper's citations were rendered from: a book, as its link says.
    expect(bananas.exports.csl_json).toMatchObject({ type: 'book', URL: 'https://books.google.com/books?id=0GxOPqj2UVYC' });
    expect(bananas.exports.ris).toMatch(/^TY {2}- BOOK$/m);

    const queries = crossref.requests.map((q) => Object.fromEntries(q));
    expect(queries).toHaveLength(3);
    expect(queries).toContainEqual(
      expect.objectContaining({
        'query.bibliographic': EARLY_WARNING.title,
        'query.author': 'Boettiger',
        filter: 'from-pub-date:2012,until-pub-date:2014',
        rows: '5',
        mailto: 'ops@example.org',
      }),
    );
    expect(crossref.userAgents.every((agent) => agent.includes('mailto:ops@example.org'))).toBe(true);
  });

  it('renders only the formats asked for', async () => {
    servePapers('ris only', 'ris', [EARLY_WARNING]);
    const [paper] = expectSuccess(await harness.service.post(PATH, { query: 'ris only', export: ['ris'] })).papers;
    expect(Object.keys(paper.exports).sort()).toEqual(['fallback_reason', 'ris', 'source']);
    expect(paper.exports.ris).toContain('DO  - 10.1007/s12080-013-0192-6');
  });

  it("keeps doi: null and the index's data when Crossref answers 429, 500 or garbage; the search still succeeds", async () => {
    servePapers('crossref faults', 'faults', [EARLY_WARNING, PROSECUTOR, BANANAS]);
    const faults = ['rate429', 'status500', 'garbage'] as const;
    crossref.respond(
      (q) => faults[[EARLY_WARNING, PROSECUTOR, BANANAS].findIndex((p) => p.title === q.get('query.bibliographic'))],
    );
    const data = expectSuccess(await harness.service.post(PATH, { query: 'crossref faults', export: ['bibtex'] }));
    expect(data.papers.map((p: { doi: unknown }) => p.doi)).toEqual([null, null, null]);
    expect(data.papers.map((p: { exports: { fallback_reason: string } }) => p.exports.fallback_reason)).toEqual([
      'Crossref refused the lookup for rate (HTTP 429)',
      'Crossref answered HTTP 500',
      'Crossref answered with something that is not JSON',
    ]);
    expect(data.papers[0].exports.bibtex).toContain(EARLY_WARNING.title);
    expect(Object.keys(data.papers[0].citations)).toHaveLength(5);
  });

  it('gives up a hanging lookup after its own timeout, with doi: null, and answers in time', async () => {
    servePapers('crossref hangs', 'hang', [EARLY_WARNING]);
    crossref.respond(() => 'hang');
    const lag = watchTimerLag();
    const started = performance.now();
    const [paper] = expectSuccess(
      await harness.service.post(PATH, { query: 'crossref hangs', export: ['csl-json'], citation_source: 'index' }),
    ).papers;
    // Time this process was not run (the service runs in it) delayed the lookup's timer as much: allowed for.
    expect(performance.now() - started).toBeLessThan(3_000 + lag.stop().total);
    expect(paper.doi).toBeNull();
    expect(paper.exports).toMatchObject({ source: 'scholar', fallback_reason: 'Crossref did not answer in time' });
  });

  it('ends every lookup at the budget: nine hanging lookups, three at a time, take the budget, not three timeouts', async () => {
    servePapers(
      'nine hang',
      'nine',
      Array.from({ length: 9 }, (_, i) => ({ ...EARLY_WARNING, title: `${EARLY_WARNING.title} ${i}` })),
    );
    crossref.respond(() => 'hang');
    const lag = watchTimerLag();
    const started = performance.now();
    const data = expectSuccess(
      await harness.service.post(PATH, { query: 'nine hang', export: ['csl-json'], citation_source: 'index' }),
    );
    const lateMs = lag.stop().total;
    // Three waves of 400 ms timeouts would take 1.2 s; the 500 ms budget ends the second wave early and
    // the third never starts.
    // (Plus the time this process was not run, which delayed the service's timers as much.)
    expect(performance.now() - started).toBeLessThan(1_000 + lateMs);
    expect(crossref.requests).toHaveLength(6);
    expect(data.papers.map((p: { doi: unknown }) => p.doi)).toEqual(Array(9).fill(null));
    // The six sent timed out; the three never sent say so, never that Crossref did not answer.
    const reasons = data.papers.map((p: { exports: { fallback_reason: string } }) => p.exports.fallback_reason);
    expect(reasons.filter((reason: string) => reason === 'Crossref did not answer in time')).toHaveLength(6);
    expect(reasons.filter((reason: string) => /^Crossref was not asked: the request's time ran out/.test(reason))).toHaveLength(
      3,
    );
  });

  it('looks Crossref up while the citations are still being fetched', async () => {
    servePapers('in parallel', 'parallel', [EARLY_WARNING]);
    const arrivals: number[] = [];
    crossref.respond(() => {
      arrivals.push(performance.now());
      return undefined;
    });
    harness.upstream.latencyMs = 400;
    const lag = watchTimerLag();
    const started = performance.now();
    expectSuccess(await harness.service.post(PATH, { query: 'in parallel', export: ['csl-json'], citation_source: 'index' }));
    const lateMs = lag.stop().total;
    // Search answers at ~400 ms and the cite call at ~800 ms; the lookup starts with the cite call.
    expect(arrivals).toHaveLength(1);
    // (Plus the time this process was not run, which delayed the fake's 400 ms answers as much.)
    expect((arrivals[0] ?? Number.POSITIVE_INFINITY) - started).toBeLessThan(700 + lateMs);
  });

  it('caches a matched record per paper, and asks again for one that did not match', async () => {
    servePapers('cached', 'cached', [EARLY_WARNING, BANANAS]);
    const body = { query: 'cached', export: ['csl-json'] };
    expectSuccess(await harness.service.post(PATH, body));
    expect(crossref.requests).toHaveLength(2);
    crossref.reset();
    const [early, bananas] = expectSuccess(await harness.service.post(PATH, body)).papers;
    expect(early.doi).toBe('10.1007/s12080-013-0192-6');
    expect(bananas.doi).toBeNull();
    expect(crossref.requests.map((q) => q.get('query.bibliographic'))).toEqual([BANANAS.title]);
  });

  it('answers 200 when one paper cannot be rendered: it keeps its DOI and CSL-JSON, loses its BibTeX and says why', async () => {
    servePapers('unrenderable', 'unrenderable', [EARLY_WARNING, BANANAS]);
    const Cite = await loadCitationJs();
    const format = Cite.prototype.format;
    // citation-js rejecting this one record, whatever in it it trips on.
    vi.spyOn(Cite.prototype, 'format').mockImplementation(function (this: InstanceType<typeof Cite>, ...args) {
      if (args[0] === 'bibtex' && (this.data[0] as { title?: string }).title === EARLY_WARNING.title) {
        throw new TypeError('name.family.includes is not a function');
      }
      return format.apply(this, args);
    });
    const reply = await harness.service.post(PATH, { query: 'unrenderable', export: ['csl-json', 'bibtex', 'ris'] });
    const [early, bananas] = expectSuccess(reply).papers;
    expect(early.doi).toBe('10.1007/s12080-013-0192-6');
    expect(early.exports).toMatchObject({
      source: 'crossref',
      fallback_reason: null,
      render_error: 'The record could not be rendered as BibTeX',
      csl_json: { DOI: '10.1007/s12080-013-0192-6' },
    });
    expect(early.exports).not.toHaveProperty('bibtex');
    expect(early.exports.ris).toContain('DO  - 10.1007/s12080-013-0192-6');
    expect(bananas.exports.bibtex).toContain('Bananas and plantains');
    expect(bananas.exports).not.toHaveProperty('render_error');
    expect(Object.keys(early.citations)).toHaveLength(5);
  });

  it('gives each paper its own readable BibTeX key, title word and year when the index names no authors', async () => {
    const anonymous = { title: 'Proceedings of a workshop', summary: '2010 - example.org' };
    servePapers('no authors', 'anon', [anonymous, { ...anonymous, title: 'Proceedings of another workshop' }]);
    const data = expectSuccess(await harness.service.post(PATH, { query: 'no authors', export: ['bibtex'] }));
    const keys = data.papers.map((p: { exports: { bibtex: string } }) => p.exports.bibtex.match(/^@\w+\{([^,]*),/)?.[1]);
    expect(keys).toEqual(['proceedings2010', 'proceedings2010a']);
    const Cite = await loadCitationJs();
    expect(new Cite(data.papers.map((p: { exports: { bibtex: string } }) => p.exports.bibtex).join('\n')).data).toHaveLength(2);
  });

  it('answers 400 INVALID_REQUEST naming export for a format it does not know', async () => {
    const reply = await harness.service.post(PATH, { query: 'x', export: ['pdf'] });
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe('INVALID_REQUEST');
    expect(reply.json.error.details).toContain('export');
    expect(reply.json.error.details).toContain('csl-json, bibtex, ris');
  });
});
