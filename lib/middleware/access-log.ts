import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../logger.js';
import { type ApiContext, cacheHits } from '../request-state.js';

/**
 * One structured line per request, after everything else has run. It holds only what the service itself
 * decided (ids, path, status, code, counters): never a header, a body or an upstream URL, so no key can
 * reach it.
 */
export function accessLog(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  const write = ({ context, response }: { context: ApiContext; response: APIGatewayProxyResult | null }) => {
    const state = context.api;
    if (!state) return;
    logger.info('request', {
      requestId: state.requestId,
      path: state.path,
      client: state.client,
      status: response?.statusCode ?? state.status,
      errorCode: state.errorCode,
      upstreamCalls: state.upstream.calls,
      upstreamLatencyMs: Math.round(state.upstream.latencyMs),
      cacheHits: cacheHits(state.cache),
      latencyMs: Math.round(Date.now() - state.startedAt),
    });
  };
  return { after: write, onError: write };
}
