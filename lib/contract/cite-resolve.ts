/** The `data` of a successful POST /v1/cite/resolve: references resolved to DOIs, each cited (docs/citations.md). */
import * as z from 'zod/mini';
import { CITATION_MARKUPS, citationsSchema } from './cite-search.js';

/** The DOI agencies whose records resolve references: Crossref, DataCite. */
export const RECORD_AGENCIES = ['crossref', 'datacite'] as const;

/** How a reference found its DOI (or did not). */
export const MATCH_METHODS = ['exact', 'search'] as const;

export const styledCitationsSchema = z
  .record(z.string(), z.string())
  .check(
    z.describe(
      'The record in every style the request named in `styles`, keyed by style id (as /v1/cite/styles lists them); a style that renders nothing for the record is left out. {} when no style was asked for',
    ),
  );

const resolvedExportsSchema = z
  .strictObject({
    csl_json: z.optional(z.record(z.string(), z.unknown()).check(z.describe('The record as one CSL-JSON item'))),
    bibtex: z.optional(
      z.string().check(z.describe('The record as one BibTeX entry; its key differs from every other entry of the answer')),
    ),
    ris: z.optional(z.string().check(z.describe('The record as one RIS reference'))),
    render_error: z.optional(z.string().check(z.describe('Why "bibtex" or "ris", though asked for, is missing'))),
  })
  .check(
    z.describe(
      'The record as reference managers import it; present only when the request asked for an export and a record was found',
    ),
  );

export const resolvedReferenceSchema = z.strictObject({
  index: z.int().check(z.describe("Position in the request's `references`, from 1")),
  input: z.string().check(z.describe('The reference as the request gave it')),
  doi: z.nullable(
    z
      .string()
      .check(
        z.describe(
          'The DOI (lower case) of the Crossref or DataCite record this reference is; null when none was found confidently',
        ),
      ),
  ),
  match: z
    .strictObject({
      method: z
        .enum(MATCH_METHODS)
        .check(
          z.describe(
            '"exact": the reference is or contains a DOI (or an arXiv identifier), looked up directly; "search": free text, matched against Crossref\'s (then DataCite\'s) candidates',
          ),
        ),
      score: z.nullable(
        z
          .number()
          .check(
            z.describe(
              '0–1: how closely the chosen (or best refused) candidate agrees with the text; null for "exact" and when no source had a candidate',
            ),
          ),
      ),
      rule: z
        .string()
        .check(
          z.describe(
            'The rule that decided, e.g. "doi", "doi_in_text", "arxiv_id", "title_author_year", "ambiguous", "title", "numbers", "version", "empty", "too_long"',
          ),
        ),
    })
    .check(z.describe('How the DOI was found, or why none was')),
  reason: z.nullable(
    z
      .string()
      .check(
        z.describe('Why the reference has no record (no confident match, an unknown DOI, a failed lookup); null when it has one'),
      ),
  ),
  citations_source: z.nullable(
    z
      .enum(RECORD_AGENCIES)
      .check(
        z.describe(
          'Where the record comes from: "crossref" or "datacite" (the DOI agencies: DataCite registers arXiv\'s, Zenodo\'s, Dryad\'s and most datasets\' DOIs); null when no record was found',
        ),
      ),
  ),
  title: z.nullable(z.string().check(z.describe("The work's title (with its subtitle), from its record"))),
  authors: z
    .array(z.string())
    .check(z.describe('The authors, "Given Family" (an organisation by its name); [] when the record has none')),
  year: z.nullable(z.int().check(z.describe('The year the work was first issued'))),
  container: z.nullable(z.string().check(z.describe('The journal, book or proceedings the work appeared in'))),
  type: z.nullable(z.string().check(z.describe('The work\'s CSL type, e.g. "article-journal", "chapter", "book"'))),
  citations: citationsSchema,
  styled_citations: styledCitationsSchema,
  exports: z.optional(resolvedExportsSchema),
});

export const responseSchema = z.strictObject({
  total_references: z.int().check(z.describe('References in the request')),
  resolved: z.int().check(z.describe('References that found a record (doi not null)')),
  styles: z.array(z.string()).check(z.describe('The styles of styled_citations, by id, as asked')),
  citation_markup: z.enum(CITATION_MARKUPS).check(z.describe('How citations and styled_citations are written')),
  references: z.array(resolvedReferenceSchema).check(z.describe('One entry per reference, in request order')),
  note: z.string().check(z.describe('What was resolved and what was not')),
});

export type CiteResolveData = z.output<typeof responseSchema>;
export type ResolvedReference = z.output<typeof resolvedReferenceSchema>;
