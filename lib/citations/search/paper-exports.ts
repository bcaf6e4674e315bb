/**
 * The exports of every paper of a citation-search answer: its DOI and the record reference managers
 * import, each BibTeX entry under a key no other paper of the answer has.
 */
import type { CiteSearchData, ExportFormat, PaperExports } from '../../contract/cite-search.js';
import { citationKey, renderExports } from '../exports/exports.js';
import type { PaperRecord } from '../model/csl.js';
import { type IndexedFacts, indexRecordOf } from '../model/index-record.js';
import { parseScholarSummary, type ScholarRecord } from '../model/scholar.js';

/**
 * Each paper's citation key: made of its scholar result id, else its DOI, else its place in the list, and
 * made unique within the answer with a numbered suffix, so a .bib of the whole answer has no two entries
 * under one key.
 */
function citationKeys(papers: readonly { scholar_id: string; index: number }[], dois: readonly (string | null)[]): string[] {
  const used = new Set<string>();
  return papers.map((paper, i) => {
    const base = citationKey(paper.scholar_id) || citationKey(dois[i] ?? '') || `paper_${paper.index}`;
    let key = base;
    for (let n = 2; used.has(key); n += 1) key = `${base}_${n}`;
    used.add(key);
    return key;
  });
}

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
    (_paper, i): PaperRecord => lookups[i]?.record ?? { doi: null, reason: 'No Crossref lookup was made for this paper' },
  );
  const keys = citationKeys(
    data.papers,
    records.map((record) => record.doi),
  );
  const papers = await Promise.all(
    data.papers.map(async (paper, i) => {
      const record = records[i] as PaperRecord;
      const scholar = lookups[i]?.scholar ?? parseScholarSummary(paper.title, paper.publication);
      // Without a Crossref record, the same record of the index the paper's citations were rendered from.
      const indexFacts = facts[i] ?? { summary: paper.publication, link: paper.source_url, profileAuthors: [], kind: null };
      const csl = record.doi === null ? indexRecordOf(paper.scholar_id, scholar, indexFacts).csl : record.csl;
      const exports: PaperExports = {
        source: record.doi === null ? 'scholar' : 'crossref',
        fallback_reason: record.doi === null ? record.reason : null,
        ...(await renderExports(csl, formats, keys[i])),
      };
      return { ...paper, doi: record.doi, exports };
    }),
  );
  return { ...data, papers };
}
