/**
 * A webhook's signature, as GitHub and Stripe sign theirs: `sha256=` and the hex HMAC-SHA256 of the raw
 * body, keyed with the job's secret, in the X-Signature-256 header. A receiver computes the same over the
 * bytes it received and compares the two in constant time (docs/endpoints.md shows how).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The X-Signature-256 value of `body` under `secret`. */
export function webhookSignature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Whether `signature` is that of `body` under `secret`, compared in constant time (what a receiver does). */
export function verifyWebhookSignature(secret: string, body: string | Buffer, signature: string): boolean {
  const expected = Buffer.from(webhookSignature(secret, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
