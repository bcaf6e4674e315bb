/**
 * POST /v1/cite/resolve: references (DOIs or free text in any common style) resolved to their Crossref
 * works (lib/citations/resolve/resolve.ts) and each cited in the spec's five formats and in any CSL style asked
 * for, with exports on request. No paid call: Crossref is free. A reference that cannot be resolved is
 * answered with the reason; only a malformed request fails as a whole.
 */
import * as z from 'zod/mini';
import { exportFormats } from '../lib/citations/exports/export-fields.js';
import { citationKey, renderExports } from '../lib/citations/exports/exports.js';
import { type CslItem, citableItem, cslFromCrossref, plainText } from '../lib/citations/model/csl.js';
import { citationRenderer, prepareCitationRenderer } from '../lib/citations/render/render.js';
import { checkStyleIds, renderStyles } from '../lib/citations/render/style-engines.js';
import { styleIds } from '../lib/citations/render/style-fields.js';
import { resolveReferences } from '../lib/citations/resolve/resolve.js';
import { config } from '../lib/config.js';
import type { CiteResolveData, ResolvedReference } from '../lib/contract/cite-resolve.js';
import { CITATION_MARKUPS } from '../lib/contract/cite-search.js';
import { MAX_BODY_BYTES } from '../lib/middleware/body.js';
import { api } from '../lib/middleware/index.js';
import { body, oneOf, requiredText } from '../lib/schema.js';

/** References per request: each may cost a Crossref lookup, and Crossref's pace is shared by every request. */
export const REFERENCES_MAX = 50;

export const requestSchema = body({
  references: z
    .array(
      requiredText({
        max: 2_000,
        description: 'A DOI (bare, "doi:…" or "https://doi.org/…") or a reference in any common style',
      }),
      {
        error: (issue) => (issue.input === undefined ? 'is required' : 'must be a list of strings'),
      },
    )
    .check(
      z.minLength(1, { error: 'must hold at least one reference' }),
      z.maxLength(REFERENCES_MAX, { error: `at most ${REFERENCES_MAX} references` }),
      z.describe(
        `Up to ${REFERENCES_MAX} references: DOIs or free text, answered in the same order; the whole body is at most ${MAX_BODY_BYTES / 1024} KiB (50 references of about 300 characters)`,
      ),
    ),
  styles: styleIds(),
  citation_markup: z._default(
    oneOf(CITATION_MARKUPS, 'How citations and styled_citations are written: "text" (default), or "html" (inline markup only)'),
    'text',
  ),
  export: exportFormats('Reference-manager records to add to each resolved reference: any of csl-json, bibtex, ris'),
});
export type CiteResolveRequest = z.output<typeof requestSchema>;

// Deployed, the five pinned styles are built while the container starts (render.ts says why).
if (config.CITATION_STYLES_AT_INIT === 'true') await prepareCitationRenderer();

function authorsOf(csl: CslItem): string[] {
  const people = (csl.author ?? []) as { given?: string; family?: string; literal?: string }[];
  return people.map((person) => person.literal ?? [person.given, person.family].filter(Boolean).join(' ')).filter(Boolean);
}

export const handler = api({ body: requestSchema }).handler(async ({ body: request, upstream, cache }) => {
  const renderer = citationRenderer();
  renderer.catch(() => undefined);
  const [styles, resolutions] = await Promise.all([
    checkStyleIds(request.styles),
    resolveReferences(request.references, { deadline: upstream.deadline, scope: cache }),
  ]);
  const markup = request.citation_markup;
  const records = resolutions.map((resolution) => (resolution.work ? cslFromCrossref(resolution.work) : undefined));
  const citable = records.map((csl) => (csl ? citableItem(csl) : undefined));
  const ready = await renderer;
  const styled = await renderStyles(citable, styles, markup);
  const usedKeys = new Set<string>();
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
        title: plainText(csl?.title) ?? null,
        authors: csl ? authorsOf(csl) : [],
        year: typeof issued === 'number' ? issued : null,
        container: plainText(csl?.['container-title'] as string | undefined) ?? null,
        type: csl?.type ?? null,
        citations: item ? ready.render(item, markup) : {},
        styled_citations: styled[i] ?? {},
      };
      if (csl && request.export.length > 0) {
        const base = citationKey(csl.DOI as string) || `reference_${i + 1}`;
        let key = base;
        for (let n = 2; usedKeys.has(key); n += 1) key = `${base}_${n}`;
        usedKeys.add(key);
        entry.exports = await renderExports(csl, request.export, key);
      }
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
        ? `Every reference resolved to a Crossref record (${resolved}).`
        : `${resolved} of ${references.length} references resolved; each unresolved one says why in its reason.`,
  };
  return { data, message: `${resolved} of ${references.length} references resolved` };
});
