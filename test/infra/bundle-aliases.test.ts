/**
 * The deployed bundles replace citation-js's remote fetchers with a stub, and its BibTeX plugin with the
 * plugin's output alone (infra/bundling.ts, BUNDLE_ALIASES). This bundles the export renderer with the same
 * aliases, as esbuild does for the functions, and checks that it renders exactly what the unbundled code
 * (the whole plugins) renders, for every recorded work, and that none of the replaced code is left in.
 */
import { describe, expect, it } from 'vitest';
import { renderExports } from '../../lib/citations/exports/exports.js';
import { citableItem, cslFromCrossref } from '../../lib/citations/model/csl.js';
import type { CrossrefWork } from '../../lib/citations/model/work.js';
import { crossrefRecording } from '../../lib/local/replay-crossref.js';
import { EARLY_WARNING_CSL } from '../fixtures/csl-items.js';
import { importDeployedBundle, REMOTE_FETCHERS } from '../support/deployed-bundle.js';

/** The BibTeX plugin's parser: its lexer (moo) and its file, entry, value, name and bibtxt readers. */
const BIBTEX_PARSER = /node_modules\/moo\/|plugin-bibtex\/lib-mjs\/input\/(?!constants\.js|[\w-]+\.json)/;

const works = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items;

describe('the bundle aliases for citation-js', () => {
  it('render the same BibTeX, RIS and CSL-JSON as the unbundled code, with the fetchers and the BibTeX parser left out', async () => {
    const { module: bundled, inputs } = await importDeployedBundle<{ renderExports: typeof renderExports }>(
      new URL('../../lib/citations/exports/exports.ts', import.meta.url).pathname,
    );
    expect(inputs.filter((path) => REMOTE_FETCHERS.test(path))).toEqual([]);
    expect(inputs.filter((path) => BIBTEX_PARSER.test(path))).toEqual([]);
    // The plugin's output and the constants it writes with are in.
    expect(inputs.some((path) => path.includes('@citation-js/plugin-bibtex/lib-mjs/output/'))).toBe(true);

    const formats = ['csl-json', 'bibtex', 'ris'] as const;
    const fromBundle = await bundled.renderExports(EARLY_WARNING_CSL, formats);
    expect(fromBundle).toEqual(await renderExports(EARLY_WARNING_CSL, formats));
    expect(fromBundle.bibtex).toContain('10.1007/s12080-013-0192-6');
    expect(fromBundle.ris).toContain('TI  - Early warning signals: the charted and uncharted territories');
    // Every recorded work: articles, chapters, books, preprints; names, titles and venues of every kind.
    expect(works.length).toBeGreaterThan(10);
    for (const work of works) {
      const csl = citableItem(cslFromCrossref(work));
      expect(await bundled.renderExports(csl, formats), work.DOI).toEqual(await renderExports(csl, formats));
    }
  });
});
