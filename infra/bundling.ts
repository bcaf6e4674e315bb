/**
 * How the functions are bundled, in the terms both CDK's NodejsFunction (infra/api-function.ts) and
 * esbuild's own API (the benchmark and the bundle tests) take.
 *
 * `BUNDLE_ALIASES`: packages the deployed bundles replace (esbuild `alias`). citation-js imports
 * `node-fetch` and `sync-fetch` to read remote inputs, which this service never asks of it; with them and
 * their web-streams polyfill, the cite-search bundle is ~100 KiB larger, parsed on every cold start. Its
 * BibTeX plugin brings a BibTeX parser the exports never call (they write BibTeX, never read it): the
 * bundles take the plugin's output alone (lib/stubs/bibtex-output.ts), ~30 KiB less.
 * test/infra/bundle-aliases.test.ts renders exports through an aliased bundle to prove nothing needs them.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

const NO_REMOTE_FETCH = fileURLToPath(new URL('../lib/stubs/no-remote-fetch.ts', import.meta.url));

const BIBTEX_OUTPUT = fileURLToPath(new URL('../lib/stubs/bibtex-output.ts', import.meta.url));

export const BUNDLE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  'node-fetch': NO_REMOTE_FETCH,
  'sync-fetch': NO_REMOTE_FETCH,
  '@citation-js/plugin-bibtex': BIBTEX_OUTPUT,
});

/**
 * The functions that render citations or search the style catalogue, and so read the CSL style pack at
 * run time (lib/citations/render/style-catalogue.ts): it is data, ~7 MiB of compressed styles and locales,
 * read one style at a time on first use. It is deployed once, as a Lambda layer these functions alone use
 * (infra/style-pack-layer.ts), rather than copied into each one's zip.
 */
export const STYLE_PACK_ROUTES: ReadonlySet<string> = new Set([
  'cite-search',
  'cite-resolve',
  'cite-check',
  'cite-styles',
  'mcp',
  // A job's submission checks its style ids against the catalogue; the worker renders them.
  'jobs-submit',
  'jobs-worker',
]);
/** The pack in the project, relative to its root. */
export const STYLE_PACK_SOURCE = 'lib/citations/render/styles/pack';
/**
 * The pack's folder in the layer. Lambda extracts a function's layers into /opt (AWS Lambda Developer
 * Guide, "Packaging your layer content"); a folder of its own keeps the pack apart from what another layer
 * puts there.
 */
export const STYLE_PACK_IN_LAYER = 'csl-style-pack';
/** Where the functions find the layer's contents when deployed. */
export const LAYER_ROOT = '/opt';

/** Where a function reads the pack (STYLE_PACK_DIR) with the layer's contents under `layerRoot` (/opt deployed). */
export function stylePackDir(layerRoot: string = LAYER_ROOT): string {
  return `${layerRoot.replace(/\/$/, '')}/${STYLE_PACK_IN_LAYER}`;
}

/**
 * Writes the layer's contents into `outdir`: the pack under STYLE_PACK_IN_LAYER. The stack builds the layer
 * with it, and the tests and the benchmark lay the pack out with it as Lambda does under /opt.
 */
export function writeStylePackLayer(outdir: string): void {
  cpSync(fileURLToPath(new URL(`../${STYLE_PACK_SOURCE}/`, import.meta.url)), join(outdir, STYLE_PACK_IN_LAYER), {
    recursive: true,
  });
}

/** A CommonJS dependency that calls require() for a Node built-in needs a require in ESM output. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * The stack's bundling options as esbuild's API takes them, without source maps: for bundling one entry
 * outside CDK as the functions are bundled (add `entryPoints` and `outfile` or `outdir`).
 */
export const DEPLOYED_ESBUILD_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // ESM builds of the dependencies, so that esbuild can drop what is not used.
  mainFields: ['module', 'main'],
  minify: true,
  alias: { ...BUNDLE_ALIASES },
  // The runtime's own AWS SDK v3 (infra/api-function.ts says why).
  external: ['@aws-sdk/*'],
  banner: { js: ESM_REQUIRE_BANNER },
} as const satisfies BuildOptions;
