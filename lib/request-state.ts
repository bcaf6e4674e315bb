import type { Context } from 'aws-lambda';
import type { ErrorCode } from './errors.js';

/** What the middleware learns about one request, for the handler and for the request's log line. */
export interface RequestState {
  requestId: string;
  /** API path as routed, e.g. /v1/web-search/alpha. */
  path: string;
  startedAt: number;
  /** Epoch ms by which every upstream call of this request must be over. */
  deadline: number;
  client?: string;
  /** The validated request body. */
  body?: unknown;
  upstream: { calls: number; latencyMs: number; cacheHits: number };
  status?: number;
  errorCode?: ErrorCode;
}

/** The Lambda context with this request's state attached by the request-id middleware. */
export type ApiContext = Context & { api: RequestState };
