import { config } from '../config.js';
import { credentialsUnreadable } from '../errors.js';
import { getSecretJson, invalidateSecret } from '../secrets.js';

/** The SerpApi key: from SERPAPI_API_KEY locally, else from its secret `{"serpapi_api_key": "..."}`. */
export async function serpApiKey(): Promise<string> {
  if (config.SERPAPI_API_KEY) return config.SERPAPI_API_KEY;
  const secretId = config.SERPAPI_SECRET_ID as string;
  const value = (await getSecretJson(secretId)) as { serpapi_api_key?: unknown } | null;
  const key = value?.serpapi_api_key;
  if (typeof key !== 'string' || key.trim() === '') {
    invalidateSecret(secretId);
    throw credentialsUnreadable(new Error('the upstream key secret has no "serpapi_api_key"'));
  }
  return key.trim();
}

/**
 * The upstream refused the key: where it comes from a secret, read the secret again on the next request,
 * so that a rotated key is picked up at once instead of after the cache's lifetime.
 */
export function forgetSerpApiKey(): void {
  if (config.SERPAPI_SECRET_ID) invalidateSecret(config.SERPAPI_SECRET_ID);
}
