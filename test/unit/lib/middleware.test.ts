import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../lib/errors.js';
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
    expect(JSON.parse(response.body)).toEqual({ success: true, message: 'ok', data: { q: 'b64' } });
  });

  it('maps every error code to exactly one status', () => {
    expect(Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]))).toEqual({
      MALFORMED_JSON: 400,
      INVALID_REQUEST: 400,
      UNAUTHORIZED: 401,
      NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      RATE_LIMITED: 429,
      UPSTREAM_QUOTA_EXCEEDED: 503,
      UPSTREAM_ERROR: 502,
      UPSTREAM_TIMEOUT: 504,
      SERVICE_MISCONFIGURED: 500,
      INTERNAL_ERROR: 500,
    });
  });
});
