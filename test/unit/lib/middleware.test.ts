import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES } from '../../../lib/errors.js';
import { api } from '../../../lib/middleware/index.js';
import { body, searchTerms } from '../../../lib/schema.js';

const event = (overrides: Partial<APIGatewayProxyEvent> = {}) =>
  ({
    resource: '/v1/test',
    path: '/v1/test',
    httpMethod: 'POST',
    headers: { Authorization: 'Bearer unit-test-client-key' },
    multiValueHeaders: {},
    body: '{"q":"x"}',
    isBase64Encoded: false,
    requestContext: { requestId: 'req-123' },
    ...overrides,
  }) as unknown as APIGatewayProxyEvent;
const context = { awsRequestId: 'lambda-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

describe('api() middleware chain', () => {
  it('answers INTERNAL_ERROR with the request id and nothing of the thrown error', async () => {
    const handler = api({ body: body({ q: searchTerms() }) }).handler(async () => {
      throw new Error('database password hunter2 at /var/task/index.js:12');
    });
    const response = await handler(event(), context);
    expect(response.statusCode).toBe(500);
    expect(response.headers?.['X-Request-Id']).toBe('req-123');
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      message: 'Internal error',
      data: null,
      error: { code: 'INTERNAL_ERROR', details: 'Unexpected error; quote request id req-123 when reporting it' },
    });
    expect(response.body).not.toMatch(/hunter2|index\.js/);
  });

  it('reads a base64-encoded body as API Gateway sends binary-flagged payloads', async () => {
    const handler = api({ body: body({ q: searchTerms() }) }).handler(async ({ body }) => ({ data: body, message: 'ok' }));
    const response = await handler(
      event({ body: Buffer.from('{"q":"b64"}').toString('base64'), isBase64Encoded: true }),
      context,
    );
    expect(JSON.parse(response.body)).toMatchObject({ success: true, message: 'ok', data: { q: 'b64' } });
  });

  it('still answers the INTERNAL_ERROR envelope when answering an error itself throws', async () => {
    const handler = api({ body: body({ q: searchTerms() }) }).handler(async () => {
      const error = new AppError('UPSTREAM_ERROR');
      // Reading its headers (as the failure envelope does) throws: the error path itself fails.
      Object.defineProperty(error, 'headers', {
        get() {
          throw new Error('secret-token-42 in a broken getter');
        },
      });
      throw error;
    });
    const response = await handler(event(), context);
    expect(response.statusCode).toBe(500);
    expect(response.headers).toMatchObject({
      'Content-Type': 'application/json; charset=utf-8',
      'X-Request-Id': 'req-123',
    });
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      message: 'Internal error',
      data: null,
      error: { code: 'INTERNAL_ERROR', details: 'Unexpected error; quote request id req-123 when reporting it' },
    });
    expect(response.body).not.toContain('secret-token-42');
  });

  it('answers 400 MALFORMED_JSON, not the body parser’s own 415, for a body that is not JSON', async () => {
    const handler = api({ body: body({ q: searchTerms() }) }).handler(async ({ body }) => ({ data: body, message: 'ok' }));
    for (const sent of [
      event({ body: '{"q":' }),
      event({ body: '   ' }),
      event({ body: Buffer.from('{"q":').toString('base64'), isBase64Encoded: true }),
    ]) {
      const response = await handler(sent, context);
      expect(response.statusCode, String(sent.body)).toBe(400);
      expect(JSON.parse(response.body).error).toEqual({ code: 'MALFORMED_JSON', details: 'body: is not valid JSON' });
    }
  });

  it('reads an empty body as {} and accepts a body with no Content-Type, unlike the parser’s defaults', async () => {
    const handler = api({ body: body({ q: searchTerms() }) }).handler(async ({ body }) => ({ data: body, message: 'ok' }));
    const empty = await handler(event({ body: null }), context);
    expect(empty.statusCode).toBe(400);
    expect(JSON.parse(empty.body).error).toEqual({ code: 'INVALID_REQUEST', details: 'q: is required' });
    const untyped = await handler(event({ headers: { Authorization: 'Bearer unit-test-client-key' } }), context);
    expect(JSON.parse(untyped.body)).toMatchObject({ success: true, message: 'ok', data: { q: 'x' } });
    const typed = await handler(
      event({ headers: { Authorization: 'Bearer unit-test-client-key', 'CONTENT-TYPE': 'Application/JSON; charset=UTF-8' } }),
      context,
    );
    expect(typed.statusCode).toBe(200);
  });

  it('maps every error code to exactly one status', () => {
    expect(Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]))).toEqual({
      MALFORMED_JSON: 400,
      INVALID_REQUEST: 400,
      UNAUTHORIZED: 401,
      NOT_FOUND: 404,
      JOB_NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      JOB_NOT_FINISHED: 409,
      IDEMPOTENCY_KEY_REUSED: 422,
      RATE_LIMITED: 429,
      BUDGET_EXHAUSTED: 429,
      BUDGET_UNAVAILABLE: 503,
      UPSTREAM_QUOTA_EXCEEDED: 503,
      UPSTREAM_ERROR: 502,
      UPSTREAM_ENGINE_RETIRED: 502,
      UPSTREAM_TIMEOUT: 504,
      SERVICE_MISCONFIGURED: 500,
      SERVICE_UNAVAILABLE: 503,
      INTERNAL_ERROR: 500,
    });
  });
});
