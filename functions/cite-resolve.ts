/**
 * POST /v1/cite/resolve: references (DOIs, arXiv identifiers or free text in any common style, pasted as
 * they come) resolved to their Crossref or DataCite records and each cited in the spec's five formats and in
 * any CSL style asked for, with exports on request (lib/citations/resolve/). No paid call: both sources are
 * free. A reference that cannot be resolved, or is empty or too long, is answered with the reason; only a
 * malformed request fails as a whole.
 */
import * as z from 'zod/mini';
import { exportFormats } from '../lib/citations/exports/export-fields.js';
import { prepareCitationRenderer } from '../lib/citations/render/render.js';
import { styleIds } from '../lib/citations/render/style-fields.js';
import { citeReferences } from '../lib/citations/resolve/cite.js';
import { REFERENCE_MAX_CHARS } from '../lib/citations/resolve/resolve.js';
import { config } from '../lib/config.js';
import { CITATION_MARKUPS } from '../lib/contract/cite-search.js';
import { MAX_BODY_BYTES } from '../lib/middleware/body.js';
import { api } from '../lib/middleware/index.js';
import { body, oneOf } from '../lib/schema.js';

/** References per request: each may cost a lookup, and each source's pace is shared by every request. */
export const REFERENCES_MAX = 50;

export const requestSchema = body({
  references: z
    .array(
      z
        .string({ error: 'must be a string' })
        .check(
          z.describe(
            `A DOI, an arXiv id or a reference in any style, pasted as it comes (line breaks, tabs, soft hyphens); one empty or over ${REFERENCE_MAX_CHARS} characters is answered, not refused`,
          ),
        ),
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

export const handler = api({ body: requestSchema }).handler(async ({ body: request, upstream, cache }) => {
  const data = await citeReferences(request, { deadline: upstream.deadline, scope: cache });
  return { data, message: `${data.resolved} of ${data.total_references} references resolved` };
});
