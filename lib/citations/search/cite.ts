/**
 * Every paper's five citations, each from the best source that gives it. The sources, in order:
 * - with "citation_source": "index", the index's cite answer (one paid call per paper, unless cached);
 * - the paper's Crossref record, when one matched it confidently, rendered here (free);
 * - the index's own record of the paper (index-record.ts), rendered here (free): always there, so every
 *   paper with a title is cited, and a page costs exactly its one search call in "auto".
 * A format a source lacks (a style that renders nothing for the record, a cite answer with four formats)
 * comes from the next source, and only that format; each format says where it came from.
 */
import {
  CITATION_FORMATS,
  type CitationFormat,
  type CitationMarkup,
  type CitationOrigin,
  type Citations,
} from '../../contract/cite-search.js';
import { logger } from '../../logger.js';
import { bestMatch } from '../match/match.js';
import { type CslItem, citableItem, cslFromCrossref } from '../model/csl.js';
import { indexRecordOf } from '../model/index-record.js';
import { parseScholarSummary } from '../model/scholar.js';
import { agencyName } from '../model/work.js';
import { type CitationRenderer, citationRenderer } from '../render/render.js';
import { type CiteAnswer, failureReason } from '../sources/index-cite.js';
import type { PaperCitations } from './page.js';
import { type CitedRecord, renderedCitations, type SearchPaper } from './paper.js';

export const INDEX_ONLY_REASON = 'The request asked for the index\'s citations ("citation_source": "index")';

const NOT_LOOKED_UP = 'No Crossref or DataCite lookup was made for this paper';

interface Candidate {
  source: CitationOrigin;
  citations: Citations;
  extraFormats?: { name: string; text: string }[];
  links?: { name: string; url: string }[];
  gaps?: string[];
}

/** The index record's citations, rendered only when an earlier source left a format out. */
function renderIndexRecord(
  { listed, indexRecord }: SearchPaper,
  renderer: CitationRenderer | undefined,
  markup: CitationMarkup,
): Candidate | { error: string } {
  if (!listed.title.trim()) return { error: 'The index gave no title to cite the paper by' };
  if (!renderer) return { error: 'The citation styles could not be loaded; the next request tries again' };
  // render() never throws: a format its style cannot render is left out (a record with none is the caller's case).
  return { source: 'index-record', citations: renderer.render(indexRecord.csl, markup), gaps: indexRecord.gaps };
}

/**
 * The record a paper is cited from in any further style (the request's `styles`): its Crossref or DataCite
 * record when one matched, else the index's own record of it; undefined when the index gave no title.
 */
export function styleRecordOf({ listed, record, indexRecord }: SearchPaper): CslItem | undefined {
  if (record && record.doi !== null) return citableItem(record.csl);
  return listed.title.trim() ? indexRecord.csl : undefined;
}

/** Why the index's cite answer was not used for every format; null when it was. */
function citeFallback(cite: PromiseSettledResult<CiteAnswer>): string | null {
  if (cite.status === 'rejected') return `The index's cite call failed: ${failureReason(cite.reason)}`;
  if (cite.value.notAsked) return `The index's cite call was not made: ${cite.value.notAsked}`;
  const missing = CITATION_FORMATS.filter((format) => !cite.value.citations[format]);
  if (missing.length === CITATION_FORMATS.length) return "The index's cite answer held no citations";
  return missing.length > 0 ? `The index's cite answer lacked ${missing.join(', ')}` : null;
}

/** Why the paper's Crossref or DataCite record was not used for every format; null when it was. */
function crossrefFallback(record: CitedRecord | undefined, markup: CitationMarkup): string | null {
  if (!record) return NOT_LOOKED_UP;
  if (record.doi === null) return record.reason;
  const agency = agencyName(record.source);
  const citations = renderedCitations(record, markup);
  if (!citations) return record.render_error ?? `The citations could not be rendered from the ${agency} record`;
  const missing = CITATION_FORMATS.filter((format) => !citations[format]);
  return missing.length > 0 ? `${missing.join(', ')}: the style renders nothing for the ${agency} record` : null;
}

/**
 * One paper's citations from the sources its record holds (see the module comment). `renderer` is undefined when the
 * styles could not be built; the paper then has what the index's cite answer gave, if anything.
 */
export function citePaper(
  paper: SearchPaper,
  renderer: CitationRenderer | undefined,
  markup: CitationMarkup,
  askedIndex: boolean,
): PaperCitations {
  const candidates: Candidate[] = [];
  const reasons: string[] = [];
  if (paper.cite) {
    if (paper.cite.status === 'fulfilled') {
      const { citations, formats, links } = paper.cite.value;
      const five = new Set<string>(CITATION_FORMATS.map((format) => format.toLowerCase()));
      candidates.push({
        source: 'index',
        citations,
        links,
        extraFormats: formats.filter((format) => !five.has(format.name.toLowerCase())),
      });
    }
    const reason = citeFallback(paper.cite);
    if (reason) reasons.push(reason);
  }
  const recordCitations = paper.record ? renderedCitations(paper.record, markup) : undefined;
  if (recordCitations && paper.record?.doi) candidates.push({ source: paper.record.source, citations: recordCitations });
  const crossrefReason = askedIndex && !paper.record ? INDEX_ONLY_REASON : crossrefFallback(paper.record, markup);

  const citations: Citations = {};
  const origin = new Map<CitationFormat, CitationOrigin>();
  const fill = (candidate: Candidate) => {
    for (const format of CITATION_FORMATS) {
      const text = candidate.citations[format];
      if (!citations[format] && text) {
        citations[format] = text;
        origin.set(format, candidate.source);
      }
    }
  };
  candidates.forEach(fill);
  let gaps: string[] = [];
  let error: string | null = null;
  if (origin.size < CITATION_FORMATS.length) {
    // Why Crossref's record left formats out, when it was a source this request could use.
    if (crossrefReason && (!askedIndex || paper.record)) reasons.push(crossrefReason);
    const fromIndex = renderIndexRecord(paper, renderer, markup);
    if ('error' in fromIndex) {
      error = fromIndex.error;
    } else {
      const before = origin.size;
      fill(fromIndex);
      if (origin.size > before) {
        candidates.push(fromIndex);
        gaps = fromIndex.gaps ?? [];
      } else {
        error = "No style could render the index's record of the paper";
      }
    }
  }
  const counts = new Map<CitationOrigin, number>();
  for (const source of origin.values()) counts.set(source, (counts.get(source) ?? 0) + 1);
  // The source of most formats; on a tie, the better (earlier) one.
  let source: CitationOrigin | null = null;
  for (const candidate of candidates) {
    const count = counts.get(candidate.source) ?? 0;
    if (count > (source ? (counts.get(source) ?? 0) : 0)) source = candidate.source;
  }
  const index = candidates.find((candidate) => candidate.source === 'index');
  return {
    citations,
    source,
    formats: [
      ...CITATION_FORMATS.flatMap((name) => {
        const text = citations[name];
        const from = origin.get(name);
        return text && from ? [{ name, text, source: from }] : [];
      }),
      ...(index?.extraFormats ?? []).map((format) => ({ ...format, source: 'index' as const })),
    ],
    links: index?.links ?? [],
    gaps,
    error: origin.size === 0 ? (error ?? 'No source gave citations for this paper') : null,
    fallbackReason: reasons.length > 0 && origin.size > 0 && hasFallback(origin, askedIndex) ? reasons.join('; ') : null,
    crossrefFallback: crossrefReason,
    indexNotAsked: paper.cite?.status === 'fulfilled' ? (paper.cite.value.notAsked ?? null) : null,
  };
}

/** Whether any format came from a source after the first the request asked for. */
function hasFallback(origin: Map<CitationFormat, CitationOrigin>, askedIndex: boolean): boolean {
  const first: readonly CitationOrigin[] = askedIndex ? ['index'] : ['crossref', 'datacite'];
  return [...origin.values()].some((source) => !first.includes(source));
}

/**
 * Every paper's citations, in paper order, from what its record holds: its Crossref or DataCite record when
 * a lookup was made, the index's cite answer when asked for, the index's own record. A renderer that could
 * not be built leaves papers only what the index's cite answers gave, and says why.
 */
export function citePapers(
  papers: readonly SearchPaper[],
  options: { renderer: CitationRenderer | undefined; markup: CitationMarkup; askedIndex: boolean },
): PaperCitations[] {
  return papers.map((paper) => citePaper(paper, options.renderer, options.markup, options.askedIndex));
}

/** A paper as the index lists it and its Crossref work: what the start-up warm-up runs through. */
const WARM_UP_PAPER = { title: 'A study of warm starts', summary: 'J Doe, R Roe - Journal of Examples, 2021 - Example Press' };
const WARM_UP_WORK = {
  DOI: '10.5555/warm-up',
  title: ['A study of warm starts'],
  author: [
    { given: 'Jane', family: 'Doe' },
    { given: 'Richard', family: 'Roe' },
  ],
  issued: { 'date-parts': [[2021, 5, 4]] },
  'container-title': ['Journal of Examples'],
  type: 'journal-article',
  volume: '12',
  issue: '3',
  page: '45-67',
};

/**
 * At start-up, after the styles are built (prepareCitationRenderer): one paper through the rest of the
 * pipeline, the summary parsed and matched, its Crossref work made a CSL record and rendered, and its index
 * record rendered, so that the first citation search runs compiled code throughout. No call is made.
 * Never rejects: a failure here only costs the first search its warm start.
 */
export async function warmUpCitationPipeline(): Promise<void> {
  try {
    const renderer = await citationRenderer();
    const scholar = parseScholarSummary(WARM_UP_PAPER.title, WARM_UP_PAPER.summary);
    bestMatch(scholar, [WARM_UP_WORK]);
    renderer.render(citableItem(cslFromCrossref(WARM_UP_WORK)));
    const facts = { summary: WARM_UP_PAPER.summary, link: 'https://example.org/warm-up', profileAuthors: [], kind: null };
    renderer.render(indexRecordOf('warm-up', scholar, facts).csl);
  } catch (error) {
    logger.warn('citation pipeline not warmed up', { error: error as Error });
  }
}
