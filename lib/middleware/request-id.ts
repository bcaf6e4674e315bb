import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../config.js';
import { logCredentialSources } from '../credentials/secrets.js';
import type { ApiContext } from '../request-state.js';

// Leave the function a moment after the deadline to answer with an envelope of its own.
const ANSWER_MARGIN_MS = 500;

/**
 * Creates the request's state (id, deadline, counters) and puts `X-Request-Id` on every response.
 * The id is API Gateway's, so a client's report matches the gateway's access log.
 */
export function requestId(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  return {
    before: (request) => {
      // Once per container: which credentials and which upstream this container uses.
      logCredentialSources();
      const { event, context } = request;
      const now = Date.now();
      const remaining = context.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY;
      context.api = {
        requestId: event.requestContext?.requestId || context.awsRequestId || randomUUID(),
        path: event.resource || event.path,
        startedAt: now,
        deadline: now + Math.min(config.REQUEST_DEADLINE_MS, remaining - ANSWER_MARGIN_MS),
        upstream: { calls: 0, latencyMs: 0 },
      };
    },
    after: (request) => tagResponse(request.response, request.context),
    onError: (request) => tagResponse(request.response, request.context),
  };
}

function tagResponse(response: APIGatewayProxyResult | null | undefined, context: ApiContext): void {
  if (!response || !context.api) return;
  response.headers = { ...response.headers, 'X-Request-Id': context.api.requestId };
  context.api.status = response.statusCode;
}
