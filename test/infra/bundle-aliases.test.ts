/**
 * The deployed bundles replace citation-js's remote fetchers with a stub (infra/bundle-aliases.ts). This
 * bundles the export renderer with the same aliases, as esbuild does for the functions, and checks that
 * it renders exactly what the unbundled code renders, and that none of the replaced code is left in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPLOYED_ESBUILD_OPTIONS } from '../../infra/bundling.js';
import { type CslItem, renderExports } from '../../lib/crossref/exports.js';

const outDir = mkdtempSync(join(tmpdir(), 'bundle-aliases-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const ITEM: CslItem = {
  id: 'boettiger2013',
  type: 'article-journal',
  title: 'Early warning signals: the charted and uncharted territories',
  author: [
    { family: 'Boettiger', given: 'Carl' },
    { family: 'Ross', given: 'Noam' },
    { family: 'Hastings', given: 'Alan' },
  ],
  issued: { 'date-parts': [[2013]] },
  'container-title': 'Theoretical Ecology',
  volume: '6',
  issue: '3',
  page: '255-264',
  DOI: '10.1007/s12080-013-0192-6',
};

describe('the bundle aliases for citation-js', () => {
  it('render the same BibTeX, RIS and CSL-JSON as the unbundled code, with the fetchers left out', async () => {
    const result = await build({
      entryPoints: [new URL('../../lib/crossref/exports.ts', import.meta.url).pathname],
      ...DEPLOYED_ESBUILD_OPTIONS,
      // Run here, on this machine's Node.
      target: 'node20',
      outfile: join(outDir, 'exports.mjs'),
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => /node_modules\/(node-fetch|sync-fetch|web-streams-polyfill)\//.test(path))).toEqual([]);
    expect(inputs.some((path) => path.includes('@citation-js/plugin-bibtex'))).toBe(true);

    const bundled = (await import(pathToFileURL(join(outDir, 'exports.mjs')).href)) as { renderExports: typeof renderExports };
    const formats = ['csl-json', 'bibtex', 'ris'] as const;
    const fromBundle = await bundled.renderExports(ITEM, formats);
    expect(fromBundle).toEqual(await renderExports(ITEM, formats));
    expect(fromBundle.bibtex).toContain('10.1007/s12080-013-0192-6');
    expect(fromBundle.ris).toContain('TI  - Early warning signals: the charted and uncharted territories');
  });
});
