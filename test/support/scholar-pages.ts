/** Scholar pages made of chosen papers, for the citation-search tests that pair the index with Crossref. */
import { sample } from '../../lib/local/samples.js';
import type { FakeSerpApi } from './fake-serpapi.js';

export interface IndexPaper {
  title: string;
  /** The index's summary line: authors, venue, year, host. */
  summary: string;
}

/** A paper of the recorded Crossref answers (habanero's recordings hold it). */
export const EARLY_WARNING: IndexPaper = {
  title: 'Early warning signals: the charted and uncharted territories',
  summary: 'C Boettiger, N Ross, A Hastings - Theoretical Ecology, 2013 - Springer',
};

/** Not in any recorded Crossref answer: the fake Crossref answers its lookup with the recorded empty answer. */
export const BANANAS: IndexPaper = { title: 'Bananas and plantains', summary: 'JC Robinson, VG Saúco - 2010 - books.google.com' };

/**
 * Makes `upstream` answer the scholar search for `query` with a page of these papers, built from the recorded
 * result, with ids `<prefix>-1`…; every other call (cite calls included) gets the recorded samples.
 */
export function servePapers(upstream: FakeSerpApi, query: string, prefix: string, papers: IndexPaper[]): void {
  const recorded = sample('google_scholar');
  const first = (recorded.organic_results as Record<string, unknown>[])[0];
  const page = {
    ...recorded,
    organic_results: papers.map((paper, i) => ({
      ...first,
      position: i,
      title: paper.title,
      result_id: `${prefix}-${i + 1}`,
      publication_info: { summary: paper.summary },
    })),
  };
  upstream.respond((q) => (q.get('engine') === 'google_scholar' && q.get('q') === query ? { json: page } : undefined));
}
