/**
 * `npm run client:types`: writes test/client/api.d.ts, the types openapi-typescript generates from the
 * OpenAPI document (as `npm run openapi` writes it from lib/openapi.ts). The client test calls every
 * endpoint through openapi-fetch with these types, and fails while the committed file is stale.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** Where the committed types live. */
export const CLIENT_TYPES_FILE = new URL('./api.d.ts', import.meta.url);

const BIOME = fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url));

/** The text of api.d.ts for this document, in the project's format (so that `npm run lint` passes on it). */
export async function clientTypes(document: Record<string, unknown>): Promise<string> {
  // defaultNonNullable off: a request field with a default is optional for the client, as the document says.
  const ast = await openapiTS(structuredClone(document) as unknown as OpenAPI3, { silent: true, defaultNonNullable: false });
  const formatted = spawnSync(BIOME, ['format', `--stdin-file-path=${fileURLToPath(CLIENT_TYPES_FILE)}`], {
    input: `${COMMENT_HEADER}${astToString(ast)}`,
    encoding: 'utf8',
  });
  if (formatted.status !== 0) throw new Error(`biome format failed: ${formatted.stderr}`);
  return formatted.stdout;
}

// Run as a script (not imported by a test): write the file.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Before the handlers load: they read the service's configuration, which the document needs none of
  // (the same placeholders as `npm run openapi`, so a secret id in the shell does not make this fail).
  const { settleDocumentEnvironment } = await import('../../lib/local/document-env.js');
  settleDocumentEnvironment();
  const { buildOpenApiDocument } = await import('../../lib/openapi.js');
  writeFileSync(CLIENT_TYPES_FILE, await clientTypes(await buildOpenApiDocument()));
  console.log('Wrote test/client/api.d.ts');
}
