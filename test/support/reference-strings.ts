/**
 * The labelled set of real reference strings (test/fixtures/crossref/reference-strings.json, written by
 * write-reference-strings.py; sources in test/fixtures/SOURCES.md) and how a set is measured against the
 * reference matcher: shared by test/unit/lib/reference-labelled.test.ts (the real strings) and
 * test/unit/lib/reference-rendered.test.ts (the recorded works rendered by the five styles).
 */
import { readFileSync } from 'node:fs';
import { matchReference, type ReferenceOutcome } from '../../lib/citations/match/reference-match.js';
import type { CrossrefWork } from '../../lib/citations/model/work.js';

export interface Source {
  repository: string;
  commit: string;
  path: string;
}

export interface LabelledCase {
  set: 'deposited' | 'rme-1k';
  text: string;
  doi: string | null;
  candidates: string[];
  source: Source;
  assertedBy?: string;
  citedDoi?: string;
  labelNote?: string;
}

export const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/crossref/reference-strings.json', import.meta.url), 'utf8'),
) as {
  poolSize: number;
  works: Record<string, { record: CrossrefWork; source: Source }>;
  cases: LabelledCase[];
};

export function record(doi: string): CrossrefWork {
  const found = fixture.works[doi]?.record;
  if (!found) throw new Error(`no recorded work ${doi}`);
  return found;
}

export interface Tally {
  cases: number;
  positives: number;
  right: number;
  wrong: string[];
  refusals: Record<string, number>;
}

export function measure(cases: readonly { name: string; text: string; doi: string | null; works: CrossrefWork[] }[]): Tally {
  const tally: Tally = { cases: cases.length, positives: 0, right: 0, wrong: [], refusals: {} };
  for (const c of cases) {
    const outcome: ReferenceOutcome = matchReference(c.text, c.works);
    if (c.doi) tally.positives++;
    if (outcome.matched === null) {
      const key = `${c.doi ? 'positive' : 'negative'}: ${outcome.rule}`;
      tally.refusals[key] = (tally.refusals[key] ?? 0) + 1;
    } else if (outcome.matched.doi === c.doi) tally.right++;
    else tally.wrong.push(`${c.name}: gave ${outcome.matched.doi} (${outcome.matched.rule}), is ${c.doi ?? 'none'}`);
  }
  return tally;
}

export function report(name: string, tally: Tally): void {
  const recall = tally.positives ? tally.right / tally.positives : 0;
  console.log(
    `${name}: ${tally.cases} cases, ${tally.positives} positives, ${tally.right} right, ${tally.wrong.length} wrong, recall ${recall.toFixed(3)}; refusals ${JSON.stringify(tally.refusals)}`,
  );
}
