/**
 * POST /v1/cite/styles: the CSL style catalogue (every independent and dependent style of the CSL styles
 * repository, shipped as data beside the code), searched by name or field, so that a UI or an agent can
 * find the id `styles` and `format` take. No upstream call; the catalogue is read on first use.
 */
import * as z from 'zod/mini';
import { loadCatalogue, searchStyles } from '../lib/citations/render/style-catalogue.js';
import { config } from '../lib/config.js';
import { type CiteStylesData, STYLES_LAST_PAGE, STYLES_RESULTS_MAX } from '../lib/contract/cite-styles.js';
import { api } from '../lib/middleware/index.js';
import { body, integer as intField, optionalText, page } from '../lib/schema.js';

export const requestSchema = body({
  query: z._default(
    optionalText({
      max: 200,
      description:
        'Words of the style\'s id, title or short title ("nature", "american medical"), or a field name ("medicine"); blank lists every style',
    }),
    '',
  ),
  field: optionalText({
    max: 60,
    format: {
      pattern: '[A-Za-z_-]{1,60}',
      hint: 'a field name of letters, "_" and "-", such as medicine',
      normalise: (s) => s.toLowerCase(),
    },
    description: 'Only styles of this field, e.g. "medicine", "physics", "social_science", "generic-base"',
  }),
  results: intField({ min: 1, max: STYLES_RESULTS_MAX, default: 20, description: 'Styles per page' }),
  // Every match can be listed: pages run to the end of the catalogue (docs/decisions.md §23).
  page: page(STYLES_LAST_PAGE, 'Page number, starting at 0; pages run to the last match (`has_more` false)'),
});
export type CiteStylesRequest = z.output<typeof requestSchema>;

export const handler = api({ body: requestSchema }).handler(async ({ body: request }) => {
  const catalogue = await loadCatalogue();
  const query = request.query ?? '';
  const offset = request.page * request.results;
  const found = searchStyles(catalogue, query, { field: request.field, limit: request.results, offset });
  const data: CiteStylesData = {
    query,
    field: request.field ?? null,
    total_styles: catalogue.total,
    total_matches: found.total,
    styles: found.styles.map((style) => ({
      id: style.id,
      title: style.title,
      title_short: style.title_short ?? null,
      fields: style.fields,
      citation_format: style.citation_format,
      parent: style.parent ?? null,
      locale: style.default_locale ?? null,
    })),
    page: request.page,
    has_more: offset + found.styles.length < found.total,
    source: `citation-style-language/styles@${catalogue.source.styles_commit.slice(0, 12)} (${catalogue.source.styles_date}), CC BY-SA 3.0`,
  };
  // The demo (`npm start` without a key) says what it is on every path: this one replays nothing.
  const demo =
    config.DEMO_REPLAY === 'true' ? ' (demo: the style catalogue ships with the service; nothing here is a recording)' : '';
  return { data, message: `${found.total} of ${catalogue.total} styles match${demo}` };
});
