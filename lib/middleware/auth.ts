import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { bearerToken } from '../auth/bearer.js';
import { findClientKey } from '../credentials/client-keys.js';
import { AppError } from '../errors.js';
import { header } from '../http.js';
import type { ApiContext } from '../request-state.js';

export { bearerToken };

/**
 * Bearer-key authentication. Where deployed it is the second check, after the gateway's authorizer: it
 * runs on whatever reaches a function, so a gateway misconfigured or bypassed lets no stranger through.
 * Every failure (no header, another scheme, an empty or unknown key) gets the same answer, so a caller
 * learns nothing about which part was wrong. A caller without a bearer token, or
 * with one that cannot be a key, is refused without a secret read, so it gets 401 even while the client
 * key secret is unreadable; only a token that could be a key, and so could be a client's, can meet
 * SERVICE_MISCONFIGURED then (lib/credentials/client-keys.ts says why).
 */
export function auth(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  return {
    before: async ({ event, context }) => {
      const token = bearerToken(header(event, 'authorization'));
      const client = token === undefined ? undefined : await findClientKey(token, context.api.deadline);
      if (client === undefined) {
        throw new AppError('UNAUTHORIZED', {
          details: 'Send the header "Authorization: Bearer <API key>" with a valid key',
          headers: { 'WWW-Authenticate': 'Bearer' },
        });
      }
      // Only now, with the caller known, can anything reach the budget's counter: a stranger never spends it.
      context.api.client = client.name;
      context.api.clientLimits = {
        hourlySearches: client.hourlySearches,
        dailySearches: client.dailySearches,
        shared: client.shared,
      };
    },
  };
}
