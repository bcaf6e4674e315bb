/**
 * Stands in for `node-fetch` and `sync-fetch` in the deployed bundles (an esbuild alias in
 * infra/api-function.ts). citation-js imports them to read remote inputs (a DOI or URL given as input);
 * this service only hands it records it already holds, so they are never called. Left in, they and
 * their web-streams polyfill are about 100 KiB of the cite-search bundle, parsed on every cold start.
 */
function remoteInputUnsupported(): never {
  throw new Error('citation-js remote inputs are not available in this service');
}

/** `sync-fetch` is read as `syncFetch.Headers`, `node-fetch` as its `Headers` export: Node's own serves both. */
export const Headers = globalThis.Headers;
export default Object.assign(remoteInputUnsupported, { Headers });
