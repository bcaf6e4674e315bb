/**
 * Secrets Manager reads, cached in the warm container for `SECRETS_TTL_SECONDS`. A failure is never
 * cached, so the next request after an outage recovers by itself.
 *
 * Every read is bounded twice: the read itself (all attempts, shared by the requests that wait for it)
 * is abandoned after `SECRETS_TIMEOUT_MS`, and each request stops waiting at its own deadline. Either way
 * the answer is SERVICE_MISCONFIGURED. A value older than its TTL is never served instead: the TTL is the
 * promise operators are given (a removed client key stops working, a revoked upstream key stops being
 * sent, within `SECRETS_TTL_SECONDS`), and a stale fallback would break it exactly when the store is
 * misbehaving, for as long as it misbehaves. A container reads each secret at most once per TTL, so an
 * outage is felt only by containers whose values expire during it.
 *
 * The SDK is imported on first use, not at load: local runs with plain keys never load it, and where
 * deployed the functions take the runtime's own SDK (left out of the bundle), so a cold start does not
 * pay for it until the first secret read. Powertools' SecretsProvider would do this caching, but it
 * imports the SDK statically, which puts the SDK back on every cold start (measured: ~300 KiB of bundle
 * and ~25 ms of load; bench/README.md).
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '../config.js';
import { credentialsUnreadable } from '../errors.js';
import { logger } from '../logger.js';
import { isRealSerpApi } from './sources.js';

interface Sdk {
  client: SecretsManagerClient;
  GetSecretValueCommand: typeof import('@aws-sdk/client-secrets-manager').GetSecretValueCommand;
}

let sdk: Promise<Sdk> | undefined;

function secretsManager(): Promise<Sdk> {
  sdk ??= import('@aws-sdk/client-secrets-manager')
    .then(({ SecretsManagerClient, GetSecretValueCommand }) => {
      // Two attempts, each with half the read's budget: a reset or a 5xx is retried, and a silent endpoint
      // cannot hold one attempt past its share. Without throwOnRequestTimeout the SDK only logs a warning
      // when requestTimeout passes and keeps waiting.
      const attemptMs = Math.ceil(config.SECRETS_TIMEOUT_MS / 2);
      return {
        client: new SecretsManagerClient({
          maxAttempts: 2,
          requestHandler: {
            connectionTimeout: Math.min(1_000, attemptMs),
            requestTimeout: attemptMs,
            throwOnRequestTimeout: true,
          },
        }),
        GetSecretValueCommand,
      };
    })
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

// Concurrent requests share one read; each still waits for it no longer than its own deadline.
const inFlight = new Map<string, Promise<unknown>>();

class SecretTimeoutError extends Error {
  override name = 'SecretTimeoutError';
}

/**
 * The secret's JSON value; any failure is SERVICE_MISCONFIGURED and is not cached. `deadline` (epoch ms)
 * is the request's: past it the request stops waiting, even if the shared read goes on a little longer.
 */
export async function getSecretJson(secretId: string, deadline = Number.POSITIVE_INFINITY): Promise<unknown> {
  const cached = cache.get(secretId);
  if (cached && Date.now() - cached.readAt < config.SECRETS_TTL_SECONDS * 1000) return cached.value;
  let read = inFlight.get(secretId);
  if (!read) {
    read = readAndCache(secretId);
    inFlight.set(secretId, read);
  }
  try {
    return await within(read, deadline - Date.now(), () => new SecretTimeoutError('the request deadline passed first'));
  } catch (error) {
    if (error instanceof SecretTimeoutError) {
      logger.error('secret unreadable', { secretId, error: describeError(error) });
      throw credentialsUnreadable(error);
    }
    throw error;
  }
}

async function readAndCache(secretId: string): Promise<unknown> {
  const abort = new AbortController();
  try {
    const text = await within(readSecretString(secretId, abort.signal), config.SECRETS_TIMEOUT_MS, () => {
      const error = new SecretTimeoutError(`no answer within SECRETS_TIMEOUT_MS (${config.SECRETS_TIMEOUT_MS} ms)`);
      abort.abort(error);
      return error;
    });
    const value = parseSecret(text);
    cache.set(secretId, { value, readAt: Date.now() });
    return value;
  } catch (error) {
    logger.error('secret unreadable', { secretId, error: describeError(error) });
    throw credentialsUnreadable(error);
  } finally {
    inFlight.delete(secretId);
  }
}

/** The promise's outcome, or the error `timedOut` makes once `ms` have passed (at once if `ms` ≤ 0). */
function within<T>(promise: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  if (ms === Number.POSITIVE_INFINITY) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function readSecretString(secretId: string, abortSignal: AbortSignal): Promise<string> {
  const { client, GetSecretValueCommand } = await secretsManager();
  const answer = await client.send(new GetSecretValueCommand({ SecretId: secretId }), { abortSignal });
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

/**
 * A secret's JSON is not the shape its reader needs. `reason` says what is wrong in words that never
 * quote the value (a type, a field name, an index), so that it can be logged.
 */
export class SecretShapeError extends Error {
  override name = 'SecretShapeError';
}

/**
 * The secret's value, checked by `parse` (which throws SecretShapeError). A wrong shape is logged with its
 * reason, dropped from the cache so that a fixed secret is read on the next request, and answered
 * SERVICE_MISCONFIGURED.
 */
export async function readSecret<T>(secretId: string, parse: (value: unknown) => T, deadline?: number): Promise<T> {
  const value = await getSecretJson(secretId, deadline);
  try {
    return parse(value);
  } catch (error) {
    invalidateSecret(secretId);
    logger.error('secret has the wrong shape', { secretId, error: describeError(error) });
    throw credentialsUnreadable(error);
  }
}

/** What a JSON value is, in words that hold none of it: for reasons that are logged. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
}

let sourcesLogged = false;

/**
 * Says once per container, on its first invocation (lib/middleware/request-id.ts), which source each
 * credential comes from and whether the searches are paid ones. Not at import: importing a handler (the
 * document writer, the type generator, a test) is no start of the service and must log nothing. Both
 * sources of one credential at once is refused by lib/config.ts.
 */
export function logCredentialSources(): void {
  if (sourcesLogged) return;
  sourcesLogged = true;
  logger.info('credential sources', {
    clientKeys: config.CLIENT_KEYS_SECRET_ID ? `secret ${config.CLIENT_KEYS_SECRET_ID}` : 'API_KEYS',
    upstreamKey:
      config.NO_UPSTREAM_KEY === 'true'
        ? 'none: this function makes no paid call'
        : config.SERPAPI_SECRET_ID
          ? `secret ${config.SERPAPI_SECRET_ID}`
          : 'SERPAPI_API_KEY',
    upstream: isRealSerpApi(config.SERPAPI_BASE_URL)
      ? `${config.SERPAPI_BASE_URL}: the real SerpApi, every search is paid for by the key's account`
      : config.SERPAPI_BASE_URL,
  });
}
