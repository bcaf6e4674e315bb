/**
 * POST /v1/cite/search: papers from the scholarly index (SerpApi `google_scholar`, the one paid call),
 * then every paper's five citations, rendered here from the best free record of it (lib/citations/
 * sources.ts): its Crossref record when one matches it confidently, else the index's own record of it.
 * With "citation_source": "index" the index's cite call (one paid call per paper) is asked first, and
 * what it lacks comes from those records. Only the search itself can fail the request.
 */
import * as z from 'zod/mini';
import type { Ask } from '../lib/budget/budget.js';
import { citeFromIndex } from '../lib/citations/index-cite.js';
import { parseScholarSummary } from '../lib/citations/match.js';
import { assemble, reshapeScholarPage } from '../lib/citations/page.js';
import { addExports } from '../lib/citations/paper-exports.js';
import { lookUpRecords } from '../lib/citations/records.js';
import { citationRenderer, prepareCitationRenderer } from '../lib/citations/render.js';
import { exportFormats, referenceListFormat, styleIds } from '../lib/citations/request-fields.js';
import { citePapers, styleRecordOf, warmUpCitationPipeline } from '../lib/citations/sources.js';
import { checkStyleIds, renderStyles } from '../lib/citations/style-engines.js';
import { config } from '../lib/config.js';
import { CITATION_FORMATS, CITATION_MARKUPS, CITATION_SOURCES } from '../lib/contract/cite-search.js';
import { countMessage } from '../lib/envelope.js';
import { logger } from '../lib/logger.js';
import { api } from '../lib/middleware/index.js';
import { body, integer as intField, oneOf, page, searchTerms } from '../lib/schema.js';

export const requestSchema = body({
  query: searchTerms(),
  results: intField({
    min: 1,
    max: 20,
    default: 10,
    description: 'Papers per page; each costs one upstream call unless its citations are cached',
  }),
  page: page(),
  // Accepted because the spec lists it; the scholarly search takes no country parameter (it has no `gl`).
  country: z._default(
    z
      .string({ error: 'must be a string' })
      .check(
        z.regex(/^[A-Za-z]{2}$/, { error: 'must be a two-letter country code, such as us or gb' }),
        z.describe(
          'Two-letter country code (any letter case). Accepted for compatibility; it has no effect: the scholarly index takes no country',
        ),
      ),
    'us',
  ),
  format: z._default(referenceListFormat(), 'MLA'),
  styles: styleIds(),
  citation_source: z._default(
    oneOf(
      CITATION_SOURCES,
      'Where citations come from. "auto": rendered here from each paper\'s Crossref record when one matches it confidently, else from the index\'s own record of the paper (both free: a page costs its one search call); "index": the index\'s cite call for every paper (one paid call each, unless cached), and what it lacks rendered here as in "auto"',
    ),
    'auto',
  ),
  citation_markup: z._default(
    oneOf(
      CITATION_MARKUPS,
      'How citations and reference_list are written: "text" (default), or "html": the styles\' italics and small capitals as inline HTML, no wrapper element. The index\'s cite answers are text either way',
    ),
    'text',
  ),
  export: exportFormats(
    'Reference-manager records to add to each paper: any of csl-json, bibtex, ris. Each paper then also gets its DOI from Crossref (free, no key; looked up beside the citations)',
  ),
});
export type CiteSearchRequest = z.output<typeof requestSchema>;

export function toScholarParams(request: CiteSearchRequest) {
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

// Deployed, the citation styles are built while the container starts (render.ts says why).
if (config.CITATION_STYLES_AT_INIT === 'true') {
  await prepareCitationRenderer();
  await warmUpCitationPipeline();
}

export const handler = api({ body: requestSchema }).handler(async ({ body: request, upstream, cache }) => {
  // Styles beyond the five: the asked ones, and the reference list's when it names one. Checked before the
  // paid search, so that a mistyped id costs nothing.
  const listStyle = (CITATION_FORMATS as readonly string[]).includes(request.format) ? [] : [request.format];
  const [styles, listStyles] = await Promise.all([checkStyleIds(request.styles), checkStyleIds(listStyle, 'format')]);
  const format = listStyles[0] ?? request.format;
  // Unless built at start-up, the citation styles are built while the search is on the network (render.ts
  // says why), and finish before any Crossref lookup starts (records.ts).
  const renderer = citationRenderer();
  renderer.catch(() => undefined);
  const askedIndex = request.citation_source === 'index';
  // The search and a cite call per paper, reserved at once (docs/decisions.md §8); papers cached cost none.
  if (askedIndex) upstream.plan(1 + request.results, citeSearchAsk(request.results));
  const found = reshapeScholarPage(await upstream.search('scholar', toScholarParams(request)), { ...request, format });
  const markup = request.citation_markup;
  // Crossref lookups (free) for every "auto" request and every export; the index's cite calls (paid) only
  // when asked for, beside them.
  const [lookups, cites] = await Promise.all([
    !askedIndex || request.export.length > 0 || styles.length + listStyles.length > 0
      ? lookUpRecords(found.papers, { deadline: upstream.deadline, scope: cache, renderer, markup })
      : null,
    askedIndex ? citeFromIndex(found.papers, { upstream, cache }) : null,
  ]);
  const ready = await renderer.catch((error: unknown) => {
    logger.error('citation styles could not be loaded', { error: error as Error });
    return undefined;
  });
  const cited = citePapers(found, { lookups, cites, renderer: ready, markup, askedIndex });
  const extraStyles = [...new Set([...styles, ...listStyles])];
  const styled =
    extraStyles.length > 0
      ? await renderStyles(
          found.papers.map((paper, i) =>
            styleRecordOf(
              {
                paper,
                scholar: lookups?.[i]?.scholar ?? parseScholarSummary(paper.title, paper.publication),
                record: lookups?.[i]?.record,
              },
              found.facts[i],
            ),
          ),
          extraStyles,
          markup,
        )
      : undefined;
  // A paper carries the asked styles; a style named only as the reference list's format stays in the list.
  const shown = styled?.map((entries) => Object.fromEntries(Object.entries(entries).filter(([id]) => styles.includes(id))));
  const assembled = assemble({ ...request, format }, found, cited, {
    papers: styles.length > 0 ? shown : undefined,
    all: styled,
  });
  const data =
    lookups && request.export.length > 0 ? await addExports(assembled, request.export, lookups, found.facts) : assembled;
  // A paper whose BibTeX or RIS could not be rendered is answered without them; the log names its record.
  const unrendered = data.papers.filter((paper) => paper.exports?.render_error);
  if (unrendered.length > 0) {
    logger.warn('exports not rendered', {
      papers: unrendered.map((paper) => ({ scholarId: paper.scholar_id, doi: paper.doi, reason: paper.exports?.render_error })),
    });
  }
  return { data, message: countMessage(data.total_found, 'paper') };
});
