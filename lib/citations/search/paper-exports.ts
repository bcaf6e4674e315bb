/**
 * The exports of every paper of a citation-search answer: its DOI and the record reference managers
 * import, each BibTeX entry under a readable key (exports/keys.ts) no other paper of the answer has.
 */
import type { CiteSearchData, ExportFormat, PaperExports } from '../../contract/cite-search.js';
import { renderExports } from '../exports/exports.js';
import { uniqueKeys } from '../exports/keys.js';
import type { CslItem, PaperRecord } from '../model/csl.js';
import type { SearchPaper } from './paper.js';

const NOT_LOOKED_UP = 'No Crossref or DataCite lookup was made for this paper';

/**
 * Adds `doi` and `exports` to every paper of a cite-search answer. `papers[i]` is `data.papers[i]`'s record
 * (paper.ts): its Crossref or DataCite record when one matched, else the index's own record of it, the same
 * one its citations were rendered from. Never rejects for one paper's record: what cannot be rendered is
 * left out and `render_error` says why.
 */
export async function addExports(
  data: CiteSearchData,
  formats: readonly ExportFormat[],
  papers: readonly SearchPaper[],
): Promise<CiteSearchData> {
  const records = data.papers.map((_paper, i): PaperRecord => papers[i]?.record ?? { doi: null, reason: NOT_LOOKED_UP });
  const csls = data.papers.map((_paper, i) => {
    const record = records[i] as PaperRecord;
    return record.doi !== null ? record.csl : papers[i]?.indexRecord.csl;
  });
  const keys = uniqueKeys(
    data.papers.map((paper, i) => ({ csl: csls[i], fallback: paper.scholar_id || records[i]?.doi || `paper_${paper.index}` })),
  );
  const exported = await Promise.all(
    data.papers.map(async (paper, i) => {
      const record = records[i] as PaperRecord;
      const exports: PaperExports = {
        source: record.doi === null ? 'scholar' : record.source,
        fallback_reason: record.doi === null ? record.reason : null,
        ...(await renderExports(csls[i] as CslItem, formats, keys[i])),
      };
      return { ...paper, doi: record.doi, exports };
    }),
  );
  return { ...data, papers: exported };
}
