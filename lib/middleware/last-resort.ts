import type { MiddlewareObj } from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { fail } from '../envelope.js';
import { AppError } from '../errors.js';
import { errorResponse } from '../http.js';
import { logger } from '../logger.js';
import type { ApiContext } from '../request-state.js';

type ErrorHandlerRequest = Parameters<NonNullable<ReturnType<typeof httpErrorHandler>['onError']>>[0];

/**
 * The safety net around the envelope: when answering an error itself failed (the envelope leaves no
 * response then), @middy/http-error-handler answers with its fallback message, which is our
 * INTERNAL_ERROR envelope with the request id. It sits just outside the envelope rather than first in
 * the chain, so that the metrics, the access log and the request id still see and stamp its answer.
 */
export function lastResort(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  return {
    onError: async (request) => {
      if (request.response !== undefined) return;
      const requestId = request.context.api?.requestId ?? request.context.awsRequestId ?? 'unknown';
      const internal = new AppError('INTERNAL_ERROR', {
        details: `Unexpected error; quote request id ${requestId} when reporting it`,
      });
      const fallback = errorResponse(internal);
      const handler = httpErrorHandler({
        fallbackMessage: JSON.stringify(fail(internal)),
        logger: (error: unknown) => {
          try {
            logger.error('error while answering an error', { requestId, error: error as Error });
          } catch {
            // The answer matters more than its log line.
          }
        },
      });
      // Whatever was thrown, the caller learns nothing of it: an error without an HTTP status gets the fallback.
      request.error = new Error('the error envelope could not be built', { cause: request.error });
      await handler.onError?.(request as unknown as ErrorHandlerRequest);
      // The package writes `Content-Type: application/json`; every answer of ours carries the same headers.
      const answered = request.response as APIGatewayProxyResult | undefined;
      request.response = { statusCode: 500, headers: { ...fallback.headers }, body: answered?.body ?? fallback.body };
      if (request.context.api) request.context.api.errorCode = internal.code;
    },
  };
}
