/**
 * The reference check on its labelled set (test/support/check-labelled-set.ts): real references and every
 * kind of problem made from recorded works, checked by the service over HTTP against registries simulated
 * from the same works (a fake Crossref and DataCite that hold them and rank them for a query, a fake Google
 * Scholar answering from its recorded results). It holds the three figures the check promises: at least
 * 95 % of problem references detected (a verdict other than `verified`, or an error), at most 3 % of real
 * ones alarmed (anything but `verified` without an error), and no problem reference verified without an
 * error; and the citation guide's table of the figures by kind is what this run measures.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../../lib/contract/cite-check.js';
// Types only: the set's module reads the configuration through the service's code, which must be imported
// once the service has set it up (below, in run).
import type { Kind, LabelledReference } from '../support/check-labelled-set.js';
import { useCrossrefService } from '../support/crossref-service.js';
import { readDocument } from '../support/docs-blocks.js';

// The registries are simulated: their pace is no part of what is measured.
const { harness, crossref, dataCite } = await useCrossrefService({
  CROSSREF_REQUESTS_PER_SECOND: '1000',
  DATACITE_REQUESTS_PER_SECOND: '1000',
});

interface Outcome {
  kind: Kind;
  note: string;
  verdict: string;
  issues: { rule: string; severity: string }[];
  message: string;
  input: string;
}

const hasError = (outcome: Outcome) => outcome.issues.some((issue) => issue.severity === 'error');
/** A problem reference is detected when its verdict is not `verified`, or an error says what is wrong. */
const detected = (outcome: Outcome) => outcome.verdict !== 'verified' || hasError(outcome);
/** A real reference is alarmed when its verdict is not `verified`, or an error is raised about it. */
const alarmed = detected;

const isReal = (kind: Kind) => kind.startsWith('real:');

async function run(): Promise<Outcome[]> {
  const { citationRenderer } = await import('../../lib/citations/render/render.js');
  const { crossrefResponder, dataCiteResponder, labelledSet, scholarResponder } = await import(
    '../support/check-labelled-set.js'
  );
  const { references, registries } = await labelledSet(await citationRenderer(), new Date().getUTCFullYear());
  crossref.respond(crossrefResponder(registries.crossref));
  dataCite.respond(dataCiteResponder(registries.dataCite));
  harness.upstream.respond(scholarResponder(registries.scholar));
  const outcomes: Outcome[] = [];
  for (const scholar of [false, true]) {
    const list = references.filter((one) => one.scholar === scholar);
    for (let i = 0; i < list.length; i += 100) {
      const batch: LabelledReference[] = list.slice(i, i + 100);
      const reply = await harness.service.post('/v1/cite/check', { references: batch.map((one) => one.reference), scholar });
      expect(reply.status, reply.text.slice(0, 500)).toBe(200);
      const data = responseSchema.parse(reply.json.data);
      data.results.forEach((result, j) => {
        const one = batch[j] as LabelledReference;
        outcomes.push({
          kind: one.kind,
          note: one.note,
          verdict: result.verdict,
          issues: result.issues,
          message: result.message,
          input: result.input,
        });
      });
    }
  }
  return outcomes;
}

/** The guide's table: per kind, the references, how many were detected (problems) or alarmed (real ones), and the verdicts. */
function table(outcomes: readonly Outcome[]): string {
  const kinds = [...new Set(outcomes.map((outcome) => outcome.kind))];
  const rows = kinds.map((kind) => {
    const of = outcomes.filter((outcome) => outcome.kind === kind);
    const verdicts = new Map<string, number>();
    for (const outcome of of) verdicts.set(outcome.verdict, (verdicts.get(outcome.verdict) ?? 0) + 1);
    const shown = [...verdicts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([verdict, count]) => `${verdict} ${count}`);
    const flagged = of.filter(detected).length;
    return `| ${kind} | ${of.length} | ${isReal(kind) ? `${flagged} alarmed` : `${flagged} detected`} | ${shown.join(', ')} |`;
  });
  return ['| Kind | References | Flagged | Verdicts |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

describe('the reference check on its labelled set', () => {
  it('detects at least 95 % of problem references, alarms at most 3 % of real ones, and verifies no problem without an error', async () => {
    const outcomes = await run();
    const real = outcomes.filter((outcome) => isReal(outcome.kind));
    const problems = outcomes.filter((outcome) => !isReal(outcome.kind));
    const detection = problems.filter(detected).length / problems.length;
    const falseAlarms = real.filter(alarmed).length / real.length;
    const verifiedClean = problems.filter((outcome) => outcome.verdict === 'verified' && !hasError(outcome));
    const summary = `${outcomes.length} references: ${real.length} real, ${problems.length} problems; detection ${problems.filter(detected).length}/${problems.length} = ${detection.toFixed(3)}, false alarms ${real.filter(alarmed).length}/${real.length} = ${falseAlarms.toFixed(3)}, problems verified without an error ${verifiedClean.length}`;
    console.log(summary);
    console.log(table(outcomes));
    if (process.env.CHECK_LABELLED_OUT) writeFileSync(process.env.CHECK_LABELLED_OUT, JSON.stringify(outcomes, null, 1));
    expect(outcomes.length).toBeGreaterThanOrEqual(600);
    expect(detection, summary).toBeGreaterThanOrEqual(0.95);
    expect(falseAlarms, summary).toBeLessThanOrEqual(0.03);
    expect(verifiedClean.map((outcome) => `${outcome.kind}: ${outcome.note}`)).toEqual([]);
    // The citation guide shows these figures, by kind, as measured here.
    expect(readDocument('docs/citations.md'), 'docs/citations.md: the labelled set’s table, as this test prints it').toContain(
      table(outcomes),
    );
    expect(readDocument('docs/citations.md')).toContain(summary);
  }, 600_000);
});
