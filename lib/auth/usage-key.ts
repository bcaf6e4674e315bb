/**
 * The API Gateway API key that stands for one client in the gateway's usage plans (its own rate and
 * burst). With the API's key source set to AUTHORIZER, API Gateway takes the key from the authorizer's
 * answer (`usageIdentifierKey`) and ignores any X-API-Key header, so the value is no credential: it names
 * a client, as a user name does. It is derived from the stack and the client key's name, never from the
 * key or its digest, so no secret is stored twice; the stack creates each listed client's API key with
 * this value and the authorizer computes the same. Reads no configuration, so the CDK app can import it.
 */
import { createHash } from 'node:crypto';

/**
 * The API key value for a client key's name in one stack (`scope`: the stack's name). 64 hex characters:
 * API Gateway takes 20 to 128, and needs values unique in the account and region, hence the stack.
 */
export function usageKeyValue(scope: string, clientName: string): string {
  return createHash('sha256').update(`search-citation-api usage key\n${scope}\n${clientName}`, 'utf8').digest('hex');
}
