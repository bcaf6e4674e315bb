/**
 * The deployed cite-search bundle must carry the citation styles: citeproc, the styles @citation-js/plugin-csl
 * bundles (a JSON file), and the shipped ones (a generated string module). This bundles the renderer as
 * the functions are bundled (infra/api-function.ts) and checks that it renders exactly what the unbundled
 * code renders, with no file read at run time and none of citation-js's remote fetchers.
 */
import { describe, expect, it } from 'vitest';
import { type CitationRenderer, citationRenderer } from '../../lib/citations/render.js';
import { EARLY_WARNING_CSL } from '../fixtures/csl-items.js';
import { importDeployedBundle, REMOTE_FETCHERS } from '../support/deployed-bundle.js';

describe('the citation renderer, bundled', () => {
  it('renders the five formats as the unbundled code does, from styles inside the bundle', async () => {
    const { module: bundled, inputs } = await importDeployedBundle<{ citationRenderer: () => Promise<CitationRenderer> }>(
      new URL('../../lib/citations/render.ts', import.meta.url).pathname,
    );
    expect(inputs.filter((path) => REMOTE_FETCHERS.test(path))).toEqual([]);
    expect(inputs.some((path) => path.endsWith('plugin-csl/lib/styles.json'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('styles/styles.generated.ts'))).toBe(true);

    const fromBundle = (await bundled.citationRenderer()).render(EARLY_WARNING_CSL);
    expect(fromBundle).toEqual((await citationRenderer()).render(EARLY_WARNING_CSL));
    expect(fromBundle.Chicago).toBe(
      'Boettiger, Carl, Noam Ross, and Alan Hastings. “Early Warning Signals: The Charted and Uncharted Territories.” Theoretical Ecology 6, no. 3 (2013): 255–64. https://doi.org/10.1007/s12080-013-0192-6.',
    );
    // Two builds of every style (bundled and not): seconds of CPU, more on a busy machine.
  }, 180_000);
});
