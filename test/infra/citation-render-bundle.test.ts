/**
 * The deployed cite-search bundle must carry the citation styles: citeproc, the styles @citation-js/plugin-csl
 * bundles (a JSON file), and the shipped ones (a generated string module). This bundles the renderer as
 * the functions are bundled (infra/api-function.ts) and checks that it renders exactly what the unbundled
 * code renders, with no file read at run time and none of citation-js's remote fetchers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPLOYED_ESBUILD_OPTIONS } from '../../infra/bundling.js';
import { type CitationRenderer, citationRenderer } from '../../lib/crossref/render.js';

const outDir = mkdtempSync(join(tmpdir(), 'citation-render-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const ITEM = {
  id: 'boettiger2013',
  type: 'article-journal',
  title: 'Early warning signals: the charted and uncharted territories',
  author: [
    { family: 'Boettiger', given: 'Carl' },
    { family: 'Ross', given: 'Noam' },
    { family: 'Hastings', given: 'Alan' },
  ],
  issued: { 'date-parts': [[2013, 6, 21]] },
  'container-title': 'Theoretical Ecology',
  volume: '6',
  issue: '3',
  page: '255-264',
  DOI: '10.1007/s12080-013-0192-6',
};

describe('the citation renderer, bundled', () => {
  it('renders the five formats as the unbundled code does, from styles inside the bundle', async () => {
    const result = await build({
      entryPoints: [new URL('../../lib/crossref/render.ts', import.meta.url).pathname],
      ...DEPLOYED_ESBUILD_OPTIONS,
      // Run here, on this machine's Node.
      target: 'node20',
      outdir: outDir,
      outExtension: { '.js': '.mjs' },
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => /node_modules\/(node-fetch|sync-fetch|web-streams-polyfill)\//.test(path))).toEqual([]);
    expect(inputs.some((path) => path.endsWith('plugin-csl/lib/styles.json'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('styles/styles.generated.ts'))).toBe(true);

    const bundled = (await import(pathToFileURL(join(outDir, 'render.mjs')).href)) as {
      citationRenderer: () => Promise<CitationRenderer>;
    };
    const fromBundle = (await bundled.citationRenderer()).render(ITEM);
    expect(fromBundle).toEqual((await citationRenderer()).render(ITEM));
    expect(fromBundle.Chicago).toBe(
      'Boettiger, Carl, Noam Ross, and Alan Hastings. “Early Warning Signals: The Charted and Uncharted Territories.” Theoretical Ecology 6, no. 3 (2013): 255–64. https://doi.org/10.1007/s12080-013-0192-6.',
    );
    // Two builds of every style (bundled and not): seconds of CPU, more on a busy machine.
  }, 180_000);
});
