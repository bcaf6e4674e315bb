/** The request field of the citation endpoints that asks for reference-manager records: `export`. */
import * as z from 'zod/mini';
import { EXPORT_FORMATS } from '../../contract/cite-search.js';

/** `export`: reference-manager formats, each at most once. */
export function exportFormats(description: string) {
  return z._default(
    z
      .array(z.enum(EXPORT_FORMATS, { error: `must be one of: ${EXPORT_FORMATS.join(', ')}` }), { error: 'must be a list' })
      .check(z.maxLength(EXPORT_FORMATS.length, { error: `at most ${EXPORT_FORMATS.length} formats` }), z.describe(description)),
    [],
  );
}
