/**
 * Every handler fed the event API Gateway really sends (a recorded REST proxy event, payload format 1.0)
 * with only resource, path, method, headers and body set per route; the answer must be what the gateway
 * expects from a Lambda proxy integration: a status, string headers and the envelope as a string body.
 */
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LambdaHandler } from '../../lib/middleware/index.js';
import { ROUTES } from '../../lib/routes.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';

const CLIENT_KEY = 'proxy-event-client-key-0123456789';
const RECORDED = JSON.parse(
  readFileSync(new URL('../fixtures/apigw-rest-proxy-event.json', import.meta.url), 'utf8'),
) as APIGatewayProxyEvent;
const REQUEST_ID = RECORDED.requestContext.requestId;

let upstream: FakeSerpApi;
const handlers = new Map<string, LambdaHandler>();

beforeAll(async () => {
  upstream = await startFakeSerpApi();
  // Config is read once, when the first handler is imported: the environment must be complete before.
  Object.assign(process.env, {
    API_KEYS: CLIENT_KEY,
    SERPAPI_API_KEY: 'proxy-event-upstream-key',
    SERPAPI_BASE_URL: upstream.url,
    RETRY_BASE_DELAY_MS: '5',
    AWS_REGION: 'eu-west-1',
  });
  for (const route of ROUTES) {
    const module = (await import(`../../functions/${route.name}.ts`)) as { handler: LambdaHandler };
    handlers.set(route.name, module.handler);
  }
});
afterAll(() => upstream.close());

/** The recorded event, aimed at one route: headers go in both maps, as API Gateway fills both. */
function eventFor(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | null },
): APIGatewayProxyEvent {
  const event = structuredClone(RECORDED);
  const method = init.method ?? 'POST';
  const headers = { ...event.headers, ...init.headers };
  Object.assign(event, {
    resource: path,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    body: init.body ?? null,
  });
  Object.assign(event.requestContext, {
    resourcePath: path,
    httpMethod: method,
    path: `/${event.requestContext.stage}${path}`,
  });
  return event;
}

function context(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: '5b1e7e4c-0d5f-4d8e-9a43-5c1c1b0b5e11',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: '2026/11/22/[$LATEST]0123456789abcdef',
    getRemainingTimeInMillis: () => 28_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function invoke(name: string, event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const handler = handlers.get(name);
  if (!handler) throw new Error(`no handler for ${name}`);
  return handler(event, context(name));
}

/** What API Gateway needs from a proxy integration, and what the contract adds. */
function expectProxyResult(result: APIGatewayProxyResult, status: number) {
  expect(result.statusCode).toBe(status);
  expect(typeof result.body).toBe('string');
  expect(result.isBase64Encoded ?? false).toBe(false);
  for (const value of Object.values(result.headers ?? {})) expect(['string', 'number', 'boolean']).toContain(typeof value);
  expect(result.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': REQUEST_ID });
  return JSON.parse(result.body);
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

describe.each(ROUTES.map((route) => [route.path, route] as const))('%s behind API Gateway', (_path, route) => {
  it('answers a request without a key 401 UNAUTHORIZED in the envelope, with WWW-Authenticate', async () => {
    const result = await invoke(route.name, eventFor(route.path, { headers: JSON_HEADERS, body: '{}' }));
    const body = expectProxyResult(result, 401);
    expect(result.headers?.['WWW-Authenticate']).toBe('Bearer');
    expect(body).toEqual({
      success: false,
      message: expect.any(String),
      data: null,
      error: { code: 'UNAUTHORIZED', details: expect.any(String) },
    });
  });

  it('answers another method 405 with Allow: POST, as the gateway mock does', async () => {
    const result = await invoke(
      route.name,
      eventFor(route.path, { method: 'GET', headers: { Authorization: `Bearer ${CLIENT_KEY}` } }),
    );
    const body = expectProxyResult(result, 405);
    expect(result.headers?.Allow).toBe('POST');
    expect(body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers an authenticated request with invalid JSON 400 MALFORMED_JSON', async () => {
    const result = await invoke(
      route.name,
      eventFor(route.path, { headers: { ...JSON_HEADERS, Authorization: `Bearer ${CLIENT_KEY}` }, body: '{"q":' }),
    );
    expect(expectProxyResult(result, 400).error.code).toBe('MALFORMED_JSON');
  });
});

describe.each(ROUTES.filter((route) => route.name.startsWith('web-search-')).map((route) => [route.path, route] as const))(
  '%s with a valid request',
  (_path, route) => {
    it('answers 200 with the success envelope from one upstream call', async () => {
      const calls = upstream.calls();
      const result = await invoke(
        route.name,
        eventFor(route.path, {
          headers: { ...JSON_HEADERS, Authorization: `Bearer ${CLIENT_KEY}` },
          body: JSON.stringify({ q: 'coffee' }),
        }),
      );
      const body = expectProxyResult(result, 200);
      expect(body).toEqual({ success: true, message: expect.any(String), data: expect.any(Object) });
      expect(upstream.calls()).toBe(calls + 1);
    });
  },
);

it('covers every route in the table', () => {
  expect(handlers.size).toBe(ROUTES.length);
  expect(ROUTES.filter((route) => route.name.startsWith('web-search-')).length).toBeGreaterThanOrEqual(4);
});
