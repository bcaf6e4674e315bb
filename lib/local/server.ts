/**
 * The local server: every POST path of the route table and the MCP endpoint on loopback, each request
 * turned into the API Gateway proxy event production sends and given to the same handler export that
 * Lambda runs.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { ok } from '../envelope.js';
import { AppError } from '../errors.js';
import { errorResponse, jsonResponse } from '../http.js';
import { consumeEmbeddedJobs } from '../jobs/deployment.js';
import type { QueueHandler } from '../jobs/queue-embedded.js';
import type { LambdaHandler } from '../middleware/index.js';
import { bodyLimit, ROUTES } from '../routes.js';
import { VERSION_HEADERS } from '../version.js';
import { lambdaContext, toApiGatewayEvent } from './apigw-event.js';
import { answerMarked } from './demo-recording.js';

// API Gateway refuses bodies over 10 MB before any function runs; locally the same limit is kept, above
// every route's own (16 KiB, a reference list's 256 KiB, a job's 5 MiB), so that a larger upload is never
// held in memory.
const GATEWAY_MAX_BODY_BYTES = 10 * 1000 * 1000;

/** Where the MCP endpoint (functions/mcp.ts) is served, locally as in the stack. */
export const MCP_PATH = '/mcp';

export interface LocalServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Extra GET pages (docs, OpenAPI) the local server may serve beside the API. */
export type StaticPages = Record<string, { contentType: string; body: string | Buffer }>;

async function loadHandlers(): Promise<Map<string, { name: string; handler: LambdaHandler }>> {
  const handlers = new Map<string, { name: string; handler: LambdaHandler }>();
  for (const route of ROUTES) {
    const module = (await import(`../../functions/${route.name}.ts`)) as { handler: LambdaHandler };
    handlers.set(route.path, { name: route.name, handler: module.handler });
  }
  // The MCP endpoint: not a route of the table (it is no tool of itself), but served the same way.
  const mcp = (await import('../../functions/mcp.ts')) as { handler: LambdaHandler };
  handlers.set(MCP_PATH, { name: 'mcp', handler: mcp.handler });
  // Jobs' batches, on this process's own queue, go to the worker handler Lambda runs where deployed.
  const worker = (await import('../../functions/jobs-worker.ts')) as { handler: QueueHandler };
  consumeEmbeddedJobs(worker.handler);
  return handlers;
}

function send(res: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  // A text body is written as the string it is (no copy into a buffer first), as API Gateway would send it.
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.writeHead(result.statusCode, headers);
  res.end(body);
}

/**
 * `GET /`: where to start, in the envelope every answer has (a browser or curl pointed at the bare address
 * gets a signpost, not a 404).
 */
function sendIndex(res: ServerResponse, requestId: string): void {
  const data = {
    docs: '/docs',
    openapi: '/openapi.json',
    endpoints: `${ROUTES.length} endpoints, each a POST under /v1 with Authorization: Bearer <key>; MCP at POST ${MCP_PATH}`,
  };
  send(
    res,
    jsonResponse(200, ok(data, 'Search and Citation API: the reference is at /docs, the OpenAPI document at /openapi.json'), {
      'X-Request-Id': requestId,
    }),
  );
}

function sendError(res: ServerResponse, error: AppError, requestId: string): void {
  send(res, errorResponse(error, { 'X-Request-Id': requestId }));
}

/** Reads the body; past the gateway limit it drains the rest and answers undefined. */
/** Whether an MCP request body calls the named tool (`tools/call`). */
export function callsTool(body: string | undefined, tool: string): boolean {
  try {
    const message = JSON.parse(body ?? '') as { method?: unknown; params?: { name?: unknown } };
    return message.method === 'tools/call' && message.params?.name === tool;
  } catch {
    return false;
  }
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > GATEWAY_MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startLocalServer(
  options: { port?: number; host?: string; pages?: StaticPages } = {},
): Promise<LocalServer> {
  const handlers = await loadHandlers();
  const pages = options.pages ?? {};

  const server = createServer(async (req, res) => {
    const requestId = randomUUID();
    try {
      const path = new URL(req.url ?? '/', 'http://local').pathname;
      const page = pages[path];
      if (page && (req.method === 'GET' || req.method === 'HEAD')) {
        // The answers in JSON carry the version from lib/http.ts; these pages are the server's own.
        res.writeHead(200, { 'Content-Type': page.contentType, 'X-Request-Id': requestId, ...VERSION_HEADERS });
        res.end(req.method === 'HEAD' ? undefined : page.body);
        return;
      }
      if (path === '/' && !page && (req.method === 'GET' || req.method === 'HEAD')) return sendIndex(res, requestId);
      const route = handlers.get(path);
      const body = await readBody(req);
      if (!route)
        return sendError(
          res,
          new AppError('NOT_FOUND', { details: `No endpoint at ${path}; every endpoint is a POST under /v1` }),
          requestId,
        );
      if (body === undefined) {
        return sendError(
          res,
          new AppError('PAYLOAD_TOO_LARGE', { details: `body: must be at most ${bodyLimit(path)} bytes` }),
          requestId,
        );
      }
      const event = toApiGatewayEvent(req, path, path, body, requestId);
      // In the demo, the answer also says which recordings it replays, and the budget's counts that they
      // are of replays (demo-recording.ts).
      const counts = route.name === 'usage' || (route.name === 'mcp' && callsTool(body, 'usage'));
      send(res, await answerMarked(() => route.handler(event, lambdaContext(route.name, requestId)), { counts }));
    } catch {
      // The handlers answer every error themselves; this is the last guard of the local process.
      if (!res.headersSent)
        sendError(res, new AppError('INTERNAL_ERROR', { details: `Unexpected error; quote request id ${requestId}` }), requestId);
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
