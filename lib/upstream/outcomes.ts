/**
 * What an endpoint does with a failed upstream call when failing the whole request is not the best
 * answer: keep going without it (`settle`), pick the error that tells the client most (`mostInformative`),
 * or recognise the provider's answer for an engine it has retired (`asRetiredEngine`).
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
 * SerpApi's answer when an engine is retired. Its exact words are not published: the roadmap
 * (serpapi/public-roadmap#2787, done June 2025 for Google Scholar Profiles) describes "a deprecation
 * message" saying the engine is discontinued or no longer accessible, as its documentation page now says.
 * So this matches those words, not one sentence: `discontinued`, `deprecated`, `no longer available /
 * accessible / supported`, or `retired`, in the error text SerpApi sends.
 */
export const RETIRED_ENGINE_MESSAGE = /\b(?:discontinued|deprecated|retired|no longer (?:available|accessible|supported))\b/i;

/**
 * An UPSTREAM_ERROR whose text is SerpApi's deprecation message becomes UPSTREAM_ENGINE_RETIRED: retrying
 * cannot help, and the client should stop using the endpoint rather than read it as a passing fault.
 * Other errors pass unchanged.
 */
export function asRetiredEngine(error: AppError): AppError {
  if (error.code !== 'UPSTREAM_ERROR' || !RETIRED_ENGINE_MESSAGE.test(error.details)) return error;
  return new AppError('UPSTREAM_ENGINE_RETIRED', {
    details: `The search provider has retired the engine this endpoint uses (${error.details})`,
    headers: error.headers,
    cause: error,
  });
}
