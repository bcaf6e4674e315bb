/**
 * The answer of POST /v1/cite/resolve: every reference resolved (resolve.ts), its record cited in the
 * spec's five formats exactly as citation search cites a record, in every CSL style asked for, and
 * exported on request, each BibTeX entry under a key no other entry of the answer has.
 */
import type { CacheScope } from '../../cache/shared.js';
import type { CiteResolveData, ResolvedReference } from '../../contract/cite-resolve.js';
import type { CitationMarkup, ExportFormat } from '../../contract/cite-search.js';
import { renderExports } from '../exports/exports.js';
import { uniqueKeys } from '../exports/keys.js';
import { type CslItem, citableItem, cslFromCrossref, plainText } from '../model/csl.js';
import { citationRenderer } from '../render/render.js';
import { checkStyleIds, prepareStyleEngines, renderStyles } from '../render/style-engines.js';
import { resolveReferences } from './resolve.js';

/** What of a resolve request the answer needs (the handler's validated body). */
export interface CiteResolveRequest {
  references: readonly string[];
  styles: readonly string[];
  citation_markup: CitationMarkup;
  export: readonly ExportFormat[];
}

/** The record's authors as "Given Family", an organisation by its name. */
function authorsOf(csl: CslItem): string[] {
  const people = (csl.author ?? []) as { given?: string; family?: string; literal?: string }[];
  return people.map((person) => person.literal ?? [person.given, person.family].filter(Boolean).join(' ')).filter(Boolean);
}

/** Every reference of the request resolved and cited, in request order (see the module comment). */
export async function citeReferences(
  request: CiteResolveRequest,
  options: { deadline: number; scope?: CacheScope },
): Promise<CiteResolveData> {
  return (await citeReferenceRecords(request, options)).data;
}

/**
 * The answer, with each reference's record (for exports made later, over a whole job's list) and whether a
 * lookup of it failed (a job asks again later: lib/jobs/kinds.ts).
 */
export async function citeReferenceRecords(
  request: CiteResolveRequest,
  options: { deadline: number; scope?: CacheScope },
): Promise<{ data: CiteResolveData; records: (CslItem | undefined)[]; transient: boolean[] }> {
  const renderer = citationRenderer();
  renderer.catch(() => undefined);
  const checked = checkStyleIds(request.styles);
  // The asked styles' engines are built while the references are looked up, not after.
  checked.then(prepareStyleEngines, () => undefined);
  const [styles, resolutions] = await Promise.all([checked, resolveReferences(request.references, options)]);
  const markup = request.citation_markup;
  const records = resolutions.map((resolution) => (resolution.work ? cslFromCrossref(resolution.work) : undefined));
  const citable = records.map((csl) => (csl ? citableItem(csl) : undefined));
  const ready = await renderer;
  const styled = await renderStyles(citable, styles, markup);
  const keys = uniqueKeys(records.map((csl, i) => ({ csl, fallback: `reference_${i + 1}` })));
  const references = await Promise.all(
    resolutions.map(async (resolution, i): Promise<ResolvedReference> => {
      const csl = records[i];
      const item = citable[i];
      const issued = (csl?.issued as { 'date-parts'?: number[][] } | undefined)?.['date-parts']?.[0]?.[0];
      const entry: ResolvedReference = {
        index: i + 1,
        input: request.references[i] as string,
        doi: resolution.doi,
        match: resolution.match,
        reason: resolution.reason,
        citations_source: resolution.source,
        title: plainText(csl?.title) ?? null,
        authors: csl ? authorsOf(csl) : [],
        year: typeof issued === 'number' ? issued : null,
        container: plainText(csl?.['container-title'] as string | undefined) ?? null,
        type: csl?.type ?? null,
        citations: item ? ready.render(item, markup) : {},
        styled_citations: styled[i] ?? {},
      };
      if (csl && request.export.length > 0) entry.exports = await renderExports(csl, request.export, keys[i]);
      return entry;
    }),
  );
  const resolved = references.filter((reference) => reference.doi !== null).length;
  const data: CiteResolveData = {
    total_references: references.length,
    resolved,
    styles,
    citation_markup: markup,
    references,
    note:
      resolved === references.length
        ? `Every reference resolved to a Crossref or DataCite record (${resolved}).`
        : `${resolved} of ${references.length} references resolved; each unresolved one says why in its reason.`,
  };
  return { data, records, transient: resolutions.map((resolution) => resolution.transient === true) };
}
