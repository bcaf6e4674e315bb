/**
 * `npm run openapi`: writes openapi.json at the repository root from the schemas (lib/openapi.ts).
 * A test fails while the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';

// Handlers read the service's configuration when they load. The document needs none of it, so when no
// configuration is given, placeholders satisfy the check; they are never used to call anything.
const env = process.env;
if (!env.SERPAPI_API_KEY && !env.SERPAPI_SECRET_ID) env.SERPAPI_API_KEY = 'unused-by-the-document';
if (!env.API_KEYS && !env.CLIENT_KEYS_SECRET_ID) env.API_KEYS = 'unused-by-the-document';
// No start-up log line: nothing here calls anything, paid or not.
env.POWERTOOLS_LOG_LEVEL ||= 'WARN';

const { buildOpenApiDocument, OPENAPI_FILE, renderOpenApi } = await import('../openapi.js');
const document = await buildOpenApiDocument();
writeFileSync(OPENAPI_FILE, renderOpenApi(document));
console.log(`Wrote openapi.json (${Object.keys(document.paths as object).length} paths)`);
