/**
 * POST /v1/cite/check: what a reference list is checked against (its limits) and the `data` of a successful
 * answer: each reference's verdict, what is wrong with it field by field, and its record (docs/citations.md,
 * "Checking a reference list"; docs/decisions.md §25).
 */
import * as z from 'zod/mini';
import { CITATION_MARKUPS } from './cite-search.js';

/** References per request; a longer list is a job (a separate endpoint). */
export const CHECK_REFERENCES_MAX = 100;

/** What the references (or the bibliography) may hold in all: 200 KiB of UTF-8. */
export const CHECK_TEXT_MAX_BYTES = 200 * 1024;

/**
 * The body of a check request: the references' 200 KiB with room for JSON's escapes (a line break is two
 * bytes, a quote two) and the options. Over it, 413 before the body is read; under it, a list over 200 KiB
 * is a 400 naming its field.
 */
export const CHECK_BODY_MAX_BYTES = 256 * 1024;

/** The longest one reference is read: longer is answered `unreadable`, never failing the list. */
export const CHECK_REFERENCE_MAX_CHARS = 2_000;

/** What the check concluded about one reference. */
export const VERDICTS = ['verified', 'mismatch', 'retracted', 'not_found', 'ambiguous', 'unreadable'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The fields an issue is about. */
export const ISSUE_FIELDS = ['title', 'authors', 'year', 'venue', 'volume', 'issue', 'pages', 'doi', 'type'] as const;
export type IssueField = (typeof ISSUE_FIELDS)[number];

/** How grave an issue is: an error is wrong, a warning probably wrong, info a harmless difference. */
export const ISSUE_SEVERITIES = ['error', 'warning', 'info'] as const;
export type IssueSeverity = (typeof ISSUE_SEVERITIES)[number];

/** Where a reference's record comes from: a DOI registry, or the scholarly index. */
export const CHECK_SOURCES = ['crossref', 'datacite', 'scholar'] as const;
export type CheckSource = (typeof CHECK_SOURCES)[number];

/** The kinds of input a reference came in. */
export const REFERENCE_FORMATS = ['text', 'bibtex', 'ris', 'csl-json'] as const;

const issueSchema = z.strictObject({
  rule: z.string().check(z.describe('The rule that found it (docs/citations.md lists every rule with its field and severity)')),
  field: z.enum(ISSUE_FIELDS).check(z.describe('The field it is about')),
  severity: z
    .enum(ISSUE_SEVERITIES)
    .check(z.describe('"error": wrong; "warning": probably wrong, check it; "info": a difference that is no mistake')),
  cited: z.nullable(z.string().check(z.describe('What the reference says; null when it says nothing of it'))),
  recorded: z.nullable(z.string().check(z.describe('What the record says; null when it says nothing of it'))),
  message: z.string().check(z.describe('The issue in a sentence')),
});

const updateSchema = z.strictObject({
  type: z
    .string()
    .check(
      z.describe('Crossref\'s kind of notice: "retraction", "withdrawal", "correction", "erratum", "expression_of_concern"…'),
    ),
  doi: z.nullable(z.string().check(z.describe("The notice's DOI; null when the record's title is the only mark"))),
  date: z.nullable(z.string().check(z.describe('When it was issued, YYYY-MM-DD (as precise as known); null when unknown'))),
  source: z
    .string()
    .check(z.describe('Who says so: "publisher", "retraction-watch" (Retraction Watch\'s records, through Crossref) or "title"')),
});

const checkExportsSchema = z
  .strictObject({
    csl_json: z.optional(z.record(z.string(), z.unknown()).check(z.describe('The record as one CSL-JSON item'))),
    bibtex: z.optional(z.string().check(z.describe('The record as one BibTeX entry, its key unique in the answer'))),
    ris: z.optional(z.string().check(z.describe('The record as one RIS reference'))),
    render_error: z.optional(z.string().check(z.describe('Why "bibtex" or "ris", though asked for, is missing'))),
  })
  .check(z.describe('The corrected entry as reference managers import it: only when asked for and a record was found'));

export const checkResultSchema = z.strictObject({
  index: z.int().check(z.describe('Position in the list, from 1')),
  input: z.string().check(z.describe('The reference as given, shortened to 300 characters')),
  format: z
    .enum(REFERENCE_FORMATS)
    .check(z.describe('How it was read: free text, a BibTeX entry, a RIS record, a CSL-JSON item')),
  verdict: z
    .enum(VERDICTS)
    .check(
      z.describe(
        '"verified": its record agrees (info issues at most); "mismatch": a record was found and the reference disagrees with it (an error or warning); "retracted": its work is retracted or withdrawn; "not_found": no source asked has it (never "fabricated": many real works have no DOI; `message` says where it looked); "ambiguous": several records fit equally; "unreadable": the entry could not be read (`message` says why)',
      ),
    ),
  issues: z.array(issueSchema).check(z.describe('What is wrong or different, field by field; [] when nothing')),
  doi: z.nullable(
    z
      .string()
      .check(z.describe('The DOI of the work the reference describes (lower case); null when it has none or none was found')),
  ),
  source: z.nullable(z.enum(CHECK_SOURCES).check(z.describe('Where its record comes from; null when none was found'))),
  updates: z
    .array(updateSchema)
    .check(z.describe('Notices about the work (retractions, withdrawals, corrections, expressions of concern…); [] when none')),
  record: z.nullable(
    z
      .record(z.string(), z.unknown())
      .check(z.describe('The recorded work as CSL-JSON: what the reference should say; null when no record was found')),
  ),
  styled_citations: z
    .record(z.string(), z.string())
    .check(z.describe('The recorded work in every style asked for in `styles`, by style id; {} when none was asked or found')),
  exports: z.optional(checkExportsSchema),
  message: z.string().check(z.describe('The verdict in a sentence: what is wrong, or where the check looked')),
});

const countsSchema = z
  .strictObject(Object.fromEntries(VERDICTS.map((verdict) => [verdict, z.int()])) as Record<Verdict, z.ZodMiniInt>)
  .check(z.describe('References per verdict'));

export const responseSchema = z.strictObject({
  total_references: z
    .int()
    .check(z.describe('References in the list (each entry of `references`, or each the bibliography was split into)')),
  counts: countsSchema,
  scholar_searches: z
    .int()
    .check(
      z.describe('Google Scholar searches made (paid; only with "scholar": true, only for references no registry confirmed)'),
    ),
  styles: z.array(z.string()).check(z.describe('The styles of styled_citations, by id, as asked')),
  citation_markup: z.enum(CITATION_MARKUPS).check(z.describe('How styled_citations are written')),
  results: z.array(checkResultSchema).check(z.describe('One result per reference, in list order')),
  note: z.string().check(z.describe('What was checked, where, and what was not')),
});

export type CiteCheckData = z.output<typeof responseSchema>;
export type CheckResult = z.output<typeof checkResultSchema>;
