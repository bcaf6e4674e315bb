import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { AppError } from '../errors.js';
import { header } from '../http.js';
import type { ApiContext } from '../request-state.js';

export const MAX_BODY_BYTES = 16 * 1024;

// application/json with any parameters (charset=utf-8 and the like).
const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

/**
 * Body checks in the order the contract fixes: size, then content type, then JSON. An empty body is {}.
 * (middy's http-json-body-parser answers 415 for a missing Content-Type and 422 for bad JSON; our
 * contract allows the former and calls the latter 400 MALFORMED_JSON, hence this small parser.)
 */
export function jsonBody(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  return {
    before: ({ event, context }) => {
      const raw = event.body ?? '';
      const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
      if (bytes.length > MAX_BODY_BYTES) {
        throw new AppError('PAYLOAD_TOO_LARGE', {
          details: `body: must be at most ${MAX_BODY_BYTES} bytes (got ${bytes.length})`,
        });
      }
      const contentType = header(event, 'content-type');
      if (contentType !== undefined && contentType.trim() !== '' && !JSON_MEDIA_TYPE.test(contentType.trim())) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
          details: 'Content-Type: must be application/json',
        });
      }
      if (bytes.length === 0) {
        context.api.body = {};
        return;
      }
      try {
        context.api.body = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw new AppError('MALFORMED_JSON', { details: 'body: is not valid JSON' });
      }
    },
  };
}
