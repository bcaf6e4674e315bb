/**
 * The CDK stack, synthesized offline exactly as `cdk synth` does (cdk.json's context, cdk-nag as a
 * validation plugin, every function bundled by esbuild), once for the file. Counts come from ROUTES.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CACHE_TABLE_ACTIONS } from '../../infra/api-function.js';
import { createApp } from '../../infra/app.js';
import { methodThrottles, PAID_CALLS_PER_REQUEST, paidCallsPerRequest, throttleCeiling } from '../../infra/budget.js';
import { API_5XX_THRESHOLD, RATE_LIMITED_PERCENT_THRESHOLD } from '../../infra/observability.js';
import { DEFAULT_SETTINGS, settingsFromContext } from '../../infra/settings.js';
import { API_SECURITY_POLICY, type SearchCitationApiStack } from '../../infra/stack.js';
import { ERROR_CODES, type ErrorCode } from '../../lib/errors.js';
import { ROUTES } from '../../lib/routes.js';

const CDK_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<
  string,
  unknown
>;

// biome-ignore lint/suspicious/noExplicitAny: a synthesized template is arbitrary JSON, read by path
type Json = any;
type Resource = { Type: string; Properties: Record<string, Json>; DependsOn?: string[] };

let stack: SearchCitationApiStack;
let assembly: CloudAssembly;
let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  const built = createApp({ context: CDK_CONTEXT });
  stack = built.stack;
  // Throws when cdk-nag reports an error nobody acknowledged, as `cdk synth` fails.
  assembly = built.app.synth();
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
});

function ofType(type: string): Array<[string, Resource]> {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}

/** The full path of an API Gateway resource, from its PathPart and its parents. */
function resourcePath(logicalId: string): string {
  const resource = resources[logicalId];
  if (!resource) throw new Error(`no resource ${logicalId}`);
  const parent = resource.Properties.ParentId;
  const prefix = parent?.Ref ? resourcePath(parent.Ref) : '';
  return `${prefix}/${resource.Properties.PathPart}`;
}

function methods(httpMethod: string): Array<{ path: string; props: Record<string, Json> }> {
  return ofType('AWS::ApiGateway::Method')
    .filter(([, r]) => r.Properties.HttpMethod === httpMethod)
    .map(([, r]) => ({ path: resourcePath(r.Properties.ResourceId.Ref), props: r.Properties }));
}

/** The logical id of the function a Lambda-proxy method invokes. */
function integratedFunction(method: Record<string, Json>): string {
  const parts = JSON.stringify(method.Integration.Uri);
  const match = parts.match(/"Fn::GetAtt":\["([^"]+)","Arn"\]/);
  if (!match?.[1]) throw new Error(`no function in ${parts}`);
  return match[1];
}

/** What a gateway template becomes once API Gateway has filled in its $context variables. */
function render(text: string): unknown {
  return JSON.parse(
    text
      .replaceAll('$context.requestId', 'c0ffee00-0000-4000-8000-000000000000')
      .replaceAll('$context.error.responseType', 'ACCESS_DENIED')
      .replaceAll('$context.httpMethod', 'GET'),
  );
}

function expectEnvelope(body: unknown, code: ErrorCode): void {
  expect(body).toEqual({
    success: false,
    message: ERROR_CODES[code].message,
    data: null,
    error: { code, details: expect.any(String) },
  });
}

describe('functions', () => {
  it('covers all eleven endpoints of the spec: one function and one POST method each', () => {
    expect(ROUTES).toHaveLength(11);
    expect(ofType('AWS::Lambda::Function')).toHaveLength(11);
    expect(methods('POST')).toHaveLength(11);
  });

  it('has one function per route, nodejs22.x on arm64, with the chosen memory and a timeout below the gateway 29 s', () => {
    const functions = ofType('AWS::Lambda::Function');
    expect(functions).toHaveLength(ROUTES.length);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: DEFAULT_SETTINGS.memorySize,
        Handler: 'index.handler',
      });
      expect(fn.Properties.Timeout).toBeGreaterThan(25);
      expect(fn.Properties.Timeout).toBeLessThan(29);
    }
  });

  it('gives every function the contract environment, with both secrets by id and the cache table by name', () => {
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.Environment.Variables).toEqual({
        POWERTOOLS_SERVICE_NAME: 'search-citation-api',
        POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApi',
        CLIENT_KEYS_SECRET_ID: { Ref: expect.stringMatching(/^ClientKeys/) },
        SERPAPI_SECRET_ID: { Ref: expect.stringMatching(/^UpstreamKey/) },
        CACHE_TABLE_NAME: { Ref: expect.stringMatching(/^CacheTable/) },
      });
      // No hard cap unless reservedConcurrency is set: new accounts have too little concurrency to reserve.
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it('bundles each function into its own minified ESM asset with a source map', () => {
    const assets = JSON.parse(readFileSync(join(assembly.directory, `${stack.artifactId}.assets.json`), 'utf8')).files as Record<
      string,
      { source: { path: string } }
    >;
    const bundles = ofType('AWS::Lambda::Function').map(([id, fn]) => {
      const hash = String(fn.Properties.Code.S3Key).replace(/\.zip$/, '');
      const dir = join(assembly.directory, assets[hash]?.source.path ?? `missing asset for ${id}`);
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(JSON.parse(readFileSync(join(dir, 'index.mjs.map'), 'utf8')).mappings.length).toBeGreaterThan(0);
      // ESM (the createRequire banner is an import statement) and minified (lines run to thousands of characters).
      expect(code.startsWith('import { createRequire as __createRequire }')).toBe(true);
      expect(code.length / code.split('\n').length).toBeGreaterThan(1000);
      return code;
    });
    expect(new Set(bundles).size).toBe(ROUTES.length);
  });
});

describe('API', () => {
  it('has exactly one POST per route path, each a Lambda proxy to its own function', () => {
    const posts = methods('POST');
    expect(posts.map((m) => m.path).sort()).toEqual(ROUTES.map((r) => r.path).sort());
    for (const { props } of posts) {
      expect(props.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      expect(props.AuthorizationType).toBe('NONE');
    }
    const targets = posts.map(({ props }) => integratedFunction(props));
    expect(new Set(targets).size).toBe(ROUTES.length);
    for (const target of targets) expect(resources[target]?.Type).toBe('AWS::Lambda::Function');
  });

  it('invokes functions only from POST: every other method on a route path is a mock answering 405', () => {
    for (const [, method] of ofType('AWS::ApiGateway::Method')) {
      if (method.Properties.Integration.Type === 'AWS_PROXY') expect(method.Properties.HttpMethod).toBe('POST');
    }
    const others = methods('ANY');
    expect(others.map((m) => m.path).sort()).toEqual(ROUTES.map((r) => r.path).sort());
    for (const { props } of others) {
      expect(props.Integration.Type).toBe('MOCK');
      // No request template: the mock answers its default response whatever the Content-Type.
      expect(props.Integration.RequestTemplates).toBeUndefined();
      const [response, ...more] = props.Integration.IntegrationResponses;
      expect(more).toEqual([]);
      expect(response.SelectionPattern).toBeUndefined();
      expect(response.StatusCode).toBe('405');
      expect(response.ResponseParameters).toMatchObject({
        'method.response.header.Allow': "'POST'",
        'method.response.header.Content-Type': "'application/json; charset=utf-8'",
        'method.response.header.X-Request-Id': 'context.requestId',
      });
      expectEnvelope(render(response.ResponseTemplates['application/json']), 'METHOD_NOT_ALLOWED');
      // API Gateway rejects a mapped header the method response does not declare.
      for (const name of Object.keys(response.ResponseParameters))
        expect(props.MethodResponses[0].ResponseParameters[name]).toBe(true);
    }
  });

  it('never logs request data, and traces only when asked', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: DEFAULT_SETTINGS.stageName,
      MethodSettings: Match.arrayWith([
        Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', DataTraceEnabled: false, LoggingLevel: 'ERROR' }),
      ]),
      TracingEnabled: false,
    });
  });

  it('accepts TLS 1.2+ only on the execute-api endpoint, with an enhanced policy and strict access mode', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      SecurityPolicy: API_SECURITY_POLICY,
      EndpointAccessMode: 'STRICT',
    });
    expect(API_SECURITY_POLICY).toMatch(/^SecurityPolicy_TLS13_1_2_/);
  });

  it('writes access logs as one JSON object per request, with no client-written text and no gateway error message', () => {
    const [[, stage]] = ofType('AWS::ApiGateway::Stage') as [[string, Resource]];
    const format: string = stage.Properties.AccessLogSetting.Format;
    // Not escaped by API Gateway: client-written text could forge fields, the error message can quote the key.
    for (const free of ['$context.error.message', '$context.identity.userAgent', '$context.path'])
      expect(format).not.toContain(free);
    const line = JSON.parse(format.replace(/"\$context\.[\w.]+"/g, '"x"').replace(/\$context\.[\w.]+/g, '1'));
    expect(Object.keys(line)).toEqual(expect.arrayContaining(['requestId', 'status', 'resourcePath', 'responseLatency', 'ip']));
    expect(JSON.stringify(stage.Properties.AccessLogSetting.DestinationArn)).toContain('AccessLogs');
  });
});

describe('spending budget', () => {
  /** The stage's method settings for the POST methods, by API path. */
  const postThrottles = (stageTemplate: Template) => {
    const [stage] = Object.values(stageTemplate.findResources('AWS::ApiGateway::Stage')) as [Resource];
    return new Map(
      (stage.Properties.MethodSettings as Array<Record<string, Json>>)
        .filter((m) => m.HttpMethod === 'POST')
        .map((m) => [String(m.ResourcePath).replaceAll('~1', '/').slice(1), m]),
    );
  };
  const paidCallsPerSecond = (throttles: Map<string, Record<string, Json>>) =>
    ROUTES.reduce((sum, route) => sum + (throttles.get(route.path)?.ThrottlingRateLimit ?? 0) * paidCallsPerRequest(route), 0);

  it('knows the most paid calls a request of every route can make; cite search is 1 + 20 papers', () => {
    expect(Object.keys(PAID_CALLS_PER_REQUEST).sort()).toEqual(ROUTES.map((r) => r.name).sort());
    expect(PAID_CALLS_PER_REQUEST['cite-search']).toBe(21);
  });

  it('throttles every POST method on its own, and the methods together allow the budget of paid calls, no more', () => {
    const throttles = postThrottles(template);
    expect([...throttles.keys()].sort()).toEqual(ROUTES.map((r) => r.path).sort());
    const total = paidCallsPerSecond(throttles);
    expect(total).toBeLessThanOrEqual(DEFAULT_SETTINGS.upstreamCallsPerSecond);
    // Rounded down to 4 decimals per method: at most 11 × 0.0001 × 21 below the budget.
    expect(total).toBeGreaterThan(DEFAULT_SETTINGS.upstreamCallsPerSecond - 0.03);
    for (const route of ROUTES) {
      const method = throttles.get(route.path);
      expect(method?.ThrottlingBurstLimit, route.path).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(method?.ThrottlingBurstLimit)).toBe(true);
    }
  });

  it('weights cite search by its fan-out: each method gets the same paid calls per second', () => {
    const throttles = postThrottles(template);
    const share = (path: string, name: string) =>
      (throttles.get(path)?.ThrottlingRateLimit ?? 0) * (PAID_CALLS_PER_REQUEST[name] ?? Number.NaN);
    const alpha = share('/v1/web-search/alpha', 'web-search-alpha');
    expect(share('/v1/cite/search', 'cite-search')).toBeCloseTo(alpha, 2);
    expect(share('/v1/alpha/trends', 'alpha-trends')).toBeCloseTo(alpha, 2);
    expect(throttles.get('/v1/cite/search')?.ThrottlingRateLimit).toBeCloseTo(
      DEFAULT_SETTINGS.upstreamCallsPerSecond / 11 / 21,
      3,
    );
  });

  it.each([1, 7, 250])('derives the throttles from a budget of %i paid calls a second given in context', (budget) => {
    const custom = Template.fromStack(
      createApp({ context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [], upstreamCallsPerSecond: String(budget) } }).stack,
    );
    const total = paidCallsPerSecond(postThrottles(custom));
    expect(total).toBeLessThanOrEqual(budget);
    expect(total).toBeGreaterThan(budget - 0.03);
    expect(throttleCeiling(methodThrottles(budget, ROUTES)).steady).toBeCloseTo(total, 6);
  });
});

describe('gateway responses', () => {
  const expected: Array<[string, ErrorCode]> = [
    ['MISSING_AUTHENTICATION_TOKEN', 'NOT_FOUND'],
    ['INVALID_SIGNATURE', 'NOT_FOUND'],
    ['RESOURCE_NOT_FOUND', 'NOT_FOUND'],
    ['THROTTLED', 'RATE_LIMITED'],
    ['QUOTA_EXCEEDED', 'RATE_LIMITED'],
    ['REQUEST_TOO_LARGE', 'PAYLOAD_TOO_LARGE'],
    ['INTEGRATION_TIMEOUT', 'UPSTREAM_TIMEOUT'],
    ['DEFAULT_4XX', 'INVALID_REQUEST'],
    ['DEFAULT_5XX', 'INTERNAL_ERROR'],
  ];

  it.each(expected)('answers %s with the %s envelope and its status, mapping only static headers', (type, code) => {
    const found = ofType('AWS::ApiGateway::GatewayResponse').find(([, r]) => r.Properties.ResponseType === type);
    expect(found, type).toBeDefined();
    const props = found?.[1].Properties ?? {};
    expect(props.StatusCode).toBe(String(ERROR_CODES[code].status));
    expect(props.ResponseParameters).toMatchObject({
      'gatewayresponse.header.Content-Type': "'application/json; charset=utf-8'",
    });
    // Gateway responses take static values, request parameters and stage variables, not $context: a
    // context mapping would fail the deploy. API Gateway's own x-amzn-RequestId header carries the id.
    for (const value of Object.values(props.ResponseParameters as Record<string, string>)) expect(value).toMatch(/^'.*'$/);
    expectEnvelope(render(props.ResponseTemplates['application/json']), code);
  });

  it('tells a throttled client when to retry', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseParameters: { 'gatewayresponse.header.Retry-After': "'1'" },
    });
  });

  it('never echoes the gateway error message, which can quote the Authorization header', () => {
    const all = ofType('AWS::ApiGateway::GatewayResponse');
    expect(all.length).toBeGreaterThanOrEqual(expected.length);
    for (const [, response] of all) {
      const body = response.Properties.ResponseTemplates['application/json'];
      expect(body).not.toMatch(/\$context\.error\.message/);
      expect(() => render(body)).not.toThrow();
    }
  });
});

describe('secrets and IAM', () => {
  const statements = () =>
    ofType('AWS::IAM::Policy').flatMap(([id, p]) =>
      (p.Properties.PolicyDocument.Statement as Array<Record<string, Json>>).map(
        (s): Record<string, Json> => ({ policy: id, ...s }),
      ),
    );

  it('creates the two secrets with no value in the template, kept when the stack is deleted', () => {
    const secrets = ofType('AWS::SecretsManager::Secret');
    expect(secrets.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['ClientKeys', 'UpstreamKey']);
    for (const [id, secret] of secrets) {
      // Generated once by Secrets Manager: the JSON shape, and a random placeholder in a field of its own.
      expect(secret.Properties.SecretString, id).toBeUndefined();
      expect(secret.Properties.GenerateSecretString.GenerateStringKey).toBe('placeholder');
      expect(template.toJSON().Resources[id].DeletionPolicy).toBe('Retain');
    }
    const shapes = Object.fromEntries(
      secrets.map(([id, s]) => [
        id.replace(/[0-9A-F]{8}$/, ''),
        JSON.parse(s.Properties.GenerateSecretString.SecretStringTemplate),
      ]),
    );
    expect(shapes).toEqual({ ClientKeys: { keys: [] }, UpstreamKey: { serpapi_api_key: '' } });
  });

  it("denies reading either secret to every principal but the function roles and the account's admins", () => {
    const policies = ofType('AWS::SecretsManager::ResourcePolicy');
    expect(policies.map(([, p]) => p.Properties.SecretId.Ref.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
      'ClientKeys',
      'UpstreamKey',
    ]);
    const roles = ofType('AWS::IAM::Role')
      .filter(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'))
      .map(([id]) => id);
    expect(roles).toHaveLength(ROUTES.length);
    for (const [, policy] of policies) {
      const [statement, ...more] = policy.Properties.ResourcePolicy.Statement;
      expect(more).toEqual([]);
      expect(statement).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 'secretsmanager:GetSecretValue' });
      const allowed = JSON.stringify(statement.Condition.StringNotLike['aws:PrincipalArn']);
      for (const role of roles) expect(allowed).toContain(`"Fn::GetAtt":["${role}","Arn"]`);
      expect(allowed).toContain(':root');
      expect(allowed).toContain('AWSReservedSSO_AdministratorAccess_');
      expect(policy.Properties.BlockPublicPolicy ?? true).toBe(true);
    }
  });

  it('lets each function read exactly the two secrets with secretsmanager:GetSecretValue, nothing more', () => {
    const secretStatements = statements().filter((s) => JSON.stringify(s).match(/secretsmanager|ClientKeys|UpstreamKey/));
    expect(secretStatements).toHaveLength(ROUTES.length);
    for (const statement of secretStatements) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.Action).toBe('secretsmanager:GetSecretValue');
      expect(statement.Resource).toEqual([
        { Ref: expect.stringMatching(/^ClientKeys/) },
        { Ref: expect.stringMatching(/^UpstreamKey/) },
      ]);
    }
  });

  it('lets each function use the cache table with GetItem, BatchGetItem, PutItem and BatchWriteItem only', () => {
    expect([...CACHE_TABLE_ACTIONS]).toEqual([
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:BatchWriteItem',
    ]);
    const [[tableId]] = ofType('AWS::DynamoDB::Table') as [[string, Resource]];
    const functionPolicies = ofType('AWS::IAM::Policy');
    expect(functionPolicies).toHaveLength(ROUTES.length);
    for (const [id, policy] of functionPolicies) {
      const tableStatements = (policy.Properties.PolicyDocument.Statement as Array<Record<string, Json>>).filter((s) =>
        JSON.stringify(s).includes('dynamodb'),
      );
      expect(tableStatements, id).toEqual([
        {
          Sid: 'UseCacheTable',
          Effect: 'Allow',
          // In any order: CDK sorts the actions of a statement.
          Action: expect.arrayContaining([...CACHE_TABLE_ACTIONS]),
          Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
        },
      ]);
      expect(tableStatements[0]?.Action).toHaveLength(CACHE_TABLE_ACTIONS.length);
    }
    // Each policy belongs to one function's role, so the grant is per function.
    const attached = functionPolicies.flatMap(([, p]) => p.Properties.Roles.map((r: { Ref: string }) => r.Ref));
    expect(new Set(attached).size).toBe(ROUTES.length);
  });

  it('grants no wildcard action or resource and attaches no managed policy to function roles', () => {
    for (const statement of statements()) {
      expect(JSON.stringify(statement.Action)).not.toContain('*');
      expect(statement.Resource).not.toBe('*');
    }
    for (const [id, role] of ofType('AWS::IAM::Role')) {
      if (JSON.stringify(role.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com')) {
        expect(role.Properties.ManagedPolicyArns, id).toBeUndefined();
      }
    }
  });
});

describe('cache table', () => {
  it('is on demand, keyed by the string pk alone, with TTL on expires_at', () => {
    const tables = ofType('AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    const [[, table]] = tables as [[string, Resource]];
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
    });
    expect(table.Properties.ProvisionedThroughput).toBeUndefined();
    // A name of its own would collide with a second copy of the stack.
    expect(table.Properties.TableName).toBeUndefined();
  });
});

describe('logs, alarms, dashboard', () => {
  it('sets a retention on every log group and gives each function its own', () => {
    const groups = ofType('AWS::Logs::LogGroup');
    // One per function, the access log and the execution log.
    expect(groups).toHaveLength(ROUTES.length + 2);
    for (const [, group] of groups) expect(group.Properties.RetentionInDays).toBe(DEFAULT_SETTINGS.logRetentionDays);
    const used = ofType('AWS::Lambda::Function').map(([, fn]) => fn.Properties.LoggingConfig.LogGroup.Ref);
    expect(new Set(used).size).toBe(ROUTES.length);
  });

  it('creates the execution log group under the name API Gateway writes to, before the stage', () => {
    const [[id, group]] = ofType('AWS::Logs::LogGroup').filter(([, g]) =>
      JSON.stringify(g.Properties.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'),
    ) as [[string, Resource]];
    expect(JSON.stringify(group.Properties.LogGroupName)).toContain(`/${DEFAULT_SETTINGS.stageName}`);
    const [[, stage]] = ofType('AWS::ApiGateway::Stage') as [[string, Resource]];
    expect(stage.DependsOn).toContain(id);
  });

  it('alarms on 5XX answers and on every function error', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5XXError',
      Threshold: API_5XX_THRESHOLD,
    });
    const functionAlarms = ofType('AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties.Namespace === 'AWS/Lambda' && a.Properties.MetricName === 'Errors',
    );
    expect(functionAlarms).toHaveLength(ROUTES.length);
  });

  it('alarms on upstream spend per hour, on the share of 429 answers and on every function being throttled', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'SearchCitationApi',
      MetricName: 'UpstreamCalls',
      Dimensions: [{ Name: 'service', Value: 'search-citation-api' }],
      Statistic: 'Sum',
      Period: 3600,
      Threshold: DEFAULT_SETTINGS.spendAlarmCallsPerHour,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    const rateAlarm = ofType('AWS::CloudWatch::Alarm').find(([, a]) =>
      JSON.stringify(a.Properties.Metrics ?? []).includes('RateLimitedAnswers'),
    );
    expect(rateAlarm).toBeDefined();
    const metrics = rateAlarm?.[1].Properties.Metrics as Array<Record<string, Json>>;
    expect(metrics.find((m) => m.Expression)?.Expression).toMatch(/100 \* FILL\(limited, 0\) \/ requests/);
    expect(JSON.stringify(metrics)).toContain('"MetricName":"Count"');
    expect(rateAlarm?.[1].Properties.Threshold).toBe(RATE_LIMITED_PERCENT_THRESHOLD);
    // The 429s are counted from the access log, where the gateway's own throttle answers are written.
    const [[, filter]] = ofType('AWS::Logs::MetricFilter') as [[string, Resource]];
    expect(filter.Properties.FilterPattern).toBe('{ $.status = 429 }');
    expect(JSON.stringify(filter.Properties.LogGroupName)).toContain('AccessLogs');
    expect(filter.Properties.MetricTransformations).toEqual([
      { MetricNamespace: 'SearchCitationApi', MetricName: 'RateLimitedAnswers', MetricValue: '1' },
    ]);
    const throttleAlarms = ofType('AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties.Namespace === 'AWS/Lambda' && a.Properties.MetricName === 'Throttles',
    );
    expect(throttleAlarms).toHaveLength(ROUTES.length);
    // 5XX, spend, 429 share, and errors and throttles per function.
    expect(ofType('AWS::CloudWatch::Alarm')).toHaveLength(3 + 2 * ROUTES.length);
  });

  it('gives every alarm an action and an OK action on the alarm topic the stack creates', () => {
    const [[topicId]] = ofType('AWS::SNS::Topic') as [[string, Resource]];
    for (const [id, alarm] of ofType('AWS::CloudWatch::Alarm')) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
    }
    // TLS-only delivery, and CloudWatch (this account's alarms) may still publish.
    const [[, policy]] = ofType('AWS::SNS::TopicPolicy') as [[string, Resource]];
    const statements = policy.Properties.PolicyDocument.Statement as Array<Record<string, Json>>;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Allow', Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: 'sns:Publish' }),
    );
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it("shows the service's metrics per endpoint and API Gateway's own on one dashboard", () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]?.[1].Properties.DashboardBody);
    for (const metric of ['Requests', 'Errors', 'Latency', 'UpstreamCalls', 'UpstreamLatency', 'CacheHits', 'ErrorsByCode']) {
      expect(body).toContain(metric);
    }
    for (const route of ROUTES) expect(body).toContain(`\\"endpoint\\",\\"${route.name}\\"`);
    // Who spends what: one line per client key name, found by SEARCH so a new key needs no deploy.
    expect(body).toContain('Upstream calls by client');
    expect(body).toMatch(/SEARCH\('\{SearchCitationApi,client,service\} MetricName=\W+UpstreamCalls\W/);
    expect(body).toContain('SearchCitationApi');
    expect(body).toContain('AWS/ApiGateway');
  });
});

describe('cdk-nag (AwsSolutions)', () => {
  it('leaves no finding unacknowledged, error or warning', () => {
    const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8'));
    const findings = (report.pluginReports as Array<{ violations?: unknown[] }>).flatMap((r) => r.violations ?? []);
    expect(findings).toEqual([]);
  });

  it('gives every acknowledgement a written reason', () => {
    const acknowledged: Array<[string, string]> = [];
    const visit = (construct: IConstruct) => {
      for (const entry of construct.node.metadata) {
        if (entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          acknowledged.push(...Object.entries(entry.data as object));
      }
      for (const child of construct.node.children) visit(child);
    };
    visit(stack);
    const ids = new Set(acknowledged.map(([id]) => id.replace(/^\w+::/, '')));
    expect([...ids]).toEqual(expect.arrayContaining(['AwsSolutions-L1', 'AwsSolutions-APIG4', 'AwsSolutions-SMG4']));
    for (const [id, reason] of acknowledged) expect(reason.length, id).toBeGreaterThan(100);
  });
});

describe('context settings', () => {
  // Bundling is skipped here: the stack shape, not the code, is under test.
  const buildWith = (context: Record<string, unknown>) =>
    createApp({ context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [], ...context } });
  const synthWith = (context: Record<string, unknown>) => Template.fromStack(buildWith(context).stack);

  it('uses existing secrets by name or ARN, leaving their policies alone, and the tracing, source maps and retention given', () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:serpapi-key-AbCdEf';
    const custom = synthWith({
      clientKeysSecret: 'team/client-keys',
      upstreamKeySecret: arn,
      tracing: 'true',
      sourceMaps: 'true',
      logRetentionDays: 90,
    });
    custom.resourceCountIs('AWS::SecretsManager::Secret', 0);
    custom.resourceCountIs('AWS::SecretsManager::ResourcePolicy', 0);
    custom.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: { CLIENT_KEYS_SECRET_ID: 'team/client-keys', SERPAPI_SECRET_ID: arn, NODE_OPTIONS: '--enable-source-maps' },
      },
      TracingConfig: { Mode: 'Active' },
    });
    const policies = JSON.stringify(custom.findResources('AWS::IAM::Policy'));
    // A secret named without its ARN suffix matches exactly six more characters, no more.
    expect(policies).toContain(':secret:team/client-keys-??????');
    expect(policies).toContain(arn);
    custom.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
    custom.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
  });

  it('adds the readers named in context to the secrets’ resource policies', () => {
    const reader = 'arn:aws:iam::123456789012:role/KeyAdmins';
    const custom = synthWith({ secretReaderArns: `${reader}, arn:aws:iam::123456789012:user/ops-*` });
    const policies = JSON.stringify(custom.findResources('AWS::SecretsManager::ResourcePolicy'));
    expect(policies).toContain(reader);
    expect(policies).toContain('arn:aws:iam::123456789012:user/ops-*');
  });

  it('notifies an existing topic instead of creating one, and subscribes the e-mail given', () => {
    const topicArn = 'arn:aws:sns:eu-west-1:123456789012:team-alarms';
    const custom = synthWith({ alarmTopicArn: topicArn, alarmEmail: 'ops@example.com' });
    custom.resourceCountIs('AWS::SNS::Topic', 0);
    custom.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: topicArn,
    });
    const alarms = Object.values(custom.findResources('AWS::CloudWatch::Alarm')) as Resource[];
    expect(alarms).toHaveLength(3 + 2 * ROUTES.length);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([topicArn]);
      expect(alarm.Properties.OKActions).toEqual([topicArn]);
    }
    const created = synthWith({ alarmEmail: 'ops@example.com', spendAlarmCallsPerHour: '250' });
    created.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: Match.stringLikeRegexp('^AlarmTopic') },
    });
    created.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'UpstreamCalls', Threshold: 250 });
  });

  it('passes the cache lifetimes given to every function, 0 included (that cache off)', () => {
    const custom = synthWith({ citeCacheTtlSeconds: '0', answerCacheTtlSeconds: '600' });
    custom.allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ CITE_CACHE_TTL_SECONDS: '0', ANSWER_CACHE_TTL_SECONDS: '600' }) },
    });
    expect(() =>
      settingsFromContext({ tryGetContext: (key: string) => (key === 'answerCacheTtlSeconds' ? '604801' : undefined) }),
    ).toThrow(/answerCacheTtlSeconds: must be a whole number from 0 to 604800/);
  });

  it('gives every function the Crossref contact address when one is set, and none by default', () => {
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function')) as Resource[]) {
      expect(fn.Properties.Environment.Variables.CROSSREF_MAILTO).toBeUndefined();
    }
    synthWith({ crossrefMailto: 'research-tools@example.org' }).allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ CROSSREF_MAILTO: 'research-tools@example.org' }) },
    });
    expect(() =>
      settingsFromContext({ tryGetContext: (key: string) => (key === 'crossrefMailto' ? 'nobody' : undefined) }),
    ).toThrow(/crossrefMailto: must be one e-mail address/);
  });

  it('caps every function with the reserved concurrency given', () => {
    synthWith({ reservedConcurrency: '5' }).allResourcesProperties('AWS::Lambda::Function', { ReservedConcurrentExecutions: 5 });
  });

  it('puts a WAF web ACL with a per-IP rate rule answering the 429 envelope on the stage with waf=true, none by default', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    const { app, stack: wafStack } = buildWith({ waf: 'true', wafRequestsPer5MinutesPerIp: '600' });
    const withWaf = Template.fromStack(wafStack);
    withWaf.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: 600 } },
          Action: { Block: { CustomResponse: Match.objectLike({ ResponseCode: 429, CustomResponseBodyKey: 'rateLimited' }) } },
        }),
      ],
    });
    const [acl] = Object.values(withWaf.findResources('AWS::WAFv2::WebACL')) as Resource[];
    const body = JSON.parse(acl?.Properties.CustomResponseBodies.rateLimited.Content);
    expectEnvelope(body, 'RATE_LIMITED');
    const [association] = Object.values(withWaf.findResources('AWS::WAFv2::WebACLAssociation')) as Resource[];
    const target = JSON.stringify(association?.Properties.ResourceArn);
    expect(target).toContain(':apigateway:');
    // The stage by reference: the association waits for the stage it guards.
    const [stageId] = Object.keys(withWaf.findResources('AWS::ApiGateway::Stage'));
    expect(target).toContain(`"/stages/",{"Ref":"${stageId}"}`);
    // With a web ACL, cdk-nag's APIG3 holds without an acknowledgement.
    app.synth();
    expect(JSON.stringify(wafStack.node.findChild('Api').node.metadata)).not.toContain('AwsSolutions-APIG3');
  });

  it('deploys an independent second copy under another stack name: no physical name is shared', () => {
    const staging = buildWith({ stackName: 'SearchCitationApiStaging' }).stack;
    expect(staging.stackName).toBe('SearchCitationApiStaging');
    expect(stack.stackName).toBe(DEFAULT_SETTINGS.stackName);
    const copy = Template.fromStack(staging).toJSON().Resources as Record<string, Resource>;
    expect(Object.values(copy).find((r) => r.Type === 'AWS::ApiGateway::RestApi')?.Properties.Name).toBe(
      'SearchCitationApiStaging-api',
    );
    // Every name the template fixes: each either derives from the stack name or is left to CloudFormation.
    const fixedNames = (all: Record<string, Resource>) =>
      Object.values(all).flatMap((r) =>
        ['Name', 'TableName', 'TopicName', 'DashboardName', 'FunctionName', 'RoleName', 'AlarmName']
          .map((key) => r.Properties?.[key])
          // A reference to another resource of the same template names nothing by itself.
          .filter((value) => value !== undefined && !(typeof value === 'object' && ('Ref' in value || 'Fn::GetAtt' in value)))
          .map((value) => JSON.stringify(value)),
      );
    const shared = fixedNames(copy).filter((name) => fixedNames(resources).includes(name));
    expect(shared).toEqual([]);
  });

  it('refuses bad context values, naming each key, and the throttle keys the budget replaced', () => {
    const context = {
      throttleRateLimit: '50',
      upstreamCallsPerSecond: 'lots',
      logRetentionDays: 42,
      tracing: 'yes',
      upstreamKeySecret: 'arn:aws:s3:::bucket',
      alarmEmail: 'not an address',
      stackName: '1st copy',
      secretReaderArns: 'everyone',
    };
    expect(() => settingsFromContext({ tryGetContext: (key: string) => context[key as keyof typeof context] })).toThrow(
      /throttleRateLimit: replaced by upstreamCallsPerSecond.*; stackName: .*upstreamCallsPerSecond: .*tracing: .*upstreamKeySecret: .*secretReaderArns: .*alarmEmail: .*logRetentionDays: must be one of/,
    );
  });
});
