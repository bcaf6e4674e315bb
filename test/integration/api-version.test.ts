/**
 * The API's version (package.json's `version`, its one source: lib/version.ts) on every answer, whichever
 * layer made it: each endpoint's success, every kind of refusal (400, 401, 404, 405, 413, 415), the local
 * server's own pages and the MCP endpoint; over HTTP through the local server and straight from the
 * handlers as Lambda calls them; and in the OpenAPI document, as `info.version` and a header of every
 * response.
 */
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { LambdaHandler } from '../../lib/middleware/index.js';
import { buildOpenApiDocument } from '../../lib/openapi.js';
import { ROUTES } from '../../lib/routes.js';
import { sampleBody } from '../support/jobs.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';

/** Read from disk here, independently of the import the service compiles in. */
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const harness = useService();

const versionOf = (headers: Headers) => headers.get('x-api-version');

describe('package.json’s version', () => {
  it('is a semantic version', () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('X-Api-Version over HTTP (the local server)', () => {
  it.each(ROUTES.map((route) => [route.path, route] as const))('%s answers its sample with it', async (path, route) => {
    const reply = await harness.service.post(path, await sampleBody(harness.service, route.name));
    expect(reply.status, reply.text).toBe(route.successStatus ?? 200);
    expect(versionOf(reply.headers)).toBe(VERSION);
  });

  it.each([
    ['400, an invalid field', '/v1/web-search/alpha', { body: { q: 'coffee', num: 0 } }, 400],
    ['401, no key', '/v1/web-search/alpha', { body: { q: 'coffee' }, headers: { Authorization: '' } }, 401],
    ['401, a wrong key', '/v1/usage', { body: {}, headers: { Authorization: 'Bearer not-a-key' } }, 401],
    ['404, no endpoint', '/v1/nowhere', { body: {} }, 404],
    ['405, another method', '/v1/web-search/alpha', { body: {}, method: 'PUT' }, 405],
    ['413, a body too large', '/v1/web-search/alpha', { body: { q: 'x'.repeat(20_000) } }, 413],
    ['415, another content type', '/v1/web-search/alpha', { body: '{}', headers: { 'Content-Type': 'text/plain' } }, 415],
  ] as const)('refusals carry it too: %s', async (_name, path, request, status) => {
    const reply = await harness.service.post(path, request.body, {
      headers: 'headers' in request ? request.headers : {},
      method: 'method' in request ? request.method : 'POST',
    });
    expect(reply.status, reply.text).toBe(status);
    expect(versionOf(reply.headers)).toBe(VERSION);
  });

  it('the signpost at GET / carries it', async () => {
    const reply = await harness.service.post('/', undefined, { method: 'GET', headers: { Authorization: '' } });
    expect(reply.status).toBe(200);
    expect(versionOf(reply.headers)).toBe(VERSION);
  });

  it('the server’s own pages (the API reference, the document) carry it', async () => {
    const { startLocalServer } = await import('../../lib/local/server.js');
    const local = await startLocalServer({ port: 0, pages: { '/docs': { contentType: 'text/html', body: '<p>docs</p>' } } });
    try {
      const page = await fetch(`${local.url}/docs`);
      expect(page.status).toBe(200);
      expect(versionOf(page.headers)).toBe(VERSION);
    } finally {
      await local.close();
    }
  });

  it('POST /mcp carries it, answering a tool list and refusing a caller without a key', async () => {
    const mcp = (authorization: string) =>
      fetch(`${harness.service.url}/mcp`, {
        method: 'POST',
        headers: {
          Accept: 'application/json, text/event-stream',
          'Content-Type': 'application/json',
          Authorization: authorization,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    const listed = await mcp(`Bearer ${TEST_CLIENT_KEY}`);
    expect(listed.status).toBe(200);
    expect(versionOf(listed.headers)).toBe(VERSION);
    const refused = await mcp('');
    expect(refused.status).toBe(401);
    expect(versionOf(refused.headers)).toBe(VERSION);
  });
});

/** API Gateway's event for a POST, as the handlers receive it in Lambda (no local server in between). */
function gatewayEvent(path: string, authorization: string | undefined, body: unknown): APIGatewayProxyEvent {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (authorization !== undefined) headers.Authorization = authorization;
  return {
    resource: path,
    path,
    httpMethod: 'POST',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    body: JSON.stringify(body),
    isBase64Encoded: false,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'version-test-request', path: `/prod${path}`, stage: 'prod' },
  } as unknown as APIGatewayProxyEvent;
}

const context = {
  awsRequestId: 'version-test-request',
  functionName: 'version-test',
  getRemainingTimeInMillis: () => 28_000,
} as unknown as Context;

describe('X-Api-Version straight from the handlers, as Lambda returns their answers', () => {
  // Imported once the service has set the environment: config is read at a handler's first import.
  const handler = async (name: string) => ((await import(`../../functions/${name}.ts`)) as { handler: LambdaHandler }).handler;

  it('an endpoint’s success and its 401', async () => {
    const usageHandler = await handler('usage');
    const ok: APIGatewayProxyResult = await usageHandler(gatewayEvent('/v1/usage', `Bearer ${TEST_CLIENT_KEY}`, {}), context);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers?.['X-Api-Version']).toBe(VERSION);
    const refused: APIGatewayProxyResult = await usageHandler(gatewayEvent('/v1/usage', undefined, {}), context);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers?.['X-Api-Version']).toBe(VERSION);
  });

  it('the MCP endpoint’s answer and its 401', async () => {
    const mcpHandler = await handler('mcp');
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const ok = await mcpHandler(gatewayEvent('/mcp', `Bearer ${TEST_CLIENT_KEY}`, list), context);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers?.['X-Api-Version']).toBe(VERSION);
    const refused = await mcpHandler(gatewayEvent('/mcp', undefined, list), context);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers?.['X-Api-Version']).toBe(VERSION);
  });
});

describe('the OpenAPI document', () => {
  it('gives the version as info.version, and X-Api-Version among the headers of every response', async () => {
    const document = (await buildOpenApiDocument()) as {
      info: { version: string };
      paths: Record<string, { post: { responses: Record<string, { headers?: Record<string, unknown>; $ref?: string }> } }>;
      components: { responses: Record<string, { headers: Record<string, unknown> }> };
    };
    expect(document.info.version).toBe(VERSION);
    for (const [path, { post }] of Object.entries(document.paths)) {
      for (const [status, response] of Object.entries(post.responses)) {
        const headers = response.$ref
          ? document.components.responses[response.$ref.split('/').pop() ?? '']?.headers
          : response.headers;
        expect(Object.keys(headers ?? {}), `${path} ${status}`).toContain('X-Api-Version');
      }
    }
  });
});
