/**
 * POST /v1/cite/check: a reference list checked against the records it names. Each reference (free text, a
 * BibTeX entry, a RIS record, a CSL-JSON item; or a whole `bibliography` split by the service) is looked up
 * in Crossref and DataCite (free), and with "scholar": true in Google Scholar (paid, planned and refused whole
 * when the budget cannot cover it, never for a reference a registry confirmed); each verdict says what is
 * wrong field by field, or where the check looked (lib/citations/check/). Only a malformed list, one too
 * long for one request, or Scholar's budget fails the request; an entry that cannot be read is answered so.
 */
import * as z from 'zod/mini';
import { checkList } from '../lib/citations/check/answer.js';
import { exportFormats } from '../lib/citations/exports/export-fields.js';
import { styleIds } from '../lib/citations/render/style-fields.js';
import { CHECK_REFERENCE_MAX_CHARS, CHECK_REFERENCES_MAX, CHECK_TEXT_MAX_BYTES } from '../lib/contract/cite-check.js';
import { CITATION_MARKUPS } from '../lib/contract/cite-search.js';
import { api } from '../lib/middleware/index.js';
import { body, oneOf } from '../lib/schema.js';

const KIB = CHECK_TEXT_MAX_BYTES / 1024;
const bytes = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));

const reference = z.union([
  z
    .string()
    .check(
      z.describe(`Free text, one BibTeX entry or one RIS record; over ${CHECK_REFERENCE_MAX_CHARS} characters, "unreadable"`),
    ),
  z.record(z.string(), z.unknown()).check(z.describe('One CSL-JSON item')),
]);

export const requestSchema = body({
  references: z.optional(
    z.array(reference, { error: 'must be a list of references (strings or CSL-JSON objects)' }).check(
      z.minLength(1, { error: 'must hold at least one reference' }),
      z.maxLength(CHECK_REFERENCES_MAX, {
        error: `at most ${CHECK_REFERENCES_MAX} references (check a longer list as a job, or in parts)`,
      }),
      z.refine((list) => list.reduce((sum, item) => sum + bytes(item), 0) <= CHECK_TEXT_MAX_BYTES, {
        error: `at most ${KIB} KiB of references in all`,
      }),
      z.describe(
        `Up to ${CHECK_REFERENCES_MAX} references (at most ${KIB} KiB in all), answered in the same order. Give this or \`bibliography\`, not both`,
      ),
    ),
  ),
  bibliography: z.optional(
    z.string({ error: 'must be a string' }).check(
      z.minLength(1, { error: 'must not be empty' }),
      z.refine((text) => bytes(text) <= CHECK_TEXT_MAX_BYTES, { error: `at most ${KIB} KiB` }),
      z.describe(
        `A whole reference list as one text, split by the service: a .bib or .ris file, a CSL-JSON array, or a pasted list (numbered, bulleted, one per paragraph or per line); at most ${CHECK_REFERENCES_MAX} references and ${KIB} KiB. Give this or \`references\`, not both`,
      ),
    ),
  ),
  scholar: z._default(
    z
      .boolean({ error: 'must be true or false' })
      .check(
        z.describe(
          'Also search Google Scholar (one paid search each) for the references no registry has: conference papers, books and reports without a DOI. Refused whole (429) before any search when the budget cannot cover one per such reference',
        ),
      ),
    false,
  ),
  styles: styleIds(),
  citation_markup: z._default(
    oneOf(CITATION_MARKUPS, 'How styled_citations are written: "text" (default), or "html" (inline markup only)'),
    'text',
  ),
  export: exportFormats('The corrected entry of each reference whose record was found: any of csl-json, bibtex, ris'),
}).check(
  z.refine((request) => (request.references === undefined) !== (request.bibliography === undefined), {
    error: (issue) =>
      (issue.input as { references?: unknown }).references === undefined
        ? 'is required (or give `bibliography`)'
        : 'give `references` or `bibliography`, not both',
    path: ['references'],
  }),
);
// The same rule in the document: exactly one of the two.
z.globalRegistry.add(requestSchema, { oneOf: [{ required: ['references'] }, { required: ['bibliography'] }] });
export type CiteCheckRequest = z.output<typeof requestSchema>;

export const handler = api({ body: requestSchema }).handler(async ({ body: request, upstream, cache }) => {
  const scholar = request.scholar
    ? {
        plan: upstream.plan,
        search: (q: string) => upstream.search('scholar', { q, num: 5 }),
      }
    : undefined;
  const { data, message } = await checkList(request, {
    deadline: upstream.deadline,
    scope: cache,
    ...(scholar ? { scholar } : {}),
  });
  return { data, message };
});
