/**
 * Stands in for `@citation-js/plugin-bibtex` in the deployed bundles (an esbuild alias, infra/bundling.ts):
 * the plugin's BibTeX output and its configuration, registered with citation-js under the plugin's own name
 * (`@bibtex`) as the plugin registers them, without its BibTeX parser (the moo lexer and the file, entry and
 * value parsers, ~27 KiB of the cite-search bundle). The exports write BibTeX and never read it; the tests'
 * round trip reads it back with the whole plugin, unbundled.
 *
 * Imported by path: the alias replaces the package name and every path under it.
 */
import { plugins } from '@citation-js/core';
// @ts-expect-error: citation-js ships no type declarations (lib/reshape/citation-js.d.ts declares what is used)
import config from '../../node_modules/@citation-js/plugin-bibtex/lib-mjs/config.js';
// @ts-expect-error: as above
import output from '../../node_modules/@citation-js/plugin-bibtex/lib-mjs/output/index.js';

plugins.add('@bibtex', { output, config });
