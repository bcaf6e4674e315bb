/**
 * The answer of POST /v1/cite/check: the list read (read.ts), each reference checked (check.ts), and each
 * result with its record as CSL-JSON (what the reference should say) and, when asked, that record in the
 * asked styles and reference-manager formats, each BibTeX entry under a key no other entry of the answer has.
 */
import type { CacheScope } from '../../cache/shared.js';
import { CHECK_REFERENCES_MAX, type CheckResult, type CiteCheckData, VERDICTS, type Verdict } from '../../contract/cite-check.js';
import type { CitationMarkup, ExportFormat } from '../../contract/cite-search.js';
import { AppError } from '../../errors.js';
import { renderExports } from '../exports/exports.js';
import { uniqueKeys } from '../exports/keys.js';
import type { CitedReference } from '../model/cited.js';
import { type CslItem, citableItem, cslFromCrossref } from '../model/csl.js';
import { cslFromScholar } from '../model/index-record.js';
import { checkStyleIds, prepareStyleEngines, renderStyles } from '../render/style-engines.js';
import { type CheckedReference, checkReferences, type ScholarAccess } from './check.js';
import { type ReadReference, readBibliography, readReferenceList } from './read.js';

/** What of a check request the answer needs (the handler's validated body). */
export interface CiteCheckRequest {
  references?: readonly unknown[];
  bibliography?: string;
  styles: readonly string[];
  citation_markup: CitationMarkup;
  export: readonly ExportFormat[];
}

/** The longest `input` an answer repeats: enough to know the reference by. */
const INPUT_SHOWN = 300;

function shortened(input: string): string {
  const line = input.replace(/\s+/g, ' ').trim();
  return line.length > INPUT_SHOWN ? `${line.slice(0, INPUT_SHOWN - 1)}…` : line;
}

/** The list as the request gives it, read; a bibliography of more than CHECK_REFERENCES_MAX references is refused naming it. */
export async function readRequestList(request: Pick<CiteCheckRequest, 'references' | 'bibliography'>): Promise<ReadReference[]> {
  if (request.bibliography === undefined) return readReferenceList(request.references ?? []);
  const read = await readBibliography(request.bibliography);
  if (read.length === 0) throw new AppError('INVALID_REQUEST', { details: 'bibliography: holds no reference' });
  if (read.length > CHECK_REFERENCES_MAX) {
    throw new AppError('INVALID_REQUEST', {
      details: `bibliography: holds ${read.length} references; at most ${CHECK_REFERENCES_MAX} a request (check a longer list as a job, or in parts)`,
    });
  }
  return read;
}

function verdictMessage(counts: Record<Verdict, number>, total: number): string {
  const parts = VERDICTS.filter((verdict) => counts[verdict] > 0).map(
    (verdict) => `${counts[verdict]} ${verdict.replace('_', ' ')}`,
  );
  return `${total} reference${total === 1 ? '' : 's'} checked: ${parts.join(', ')}`;
}

/** Every reference of the request checked and answered, in list order (see the module comment). */
export async function checkList(
  request: CiteCheckRequest,
  options: { deadline: number; scope?: CacheScope; scholar?: ScholarAccess; now?: () => number },
): Promise<{ data: CiteCheckData; message: string; incomplete: boolean[] }> {
  const [styles, read] = await Promise.all([checkStyleIds(request.styles), readRequestList(request)]);
  // The asked styles' engines are built while the references are looked up, not after.
  prepareStyleEngines(styles);
  const readable = read.flatMap((one) => ('reference' in one ? [one.reference] : []));
  let searches = 0;
  const scholar = options.scholar && {
    plan: options.scholar.plan,
    search: (query: string) => {
      searches++;
      return options.scholar?.search(query) as Promise<Record<string, unknown>>;
    },
  };
  const checked = await checkReferences(readable, {
    deadline: options.deadline,
    ...(scholar ? { scholar } : {}),
    ...(options.now ? { now: options.now } : {}),
    field: request.bibliography === undefined ? 'references' : 'bibliography',
  });
  const byRead = new Map<CitedReference, CheckedReference>(
    readable.map((reference, i) => [reference, checked[i] as CheckedReference]),
  );
  const records = read.map((one) => {
    const result = 'reference' in one ? byRead.get(one.reference) : undefined;
    if (result?.work) return cslFromCrossref(result.work);
    if (result?.scholar) return cslFromScholar(result.scholar.id, result.scholar.record, result.scholar.link);
    return undefined;
  });
  const markup = request.citation_markup;
  const styled = await renderStyles(
    records.map((csl) => (csl ? citableItem(csl) : undefined)),
    styles,
    markup,
  );
  const keys = uniqueKeys(records.map((csl, i) => ({ csl, fallback: `reference_${i + 1}` })));
  const results = await Promise.all(
    read.map(async (one, i): Promise<CheckResult> => {
      const csl = records[i];
      const base = { index: i + 1, input: shortened(one.input) };
      if (!('reference' in one)) {
        return resultWithoutRecord({ ...base, format: one.format, verdict: 'unreadable', message: one.unreadable });
      }
      const result = byRead.get(one.reference) as CheckedReference;
      const entry: CheckResult = {
        ...base,
        format: one.reference.format,
        verdict: result.verdict,
        issues: result.issues.map(({ rule, field, severity, cited, recorded, message }) => ({
          rule,
          field,
          severity,
          cited,
          recorded,
          message,
        })),
        doi: result.doi,
        source: result.source,
        updates: result.updates,
        record: csl ? plainRecord(csl) : null,
        styled_citations: styled[i] ?? {},
        message: result.message,
      };
      if (csl && request.export.length > 0) entry.exports = await renderExports(csl, request.export, keys[i]);
      return entry;
    }),
  );
  const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;
  for (const result of results) counts[result.verdict]++;
  const message = verdictMessage(counts, results.length);
  const wrong = counts.mismatch + counts.retracted;
  // Which results a later try may change (a job asks them again): a lookup failed or was not sent.
  const incomplete = read.map((one) => 'reference' in one && byRead.get(one.reference)?.incomplete === true);
  return {
    incomplete,
    data: {
      total_references: results.length,
      counts,
      scholar_searches: searches,
      styles,
      citation_markup: markup,
      results,
      note: `${message}. ${wrong > 0 ? `${wrong} need correcting: each result's issues say what and how. ` : ''}${counts.not_found > 0 ? `${counts.not_found} not found: each says where it was looked for (not finding a work does not make it fabricated). ` : ''}${options.scholar ? '' : 'Google Scholar was not asked (set "scholar": true to search it for references no registry holds; paid).'}`.trim(),
    },
    message,
  };
}

/** A result that names no record: an entry that cannot be read, or one a job could not check. */
export function resultWithoutRecord(
  fields: Pick<CheckResult, 'index' | 'input' | 'format' | 'verdict' | 'message'>,
): CheckResult {
  const { message, ...head } = fields;
  return { ...head, issues: [], doi: null, source: null, updates: [], record: null, styled_citations: {}, message };
}

/** A CSL item as JSON carries it: without the symbols the renderer reads. */
function plainRecord(csl: CslItem): Record<string, unknown> {
  return JSON.parse(JSON.stringify(csl)) as Record<string, unknown>;
}
