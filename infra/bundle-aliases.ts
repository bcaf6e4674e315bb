/**
 * Packages the deployed bundles replace (esbuild `alias`). citation-js imports `node-fetch` and
 * `sync-fetch` to read remote inputs, which this service never asks of it; with them and their
 * web-streams polyfill, the cite-search bundle is ~100 KiB larger, parsed on every cold start.
 * test/infra/bundle-aliases.test.ts renders exports through an aliased bundle to prove nothing needs them.
 */
import { fileURLToPath } from 'node:url';

const NO_REMOTE_FETCH = fileURLToPath(new URL('../lib/stubs/no-remote-fetch.ts', import.meta.url));

export const BUNDLE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  'node-fetch': NO_REMOTE_FETCH,
  'sync-fetch': NO_REMOTE_FETCH,
});
