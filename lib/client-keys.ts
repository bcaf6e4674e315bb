/**
 * The client API keys, as SHA-256 digests. Plain keys are never kept where deployed: the secret holds
 * `{"keys":[{"name","sha256"}]}`. Locally `API_KEYS` (plain, comma-separated) stands in and is hashed once.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { config } from './config.js';
import { type AppError, credentialsUnreadable } from './errors.js';
import { getSecretJson, invalidateSecret } from './secrets.js';

export interface ClientKey {
  name: string;
  digest: Buffer;
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

const localKeys: ClientKey[] | undefined = config.API_KEYS?.split(',')
  .map((key) => key.trim())
  .filter(Boolean)
  .map((key, i) => ({ name: `local-${i + 1}`, digest: sha256(key) }));

/** Parses the secret's JSON; anything off is a deployment mistake, not the caller's. */
export function parseClientKeySecret(value: unknown): ClientKey[] {
  const entries = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(entries)) throw misconfigured('the client key secret has no "keys" array');
  return entries.map((entry: { name?: unknown; sha256?: unknown }) => {
    if (typeof entry?.sha256 !== 'string' || !/^[0-9a-f]{64}$/i.test(entry.sha256)) {
      throw misconfigured('a client key entry has no valid "sha256"');
    }
    return { name: typeof entry.name === 'string' ? entry.name : 'unnamed', digest: Buffer.from(entry.sha256, 'hex') };
  });
}

function misconfigured(reason: string): AppError {
  return credentialsUnreadable(new Error(reason));
}

async function clientKeys(): Promise<ClientKey[]> {
  if (localKeys) return localKeys;
  const secretId = config.CLIENT_KEYS_SECRET_ID as string;
  try {
    // Parsing is cheap; the secret's value itself is cached by getSecretJson.
    return parseClientKeySecret(await getSecretJson(secretId));
  } catch (error) {
    invalidateSecret(secretId);
    throw error;
  }
}

/**
 * The name of the client whose key this is, or undefined. Every stored digest is compared in constant
 * time, so the time taken says nothing about which key, or how much of it, matched.
 */
export async function findClient(presentedKey: string): Promise<string | undefined> {
  const digest = sha256(presentedKey);
  let match: string | undefined;
  for (const key of await clientKeys()) {
    if (timingSafeEqual(digest, key.digest) && match === undefined) match = key.name;
  }
  return match;
}
