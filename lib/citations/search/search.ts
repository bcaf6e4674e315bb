/**
 * Citation search, the whole pipeline behind POST /v1/cite/search, one paper record (paper.ts) carried
 * through its stages: the scholarly index's page (the one paid call) read into the records, each record
 * given its free record (Crossref, DataCite; records.ts) and, when asked for, the index's cite answer
 * (paid), every paper's citations from the best source (cite.ts), the asked CSL styles, the page assembled
 * (page.ts) and the exports (paper-exports.ts). Only the search itself can fail the request.
 */

import type { Ask } from '../../budget/budget.js';
import type { CacheScope } from '../../cache/shared.js';
import { CITATION_FORMATS, type CitationMarkup, type CiteSearchData, type ExportFormat } from '../../contract/cite-search.js';
import { logger } from '../../logger.js';
import type { Upstream } from '../../upstream/serpapi.js';
import { citationRenderer } from '../render/render.js';
import { checkStyleIds, prepareStyleEngines, renderStyles } from '../render/style-engines.js';
import { citeEngine, citeFromIndex } from '../sources/index-cite.js';
import { citePapers, styleRecordOf } from './cite.js';
import { assemble, reshapeScholarPage } from './page.js';
import { type SearchPaper, searchPapers } from './paper.js';
import { addExports } from './paper-exports.js';
import { lookUpRecords } from './records.js';

/** What of a citation-search request the pipeline reads (the handler's validated body). */
export interface CiteSearchRequest {
  query: string;
  results: number;
  page: number;
  format: string;
  styles: readonly string[];
  citation_source: 'auto' | 'index';
  citation_markup: CitationMarkup;
  export: readonly ExportFormat[];
}

/** The index's search parameters for a request: `num` papers from `start`. */
export function toScholarParams(request: Pick<CiteSearchRequest, 'query' | 'results' | 'page'>) {
  return { q: request.query, num: request.results, start: request.page * request.results };
}

/** What a citation search from the index costs, and how to ask for less (its refusal says so). */
export function citeSearchAsk(results: number): Ask {
  return {
    why: `the search and a cite call for each of up to ${results} papers ("citation_source": "index")`,
    less: (left) =>
      `"citation_source": "auto" makes 1 (every paper cited from its free records)${left !== undefined && left > 1 ? `, or "results": ${left - 1} with "index"` : ''}`,
  };
}

/** The answer to a citation-search request (see the module comment). */
export async function citeSearch(
  request: CiteSearchRequest,
  { upstream, cache }: { upstream: Upstream; cache: CacheScope },
): Promise<CiteSearchData> {
  // Styles beyond the five: the asked ones, and the reference list's when it names one. Checked before the
  // paid search, so that a mistyped id costs nothing.
  const listStyle = (CITATION_FORMATS as readonly string[]).includes(request.format) ? [] : [request.format];
  const [styles, listStyles] = await Promise.all([checkStyleIds(request.styles), checkStyleIds(listStyle, 'format')]);
  const format = listStyles[0] ?? request.format;
  // Their engines are built while the search and the lookups are on the network, not after.
  prepareStyleEngines([...styles, ...listStyles]);
  // Unless built at start-up, the citation styles are built while the search is on the network (render.ts
  // says why), and finish before any record lookup starts (records.ts).
  const renderer = citationRenderer();
  renderer.catch(() => undefined);
  const askedIndex = request.citation_source === 'index';
  // The search and a cite call per paper, reserved at once (docs/decisions.md §8); papers cached cost none.
  // While the cite engine rests (index-cite.ts) no cite call is made: the search alone is reserved.
  if (askedIndex && citeEngine.resting() === undefined) upstream.plan(1 + request.results, citeSearchAsk(request.results));
  const found = reshapeScholarPage(await upstream.search('scholar', toScholarParams(request)), { ...request, format });
  const markup = request.citation_markup;
  // Record lookups (free) for every "auto" request, every export and every further style; the index's cite
  // calls (paid) only when asked for, beside them.
  const indexed = searchPapers(found);
  const looksUp = !askedIndex || request.export.length > 0 || styles.length + listStyles.length > 0;
  const [looked, cites] = await Promise.all([
    looksUp ? lookUpRecords(indexed, { deadline: upstream.deadline, scope: cache, renderer, markup }) : indexed,
    askedIndex ? citeFromIndex(found.papers, { upstream, cache }) : null,
  ]);
  const papers: SearchPaper[] = looked.map((paper, i) => (cites ? { ...paper, cite: cites[i] } : paper));
  const ready = await renderer.catch((error: unknown) => {
    logger.error('citation styles could not be loaded', { error: error as Error });
    return undefined;
  });
  const cited = citePapers(papers, { renderer: ready, markup, askedIndex });
  const extraStyles = [...new Set([...styles, ...listStyles])];
  const styled = extraStyles.length > 0 ? await renderStyles(papers.map(styleRecordOf), extraStyles, markup) : undefined;
  // A paper carries the asked styles; a style named only as the reference list's format stays in the list.
  const shown = styled?.map((entries) => Object.fromEntries(Object.entries(entries).filter(([id]) => styles.includes(id))));
  const assembled = assemble({ ...request, format }, found, cited, {
    papers: styles.length > 0 ? shown : undefined,
    all: styled,
  });
  // Exports are asked for only with lookups made (looksUp).
  const data = request.export.length > 0 ? await addExports(assembled, request.export, papers) : assembled;
  // A paper whose BibTeX or RIS could not be rendered is answered without them; the log names its record.
  const unrendered = data.papers.filter((paper) => paper.exports?.render_error);
  if (unrendered.length > 0) {
    logger.warn('exports not rendered', {
      papers: unrendered.map((paper) => ({ scholarId: paper.scholar_id, doi: paper.doi, reason: paper.exports?.render_error })),
    });
  }
  return data;
}
