/**
 * What a job can do to each reference: one entry per kind, which is all the engine knows of it. A kind
 * names its options (the synchronous endpoint's own fields), how it answers a batch of references, how it
 * answers a reference no attempt could, the record a result exports, and the paid searches a job of it may
 * make (planned at submit). A new kind is one entry here and its outcomes' names in outcomes.ts (what the
 * functions that only read jobs know of it), and nothing in the engine, the store, the queue or the routes.
 *
 * A kind answers through the synchronous endpoint's own pipeline, which reaches Crossref and DataCite
 * through the sources' lookup functions, so the sources' pace covers jobs as it covers every request.
 * A reference whose lookup failed (a timeout, an error, a refusal for rate) is not answered but asked
 * again later (`retry`): a job has the time a request has not.
 */
import * as z from 'zod/mini';
import { checkList, resultWithoutRecord } from '../citations/check/answer.js';
import type { ReadReference } from '../citations/check/read.js';
import { exportFormats } from '../citations/exports/export-fields.js';
import { checkStyleIds } from '../citations/render/style-engines.js';
import { styleIds } from '../citations/render/style-fields.js';
import { citeReferenceRecords } from '../citations/resolve/cite.js';
import { CITATION_MARKUPS, type CitationMarkup, type ExportFormat } from '../contract/cite-search.js';
import { oneOf } from '../schema.js';
import type { EncodedResult } from './model.js';
import type { JobKindName } from './outcomes.js';

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
  /** Refuses options the schema cannot judge, or another kind's (400 naming the field), at submit rather than in every result. */
  validate?(options: JobOptions): Promise<void>;
  /** The references of a `bibliography` (readBibliographyOf), each as the text a batch gives `run`. */
  readBibliography(text: string): Promise<string[]>;
  /** Answers a batch; never rejects for one reference (a reference that cannot be answered now is `retry`). */
  run(inputs: readonly KindInput[], options: unknown, context: { deadline: number }): Promise<KindOutcome[]>;
  /** The result of a reference no attempt could answer, shaped as the endpoint answers one. */
  failedResult(input: KindInput, reason: string, options: unknown): EncodedResult;
  /** Paid searches a job of `total` references with these options may make: reserved whole at submit. */
  plannedSearches(options: unknown, total: number): number;
}

/**
 * The options of a submission, of every kind: those of POST /v1/cite/resolve (`styles`, `citation_markup`,
 * `export`), which POST /v1/cite/check takes too, and the check's `scholar`. Each kind refuses what is not its
 * own (`validate`).
 */
const jobOptions = z
  .strictObject({
    styles: styleIds(),
    citation_markup: z._default(
      oneOf(CITATION_MARKUPS, 'How citations and styled_citations are written: "text" (default), or "html" (inline markup only)'),
      'text',
    ),
    export: exportFormats(
      'Records to add to each resolved or found reference (csl-json, bibtex, ris), keyed within its batch; for one list with keys unique across the job, read the results with `format`',
    ),
    // Only false, in either kind: stated in the schema, so that the document says what is refused.
    scholar: z.optional(
      z
        .literal(false, {
          error:
            'Google Scholar is not searched by jobs: check the references no registry has with POST /v1/cite/check and "scholar": true',
        })
        .check(
          z.describe(
            'Only false: Google Scholar is not searched by jobs; check the references no registry has with POST /v1/cite/check and "scholar": true',
          ),
        ),
    ),
  })
  .check(
    z.describe(
      'The options of the synchronous endpoint: styles, citation_markup, export, scholar (only false); an unknown id in styles is refused, naming the closest',
    ),
  );
export type JobOptions = z.output<typeof jobOptions>;

/**
 * A bibliography read by the reference check's reader (lib/citations/check/read.ts: a .bib or .ris file, a
 * CSL-JSON array, or a pasted list, numbered, bulleted, one a paragraph or a line with wrapped lines joined),
 * each reference as `as` gives it. Loaded on first use: a job of references alone never needs it.
 */
async function readBibliographyOf(text: string, as: (one: ReadReference) => string): Promise<string[]> {
  const { readBibliography } = await import('../citations/check/read.js');
  return (await readBibliography(text)).map(as);
}
/** `resolve`: each reference resolved and cited as POST /v1/cite/resolve answers it. */
export const RESOLVE_KIND: JobKind = {
  name: 'resolve',
  endpoint: '/v1/cite/resolve',
  async validate(options) {
    await checkStyleIds(options.styles, 'options.styles');
  },
  // A record of a file as the resolver reads a reference: its fields written out, its DOI with them; a
  // pasted reference as pasted.
  readBibliography: (text) =>
    readBibliographyOf(text, (one) => ('reference' in one && one.reference.format !== 'text' ? one.reference.text : one.input)),
  async run(inputs, options, context) {
    const { data, records, transient } = await citeReferenceRecords(
      {
        references: inputs.map((input) => input.text),
        styles: (options as JobOptions).styles,
        citation_markup: (options as JobOptions).citation_markup as CitationMarkup,
        export: (options as JobOptions).export as ExportFormat[],
      },
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

/**
 * `check`: each reference checked as POST /v1/cite/check checks it (lib/citations/check/), a batch at a time
 * with the try's deadline: each result is that endpoint's, with `index` the reference's place in the job. A
 * reference not found while a lookup failed or was never sent (its turn at a source's pace came after the
 * try's time) is asked again, never answered "not found" for it.
 */
export const CHECK_KIND: JobKind = {
  name: 'check',
  endpoint: '/v1/cite/check',
  async validate(options) {
    await checkStyleIds(options.styles, 'options.styles');
  },
  // Each reference as the list gave it (an entry of a file whole), read again in its batch as the endpoint reads an entry.
  readBibliography: (text) => readBibliographyOf(text, (one) => one.input),
  async run(inputs, options, context) {
    const { styles, citation_markup, export: formats } = options as JobOptions;
    const { data, incomplete } = await checkList(
      {
        references: inputs.map((input) => input.text),
        styles,
        citation_markup: citation_markup as CitationMarkup,
        export: formats as ExportFormat[],
      },
      { deadline: context.deadline },
    );
    return data.results.map((result, i): KindOutcome => {
      const index = (inputs[i] as KindInput).index;
      if (incomplete[i]) return { index, retry: result.message };
      const { record } = result;
      return { index, outcome: result.verdict, result: { entry: { ...result, index }, ...(record ? { record } : {}) } };
    });
  },
  failedResult(input, reason) {
    return {
      entry: resultWithoutRecord({
        index: input.index,
        input: input.text,
        format: 'text',
        verdict: 'not_found',
        message: `Not checked: ${reason}`,
      }),
    };
  },
  // Crossref and DataCite are free; Google Scholar is not searched by jobs.
  plannedSearches: () => 0,
};

/** Every kind, by name: exactly the kinds outcomes.ts counts (the compiler holds the two lists alike). */
export const JOB_KINDS: Readonly<Record<string, JobKind>> = Object.freeze({
  resolve: RESOLVE_KIND,
  check: CHECK_KIND,
} satisfies Record<JobKindName, JobKind>);

export const JOB_KIND_NAMES = Object.keys(JOB_KINDS) as [string, ...string[]];

/** The `options` field of a submission: every kind's options, each default applied when none are given. */
export function jobOptionsField() {
  return z.prefault(jobOptions, {});
}
