/**
 * Secrets Manager reads, cached in the warm container. Powertools' SecretsProvider does the caching (a
 * value lives `SECRETS_TTL_SECONDS`) and never caches a failure, so the next request after an outage
 * recovers by itself. The SDK is imported on first use: local runs with plain keys never load it.
 */
import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { config } from './config.js';
import { AppError } from './errors.js';
import { logger } from './logger.js';

let provider: Promise<SecretsProvider> | undefined;

function secretsProvider(): Promise<SecretsProvider> {
  provider ??= import('@aws-lambda-powertools/parameters/secrets').then(
    ({ SecretsProvider }) =>
      // Two attempts and short timeouts: a request waiting on its own credentials must not eat its deadline.
      new SecretsProvider({
        clientConfig: { maxAttempts: 2, requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 } },
      }),
  );
  return provider;
}

// Secrets whose cached value turned out unusable: the next read skips the cache.
const stale = new Set<string>();

/** Marks a cached secret value as unusable, so that a fixed secret is picked up on the next request. */
export function invalidateSecret(secretId: string): void {
  stale.add(secretId);
}

// Concurrent first requests (the local server serves many at once) share one read.
const inFlight = new Map<string, Promise<unknown>>();

/** The secret's JSON value; any failure is SERVICE_MISCONFIGURED and is not cached. */
export async function getSecretJson(secretId: string): Promise<unknown> {
  const pending = inFlight.get(secretId);
  if (pending) return pending;
  const read = (async () => {
    try {
      const secrets = await secretsProvider();
      const forceFetch = stale.delete(secretId);
      const value = await secrets.get(secretId, { maxAge: config.SECRETS_TTL_SECONDS, transform: 'json', forceFetch });
      if (value === undefined || value === null) throw new Error('secret has no value');
      return value;
    } catch (error) {
      logger.error('secret unreadable', { secretId, error: describeError(error) });
      throw new AppError('SERVICE_MISCONFIGURED', {
        details: 'The service could not read its credentials; its operator must check the deployment',
        cause: error,
      });
    } finally {
      inFlight.delete(secretId);
    }
  })();
  inFlight.set(secretId, read);
  return read;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  // A JSON parse error quotes the start of what it read ("Unexpected token 's', "sk-1234567"..."): here, the secret.
  if (error.name === 'TransformParameterError') return `${error.name}: the secret's value is not valid JSON`;
  return `${error.name}: ${error.message}`;
}
