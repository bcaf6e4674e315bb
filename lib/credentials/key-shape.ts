/**
 * The shape of a client key, in one place for every layer that checks it before any secret is read: the
 * functions (lib/credentials/client-keys.ts), the gateway's authorizer and its identity validation
 * expression, and WAF's rules (lib/auth/bearer.ts, infra/). Reads no configuration, so the CDK app can
 * import it.
 */

/** The characters of a key: RFC 6750's b64token alphabet, `=` padding aside (a regex character class body). */
export const KEY_CHARACTERS = 'A-Za-z0-9._~+/-';

/**
 * What a key kept in the client key secret looks like: 16 to 512 characters of the bearer token alphabet
 * (RFC 6750 b64token). Keys made by infra/create-client-key.ts are 47 of them. A presented token of any
 * other shape cannot match, so it is refused without reading the secret.
 */
export const SECRET_KEY_SHAPE = new RegExp(`^[${KEY_CHARACTERS}]{16,512}=*$`);

/** A client key's name, as the client key secret and the gateway's usage plans know it. */
export const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
