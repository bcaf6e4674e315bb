/**
 * The deployed bundles replace citation-js's remote fetchers with a stub (infra/bundling.ts). This
 * bundles the export renderer with the same aliases, as esbuild does for the functions, and checks that
 * it renders exactly what the unbundled code renders, and that none of the replaced code is left in.
 */
import { describe, expect, it } from 'vitest';
import { renderExports } from '../../lib/citations/exports/exports.js';
import { EARLY_WARNING_CSL } from '../fixtures/csl-items.js';
import { importDeployedBundle, REMOTE_FETCHERS } from '../support/deployed-bundle.js';

describe('the bundle aliases for citation-js', () => {
  it('render the same BibTeX, RIS and CSL-JSON as the unbundled code, with the fetchers left out', async () => {
    const { module: bundled, inputs } = await importDeployedBundle<{ renderExports: typeof renderExports }>(
      new URL('../../lib/citations/exports/exports.ts', import.meta.url).pathname,
    );
    expect(inputs.filter((path) => REMOTE_FETCHERS.test(path))).toEqual([]);
    expect(inputs.some((path) => path.includes('@citation-js/plugin-bibtex'))).toBe(true);

    const formats = ['csl-json', 'bibtex', 'ris'] as const;
    const fromBundle = await bundled.renderExports(EARLY_WARNING_CSL, formats);
    expect(fromBundle).toEqual(await renderExports(EARLY_WARNING_CSL, formats));
    expect(fromBundle.bibtex).toContain('10.1007/s12080-013-0192-6');
    expect(fromBundle.ris).toContain('TI  - Early warning signals: the charted and uncharted territories');
  });
});
