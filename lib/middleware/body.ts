import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { AppError } from '../errors.js';
import { header } from '../http.js';
import type { ApiContext } from '../request-state.js';
import { bodyLimit } from '../routes.js';

/** Every route's limit, unless its contract promises more (lib/routes.ts, `maxBodyBytes`). */
export { MAX_BODY_BYTES } from '../routes.js';

// application/json with any parameters (charset=utf-8 and the like).
const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

// middy's parser does the JSON parsing (and the base64 decoding). Its own Content-Type check is off: it
// reads only two spellings of the header and refuses a missing one with 415, where our contract accepts
// an absent Content-Type; the check below keeps the contract's rule and its place in the order.
// (The option exists in the package's code but not in its type declarations, hence the cast.)
const parser = httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]);
type ParserRequest = Parameters<NonNullable<typeof parser.before>>[0];

/** The body parsed by @middy/http-json-body-parser; any failure of it (it answers 415 for bad JSON) is ours: 400 MALFORMED_JSON. */
async function parseJson(body: string, isBase64Encoded: boolean): Promise<unknown> {
  // A request of its own, so that the event the other middlewares see keeps its raw body.
  const request = { event: { body, isBase64Encoded, headers: {} } } as unknown as ParserRequest;
  try {
    await parser.before?.(request);
  } catch (cause) {
    throw new AppError('MALFORMED_JSON', { details: 'body: is not valid JSON', cause });
  }
  return (request.event as { body: unknown }).body;
}

/**
 * Body checks in the order the contract fixes: size (the route's limit), then content type, then JSON. An
 * empty body is {}.
 */
export function jsonBody(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  return {
    before: async ({ event, context }) => {
      const raw = event.body ?? '';
      const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
      // The route's own limit, as its contract promises it (the routes table).
      const limit = bodyLimit(context.api.path);
      if (bytes.length > limit) {
        throw new AppError('PAYLOAD_TOO_LARGE', {
          details: `body: must be at most ${limit} bytes (got ${bytes.length})`,
        });
      }
      const contentType = header(event, 'content-type');
      if (contentType !== undefined && contentType.trim() !== '' && !JSON_MEDIA_TYPE.test(contentType.trim())) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
          details: 'Content-Type: must be application/json',
        });
      }
      context.api.body = bytes.length === 0 ? {} : await parseJson(raw, event.isBase64Encoded === true);
    },
  };
}
