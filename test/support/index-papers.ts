/**
 * Papers as the scholar index lists them, and scholar pages made of them from the recorded answer: for the
 * citation-search tests and the citation benchmark (so nothing here may load vitest).
 */
import { sample } from '../../lib/local/samples.js';
import type { FakeSerpApi } from './fake-serpapi.js';

export interface IndexPaper {
  title: string;
  /** The index's summary line: authors, venue, year, host. */
  summary: string;
  /** The page the index links it to; by default one of example.org's. */
  link?: string;
  /** SerpApi's `type` of the result ("Book" for the index's [BOOK] mark); by default none. */
  kind?: string;
}

/** A paper of the recorded Crossref answers (habanero's recordings hold it). */
export const EARLY_WARNING: IndexPaper = {
  title: 'Early warning signals: the charted and uncharted territories',
  summary: 'C Boettiger, N Ross, A Hastings - Theoretical Ecology, 2013 - Springer',
};

/** Not in any recorded Crossref answer: the fake Crossref answers its lookup with the recorded empty answer. */
export const BANANAS: IndexPaper = {
  title: 'Bananas and plantains',
  summary: 'JC Robinson, VG Saúco - 2010 - books.google.com',
  // As recorded: a [BOOK] result linked to Google Books.
  link: 'https://books.google.com/books?hl=en&lr=&id=0GxOPqj2UVYC&oi=fnd&pg=PR5&dq=bananas&ots=fRAeFORzsb&sig=1YRs1lHY30DgfzqDWglTlzu77Ec',
  kind: 'Book',
};

/**
 * `n` papers no record source holds (the fake Crossref answers their lookups with the recorded empty answer),
 * titled "A paper no source has recorded, <series> number <i>": a test's papers apart from every other's.
 */
export function unrecordedPapers(n: number, series: string): IndexPaper[] {
  return Array.from({ length: n }, (_, i) => ({
    title: `A paper no source has recorded, ${series} number ${i + 1}`,
    summary: `A Nobody${i}, B Else - Journal of Nothing, 2019 - example.org`,
  }));
}

/** The recorded scholar page, with these papers and ids `<prefix>-1`… */
export function scholarPage(prefix: string, papers: IndexPaper[]) {
  const recorded = sample('google_scholar');
  const first = (recorded.organic_results as Record<string, unknown>[])[0];
  return {
    ...recorded,
    organic_results: papers.map((paper, i) => ({
      ...first,
      position: i,
      title: paper.title,
      result_id: `${prefix}-${i + 1}`,
      link: paper.link ?? `https://example.org/papers/${prefix}-${i + 1}`,
      type: paper.kind,
      publication_info: { summary: paper.summary },
    })),
  };
}

/**
 * Makes `upstream` answer the scholar search for `query` with `scholarPage(prefix, papers)`; every other call
 * (cite calls included) gets the recorded samples.
 */
export function servePapers(upstream: FakeSerpApi, query: string, prefix: string, papers: IndexPaper[]): void {
  const page = scholarPage(prefix, papers);
  upstream.respond((q) => (q.get('engine') === 'google_scholar' && q.get('q') === query ? { json: page } : undefined));
}
