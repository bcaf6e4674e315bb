/**
 * The one stack: a regional REST API whose resources are the route table's paths (so the public URL is
 * `https://<api>/<stage>/v1/...`, or exactly `https://<domain>/v1/...` behind a custom domain mapped with
 * an empty base path), one POST method and one Lambda function per path, the envelope on every answer
 * the gateway makes itself, the two secrets, logs with retention, alarms and a dashboard.
 */
import { ArnFormat, CfnOutput, RemovalPolicy, SecretValue, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct, IConstruct } from 'constructs';
import { ROUTES } from '../lib/routes.js';
import { ApiFunction } from './api-function.js';
import { addGatewayResponses, addMethodNotAllowed } from './gateway-responses.js';
import { Observability } from './observability.js';
import type { StackSettings } from './settings.js';

export interface SearchCitationApiStackProps extends StackProps {
  settings: StackSettings;
}

/** A secret as the functions see it: the id they read and the ARN their role may read. */
interface ServiceSecret {
  id: string;
  arn: string;
}

export class SearchCitationApiStack extends Stack {
  readonly api: apigw.RestApi;
  readonly functions: ReadonlyArray<ApiFunction>;

  constructor(scope: Construct, id: string, props: SearchCitationApiStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const retention = settings.logRetentionDays as logs.RetentionDays;

    const clientKeys = this.serviceSecret('ClientKeys', settings.clientKeysSecret, {
      description:
        'Search and Citation API client keys as SHA-256 digests: {"keys":[{"name","sha256"}]}. Add keys with infra/create-client-key.ts.',
      // No key at all until an operator adds one: every request is 401 until then.
      initial: { keys: [] },
    });
    const upstreamKey = this.serviceSecret('UpstreamKey', settings.upstreamKeySecret, {
      description:
        'Search and Citation API upstream key: {"serpapi_api_key":"..."}. Put the SerpApi key here after the first deploy.',
      // Empty until an operator puts the key: requests answer 500 SERVICE_MISCONFIGURED, and no
      // placeholder can be mistaken for a key. CloudFormation writes it only when this template value
      // changes, so a later deploy never overwrites the key that was put.
      initial: { serpapi_api_key: '' },
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention, removalPolicy: RemovalPolicy.RETAIN });
    this.api = new apigw.RestApi(this, 'Api', {
      restApiName: `${this.stackName}-api`,
      description: 'Search and Citation API: POST+JSON endpoints in front of SerpApi',
      // Clients are programs, not browsers around the world: no CloudFront distribution in front.
      endpointTypes: [apigw.EndpointType.REGIONAL],
      cloudWatchRole: settings.apiGatewayCloudWatchRole,
      deployOptions: {
        stageName: settings.stageName,
        throttlingRateLimit: settings.throttleRateLimit,
        throttlingBurstLimit: settings.throttleBurstLimit,
        accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigw.AccessLogFormat.custom(ACCESS_LOG_FORMAT),
        // Execution logs for errors only, and never request or response data: bodies and headers
        // (Authorization) must not reach a log.
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        tracingEnabled: settings.tracing,
      },
    });
    // API Gateway would create the execution log group itself, with no retention; creating it first
    // under the name it uses gives it one.
    const executionLogs = new logs.LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${settings.stageName}`,
      retention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.api.deploymentStage.node.addDependency(executionLogs);
    addGatewayResponses(this.api);

    const endpoints = ROUTES.map((route) => {
      const fn = new ApiFunction(this, constructId(route.name), {
        route,
        memorySize: settings.memorySize,
        logRetention: retention,
        tracing: settings.tracing,
        sourceMaps: settings.sourceMaps,
        clientKeysSecret: clientKeys,
        upstreamKeySecret: upstreamKey,
      });
      const resource = this.api.root.resourceForPath(route.path);
      // The console's test-invoke permission is left out: only this stage's POST may invoke the function.
      resource.addMethod('POST', new apigw.LambdaIntegration(fn.function, { allowTestInvoke: false }));
      addMethodNotAllowed(resource);
      return { route, fn };
    });
    this.functions = endpoints.map(({ fn }) => fn);

    const observability = new Observability(this, 'Observability', {
      api: this.api,
      stageName: settings.stageName,
      endpoints,
      alarmTopicArn: settings.alarmTopicArn,
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL; endpoints are <ApiUrl>v1/..., e.g. <ApiUrl>v1/web-search/alpha',
      value: this.api.url,
    });
    new CfnOutput(this, 'ClientKeysSecretId', { description: 'Secret holding the client key digests', value: clientKeys.id });
    new CfnOutput(this, 'UpstreamKeySecretId', { description: 'Secret holding the SerpApi key', value: upstreamKey.id });
    new CfnOutput(this, 'DashboardName', { value: observability.dashboard.dashboardName });

    acknowledgeFindings(this, this.api, settings);
  }

  /** An existing secret (context: a name or a complete ARN), else one created by the stack. */
  private serviceSecret(
    id: string,
    existing: string | undefined,
    created: { description: string; initial: object },
  ): ServiceSecret {
    if (existing?.startsWith('arn:')) return { id: existing, arn: existing };
    if (existing) {
      // A secret's ARN ends in "-" and six random characters its name does not tell: "?" matches one
      // character, so the grant covers this secret and no other whose name merely starts the same.
      const arn = this.formatArn({
        service: 'secretsmanager',
        resource: 'secret',
        resourceName: existing,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      });
      return { id: existing, arn: `${arn}-??????` };
    }
    const secret = new secretsmanager.Secret(this, id, {
      description: created.description,
      secretStringValue: SecretValue.unsafePlainText(JSON.stringify(created.initial)),
      // The keys outlive the stack: a teardown and redeploy must not revoke every client.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    return { id: secret.secretArn, arn: secret.secretArn };
  }
}

/** "web-search-alpha" → "WebSearchAlpha": stable construct ids, so adding a route changes nothing else. */
function constructId(name: string): string {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * One JSON object per request. Numbers that are always present stay numbers for Logs Insights; the rest
 * are strings because API Gateway writes "-" when a value is missing. Left out on purpose: anything the
 * client writes freely (user agent, raw path), because API Gateway does not escape quotes in these
 * values, so a crafted header could add or overwrite fields of the line; and $context.error.message,
 * which for a request with a bearer key to an unknown path quotes the Authorization header.
 */
const ACCESS_LOG_FORMAT = `{${[
  '"requestId":"$context.requestId"',
  '"extendedRequestId":"$context.extendedRequestId"',
  '"requestTime":"$context.requestTime"',
  '"ip":"$context.identity.sourceIp"',
  '"httpMethod":"$context.httpMethod"',
  '"resourcePath":"$context.resourcePath"',
  '"protocol":"$context.protocol"',
  '"status":$context.status',
  '"responseLength":$context.responseLength',
  '"responseLatency":$context.responseLatency',
  '"integrationLatency":"$context.integrationLatency"',
  '"integrationStatus":"$context.integrationStatus"',
  '"errorType":"$context.error.responseType"',
  '"xrayTraceId":"$context.xrayTraceId"',
].join(',')}}`;

/**
 * cdk-nag (AwsSolutions) findings this design accepts, each with the reason a reviewer gets. Kept in one
 * place so the exceptions can be read together.
 */
function acknowledgeFindings(stack: Stack, api: apigw.RestApi, settings: StackSettings): void {
  const ack = (scope: IConstruct, id: string, reason: string) => Validations.of(scope).acknowledge({ id, reason });

  ack(
    api,
    'AwsSolutions-APIG2',
    'Requests are validated in the function (zod schemas, one readable 400 naming every bad field) after ' +
      'authentication. A gateway validator would answer before the key is checked, telling unauthenticated callers ' +
      'about the schema, and in a different error format.',
  );
  ack(
    api,
    'AwsSolutions-APIG4',
    'Every POST method authenticates in its function: a bearer key compared in constant time with SHA-256 digests ' +
      'kept in Secrets Manager. A Lambda authorizer would add a second invocation per request (cost, latency) for the ' +
      'same check. The ANY methods are mock integrations that only answer 405 and reach no backend.',
  );
  ack(
    api,
    'AwsSolutions-COG4',
    'Clients are programs holding API keys, not Cognito users; authentication is the bearer-key check in each ' +
      'function (see AwsSolutions-APIG4).',
  );
  ack(
    api,
    'AwsSolutions-APIG3',
    'No WAF by default: it costs a monthly fee per web ACL and rule on top of per-request charges, which a ' +
      'pay-per-request team deployment does not carry. The stage throttle bounds the request rate, the functions ' +
      'reject bodies over 16 KiB and unauthenticated requests before any paid call. Associate a web ACL with the ' +
      'stage if the API is exposed to hostile traffic.',
  );
  if (settings.apiGatewayCloudWatchRole) {
    ack(
      api,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'The account-level role API Gateway needs to write access and execution logs; this AWS-managed policy is the ' +
        'documented one, trusted only by apigateway.amazonaws.com, and tracks the log actions the service needs.',
    );
  }
  for (const secretId of ['ClientKeys', 'UpstreamKey']) {
    const secret = stack.node.tryFindChild(secretId);
    if (secret instanceof secretsmanager.Secret) {
      ack(
        secret,
        'AwsSolutions-SMG4',
        'Not rotatable by a Lambda: the upstream key is issued in the SerpApi dashboard, and client keys are rotated ' +
          'by adding a new digest (infra/create-client-key.ts) and removing the old one, so that clients can move ' +
          'without downtime. The values are encrypted with the Secrets Manager key and readable only by the functions.',
      );
    }
  }
}
