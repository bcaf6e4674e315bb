/**
 * Secrets Manager reads, cached in the warm container for `SECRETS_TTL_SECONDS`. A failure is never
 * cached, so the next request after an outage recovers by itself.
 *
 * The SDK is imported on first use, not at load: local runs with plain keys never load it, and where
 * deployed the functions take the runtime's own SDK (left out of the bundle), so a cold start does not
 * pay for it until the first secret read. Powertools' SecretsProvider would do this caching, but it
 * imports the SDK statically, which puts the SDK back on every cold start (measured: ~300 KiB of bundle
 * and ~25 ms of load; bench/README.md).
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from './config.js';
import { credentialsUnreadable } from './errors.js';
import { logger } from './logger.js';

interface Sdk {
  client: SecretsManagerClient;
  GetSecretValueCommand: typeof import('@aws-sdk/client-secrets-manager').GetSecretValueCommand;
}

let sdk: Promise<Sdk> | undefined;

function secretsManager(): Promise<Sdk> {
  sdk ??= import('@aws-sdk/client-secrets-manager')
    .then(({ SecretsManagerClient, GetSecretValueCommand }) => ({
      // Two attempts and short timeouts: a request waiting on its own credentials must not eat its deadline.
      client: new SecretsManagerClient({
        maxAttempts: 2,
        requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
      }),
      GetSecretValueCommand,
    }))
    .catch((error: unknown) => {
      // A failed load is a failure like any other: not kept, so the next request tries again.
      sdk = undefined;
      throw error;
    });
  return sdk;
}

// Parsed values and when they were read; only successful reads are kept.
const cache = new Map<string, { value: unknown; readAt: number }>();

/** Marks a cached secret value as unusable, so that a fixed secret is picked up on the next request. */
export function invalidateSecret(secretId: string): void {
  cache.delete(secretId);
}

// Concurrent first requests (the local server serves many at once) share one read.
const inFlight = new Map<string, Promise<unknown>>();

/** The secret's JSON value; any failure is SERVICE_MISCONFIGURED and is not cached. */
export async function getSecretJson(secretId: string): Promise<unknown> {
  const cached = cache.get(secretId);
  if (cached && Date.now() - cached.readAt < config.SECRETS_TTL_SECONDS * 1000) return cached.value;
  const pending = inFlight.get(secretId);
  if (pending) return pending;
  const read = (async () => {
    try {
      const value = parseSecret(await readSecretString(secretId));
      cache.set(secretId, { value, readAt: Date.now() });
      return value;
    } catch (error) {
      logger.error('secret unreadable', { secretId, error: describeError(error) });
      throw credentialsUnreadable(error);
    } finally {
      inFlight.delete(secretId);
    }
  })();
  inFlight.set(secretId, read);
  return read;
}

async function readSecretString(secretId: string): Promise<string> {
  const { client, GetSecretValueCommand } = await secretsManager();
  const answer = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (typeof answer.SecretString === 'string') return answer.SecretString;
  if (answer.SecretBinary) return Buffer.from(answer.SecretBinary).toString('utf8');
  throw new Error('the secret has no value');
}

class SecretNotJsonError extends Error {
  override name = 'SecretNotJsonError';
}

function parseSecret(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the start of what it read: here, the secret. Say only what is wrong.
    throw new SecretNotJsonError("the secret's value is not valid JSON");
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
}
