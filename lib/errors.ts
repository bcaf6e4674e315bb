/**
 * The one error type of the service and the one table that turns an error code into an HTTP status.
 * Codes are the public contract (clients branch on them); messages are summaries for people.
 */
export const ERROR_CODES = {
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON' },
  INVALID_REQUEST: { status: 400, message: 'The request is invalid' },
  UNAUTHORIZED: { status: 401, message: 'Missing or invalid API key' },
  NOT_FOUND: { status: 404, message: 'No such endpoint' },
  JOB_NOT_FOUND: { status: 404, message: 'No such job' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be JSON' },
  JOB_NOT_FINISHED: { status: 409, message: 'The job has not ended yet' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'The Idempotency-Key was used with another request' },
  RATE_LIMITED: { status: 429, message: 'Too many requests' },
  BUDGET_EXHAUSTED: { status: 429, message: 'The search budget is used up for now' },
  BUDGET_UNAVAILABLE: { status: 503, message: 'The search budget could not be checked' },
  UPSTREAM_QUOTA_EXCEEDED: { status: 503, message: 'The search provider refused the request for rate or quota' },
  UPSTREAM_ERROR: { status: 502, message: 'The search provider failed' },
  UPSTREAM_ENGINE_RETIRED: { status: 502, message: 'The search provider has retired the engine behind this endpoint' },
  UPSTREAM_TIMEOUT: { status: 504, message: 'The search provider did not answer in time' },
  SERVICE_MISCONFIGURED: { status: 500, message: 'The service is misconfigured' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'A store the service depends on did not answer; retry shortly' },
  INTERNAL_ERROR: { status: 500, message: 'Internal error' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface AppErrorOptions {
  /** Written for a person; never a secret, an upstream URL or a stack trace. */
  details?: string;
  /** Extra response headers such as Retry-After or WWW-Authenticate. */
  headers?: Record<string, string>;
  /** What went wrong underneath, for logs only; never serialised into a response. */
  cause?: unknown;
}

/** An error that knows its public code; its status always comes from {@link ERROR_CODES}. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: string;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(ERROR_CODES[code].message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = options.details ?? ERROR_CODES[code].message;
    this.headers = options.headers ?? {};
  }
}

/**
 * The service's own credentials (a secret, the upstream key) are unusable: the operator's problem, never
 * the caller's, and the answer says no more than that.
 */
export function credentialsUnreadable(cause: unknown): AppError {
  return new AppError('SERVICE_MISCONFIGURED', {
    details: 'The service could not read its credentials; its operator must check the deployment',
    cause,
  });
}

/**
 * A store the service's credentials live in (Secrets Manager) did not answer, or answered that it cannot
 * now (a timeout, throttling, its own error): nothing is wrong with the caller or the deployment, and a
 * retry shortly may succeed. Never a 401, which would tell a client its good key is bad.
 */
export function credentialsUnavailable(cause: unknown, retryAfterSeconds: number): AppError {
  return new AppError('SERVICE_UNAVAILABLE', {
    details: `The service could not read its credentials in time (its secret store did not answer); retry in ${retryAfterSeconds} s`,
    headers: { 'Retry-After': String(retryAfterSeconds) },
    cause,
  });
}

/** Any thrown value as an AppError: unknown errors become INTERNAL_ERROR and reveal nothing. */
export function toAppError(error: unknown, requestId: string): AppError {
  if (error instanceof AppError) return error;
  return new AppError('INTERNAL_ERROR', {
    details: `Unexpected error; quote request id ${requestId} when reporting it`,
    cause: error,
  });
}
