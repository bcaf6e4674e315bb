/**
 * Reshaping for citation search: the scholarly search page, one paper's cite answer, and the response
 * that joins them (spec §2.10, docs/decisions.md §5). Pure functions, tested on the recorded samples.
 */
import { mapSettled } from '../concurrency.js';
import { config } from '../config.js';
import {
  CITATION_FORMATS,
  type CitationDetail,
  type CitationFormat,
  type Citations,
  type CiteSearchData,
  type Paper,
} from '../contract/cite-search.js';
import { AppError } from '../errors.js';
import { logger } from '../logger.js';
import { integer, list, record, text, textOrEmpty } from '../reshape/values.js';
import { LAST_PAGE } from '../schema.js';
import type { SerpApiJson } from '../upstream/serpapi.js';

const NO_CITATIONS = 'The search provider gave no citations for this paper';

/** What of a citation-search request the reshaping needs. */
export interface CitePageRequest {
  page: number;
  results: number;
  format: CitationFormat;
}

/** A paper as the search found it, before its citations: what the search-page cache keeps. */
export type FoundPaper = Omit<Paper, 'index' | 'citations' | 'citations_source'>;
export interface ScholarPage {
  papers: FoundPaper[];
  total_results: number | null;
  has_more: boolean;
}
/** One paper's citation answer: what the cite cache keeps. */
export type CiteAnswer = Pick<CitationDetail, 'formats' | 'links'> & { citations: Citations };

/** Where one paper's citation outcome comes from, and why not from Crossref when it does not. */
export interface CitationOrigin {
  source: 'crossref' | 'index';
  /** Why the paper's Crossref record gave no citations; null when it gave them. */
  crossrefFallback: string | null;
}

/** The origin of every paper's citations in a request that asked only the index. */
export const INDEX_ONLY: CitationOrigin = {
  source: 'index',
  crossrefFallback: 'The request asked for the index\'s citations ("citation_source": "index")',
};

/** Citations rendered from a Crossref record, as a cite answer: the five formats, no export links. */
export function renderedAnswer(citations: Citations): CiteAnswer {
  const formats = CITATION_FORMATS.flatMap((name) => (citations[name] ? [{ name, text: citations[name] }] : []));
  return { citations, formats, links: [] };
}

export function reshapeScholarPage(json: SerpApiJson, request: CitePageRequest): ScholarPage {
  const papers = list(json.organic_results)
    .slice(0, request.results)
    .map((item) => {
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
      };
    });
  const next = text(record(json.serpapi_pagination).next) ?? text(record(json.pagination).next);
  return {
    papers,
    total_results: integer(record(json.search_information).total_results),
    has_more: Boolean(next) && papers.length > 0 && request.page < LAST_PAGE,
  };
}

export function reshapeCite(json: SerpApiJson): CiteAnswer {
  const formatList = list(json.citations)
    .map((item) => ({ name: textOrEmpty(item.title), text: textOrEmpty(item.snippet) }))
    .filter((item) => item.name !== '' && item.text !== '');
  const citations: Citations = {};
  for (const format of CITATION_FORMATS) {
    const given = formatList.find((item) => item.name.toLowerCase() === format.toLowerCase());
    if (given) citations[format] = given.text;
  }
  const links = list(json.links)
    .map((item) => ({ name: textOrEmpty(item.name), url: textOrEmpty(item.link) }))
    .filter((item) => item.name !== '' && item.url !== '');
  return { citations, formats: formatList, links };
}

/**
 * Step 2: every paper's citations. All calls start together (up to CITE_CONCURRENCY), each with its own
 * short timeout and all within the request's deadline, so 20 papers take about one round trip; a
 * rejection only empties that paper's citations.
 */
export function citeAll(
  papers: readonly FoundPaper[],
  cite: (scholarId: string) => Promise<CiteAnswer>,
  concurrency = config.CITE_CONCURRENCY,
): Promise<PromiseSettledResult<CiteAnswer>[]> {
  return mapSettled(papers, concurrency, async ({ scholar_id }) => {
    if (!scholar_id) throw new AppError('UPSTREAM_ERROR', { details: 'The index gave no identifier to look the paper up by' });
    return cite(scholar_id);
  });
}

/** Why a paper has no citations, in words safe to show (AppError details are already redacted). */
function failureReason(reason: unknown): string {
  if (reason instanceof AppError) return reason.details;
  logger.error('citation lookup failed unexpectedly', { error: reason as Error });
  return 'Unexpected error while fetching the citations';
}

/**
 * The response: every paper with its citations. `origins` says, per paper, whether its outcome in `cited`
 * was rendered from Crossref or asked of the index (default: the index, for every paper).
 */
export function assemble(
  request: CitePageRequest,
  found: ScholarPage,
  cited: PromiseSettledResult<CiteAnswer>[],
  origins: readonly CitationOrigin[] = [],
): CiteSearchData {
  const offset = request.page * request.results;
  const papers: Paper[] = [];
  const citation_details: CitationDetail[] = [];
  found.papers.forEach((paper, i) => {
    const outcome = cited[i];
    const answer = outcome?.status === 'fulfilled' ? outcome.value : undefined;
    const index = offset + i + 1;
    const origin = origins[i] ?? INDEX_ONLY;
    const citations = { ...answer?.citations };
    const has = Object.keys(citations).length > 0;
    papers.push({ index, ...paper, citations, citations_source: has ? origin.source : null });
    citation_details.push({
      index,
      scholar_id: paper.scholar_id,
      formats: answer?.formats ?? [],
      links: answer?.links ?? [],
      error: outcome?.status === 'rejected' ? failureReason(outcome.reason) : answer?.formats.length ? null : NO_CITATIONS,
      crossref_fallback: origin.source === 'crossref' ? null : origin.crossrefFallback,
    });
  });
  const reference_list = papers.flatMap((p) =>
    p.citations[request.format] ? [`[${p.index}] ${p.citations[request.format]}`] : [],
  );
  const lacking = papers.filter((p) => Object.keys(p.citations).length === 0).length;
  return {
    total_found: papers.length,
    total_results: found.total_results,
    citation_count: reference_list.length,
    format: request.format,
    reference_list,
    url_list: papers.map((p) => p.pdf_url ?? p.source_url),
    papers,
    citation_details,
    page: request.page,
    has_more: found.has_more,
    index_offset: offset,
    note: noteFor(request, papers, found, reference_list.length, lacking),
  };
}

export function noteFor(
  request: CitePageRequest,
  papers: Paper[],
  found: ScholarPage,
  references: number,
  lacking: number,
): string {
  const first = papers[0];
  const last = papers.at(-1);
  if (!first || !last) {
    return `No papers on page ${request.page} for this query.${request.page > 0 ? ' Try an earlier page.' : ''}`;
  }
  const of = found.total_results === null ? '' : ` of about ${groupThousands(found.total_results)}`;
  const sentences = [`Papers ${first.index}–${last.index}${of}; reference_list holds ${references} in ${request.format} style.`];
  const rendered = papers.filter((p) => p.citations_source === 'crossref').length;
  if (rendered > 0) {
    sentences.push(
      rendered === papers.length
        ? "Every citation is rendered from the paper's Crossref record."
        : `Citations of ${rendered} of ${papers.length} papers are rendered from their Crossref records; the others come from the index (citations_source says which).`,
    );
  }
  if (lacking > 0) {
    sentences.push(
      `${lacking} of ${papers.length} ${papers.length === 1 ? 'paper lacks' : 'papers lack'} citations because the lookup failed or found none; failures are not cached, so repeating the request retries them.`,
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
