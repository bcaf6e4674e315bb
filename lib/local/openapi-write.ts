/**
 * `npm run openapi`: writes openapi.json at the repository root from the schemas (lib/openapi.ts).
 * A test fails while the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { settleDocumentEnvironment } from './document-env.js';

// Before the handlers load: they read the service's configuration, which the document needs none of.
settleDocumentEnvironment();

const { buildOpenApiDocument, OPENAPI_FILE, renderOpenApi } = await import('../openapi.js');
const document = await buildOpenApiDocument();
writeFileSync(OPENAPI_FILE, renderOpenApi(document));
console.log(`Wrote openapi.json (${Object.keys(document.paths as object).length} paths)`);
