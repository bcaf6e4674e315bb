/** Request fields of the citation endpoints that name CSL styles: `styles`, and citation search's `format`. */
import * as z from 'zod/mini';
import { CITATION_FORMATS } from '../../contract/cite-search.js';
import { STYLES_MAX } from './style-engines.js';

/** A style id as the catalogue spells them ("nature", "american-medical-association"), or its full URL. */
export const STYLE_ID = /^[A-Za-z0-9][\w.:/-]{0,199}$/;

/** `styles`: up to STYLES_MAX ids of the CSL catalogue (checked against it by the handler, with close ids for a typo). */
export function styleIds() {
  return z._default(
    z
      .array(
        z
          .string({ error: 'must be a string' })
          .check(
            z.regex(STYLE_ID, { error: 'must be a CSL style id such as "nature" or "ieee" (POST /v1/cite/styles finds ids)' }),
          ),
        { error: 'must be a list' },
      )
      .check(
        z.maxLength(STYLES_MAX, { error: `at most ${STYLES_MAX} styles` }),
        z.describe(
          `Up to ${STYLES_MAX} CSL style ids (any of the ~10,800 of the CSL styles repository; POST /v1/cite/styles finds them), rendered into each record's styled_citations; an unknown id is refused, naming the closest. Default none`,
        ),
      ),
    [],
  );
}

/**
 * `format` of citation search's reference list: one of the five (any letter case, given in the listed
 * spelling), or any CSL style id, which the handler checks against the catalogue.
 */
export function referenceListFormat() {
  const error = `must be one of ${CITATION_FORMATS.join(', ')} or a CSL style id such as "nature" (POST /v1/cite/styles finds ids)`;
  return z.string({ error }).check(
    z.regex(STYLE_ID, { error }),
    z.overwrite(
      (value) => CITATION_FORMATS.find((format) => format.toLowerCase() === value.toLowerCase()) ?? value.toLowerCase(),
    ),
    z.describe(
      `Citation format of reference_list: ${CITATION_FORMATS.join(', ')} (any letter case), or any CSL style id (POST /v1/cite/styles finds them; an unknown id is refused, naming the closest)`,
    ),
  );
}
