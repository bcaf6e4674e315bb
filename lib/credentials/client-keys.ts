/**
 * The client API keys, as SHA-256 digests. Plain keys are never kept where deployed: the secret holds
 * `{"keys":[{"name","sha256","hourlySearches"?,"dailySearches"?}]}`. Locally `API_KEYS` (comma-separated
 * plain keys, or `name:key[:hourly=N][:daily=N]`) stands in and is hashed once.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { config } from '../config.js';
import { SECRET_KEY_SHAPE } from './key-shape.js';
import { jsonKind, readSecret, SecretShapeError } from './secrets.js';

/**
 * A key's own limit of paid searches in a window: a number (kept exactly, lib/budget/budget.ts), null for
 * none of its own (only the deployment's budget), or unset: its default share of the deployment's budget
 * when several keys share it, else none.
 */
export type OwnLimit = number | null | undefined;

export interface ClientKey {
  name: string;
  digest: Buffer;
  /** The key's own limit per UTC hour (see OwnLimit). */
  hourlySearches?: OwnLimit;
  /** The key's own limit per UTC day (see OwnLimit). */
  dailySearches?: OwnLimit;
}

/** A key found for a request: its entry, and whether the deployment has other keys (its default share). */
export interface FoundKey extends ClientKey {
  shared: boolean;
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

// `name:key`, then optionally `:hourly=N` and `:daily=N` (N a number of searches, or `none`), each once;
// anything else is a plain key (so plain keys must not hold a colon).
const NAMED_ENTRY = /^([A-Za-z0-9][A-Za-z0-9._-]{0,63}):([^:\s]+)((?::(?:hourly|daily)=(?:\d{1,9}|none))*)$/;
const LIMIT_OPTION = /:(hourly|daily)=(\d{1,9}|none)/g;

/**
 * The local `API_KEYS` form: comma-separated entries, each a plain key (named `local-1`, `local-2`, … by
 * position), `name:key`, or `name:key` with `:hourly=N` and `:daily=N` for a key's own limits (`none`: no
 * limit of its own, not even its share).
 */
export function parseLocalKeys(text: string): ClientKey[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry, i) => {
      const named = NAMED_ENTRY.exec(entry);
      const options = [...(named?.[3] ?? '').matchAll(LIMIT_OPTION)];
      // An option given twice is no entry of this form: the whole entry stays a plain key, as any other.
      if (!named || new Set(options.map((option) => option[1])).size < options.length) {
        return { name: `local-${i + 1}`, digest: sha256(entry) };
      }
      const [, name, key] = named as unknown as [string, string, string];
      const limits = Object.fromEntries(
        options.map(([, which, value]) => [
          which === 'hourly' ? 'hourlySearches' : 'dailySearches',
          value === 'none' ? null : Number(value),
        ]),
      );
      return { name, digest: sha256(key), ...limits };
    });
}

/** The plain key of an `API_KEYS` entry (for the start banner's curl line). */
export function localKeyOf(entry: string): string {
  return NAMED_ENTRY.exec(entry.trim())?.[2] ?? entry.trim();
}

const localKeys: ClientKey[] | undefined = config.API_KEYS === undefined ? undefined : parseLocalKeys(config.API_KEYS);

// The key's shape is shared with the gateway's checks, which must not load this module's configuration.
export { SECRET_KEY_SHAPE };

/**
 * Parses the secret's JSON; anything off is a deployment mistake, not the caller's. The error says what
 * is off without quoting the value, so that it can be logged.
 */
export function parseClientKeySecret(value: unknown): ClientKey[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SecretShapeError(`the client key secret is ${jsonKind(value)}, not an object {"keys":[...]}`);
  }
  const entries = (value as { keys?: unknown }).keys;
  if (entries === undefined) throw new SecretShapeError('the client key secret has no "keys" array');
  if (!Array.isArray(entries)) {
    throw new SecretShapeError(`the client key secret's "keys" is ${jsonKind(entries)}, not an array`);
  }
  return entries.map((entry: unknown, i) => {
    const {
      name,
      sha256: digest,
      hourlySearches,
      dailySearches,
    } = (typeof entry === 'object' && entry !== null ? entry : {}) as {
      name?: unknown;
      sha256?: unknown;
      hourlySearches?: unknown;
      dailySearches?: unknown;
    };
    // By its index only: a field put in the wrong place (a key as the name) must not reach the log.
    const which = `keys[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new SecretShapeError(`${which} is ${jsonKind(entry)}, not an object {"name","sha256"}`);
    }
    if (typeof digest !== 'string' || !/^[0-9a-f]{64}$/i.test(digest)) {
      throw new SecretShapeError(
        `${which} has ${typeof digest === 'string' ? 'a "sha256" that is not' : 'no "sha256" of'} 64 hex digits`,
      );
    }
    const limits: Pick<ClientKey, 'hourlySearches' | 'dailySearches'> = {};
    for (const [field, value] of [
      ['hourlySearches', hourlySearches],
      ['dailySearches', dailySearches],
    ] as const) {
      if (value === undefined) continue;
      if (value !== null && !(Number.isInteger(value) && (value as number) >= 0)) {
        throw new SecretShapeError(`${which} has a "${field}" that is not a whole number (or null for none)`);
      }
      limits[field] = value as number | null;
    }
    return { name: typeof name === 'string' ? name : 'unnamed', digest: Buffer.from(digest, 'hex'), ...limits };
  });
}

function clientKeys(deadline?: number): Promise<ClientKey[]> {
  if (localKeys) return Promise.resolve(localKeys);
  // Parsing is cheap; the secret's value itself is cached by lib/credentials/secrets.ts.
  return readSecret(config.CLIENT_KEYS_SECRET_ID as string, parseClientKeySecret, deadline);
}

function matchOf(digest: Buffer, keys: readonly ClientKey[]): ClientKey | undefined {
  let match: ClientKey | undefined;
  for (const key of keys) {
    if (timingSafeEqual(digest, key.digest) && match === undefined) match = key;
  }
  return match;
}

/**
 * The client key this token is, with the key's own settings (its limits) and whether the deployment has
 * other keys (a key without limits of its own then gets its share of the budget), or undefined. Every stored
 * digest is compared in constant time, so the time taken says nothing about which key, or how much of
 * it, matched. A token not shaped like a stored key is refused without reading the secret.
 *
 * Without the secret a valid key cannot be told from a guess, and a 401 would tell a client its good key
 * is bad (a fresh container has never seen any key): so while the secret cannot be read, every token that
 * could be a key gets the failure itself, 503 SERVICE_UNAVAILABLE with Retry-After when Secrets Manager did
 * not answer (a timeout, throttling, its own error), 500 SERVICE_MISCONFIGURED when the deployment is wrong
 * (the secret missing, access denied, not JSON, the wrong shape) (docs/decisions.md §3). The gateway's
 * authorizer, whose refusals API Gateway remembers per token, relies on the same: no outage or mistake of
 * the deployment's is ever cached as a Deny. `deadline` is the request's (epoch ms).
 */
export async function findClientKey(presentedKey: string, deadline?: number): Promise<FoundKey | undefined> {
  if (!localKeys && !SECRET_KEY_SHAPE.test(presentedKey)) return undefined;
  const keys = await clientKeys(deadline);
  const match = matchOf(sha256(presentedKey), keys);
  return match && { ...match, shared: keys.length > 1 };
}
