/**
 * POST /v1/cite/check against its limits, in a service of their own (the configuration is read once per
 * process, as in one Lambda container): a budget of two searches an hour, Crossref at one lookup a second
 * and DataCite at one every ten. Google Scholar's searches are planned at once and refused whole before any
 * is sent when the budget cannot cover them; a list whose Crossref lookups cannot start within the
 * request's time is refused whole before any is sent; a reference DataCite's pace cannot reach says it was
 * not asked, never that DataCite did not answer.
 */
import { describe, expect, it } from 'vitest';
import type { CrossrefWork } from '../../lib/citations/model/work.js';
import { responseSchema } from '../../lib/contract/cite-check.js';
import { useCrossrefService } from '../support/crossref-service.js';

const { harness, crossref, dataCite } = await useCrossrefService({
  SEARCHES_PER_HOUR: '2',
  CROSSREF_REQUESTS_PER_SECOND: '1',
  DATACITE_REQUESTS_PER_SECOND: '0.1',
});
const PATH = '/v1/cite/check';

/** A reference to a paper no registry here holds, naming a journal (so DataCite is not asked). */
const unheld = (i: number) =>
  `Okafor, T. A. (2024). Seedling survey number ${i} of a forest no registry holds. Journal of Nothing, 3, 1–9.`;

describe('Google Scholar within the budget', () => {
  it('is refused whole, 429 BUDGET_EXHAUSTED before any search, when the references no registry has outnumber the searches left', async () => {
    const reply = await harness.service.post(PATH, { references: [1, 2, 3].map(unheld), scholar: true });
    expect(reply.status, reply.text).toBe(429);
    expect(reply.json.error).toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(reply.json.error.details).toMatch(/2 of 2 searches left this hour, fewer than the 3 this request can make/);
    expect(reply.json.error.details).toMatch(/leave "scholar" out/);
    expect(reply.headers.get('retry-after')).toMatch(/^\d+$/);
    // Crossref was asked (free); Google Scholar never.
    expect(crossref.requests).toHaveLength(3);
    expect(harness.upstream.calls()).toBe(0);
  });

  it('makes the searches it has room for, one per reference no registry has', async () => {
    const reply = await harness.service.post(PATH, { references: [4, 5].map(unheld), scholar: true });
    expect(reply.status, reply.text).toBe(200);
    expect(harness.upstream.calls('google_scholar')).toBe(2);
    expect(responseSchema.parse(reply.json.data).scholar_searches).toBe(2);
  });
});

describe('the pace a list needs', () => {
  it('refuses, 400 naming references and how many fit, a list whose Crossref lookups cannot start in time, sending none', async () => {
    const reply = await harness.service.post(PATH, { references: Array.from({ length: 40 }, (_, i) => unheld(i)) });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.json.error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(reply.json.error.details).toMatch(
      /^references: 40 references need up to 40 Crossref requests, which at this deployment's pace \(1 a second\) take 39 s to start, more than this request's time allows: send at most \d+ references a request$/,
    );
    expect(crossref.requests).toHaveLength(0);
    expect(dataCite.requests).toHaveLength(0);
  });

  it('plans only the DOI batches for references that give DOIs, so 25 of them are answered where 27 Crossref requests would not fit', async () => {
    const works = await heldArticles(25);
    const reply = await harness.service.post(PATH, { references: works.map((work) => cite(work, work.DOI)) });
    const data = responseSchema.parse(expectOk(reply));
    expect(data.results.map((r) => r.doi)).toEqual(works.map((work) => work.DOI.toLowerCase()));
    // Two batches of DOIs, and no search: every DOI settled its reference.
    expect(crossref.requests.map((q) => q.get('filter')?.split(',').length ?? 'query')).toEqual([20, 5]);
  }, 60_000);

  it('sends the searches for references whose DOI is another work’s in the time left, and says of the rest that Crossref’s search was not asked', async () => {
    const works = await heldArticles(30);
    // Each reference gives the DOI of the next work: unless the two share an author (then the DOI's record is
    // the reference's, with its title an error), the DOI is another work's and only a search finds its own.
    const references = works.map((work, i) => cite(work, (works[(i + 1) % works.length] as CrossrefWork).DOI));
    const data = responseSchema.parse(expectOk(await harness.service.post(PATH, { references })));
    const searches = crossref.requests.filter((q) => q.has('query.bibliographic'));
    const otherWork = data.results.filter((r) => r.issues[0]?.rule === 'doi_other_work');
    const unasked = data.results.filter((r) =>
      /Crossref's search was not asked: this request's time did not reach its turn at Crossref's pace \(1 a second\)/.test(
        r.message,
      ),
    );
    // At one start a second, after two DOI batches, at most 19 searches can start in the time left.
    expect(otherWork.length).toBeGreaterThan(19);
    expect(searches.length).toBeGreaterThan(0);
    expect(unasked.length).toBeGreaterThan(0);
    expect(searches.length + unasked.length).toBe(otherWork.length);
    // Every reference keeps its DOI's error, searched or not; none says a source did not answer in time.
    for (const result of data.results) {
      expect(result.verdict).toBe('mismatch');
      expect(result.message).not.toMatch(/did not answer in time/);
    }
    for (const result of unasked) expect(result.issues[0]).toMatchObject({ rule: 'doi_other_work', severity: 'error' });
  }, 60_000);

  it('says of a reference DataCite’s pace could not reach in time that DataCite was not asked, never that it did not answer', async () => {
    // Naming no venue, each is DataCite's to search once Crossref has nothing: one start every ten seconds.
    const references = Array.from(
      { length: 5 },
      (_, i) => `Okafor, T. A. (2024). Field notes on the seedlings of plot ${i + 1}.`,
    );
    const data = responseSchema.parse(expectOk(await harness.service.post(PATH, { references })));
    const unasked = data.results.filter((r) =>
      /DataCite was not asked: this request's time did not reach its turn/.test(r.message),
    );
    expect(unasked.length).toBeGreaterThan(0);
    expect(dataCite.requests).toHaveLength(references.length - unasked.length);
    expect(data.results.every((r) => !/did not answer in time/.test(r.message))).toBe(true);
  }, 60_000);
});

/** Journal articles the labelled set's simulated Crossref holds (no notices, none retracted), served by the fake. */
async function heldArticles(n: number): Promise<CrossrefWork[]> {
  const set = await import('../support/check-labelled-set.js');
  const { registries } = set.simulatedRegistries();
  crossref.respond(set.crossrefResponder(registries.crossref));
  const articles = registries.crossref.filter(
    (work) =>
      work.type === 'journal-article' &&
      work.author?.[0]?.family &&
      work.title?.[0] &&
      work['container-title']?.[0] &&
      !work['updated-by'] &&
      !set.NOTICES.includes(work),
  );
  expect(articles.length).toBeGreaterThanOrEqual(n);
  return articles.slice(0, n);
}

const cite = (work: CrossrefWork, doi: string) =>
  `${work.author?.[0]?.family}, ${work.author?.[0]?.given?.[0] ?? ''}. (${work.issued?.['date-parts']?.[0]?.[0]}). ${work.title?.[0]}. ${work['container-title']?.[0]}. https://doi.org/${doi}`;

function expectOk(reply: { status: number; text: string; json: { data: unknown } }) {
  expect(reply.status, reply.text).toBe(200);
  return reply.json.data;
}
