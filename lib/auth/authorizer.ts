/**
 * The gateway's TOKEN authorizer: the first check of a client key, before API Gateway counts the request
 * against the key's usage plan and before any function runs. API Gateway calls it only for an
 * Authorization header that matches the identity validation expression (lib/auth/bearer.ts) and caches
 * its answer for the token (infra/authorizer.ts), so a stranger repeating a token costs one invocation per
 * cache lifetime, and a malformed or missing header none.
 *
 * - A known key: Allow on every method of the stage (the cached answer serves the key's other calls too),
 *   the key's name as the principal, and the API key that stands for it in the usage plans
 *   (lib/auth/usage-key.ts), which API Gateway then throttles at the key's own rate.
 * - Anything else: Deny, which the gateway answers 401 UNAUTHORIZED as the functions do.
 * - A client key secret that cannot be read: an error, which API Gateway answers 500 and does not cache,
 *   so that an outage never turns a valid key into a remembered refusal.
 *
 * The functions check the key again (lib/middleware/auth.ts): this adds a gate, it replaces none.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent, PolicyDocument } from 'aws-lambda';
import { config } from '../config.js';
import { findClientKey } from '../credentials/client-keys.js';
import { bearerToken } from './bearer.js';
import { usageKeyValue } from './usage-key.js';

/** How long one authorization may wait for the client key secret (the read itself is bounded too). */
export const AUTHORIZER_DEADLINE_MS = 5_000;

/**
 * The stage every method of the request's API lives in: `arn:…:execute-api:<region>:<account>:<api>/<stage>/*`.
 * A cached answer is used for every method the token calls, so it must speak for all of them.
 */
export function stageResource(methodArn: string): string {
  const [api, stage] = methodArn.split('/');
  return api && stage ? `${api}/${stage}/*` : methodArn;
}

function policy(effect: 'Allow' | 'Deny', resource: string): PolicyDocument {
  return { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }] };
}

/** The principal of every refusal: nothing a caller sent is echoed, so nothing of it reaches a log. */
export const REFUSED_PRINCIPAL = 'unknown';

export async function authorize(
  event: Pick<APIGatewayTokenAuthorizerEvent, 'authorizationToken' | 'methodArn'>,
): Promise<APIGatewayAuthorizerResult> {
  const scope = config.USAGE_KEY_SCOPE;
  // A deployment fault, not a caller's: without it no client could be throttled, so none is let through.
  if (!scope) throw new Error('USAGE_KEY_SCOPE is not set: the authorizer cannot name any client’s usage plan key');
  const resource = stageResource(event.methodArn);
  const token = bearerToken(event.authorizationToken);
  const client = token === undefined ? undefined : await findClientKey(token, Date.now() + AUTHORIZER_DEADLINE_MS);
  if (client === undefined) return { principalId: REFUSED_PRINCIPAL, policyDocument: policy('Deny', resource) };
  return {
    principalId: client.name,
    policyDocument: policy('Allow', resource),
    usageIdentifierKey: usageKeyValue(scope, client.name),
    context: { client: client.name },
  };
}
