/**
 * What an endpoint does with a failed upstream call when failing the whole request is not the best
 * answer: keep going without it (`settle`), pick the error that tells the client most (`mostInformative`),
 * or say plainly that the upstream engine behind it is discontinued (`explainDiscontinued`).
 */
import { AppError, type ErrorCode } from '../errors.js';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

/**
 * The call's value or its AppError, never a rejection. Anything else thrown is a bug, not an upstream
 * failure, so it still rejects and fails the request as INTERNAL_ERROR.
 */
export function settle<T>(call: Promise<T>): Promise<Outcome<T>> {
  return call.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    },
  );
}

// A misconfigured key or a spent quota explains every call and is what the operator or the client must act
// on; an upstream error at least carries what the provider said; a timeout says only that nothing came.
const INFORMATIVE: readonly ErrorCode[] = [
  'SERVICE_MISCONFIGURED',
  'UPSTREAM_QUOTA_EXCEEDED',
  'UPSTREAM_ERROR',
  'UPSTREAM_TIMEOUT',
];

/** Of several failures of one request, the one to answer with; on a tie, the first. */
export function mostInformative(errors: readonly [AppError, ...AppError[]]): AppError {
  const rank = (error: AppError) => {
    const at = INFORMATIVE.indexOf(error.code);
    return at === -1 ? INFORMATIVE.length : at;
  };
  return errors.reduce((best, error) => (rank(error) < rank(best) ? error : best));
}

/**
 * For `.catch()` on a call to an engine the provider has marked discontinued: an UPSTREAM_ERROR is
 * rethrown with details that say so, so that the client does not take it for a passing fault; other
 * errors (timeout, quota, configuration) are rethrown unchanged.
 */
export function explainDiscontinued(engine: string, why: string) {
  return (error: unknown): never => {
    if (!(error instanceof AppError) || error.code !== 'UPSTREAM_ERROR') throw error;
    throw new AppError('UPSTREAM_ERROR', {
      details: `${engine} is discontinued by the search provider (${why}), and the provider failed this search: ${error.details}`,
      headers: error.headers,
      cause: error,
    });
  };
}
