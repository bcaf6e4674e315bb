/**
 * The API's version, from its one source: package.json's `version`. Imported, not read from disk, so that
 * esbuild compiles it into every function's bundle and a deployed function never opens package.json. Every
 * answer carries it in `X-Api-Version` (lib/http.ts, the middleware, the local server) and the OpenAPI
 * document in `info.version` (docs/decisions.md, "Versions and the licence").
 */
import pkg from '../package.json' with { type: 'json' };

export const API_VERSION: string = pkg.version;

/** The header every answer carries, success or failure, whichever layer made it. */
export const VERSION_HEADERS: Readonly<{ 'X-Api-Version': string }> = Object.freeze({ 'X-Api-Version': API_VERSION });
