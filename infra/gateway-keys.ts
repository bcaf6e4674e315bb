/**
 * Client keys at the gateway: a TOKEN authorizer run before every method, and one API Gateway API key per
 * client in a usage plan, so that each key has its own rate and burst.
 *
 * - The authorizer's identity validation expression (lib/auth/bearer.ts) refuses a missing or malformed
 *   header with 401 before any function runs, the authorizer's included; its answer for a token is cached
 *   (AUTHORIZER_CACHE_TTL), so a repeated unknown key costs one invocation per cache lifetime.
 * - The authorizer names each known key's API key (`usageIdentifierKey`, lib/auth/usage-key.ts), and the
 *   API takes its keys from the authorizer alone (API key source AUTHORIZER): a client cannot pick another
 *   client's plan, and the API key values are no credentials.
 * - Every client listed in the `clients` setting gets its API key in the default plan (`keyRatePerSecond`,
 *   `keyBurst`), or in a plan of its own when it has its own limits. The plans have no quota: money is the
 *   spending budget's (lib/budget), counted after authentication.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { VALID_LOOKING_AUTHORIZATION } from '../lib/auth/bearer.js';
import { usageKeyValue } from '../lib/auth/usage-key.js';
import type { Route } from '../lib/routes.js';
import { ApiFunction, type ApiFunctionProps } from './api-function.js';
import type { ClientSetting } from './settings.js';

/** How long API Gateway keeps the authorizer's answer for one token (the most is an hour). */
export const AUTHORIZER_CACHE_TTL = Duration.minutes(5);

/** The header the token is read from. */
export const IDENTITY_SOURCE = 'method.request.header.Authorization';

/**
 * The authorizer's function, built as the endpoints' are (functions/authorizer.ts). Not in the routes
 * table: it serves no path. It needs the client key secret alone.
 */
export const AUTHORIZER_ROUTE: Route = {
  path: '(gateway authorizer)',
  name: 'authorizer',
  summary: 'Checks the client key before any method runs',
  tag: 'Usage',
  needs: { paidCalls: false, upstreamKey: false, budget: 'none', sharedCache: false },
};

export interface GatewayAuthorizerProps {
  functionProps: Omit<ApiFunctionProps, 'route'>;
  /** The stack whose API keys the authorizer names (USAGE_KEY_SCOPE). */
  usageKeyScope: string;
}

/** The authorizer function and the TOKEN authorizer every method of the API uses (the API's default). */
export class GatewayAuthorizer extends Construct {
  readonly fn: ApiFunction;
  readonly authorizer: apigw.TokenAuthorizer;

  constructor(scope: Construct, id: string, props: GatewayAuthorizerProps) {
    super(scope, id);
    this.fn = new ApiFunction(this, 'Function', {
      ...props.functionProps,
      route: AUTHORIZER_ROUTE,
      description: 'Checks the client key of every request before API Gateway runs any method',
      environment: { USAGE_KEY_SCOPE: props.usageKeyScope },
      // API Gateway waits for an authorizer up to its own limit; the secret read is bounded at 3 s.
      timeout: Duration.seconds(10),
      // Called for every unknown token a stranger makes up: no line of its own per call.
      quietPlatformLogs: true,
    });
    this.authorizer = new apigw.TokenAuthorizer(this, 'Authorizer', {
      handler: this.fn.function,
      identitySource: IDENTITY_SOURCE,
      validationRegex: VALID_LOOKING_AUTHORIZATION,
      resultsCacheTtl: AUTHORIZER_CACHE_TTL,
      authorizerName: `${Stack.of(this).stackName}-keys`,
    });
  }
}

export interface ClientPlansProps {
  api: apigw.RestApi;
  usageKeyScope: string;
  keyRatePerSecond: number;
  keyBurst: number;
  clients: readonly ClientSetting[];
}

/** The usage plans and one API key per listed client. */
export class ClientPlans extends Construct {
  readonly defaultPlan: apigw.UsagePlan;
  readonly plans: ReadonlyMap<string, apigw.UsagePlan>;

  constructor(scope: Construct, id: string, props: ClientPlansProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const stage = props.api.deploymentStage;
    const plan = (planId: string, name: string, rateLimit: number, burstLimit: number) =>
      new apigw.UsagePlan(this, planId, {
        name,
        description: `${rateLimit} requests/s, burst ${burstLimit}, per client key (no quota: the spending budget guards money)`,
        throttle: { rateLimit, burstLimit },
        apiStages: [{ api: props.api, stage }],
      });
    this.defaultPlan = plan('DefaultPlan', `${stackName}-per-key`, props.keyRatePerSecond, props.keyBurst);
    const plans = new Map<string, apigw.UsagePlan>();
    for (const client of props.clients) {
      const own = client.ratePerSecond !== undefined || client.burst !== undefined;
      const target = own
        ? plan(
            `Plan-${client.name}`,
            `${stackName}-${client.name}`,
            client.ratePerSecond ?? props.keyRatePerSecond,
            client.burst ?? props.keyBurst,
          )
        : this.defaultPlan;
      const key = new apigw.ApiKey(this, `Key-${client.name}`, {
        apiKeyName: `${stackName}-${client.name}`,
        description: `Client key "${client.name}" at the gateway (named by the authorizer; no credential)`,
        value: usageKeyValue(props.usageKeyScope, client.name),
        enabled: true,
      });
      target.addApiKey(key);
      plans.set(client.name, target);
    }
    this.plans = plans;
  }
}
