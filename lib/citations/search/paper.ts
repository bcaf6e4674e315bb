/**
 * One paper as citation search carries it through its stages (search.ts): read once from the index's page
 * (what it listed, what it said beyond that, the summary parsed for matching, the index's own record of the
 * paper, the DOI its link carries), then given what the record sources found (records.ts) and, when asked
 * for, the index's cite answer; its citations (cite.ts), its styles and its exports (paper-exports.ts) are
 * read from it. A stage adds to the record; none rebuilds it from the raw answer.
 */

import type { CitationMarkup, Citations } from '../../contract/cite-search.js';
import type { PaperRecord } from '../model/csl.js';
import { arxivDoi, doiOfLink } from '../model/identifiers.js';
import { type IndexedFacts, type IndexRecord, indexRecordOf } from '../model/index-record.js';
import { parseScholarSummary, type ScholarRecord } from '../model/scholar.js';
import type { CiteAnswer } from '../sources/index-cite.js';
import type { FoundPaper, ScholarPage } from './page.js';

/**
 * What the lookup found for one paper, as cached (records.ts): the matched work's record and, once rendered,
 * its citations in the five formats; `render_error` says why a matched record has none.
 */
export type CitedRecord = PaperRecord & { citations?: Citations; citations_html?: Citations; render_error?: string };

/** The record's citations in `markup`, when they were rendered. */
export function renderedCitations(record: CitedRecord, markup: CitationMarkup): Citations | undefined {
  return markup === 'html' ? record.citations_html : record.citations;
}

export interface SearchPaper {
  /** The paper as the index listed it: the response's fields. */
  listed: FoundPaper;
  /** What the index said of it beyond them. */
  facts: IndexedFacts;
  /** Its summary line parsed: what its lookups are built from and matched against. */
  scholar: ScholarRecord;
  /** The index's own record of the paper: the last source of its citations (when it has a title) and exports. */
  indexRecord: IndexRecord;
  /**
   * The DOI the index shows it by, lower case: its link's (doi.org, `/doi/10.…`, an arXiv identifier as
   * DataCite's DOI…; model/identifiers.ts), else an arXiv identifier in its venue; null when none. A
   * candidate for the matcher, never the paper's DOI by itself.
   */
  doiCandidate: string | null;
  /** What Crossref or DataCite gave for it (records.ts); absent when no lookup was made. */
  record?: CitedRecord;
  /** The index's cite answer, when the request asked for it. */
  cite?: PromiseSettledResult<CiteAnswer>;
}

/** An arXiv identifier the index shows whole in a venue ("arXiv preprint arXiv:2201.06719"). */
export function arxivIdOfVenue(venue: string | null | undefined): string | undefined {
  return /\barxiv[:/.](?:abs\/|pdf\/)?(\d{4}\.\d{4,5})(?:v\d+)?(?![\d.…])/i.exec(venue ?? '')?.[1];
}

/** The papers of a page as the pipeline's records, in page order. */
export function searchPapers(page: Pick<ScholarPage, 'papers' | 'facts'>): SearchPaper[] {
  return page.papers.map((listed, i) => {
    const facts = page.facts[i] ?? { summary: listed.publication, link: listed.source_url, profileAuthors: [], kind: null };
    const scholar = parseScholarSummary(listed.title, listed.publication);
    const venueArxiv = arxivIdOfVenue(scholar.venue);
    return {
      listed,
      facts,
      scholar,
      indexRecord: indexRecordOf(listed.scholar_id || 'paper', scholar, facts),
      doiCandidate: doiOfLink(listed.source_url) ?? (venueArxiv ? arxivDoi(venueArxiv) : null),
    };
  });
}
