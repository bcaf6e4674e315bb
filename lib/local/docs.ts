/**
 * The local server's reference pages: GET /openapi.json, the document built from the schemas the
 * handlers run (so it is always the running code's), and GET /docs, Swagger UI from the swagger-ui-dist
 * package. Every file of the page is served by the local server itself: it works offline, loads nothing
 * from a CDN, and never sends the document anywhere (Swagger UI's online validator is switched off).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument, type JsonObject, renderOpenApi } from '../openapi.js';
import type { StaticPages } from './server.js';

/** Where the page and its document are served. */
export const DOCS_PATH = '/docs';
export const OPENAPI_PATH = '/openapi.json';

const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Search and Citation API reference</title>
  <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// A file rather than an inline script, so that the page also runs under a strict Content-Security-Policy.
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  validatorUrl: null,
});
`;

/**
 * The pages for `startLocalServer({ pages })`. Building the document imports every handler, so the
 * service's environment must be settled first; pass a document to serve that one instead.
 */
export async function docsPages(document?: JsonObject): Promise<StaticPages> {
  const openapi = renderOpenApi(document ?? (await buildOpenApiDocument()));
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const page = { contentType: 'text/html; charset=utf-8', body: PAGE };
  const pages: StaticPages = {
    [OPENAPI_PATH]: { contentType: 'application/json; charset=utf-8', body: openapi },
    [DOCS_PATH]: page,
    [`${DOCS_PATH}/`]: page,
    [`${DOCS_PATH}/init.js`]: { contentType: 'text/javascript; charset=utf-8', body: INIT },
  };
  for (const [file, contentType] of Object.entries(ASSETS)) {
    pages[`${DOCS_PATH}/${file}`] = { contentType, body: readFileSync(join(dist, file)) };
  }
  return pages;
}
