import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { findClientKey } from '../credentials/client-keys.js';
import { AppError } from '../errors.js';
import { header } from '../http.js';
import type { ApiContext } from '../request-state.js';

// The scheme word is case-insensitive and may be followed by several spaces (RFC 9110 §11.1, §11.6.2).
const BEARER = /^bearer +(.*)$/is;

/** The bearer token of an Authorization header value, trimmed, or undefined. */
export function bearerToken(value: string | undefined): string | undefined {
  const token = value?.trim().match(BEARER)?.[1]?.trim();
  return token ? token : undefined;
}

/**
 * Bearer-key authentication. Every failure (no header, another scheme, an empty or unknown key) gets the
 * same answer, so a caller learns nothing about which part was wrong. A caller without a bearer token, or
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
      context.api.clientDailySearches = client.dailySearches;
    },
  };
}
