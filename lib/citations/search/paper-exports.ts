/**
 * The exports of every paper of a citation-search answer: its DOI and the record reference managers
 * import, each BibTeX entry under a readable key (exports/keys.ts) no other paper of the answer has.
 */
import type { CiteSearchData, ExportFormat, PaperExports } from '../../contract/cite-search.js';
import { renderExports } from '../exports/exports.js';
import { uniqueKeys } from '../exports/keys.js';
import type { CslItem, PaperRecord } from '../model/csl.js';
import { type IndexedFacts, indexRecordOf } from '../model/index-record.js';
import { parseScholarSummary, type ScholarRecord } from '../model/scholar.js';

/**
 * Adds `doi` and `exports` to every paper of a cite-search answer. `lookups[i]` belongs to `papers[i]`:
 * the index's own data for it, the fallback when Crossref gave no record, and Crossref's record. Never
 * rejects for one paper's record: what cannot be rendered is left out and `render_error` says why.
 */
export async function addExports(
  data: CiteSearchData,
  formats: readonly ExportFormat[],
  lookups: readonly { scholar: ScholarRecord; record: PaperRecord }[],
  facts: readonly (IndexedFacts | undefined)[] = [],
): Promise<CiteSearchData> {
  const records = data.papers.map(
    (_paper, i): PaperRecord =>
      lookups[i]?.record ?? { doi: null, reason: 'No Crossref or DataCite lookup was made for this paper' },
  );
  // Without a Crossref or DataCite record, the same record of the index the paper's citations were rendered from.
  const csls = data.papers.map((paper, i) => {
    const record = records[i] as PaperRecord;
    if (record.doi !== null) return record.csl;
    const scholar = lookups[i]?.scholar ?? parseScholarSummary(paper.title, paper.publication);
    const indexFacts = facts[i] ?? { summary: paper.publication, link: paper.source_url, profileAuthors: [], kind: null };
    return indexRecordOf(paper.scholar_id, scholar, indexFacts).csl;
  });
  const keys = uniqueKeys(
    data.papers.map((paper, i) => ({ csl: csls[i], fallback: paper.scholar_id || records[i]?.doi || `paper_${paper.index}` })),
  );
  const papers = await Promise.all(
    data.papers.map(async (paper, i) => {
      const record = records[i] as PaperRecord;
      const csl = csls[i] as CslItem;
      const exports: PaperExports = {
        source: record.doi === null ? 'scholar' : record.source,
        fallback_reason: record.doi === null ? record.reason : null,
        ...(await renderExports(csl, formats, keys[i])),
      };
      return { ...paper, doi: record.doi, exports };
    }),
  );
  return { ...data, papers };
}
