/**
 * The bearer header, as every layer reads it: the functions' middleware (lib/middleware/auth.ts), the
 * gateway's authorizer (lib/auth/authorizer.ts), its identity validation expression and WAF's rules
 * (infra/). Reads no configuration, so the CDK app can import it.
 */
import { KEY_CHARACTERS } from '../credentials/key-shape.js';

// The scheme word is case-insensitive and may be followed by several spaces (RFC 9110 §11.1, §11.6.2).
const BEARER = /^bearer +(.*)$/is;

/** The bearer token of an Authorization header value, trimmed, or undefined. */
export function bearerToken(value: string | undefined): string | undefined {
  const token = value?.trim().match(BEARER)?.[1]?.trim();
  return token ? token : undefined;
}

/**
 * An Authorization header that could carry a client key: `Bearer` in any letter case, spaces, then a token
 * of the shape a stored key has (lib/credentials/key-shape.ts). Written for three regex engines at once
 * (API Gateway's identity validation expression, AWS WAF's, JavaScript's): letter classes instead of a
 * case-insensitive flag, no escapes, no lookaround. A header that does not match is refused by the
 * gateway without invoking the authorizer, and counts against WAF's per-address rule for requests
 * without a key; every header the middleware could accept for a stored key matches it
 * (test/unit/lib/bearer.test.ts).
 */
export const VALID_LOOKING_AUTHORIZATION = `^[Bb][Ee][Aa][Rr][Ee][Rr] +[${KEY_CHARACTERS}]{16,512}=*$`;
