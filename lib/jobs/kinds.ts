/**
 * What a job can do to each reference: one entry per kind, which is all the engine knows of it. A kind
 * names its options (the synchronous endpoint's own fields), how it answers a batch of references, the
 * outcomes its answers are counted by, how it answers a reference no attempt could, the record a result
 * exports, and the paid searches a job of it may make (planned at submit). A new kind is one entry here
 * and nothing in the engine, the store, the queue or the routes.
 *
 * A kind answers through the synchronous endpoint's own pipeline, which reaches Crossref and DataCite
 * through the sources' lookup functions, so the sources' pace covers jobs as it covers every request.
 * A reference whose lookup failed (a timeout, an error, a refusal for rate) is not answered but asked
 * again later (`retry`): a job has the time a request has not.
 */
import * as z from 'zod/mini';
import { exportFormats } from '../citations/exports/export-fields.js';
import { checkStyleIds } from '../citations/render/style-engines.js';
import { styleIds } from '../citations/render/style-fields.js';
import { citeReferenceRecords } from '../citations/resolve/cite.js';
import { CITATION_MARKUPS } from '../contract/cite-search.js';
import { oneOf } from '../schema.js';
import type { EncodedResult } from './model.js';

/** One reference of a batch: its index in the job (from 1) and its text. */
export interface KindInput {
  index: number;
  text: string;
}

/** A reference answered (its result and outcome), or to be asked again later, and why. */
export type KindOutcome = { index: number; outcome: string; result: EncodedResult } | { index: number; retry: string };

export interface JobKind {
  name: string;
  /** The synchronous endpoint whose answer each result is. */
  endpoint: string;
  /** The options a job of this kind takes, with their defaults; the synchronous endpoint's fields. */
  options: z.ZodMiniType;
  /** Refuses options the schema cannot judge (400 naming the field), at submit rather than in every result. */
  validate?(options: unknown): Promise<void>;
  /** The outcomes `counts` gives for this kind, `failed` aside. */
  outcomes: readonly string[];
  /** Answers a batch; never rejects for one reference (a reference that cannot be answered now is `retry`). */
  run(inputs: readonly KindInput[], options: unknown, context: { deadline: number }): Promise<KindOutcome[]>;
  /** The result of a reference no attempt could answer, shaped as the endpoint answers one. */
  failedResult(input: KindInput, reason: string, options: unknown): EncodedResult;
  /** Paid searches a job of `total` references with these options may make: reserved whole at submit. */
  plannedSearches(options: unknown, total: number): number;
}

const resolveOptions = z
  .strictObject({
    styles: styleIds(),
    citation_markup: z._default(
      oneOf(CITATION_MARKUPS, 'How citations and styled_citations are written: "text" (default), or "html" (inline markup only)'),
      'text',
    ),
    export: exportFormats(
      'Records to add to each resolved reference (csl-json, bibtex, ris), keyed within its batch; for one list with keys unique across the job, read the results with `format`',
    ),
  })
  .check(
    z.describe(
      'The options of POST /v1/cite/resolve: styles, citation_markup, export; an unknown id in styles is refused, naming the closest',
    ),
  );
type ResolveOptions = z.output<typeof resolveOptions>;

/** `resolve`: each reference resolved and cited as POST /v1/cite/resolve answers it. */
export const RESOLVE_KIND: JobKind = {
  name: 'resolve',
  endpoint: '/v1/cite/resolve',
  options: resolveOptions,
  outcomes: ['resolved', 'unresolved'],
  async validate(options) {
    await checkStyleIds((options as ResolveOptions).styles, 'options.styles');
  },
  async run(inputs, options, context) {
    const { data, records, transient } = await citeReferenceRecords(
      { references: inputs.map((input) => input.text), ...(options as ResolveOptions) },
      { deadline: context.deadline },
    );
    return data.references.map((entry, i): KindOutcome => {
      const index = (inputs[i] as KindInput).index;
      if (transient[i]) return { index, retry: entry.reason ?? 'a lookup failed' };
      const record = records[i];
      return {
        index,
        outcome: entry.doi === null ? 'unresolved' : 'resolved',
        result: { entry: { ...entry, index }, ...(record ? { record } : {}) },
      };
    });
  },
  failedResult(input, reason) {
    return {
      entry: {
        index: input.index,
        input: input.text,
        doi: null,
        match: { method: 'search', score: null, rule: 'failed' },
        reason,
        citations_source: null,
        title: null,
        authors: [],
        year: null,
        container: null,
        type: null,
        citations: {},
        styled_citations: {},
      },
    };
  },
  // Crossref and DataCite are free.
  plannedSearches: () => 0,
};

/** Every kind, by name. The citation checker's `check` joins here once its pipeline is in lib/citations/check/. */
export const JOB_KINDS: Readonly<Record<string, JobKind>> = Object.freeze({ resolve: RESOLVE_KIND });

export const JOB_KIND_NAMES = Object.keys(JOB_KINDS) as [string, ...string[]];

/**
 * The `options` field of a submission: the kind's options, every default applied when none are given. One
 * kind so far; with a second, the fields of both, each kind validating its own (`validate`).
 */
export function jobOptionsField() {
  return z.prefault(RESOLVE_KIND.options, {});
}
