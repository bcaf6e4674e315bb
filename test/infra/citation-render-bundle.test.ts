/**
 * The deployed cite-search bundle carries citeproc but no style: the styles are the style pack, data deployed
 * once as a Lambda layer (infra/style-pack-layer.ts) and read under /opt. This bundles the renderer as the
 * functions are bundled (infra/api-function.ts), lays the pack out as the layer does under a folder standing
 * for /opt (STYLE_PACK_DIR naming it, as the stack does), and checks that it renders exactly what the
 * unbundled code renders, reading no file but the pack, with none of citation-js's remote fetchers.
 */
import { describe, expect, it } from 'vitest';
import { type CitationRenderer, citationRenderer } from '../../lib/citations/render/render.js';
import { EARLY_WARNING_CSL } from '../fixtures/csl-items.js';
import { importDeployedBundle, REMOTE_FETCHERS } from '../support/deployed-bundle.js';

describe('the citation renderer, bundled', () => {
  it('renders the five formats as the unbundled code does, from the style pack where its layer puts it', async () => {
    const { module: bundled, inputs } = await importDeployedBundle<{ citationRenderer: () => Promise<CitationRenderer> }>(
      new URL('../../lib/citations/render/render.ts', import.meta.url).pathname,
    );
    expect(inputs.filter((path) => REMOTE_FETCHERS.test(path))).toEqual([]);
    // No style in the bundle: neither plugin-csl's nor any CSL file.
    expect(inputs.filter((path) => /plugin-csl\/lib\/(styles|locales)\.json$|\.csl$|styles\.generated/.test(path))).toEqual([]);

    const fromBundle = (await bundled.citationRenderer()).render(EARLY_WARNING_CSL);
    expect(fromBundle).toEqual((await citationRenderer()).render(EARLY_WARNING_CSL));
    expect(fromBundle.Chicago).toBe(
      'Boettiger, Carl, Noam Ross, and Alan Hastings. “Early Warning Signals: The Charted and Uncharted Territories.” Theoretical Ecology 6, no. 3 (2013): 255–64. https://doi.org/10.1007/s12080-013-0192-6.',
    );
    // Two builds of every style (bundled and not): seconds of CPU, more on a busy machine.
  }, 180_000);
});
