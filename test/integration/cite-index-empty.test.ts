/**
 * "citation_source": "index" while the index's cite engine answers empty, as it has since August 2026
 * (SerpApi's public roadmap #4208): every empty answer is a paid search. After CITE_EMPTY_LIMIT (3) empty
 * answers in a row the container stops asking it for a while, and each answer says so (the papers' fallback
 * reasons and the note); three pages of ten cost three cite calls, not thirty, and a page asked meanwhile
 * reserves no cite call in the budget. Over real HTTP: the service, the fake SerpApi answering every cite
 * call without citations, the fake Crossref.
 */
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../../lib/contract/cite-search.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { scholarPage, unrecordedPapers } from '../support/index-papers.js';

// An hour's budget of 12 searches: the first page reserves its search and ten cite calls (11) and keeps 4;
// the next pages, asked while the engine rests, must not reserve cite calls they will not make (4 + 11 > 12).
const { harness } = await useCrossrefService({ SEARCHES_PER_HOUR: '12' });

/** The cite engine's answer since August 2026: a success with no citation and no link. */
const EMPTY_CITE = {
  search_metadata: { status: 'Success' },
  search_parameters: { engine: 'google_scholar_cite' },
  citations: [],
  links: [],
};

const papers = (page: number) => unrecordedPapers(10, `page ${page}`);

describe('the index’s cite engine answering empty', () => {
  it('stops paying for it after three empty answers in a row: three pages of ten cost three cite calls, and say why', async () => {
    const pages = new Map([0, 1, 2].map((n) => [`empty cites ${n}`, scholarPage(`empty-${n}`, papers(n))]));
    harness.upstream.respond((q) => {
      if (q.get('engine') === 'google_scholar_cite') return { json: EMPTY_CITE };
      const page = q.get('engine') === 'google_scholar' ? pages.get(q.get('q') ?? '') : undefined;
      return page ? { json: page } : undefined;
    });
    const answers = [];
    for (const query of pages.keys()) {
      const reply = await harness.service.post('/v1/cite/search', { query, citation_source: 'index' });
      expect(reply.status, reply.text).toBe(200);
      answers.push(responseSchema.parse(reply.json.data));
    }
    // The first page's calls went one at a time: three empty answers, then none; nothing for the next pages.
    expect(harness.upstream.calls('google_scholar_cite')).toBe(3);
    expect(harness.upstream.calls('google_scholar')).toBe(3);
    for (const data of answers) {
      // Every paper is cited all the same, from the index's own record.
      expect(data.papers.every((paper) => paper.citations_source === 'index-record')).toBe(true);
    }
    const [first, second] = answers;
    expect(first?.citation_details.slice(0, 3).map((detail) => detail.fallback_reason)).toEqual(
      Array(3).fill("The index's cite answer held no citations"),
    );
    const notMade =
      /^The index's cite call was not made: the index's cite engine answered 3 papers in a row without citations, and is not asked again until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
    for (const detail of [...(first?.citation_details.slice(3) ?? []), ...(second?.citation_details ?? [])]) {
      expect(detail.fallback_reason).toMatch(notMade);
    }
    expect(first?.note).toMatch(
      /The index's cite engine answered 3 papers in a row without citations, and is not asked again until \S+: no cite call was made for 7 of 10 papers, and none was paid for\./,
    );
    expect(second?.note).toMatch(/no cite call was made for 10 of 10 papers, and none was paid for\./);
  });
});
