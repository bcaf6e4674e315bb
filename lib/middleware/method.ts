import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { AppError } from '../errors.js';

/** Every endpoint is POST; anything else is 405 with `Allow: POST`, before auth is even looked at. */
export function postOnly(): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: ({ event }) => {
      if (event.httpMethod !== 'POST') {
        throw new AppError('METHOD_NOT_ALLOWED', {
          details: `${event.httpMethod} is not allowed here; use POST`,
          headers: { Allow: 'POST' },
        });
      }
    },
  };
}
