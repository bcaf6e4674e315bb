import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type HandlerResult, ok } from '../envelope.js';
import { toAppError } from '../errors.js';
import { errorResponse, jsonResponse } from '../http.js';
import { logger } from '../logger.js';
import { type ApiContext, xCacheHeader } from '../request-state.js';

/**
 * Wraps a handler's `{ data, message }` in the success envelope, and turns any thrown value into the
 * failure envelope with the status of its code. An unexpected error is logged in full and answered with
 * INTERNAL_ERROR, which says nothing of its cause.
 */
export function envelope(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  return {
    after: (request) => {
      const result = request.response as unknown as HandlerResult;
      request.response = jsonResponse(result.status ?? 200, ok(result.data, result.message), {
        'X-Cache': xCacheHeader(request.context.api?.cache),
      });
    },
    onError: (request) => {
      const requestId = request.context.api?.requestId ?? request.context.awsRequestId ?? 'unknown';
      try {
        const error = toAppError(request.error, requestId);
        if (request.context.api) request.context.api.errorCode = error.code;
        if (error.code === 'INTERNAL_ERROR') {
          logger.error('unexpected error', { requestId, error: request.error as Error });
        }
        request.response = errorResponse(error);
      } catch (failure) {
        // An onError that throws ends middy's error chain; leaving no response hands the answer to the
        // safety net outside (lastResort), which still answers with the envelope.
        request.response = undefined as unknown as APIGatewayProxyResult;
        request.error = new Error('answering an error failed', { cause: failure });
      }
    },
  };
}
