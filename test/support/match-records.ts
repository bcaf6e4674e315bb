/**
 * Hand-built records for the matchers' rule tests (test/unit/lib/crossref-match*.test.ts,
 * reference-match*.test.ts, crossref-labelled.test.ts): a Crossref work shaped as recorded ones are, the
 * index's summary of a paper, and what a reference matcher's outcome says.
 */
import type { ReferenceOutcome } from '../../lib/citations/match/reference-match.js';
import type { ScholarRecord } from '../../lib/citations/model/scholar.js';
import { normalizeText } from '../../lib/citations/model/text.js';
import type { CrossrefWork } from '../../lib/citations/model/work.js';

/** A real reference in APA and its Crossref work (Physical Review B, 1993): the matcher's main case. */
export const SHEA_TITLE = 'Surface-plasmon ejection of Ag+ ions from laser irradiation of a roughened silver surface';
export const SHEA =
  'Shea, M. J., & Compton, R. N. (1993). Surface-plasmon ejection of Ag+ ions from laser irradiation of a roughened silver surface. Physical Review B, 47(15), 9967–9970.';

/** A journal article by one author, as Crossref records one. */
export function articleWork(
  DOI: string,
  title: string,
  family: string,
  year: number,
  extra: Partial<CrossrefWork> = {},
  given = 'M. J.',
): CrossrefWork {
  return {
    DOI,
    title: [title],
    author: [{ given, family }],
    issued: { 'date-parts': [[year]] },
    type: 'journal-article',
    ...extra,
  };
}

export const sheaWork = articleWork('10.1103/PhysRevB.47.9967', SHEA_TITLE, 'Shea', 1993, {
  'container-title': ['Physical Review B'],
  volume: '47',
  issue: '15',
  page: '9967-9970',
});

/** The same, its DOI made from its title and year, and a year that may be unknown. */
export function titledWork(title: string, family: string, year: number | null, extra: Partial<CrossrefWork> = {}): CrossrefWork {
  return {
    DOI: `10.1/${normalizeText(title).replace(/ /g, '-').slice(0, 40)}-${year}`,
    title: [title],
    author: [{ given: 'A', family }],
    ...(year === null ? {} : { issued: { 'date-parts': [[year]] } }),
    type: 'journal-article',
    ...extra,
  };
}

/** A paper as the index summarises it (no author when `family` is null). */
export function indexRecord(
  title: string,
  family: string | null,
  year: number | null,
  venue: string | null = null,
): ScholarRecord {
  return { title, authors: family === null ? [] : [{ given: 'A', family }], year, venue };
}

export function doiOf(outcome: ReferenceOutcome): string | null {
  return outcome.matched?.doi ?? null;
}

export function ruleOf(outcome: ReferenceOutcome): string {
  return outcome.matched ? outcome.matched.rule : outcome.rule;
}

export function scoreOf(outcome: ReferenceOutcome): number | undefined {
  return outcome.matched ? outcome.matched.score : outcome.score;
}
