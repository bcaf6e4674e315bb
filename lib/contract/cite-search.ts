/** The `data` of a successful POST /v1/cite/search (spec §2.10, docs/decisions.md §5). */
import * as z from 'zod/mini';

/** The five formats the spec names, in the order Google Scholar shows them. */
export const CITATION_FORMATS = ['MLA', 'APA', 'Chicago', 'Harvard', 'Vancouver'] as const;
export type CitationFormat = (typeof CITATION_FORMATS)[number];

const formattedText = (format: string) => z.optional(z.string().check(z.describe(`The reference in ${format} style`)));

export const citationsSchema = z
  .strictObject({
    MLA: formattedText('MLA'),
    APA: formattedText('APA'),
    Chicago: formattedText('Chicago'),
    Harvard: formattedText('Harvard'),
    Vancouver: formattedText('Vancouver'),
  })
  .check(
    z.describe(
      "The paper's formatted references, by format, as text or as HTML (citation_markup): rendered here from its Crossref record or from the index's own record of it, or as the index's cite answer gave them (citations_source says which); {} only when no record could be rendered",
    ),
  );

/**
 * Where a request's citations come from: `auto` renders every paper's citations here, from the best free
 * record (no paid call beyond the search); `index` asks the index's cite call for every paper first.
 */
export const CITATION_SOURCES = ['auto', 'index'] as const;
export type CitationSource = (typeof CITATION_SOURCES)[number];

/**
 * Where one paper's citations came from, best first: its Crossref or DataCite record rendered here, the
 * index's own record of it rendered here, or the index's cite answer (a paid call, asked for with "index").
 */
export const CITATION_ORIGINS = ['crossref', 'datacite', 'index-record', 'index'] as const;
export type CitationOrigin = (typeof CITATION_ORIGINS)[number];

/** How citations are written: plain text, or HTML with the styles' italics and small capitals. */
export const CITATION_MARKUPS = ['text', 'html'] as const;
export type CitationMarkup = (typeof CITATION_MARKUPS)[number];

/** Reference-manager formats a request may ask for with `export`. */
export const EXPORT_FORMATS = ['csl-json', 'bibtex', 'ris'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const paperExportsSchema = z
  .strictObject({
    source: z
      .enum(['crossref', 'datacite', 'scholar'])
      .check(
        z.describe(
          'Where the record comes from: "crossref" or "datacite" when a work of that DOI agency matched the paper, "scholar" when only the index\'s own data (title, authors, year, venue, link) was available',
        ),
      ),
    fallback_reason: z.nullable(
      z.string().check(z.describe('Why the record comes from the index and not Crossref; null when it comes from Crossref')),
    ),
    csl_json: z.optional(
      z
        .record(z.string(), z.unknown())
        .check(
          z.describe(
            'The record as one CSL-JSON item (citation-style-language schema), when "csl-json" was asked for; an author list the index cut says so in its `note`',
          ),
        ),
    ),
    bibtex: z.optional(
      z
        .string()
        .check(
          z.describe(
            'The record as one BibTeX entry, when "bibtex" was asked for; its key is made of the paper\'s scholar_id (else its DOI or place in the list; letters, digits and underscores only) and differs from every other paper\'s in the answer',
          ),
        ),
    ),
    ris: z.optional(
      z
        .string()
        .check(
          z.describe('The record as one RIS reference, when "ris" was asked for; an author list the index cut says so in `N1`'),
        ),
    ),
    render_error: z.optional(
      z
        .string()
        .check(
          z.describe(
            'Why "bibtex" or "ris", though asked for, is missing: the record could not be rendered in that format, or the renderer could not be loaded (the next request tries again). Absent when every format asked for is given; the other formats are given all the same',
          ),
        ),
    ),
  })
  .check(z.describe('The paper as reference managers import it; present only when the request asked for an export'));

export const paperSchema = z.strictObject({
  index: z.int().check(z.describe('Global sequence number: index_offset + position on this page, from 1')),
  title: z.string(),
  source_url: z.nullable(z.string().check(z.describe('The page the index links the paper to'))),
  pdf_url: z.nullable(z.string().check(z.describe('A PDF of the paper, when the index found one'))),
  scholar_id: z.string().check(z.describe("The scholarly index's identifier of the paper (its result_id)")),
  cited_by: z.string().check(z.describe('Citation count as text: "Cited by 1234", "Cited by 0" when none')),
  publication: z.nullable(z.string().check(z.describe('Authors, venue, year and site as the index summarises them'))),
  snippet: z.nullable(z.string()),
  authors: z
    .array(
      z.strictObject({
        name: z.string().check(z.describe('As the index writes it: initials and family name ("DS Kermany"), or an organisation')),
        author_id: z.nullable(
          z
            .string()
            .check(
              z.describe(
                "The index's author id when it links the name to a profile (POST /v1/alpha/scholar/author takes it); else null",
              ),
            ),
        ),
      }),
    )
    .check(
      z.describe(
        'The authors the index shows, in order; it cuts long lists (citation_gaps then holds "authors truncated"). [] when it names none',
      ),
    ),
  cites_id: z.nullable(
    z.string().check(z.describe('The index\'s id of the list of papers citing this one (its "Cited by" link); null when none')),
  ),
  cluster_id: z.nullable(
    z.string().check(z.describe('The index\'s id of all versions of this paper (its "All versions" link); null when none')),
  ),
  result_type: z.nullable(
    z
      .string()
      .check(
        z.describe('The kind of result the index says it is, e.g. "Pdf", "Html", "Book", "Citation"; null when it says none'),
      ),
  ),
  citations: citationsSchema,
  citations_source: z.nullable(
    z
      .enum(CITATION_ORIGINS)
      .check(
        z.describe(
          'Where the paper\'s citations come from (the source of most of them; citation_details[].formats[].source names each one\'s): "crossref", rendered here from its Crossref record (free); "index-record", rendered here from what the index says of it: title, authors, venue, year, link (free; citation_gaps lists what that record lacks); "index", the index\'s cite answer (one paid call, unless cached; only with "citation_source": "index"); null when the paper has none (citation_details[].error says why)',
        ),
      ),
  ),
  citation_gaps: z
    .array(z.string())
    .check(
      z.describe(
        'What the record behind citations rendered from the index\'s own record lacks, so what to check before citing: e.g. "volume", "issue", "pages", "doi", "publisher", "venue", "year", "authors", "authors truncated" (the index cut the author list with "…"), "title truncated", "venue truncated", "institution", "degree", "repository". [] when no citation comes from the index\'s record',
      ),
    ),
  styled_citations: z.optional(
    z
      .record(z.string(), z.string())
      .check(
        z.describe(
          "The paper's reference in every CSL style the request named in `styles`, keyed by style id, rendered from the same record as citations (its Crossref record, else the index's own record of it); a style that renders nothing for the record is left out. Present only when the request named styles",
        ),
      ),
  ),
  doi: z.optional(
    z.nullable(
      z
        .string()
        .check(
          z.describe(
            "The paper's DOI, from the Crossref work whose title, first author and year match it; null when none matched or Crossref did not answer. Present only when the request asked for an export",
          ),
        ),
    ),
  ),
  exports: z.optional(paperExportsSchema),
});

export const citationDetailSchema = z.strictObject({
  index: z.int().check(z.describe('The index of the paper these details belong to')),
  scholar_id: z.string(),
  formats: z
    .array(
      z.strictObject({
        name: z.string(),
        text: z.string(),
        source: z.enum(CITATION_ORIGINS).check(z.describe('Where this formatted reference comes from (as citations_source)')),
      }),
    )
    .check(
      z.describe(
        "Every formatted reference: the five formats, each from the first source that gave it, and the index's formats beyond the five when its cite answer was used",
      ),
    ),
  links: z
    .array(z.strictObject({ name: z.string(), url: z.string() }))
    .check(
      z.describe('Export links the index gave: BibTeX, EndNote, RefMan, RefWorks…; [] when the citations come from Crossref'),
    ),
  error: z.nullable(z.string().check(z.describe('Why this paper has no citations; null when it has some'))),
  fallback_reason: z.nullable(
    z
      .string()
      .check(
        z.describe(
          "Why some or all of the paper's citations come from a later source than the first one asked: the index's cite answer failed or was empty, no Crossref work matched, or a style rendered nothing for the record (a format no source gives is named too: Chicago leaves out a document nothing locates); null when every citation comes from the first source",
        ),
      ),
  ),
  crossref_fallback: z.nullable(
    z
      .string()
      .check(
        z.describe(
          'Why the citations do not come from the paper\'s Crossref record: no confident match, a lookup that failed, was refused (429) or was too slow, or "citation_source": "index" in the request; null when they do',
        ),
      ),
  ),
});

export const responseSchema = z.strictObject({
  total_found: z.int().check(z.describe('Papers on this page')),
  total_results: z.nullable(z.int().check(z.describe("The index's estimate of all matching papers"))),
  citation_count: z.int().check(z.describe('Entries in reference_list: papers that have a citation in the chosen format')),
  format: z
    .string()
    .check(
      z.describe(
        'The format of reference_list: one of MLA, APA, Chicago, Harvard, Vancouver, or the CSL style id the request named',
      ),
    ),
  citation_markup: z
    .enum(CITATION_MARKUPS)
    .check(
      z.describe('How citations and reference_list are written: "text", or "html" (inline markup only, no wrapper element)'),
    ),
  reference_list: z
    .array(z.string())
    .check(z.describe('"[<index>] <reference>" in the chosen format, for every paper that has one, in paper order')),
  url_list: z
    .array(z.nullable(z.string()))
    .check(z.describe("Each paper's PDF link, else its source link, else null, in paper order")),
  papers: z.array(paperSchema),
  citation_details: z.array(citationDetailSchema).check(z.describe('For each paper, every format and export link')),
  page: z.int(),
  has_more: z.boolean().check(z.describe('Whether the index reports a next page (never past page 99)')),
  index_offset: z.int().check(z.describe('page × results: the index of the first paper minus 1')),
  note: z.string().check(z.describe('What was shown, how many papers lack citations, and how to ask for the next page')),
});

export type CiteSearchData = z.output<typeof responseSchema>;
export type Paper = z.output<typeof paperSchema>;
export type CitationDetail = z.output<typeof citationDetailSchema>;
export type Citations = z.output<typeof citationsSchema>;
export type PaperExports = z.output<typeof paperExportsSchema>;
