import { config } from '../config.js';
import { credentialsUnreadable } from '../errors.js';
import { invalidateSecret, jsonKind, readSecret, SecretShapeError } from './secrets.js';

/**
 * Whether this function holds the SerpApi key at all. Not where NO_UPSTREAM_KEY is set: the free routes
 * (lib/routes.ts, `needs.upstreamKey`) and the authorizer, whose roles may not read its secret, never load
 * it, not even for SerpApi's free Account API (lib/middleware/index.ts asks this first).
 */
export function holdsUpstreamKey(): boolean {
  return config.NO_UPSTREAM_KEY !== 'true';
}

/**
 * The SerpApi key out of its secret's JSON, `{"serpapi_api_key": "..."}`; the error says what is off
 * without quoting the value, so that it can be logged.
 */
export function parseUpstreamKeySecret(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SecretShapeError(`the upstream key secret is ${jsonKind(value)}, not an object {"serpapi_api_key":"..."}`);
  }
  const key = (value as { serpapi_api_key?: unknown }).serpapi_api_key;
  if (key === undefined) throw new SecretShapeError('the upstream key secret has no "serpapi_api_key"');
  if (typeof key !== 'string') {
    throw new SecretShapeError(`the upstream key secret's "serpapi_api_key" is ${jsonKind(key)}, not a string`);
  }
  if (key.trim() === '') throw new SecretShapeError(`the upstream key secret's "serpapi_api_key" is empty`);
  return key.trim();
}

/**
 * The SerpApi key: from SERPAPI_API_KEY locally, else from its secret. `deadline` is the request's
 * (epoch ms): the secret read, when one is needed, does not outlast it.
 */
export async function serpApiKey(deadline?: number): Promise<string> {
  // A bug, never a caller's doing: a free route asked for the key. Refused before any secret is read.
  if (!holdsUpstreamKey()) throw credentialsUnreadable(new Error('this function holds no upstream key (NO_UPSTREAM_KEY=true)'));
  if (config.SERPAPI_API_KEY) return config.SERPAPI_API_KEY;
  return readSecret(config.SERPAPI_SECRET_ID as string, parseUpstreamKeySecret, deadline);
}

/**
 * The upstream refused the key: where it comes from a secret, read the secret again on the next request,
 * so that a rotated key is picked up at once instead of after the cache's lifetime.
 */
export function forgetSerpApiKey(): void {
  if (config.SERPAPI_SECRET_ID) invalidateSecret(config.SERPAPI_SECRET_ID);
}
