/**
 * Reshaping for citation search: the scholarly search page, and the response that joins it with every
 * paper's citations (spec §2.10, docs/decisions.md §5). Pure functions, tested on the recorded samples.
 */
import {
  CITATION_FORMATS,
  type CitationDetail,
  type CitationFormat,
  type CitationMarkup,
  type CitationOrigin,
  type Citations,
  type CiteSearchData,
  type Paper,
} from '../../contract/cite-search.js';
import { integer, list, record, text, textOrEmpty } from '../../reshape/values.js';
import { LAST_PAGE } from '../../schema.js';
import type { SerpApiJson } from '../../upstream/serpapi.js';
import type { IndexedFacts } from '../model/index-record.js';
import { summaryAuthorNames } from '../model/scholar.js';

/** What of a citation-search request the reshaping needs. */
export interface CitePageRequest {
  page: number;
  results: number;
  /** One of the five formats, or a CSL style id whose entries are in each paper's styled_citations. */
  format: string;
  citation_markup?: CitationMarkup;
}

/** A paper as the search found it, before its citations. */
export type FoundPaper = Omit<Paper, 'index' | 'citations' | 'citations_source' | 'citation_gaps'>;
export interface ScholarPage {
  papers: FoundPaper[];
  /** What the index said of each paper beyond the response's fields, in paper order: its own record's facts. */
  facts: IndexedFacts[];
  total_results: number | null;
  has_more: boolean;
}
/** One paper's citations, from whichever sources gave them, and what the response says about them. */
export interface PaperCitations {
  citations: Citations;
  /** The source of most of the paper's citations; null when it has none. */
  source: CitationOrigin | null;
  formats: CitationDetail['formats'];
  links: CitationDetail['links'];
  gaps: string[];
  /** Why the paper has no citations at all; null when it has some. */
  error: string | null;
  fallbackReason: string | null;
  crossrefFallback: string | null;
  /** Why the index's cite call was not made for the paper (the engine rests); null when it was, or none was asked. */
  indexNotAsked: string | null;
}

/**
 * The authors a result shows: the names of its summary before the first " - " (as the index writes them,
 * the "…" of a cut list dropped), each with the author id of the profile the index links it to
 * (`publication_info.authors`, matched by name); the profile authors alone when the summary names none.
 */
export function authorsOf(item: Record<string, unknown>): Paper['authors'] {
  const info = record(item.publication_info);
  const profiles = new Map<string, string | null>();
  for (const author of list(info.authors)) {
    const name = text(author.name);
    if (name) profiles.set(name, text(author.author_id));
  }
  const shown = summaryAuthorNames(text(info.summary));
  const all = shown.length > 0 ? shown : [...profiles.keys()];
  return all.map((name) => ({ name, author_id: profiles.get(name) ?? null }));
}

export function reshapeScholarPage(json: SerpApiJson, request: CitePageRequest): ScholarPage {
  const results = list(json.organic_results).slice(0, request.results);
  const papers = results.map((item) => {
    const pdf = list(item.resources).find((r) => text(r.file_format)?.toUpperCase() === 'PDF');
    const citedBy = integer(record(record(item.inline_links).cited_by).total) ?? 0;
    return {
      title: textOrEmpty(item.title),
      source_url: text(item.link),
      pdf_url: text(pdf?.link),
      scholar_id: textOrEmpty(item.result_id),
      cited_by: `Cited by ${citedBy}`,
      publication: text(record(item.publication_info).summary),
      snippet: text(item.snippet),
      authors: authorsOf(item),
      cites_id: text(record(record(item.inline_links).cited_by).cites_id),
      cluster_id: text(record(record(item.inline_links).versions).cluster_id),
      result_type: text(item.type),
    };
  });
  const facts = results.map(
    (item): IndexedFacts => ({
      summary: text(record(item.publication_info).summary),
      link: text(item.link),
      profileAuthors: list(record(item.publication_info).authors).flatMap((author) => text(author.name) ?? []),
      kind: text(item.type),
    }),
  );
  const next = text(record(json.serpapi_pagination).next) ?? text(record(json.pagination).next);
  return {
    papers,
    facts,
    total_results: integer(record(json.search_information).total_results),
    has_more: Boolean(next) && papers.length > 0 && request.page < LAST_PAGE,
  };
}

/**
 * The response: every paper with its citations (`cited[i]` belongs to `found.papers[i]`) and, when the
 * request named styles, its citations in them (`styled.papers[i]`); a reference list in a style beyond the
 * five takes its entries from `styled.all`.
 */
export function assemble(
  request: CitePageRequest,
  found: ScholarPage,
  cited: readonly PaperCitations[],
  styled: {
    /** Each paper's styled_citations: present when the request named styles. */
    papers?: readonly Record<string, string>[];
    /** Each paper's citations in every style beyond the five, the reference list's included. */
    all?: readonly Record<string, string>[];
  } = {},
): CiteSearchData {
  const offset = request.page * request.results;
  const papers: Paper[] = [];
  const citation_details: CitationDetail[] = [];
  found.papers.forEach((paper, i) => {
    const outcome = cited[i];
    const index = offset + i + 1;
    const citations = { ...outcome?.citations };
    papers.push({
      index,
      ...paper,
      citations,
      citations_source: outcome?.source ?? null,
      citation_gaps: outcome?.gaps ?? [],
      ...(styled.papers ? { styled_citations: { ...styled.papers[i] } } : {}),
    });
    citation_details.push({
      index,
      scholar_id: paper.scholar_id,
      formats: outcome?.formats ?? [],
      links: outcome?.links ?? [],
      error: outcome ? outcome.error : 'No citations were looked for',
      fallback_reason: outcome?.fallbackReason ?? null,
      crossref_fallback: outcome?.crossrefFallback ?? null,
    });
  });
  const entryOf = (p: Paper, i: number) =>
    (CITATION_FORMATS as readonly string[]).includes(request.format)
      ? p.citations[request.format as CitationFormat]
      : styled.all?.[i]?.[request.format];
  const reference_list = papers.flatMap((p, i) => {
    const entry = entryOf(p, i);
    return entry ? [`[${p.index}] ${entry}`] : [];
  });
  const lacking = papers.filter((p) => Object.keys(p.citations).length === 0).length;
  const notAsked = cited.filter((outcome) => outcome.indexNotAsked);
  return {
    total_found: papers.length,
    total_results: found.total_results,
    citation_count: reference_list.length,
    format: request.format,
    citation_markup: request.citation_markup ?? 'text',
    reference_list,
    url_list: papers.map((p) => p.pdf_url ?? p.source_url),
    papers,
    citation_details,
    page: request.page,
    has_more: found.has_more,
    index_offset: offset,
    note: noteFor(request, papers, found, reference_list.length, lacking, {
      count: notAsked.length,
      reason: notAsked[0]?.indexNotAsked ?? null,
    }),
  };
}

export function noteFor(
  request: CitePageRequest,
  papers: Paper[],
  found: ScholarPage,
  references: number,
  lacking: number,
  notAsked: { count: number; reason: string | null } = { count: 0, reason: null },
): string {
  const first = papers[0];
  const last = papers.at(-1);
  if (!first || !last) {
    return `No papers on page ${request.page} for this query.${request.page > 0 ? ' Try an earlier page.' : ''}`;
  }
  const of = found.total_results === null ? '' : ` of about ${groupThousands(found.total_results)}`;
  const sentences = [`Papers ${first.index}–${last.index}${of}; reference_list holds ${references} in ${request.format} style.`];
  const from = (source: string) => papers.filter((p) => p.citations_source === source).length;
  const bySource = [
    [from('crossref'), 'their Crossref records'],
    [from('datacite'), 'their DataCite records'],
    [from('index-record'), "the index's own records of them (citation_gaps lists what each lacks)"],
    [from('index'), "the index's cite answers"],
  ] as const;
  const used = bySource.filter(([count]) => count > 0);
  if (used.length === 1 && used[0] && used[0][0] === papers.length) {
    sentences.push(`Every paper's citations come from ${used[0][1]}.`);
  } else if (used.length > 0) {
    sentences.push(
      `Citations come from ${used.map(([count, what]) => `${what} for ${count} of ${papers.length} papers`).join('; ')} (citations_source says which).`,
    );
  }
  if (notAsked.count > 0 && notAsked.reason) {
    // The paid call the request asked for was not made: it says so, and why, before anything else is read.
    const reason = notAsked.reason.charAt(0).toUpperCase() + notAsked.reason.slice(1);
    sentences.push(
      `${reason}: no cite call was made for ${notAsked.count} of ${papers.length} ${papers.length === 1 ? 'paper' : 'papers'}, and none was paid for.`,
    );
  }
  if (lacking > 0) {
    sentences.push(
      `${lacking} of ${papers.length} ${papers.length === 1 ? 'paper lacks' : 'papers lack'} citations (citation_details[].error says why).`,
    );
  }
  sentences.push(
    found.has_more ? `For the next page, send the same request with "page": ${request.page + 1}.` : 'This is the last page.',
  );
  return sentences.join(' ');
}

/**
 * 1234567 → "1,234,567". Not toLocaleString: its first call loads ICU's number formatting, which cost
 * ~10 ms of a cold start in the benchmark.
 */
export function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
