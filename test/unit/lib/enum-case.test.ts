/**
 * The lists of fixed values (`oneOf` in lib/schema.ts) in any letter case: taken and turned into the
 * listed spelling, on every endpoint; an unknown value is still refused, naming the field; the document
 * still lists the values as written.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { requestSchema as images } from '../../../functions/alpha-images.js';
import { requestSchema as citeSearch } from '../../../functions/cite-search.js';
import { requestSchema as author } from '../../../functions/scholar-author.js';
import { requestSchema as bravo } from '../../../functions/web-search-bravo.js';
import { formatIssues } from '../../../lib/middleware/validate.js';
import { buildOpenApiDocument } from '../../../lib/openapi.js';
import { oneOf } from '../../../lib/schema.js';

function refusal(schema: z.ZodMiniType, body: unknown): string {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error(`accepted ${JSON.stringify(body)}`);
  return formatIssues(parsed.error.issues);
}

describe('a list of fixed values in any letter case', () => {
  it('takes "apa" for cite search\'s format and answers with the listed spelling', () => {
    expect(citeSearch.parse({ query: 'x', format: 'apa' }).format).toBe('APA');
    expect(citeSearch.parse({ query: 'x', format: 'CHICAGO' }).format).toBe('Chicago');
    expect(citeSearch.parse({ query: 'x', format: 'Vancouver' }).format).toBe('Vancouver');
    expect(citeSearch.parse({ query: 'x' }).format).toBe('MLA');
  });

  it('still refuses an unknown value, or one that is not a string, naming the field and the values', () => {
    expect(refusal(citeSearch, { query: 'x', citation_source: 'Crossref' })).toBe('citation_source: must be one of: auto, index');
    expect(refusal(citeSearch, { query: 'x', citation_source: 7 })).toContain('citation_source: must be one of: auto, index');
    // format also takes a CSL style id (the handler checks it against the catalogue), but not any string:
    // spaces are not letter case, and a number is not an id.
    expect(refusal(citeSearch, { query: 'x', format: 7 })).toContain(
      'format: must be one of MLA, APA, Chicago, Harvard, Vancouver or a CSL style id',
    );
    expect(refusal(citeSearch, { query: 'x', format: ' apa ' })).toContain('format: must be one of MLA');
    expect(citeSearch.parse({ query: 'x', format: 'IEEE' }).format).toBe('ieee');
  });

  it('holds on every endpoint that takes such a list', () => {
    expect(author.parse({ author_id: 'LSsXyncAAAAJ', sort: 'PubDate' }).sort).toBe('pubdate');
    expect(bravo.parse({ q: 'x', date: 'WEEK', safe_search: 'Off' })).toMatchObject({ date: 'week', safe_search: 'off' });
    expect(images.parse({ q: 'x', size: 'XLarge' })).toMatchObject({ size: 'xlarge' });
  });

  it('takes only the exact spelling where two values differ only in case', () => {
    const ambiguous = z.object({ unit: oneOf(['m', 'M'], 'Milli or mega') });
    expect(ambiguous.parse({ unit: 'M' }).unit).toBe('M');
    expect(ambiguous.parse({ unit: 'm' }).unit).toBe('m');
    expect(ambiguous.safeParse({ unit: 'x' }).success).toBe(false);
  });

  it('keeps the listed values in the document, and says any letter case is taken', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test walks the document's JSON freely
    const document: any = await buildOpenApiDocument();
    const schema = (path: string) => {
      const body = document.paths[path].post.requestBody.content['application/json'].schema;
      return body.$ref ? document.components.schemas[body.$ref.replace('#/components/schemas/', '')] : body;
    };
    expect(schema('/v1/cite/search').properties.format).toMatchObject({
      type: 'string',
      default: 'MLA',
      description: expect.stringContaining('MLA, APA, Chicago, Harvard, Vancouver (any letter case), or any CSL style id'),
    });
    expect(schema('/v1/cite/search').properties.citation_source).toMatchObject({
      type: 'string',
      enum: ['auto', 'index'],
      description: expect.stringContaining('(any letter case)'),
    });
    expect(schema('/v1/web-search/bravo').properties.date).toMatchObject({ enum: ['day', 'week', 'month', 'year'] });
  });
});
