/**
 * The request fields the four job routes share, built with the house's field builders (lib/schema.ts), so
 * that the OpenAPI document states each rule the server applies.
 */
import * as z from 'zod/mini';
import { requiredText } from '../schema.js';

/** `job_id`: an id as POST /v1/jobs gives it. */
export function jobIdField() {
  return requiredText({
    max: 64,
    format: { pattern: 'job_[a-z2-7]{26}', hint: 'a job id as POST /v1/jobs gives it ("job_" and 26 letters and digits)' },
    description: "The job, as POST /v1/jobs answered it; another key's job is answered as unknown (404)",
  });
}

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
// The last label of a name starts with a letter: one of digits would be read as an IPv4 address.
const NAME = `(?:${LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?';
/** An http(s) URL with a host name or an IPv4 address, an optional port, path and query; no user, no IPv6 literal. */
export const WEBHOOK_URL_PATTERN = `https?://(?:${OCTET}(?:\\.${OCTET}){3}|${NAME})${PORT}(?:[/?#][!-~]*)?`;

/** `webhook`: where to POST when the job ends, and the secret its signature is keyed with. */
export function webhookField() {
  return z.optional(
    z
      .strictObject({
        url: requiredText({
          max: 2_048,
          format: { pattern: WEBHOOK_URL_PATTERN, hint: 'an http or https URL with a host name or an IPv4 address' },
          description:
            "Where the job's end is POSTed. Never a link-local or instance metadata address (169.254.0.0/16, metadata.google.internal: 400); where deployed, never one inside a network (loopback, private), checked again before each try",
        }),
        secret: requiredText({
          max: 256,
          format: { pattern: '[!-~]{16,256}', hint: '16 to 256 visible ASCII characters' },
          description:
            'Keys the signature: each POST carries X-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>; never shown again',
        }),
      })
      .check(
        z.describe(
          'A URL to POST {job_id, status, counts, …} to when the job ends, signed with the secret; 6 tries with backoff. Its url is never a link-local or metadata address, and where deployed never a loopback or private one (400 naming webhook.url)',
        ),
      ),
  );
}
