/**
 * The CDK stack, synthesized offline exactly as `cdk synth` does (cdk.json's context, cdk-nag as a
 * validation plugin, every function bundled by esbuild), once for the file. Counts come from ROUTES.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../infra/app.js';
import { API_5XX_THRESHOLD } from '../../infra/observability.js';
import { DEFAULT_SETTINGS, settingsFromContext } from '../../infra/settings.js';
import type { SearchCitationApiStack } from '../../infra/stack.js';
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

  it('gives every function the contract environment, with both secrets by id', () => {
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.Environment.Variables).toEqual({
        POWERTOOLS_SERVICE_NAME: 'search-citation-api',
        POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApi',
        CLIENT_KEYS_SECRET_ID: { Ref: expect.stringMatching(/^ClientKeys/) },
        SERPAPI_SECRET_ID: { Ref: expect.stringMatching(/^UpstreamKey/) },
      });
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

  it('throttles the stage with the default rate and burst, and never logs request data', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: DEFAULT_SETTINGS.stageName,
      MethodSettings: [
        {
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: DEFAULT_SETTINGS.throttleRateLimit,
          ThrottlingBurstLimit: DEFAULT_SETTINGS.throttleBurstLimit,
          DataTraceEnabled: false,
          LoggingLevel: 'ERROR',
        },
      ],
      TracingEnabled: false,
    });
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

  it('creates the two secrets, kept when the stack is deleted', () => {
    const secrets = ofType('AWS::SecretsManager::Secret');
    expect(secrets.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['ClientKeys', 'UpstreamKey']);
    const initial = Object.fromEntries(
      secrets.map(([id, s]) => [id.replace(/[0-9A-F]{8}$/, ''), JSON.parse(s.Properties.SecretString)]),
    );
    expect(initial).toEqual({ ClientKeys: { keys: [] }, UpstreamKey: { serpapi_api_key: '' } });
    for (const [id] of secrets) expect(template.toJSON().Resources[id].DeletionPolicy).toBe('Retain');
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

  it("shows the service's metrics per endpoint and API Gateway's own on one dashboard", () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]?.[1].Properties.DashboardBody);
    for (const metric of ['Requests', 'Errors', 'Latency', 'UpstreamCalls', 'UpstreamLatency', 'CacheHits', 'ErrorsByCode']) {
      expect(body).toContain(metric);
    }
    for (const route of ROUTES) expect(body).toContain(`\\"endpoint\\",\\"${route.name}\\"`);
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
  const synthWith = (context: Record<string, unknown>) =>
    Template.fromStack(createApp({ context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [], ...context } }).stack);

  it('uses existing secrets by name or ARN, and the throttle, tracing, source maps and retention given', () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:serpapi-key-AbCdEf';
    const custom = synthWith({
      clientKeysSecret: 'team/client-keys',
      upstreamKeySecret: arn,
      throttleRateLimit: '50',
      throttleBurstLimit: '100',
      tracing: 'true',
      sourceMaps: 'true',
      logRetentionDays: 90,
    });
    custom.resourceCountIs('AWS::SecretsManager::Secret', 0);
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
    custom.hasResourceProperties('AWS::ApiGateway::Stage', {
      TracingEnabled: true,
      MethodSettings: [{ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 }],
    });
    custom.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
  });

  it('refuses bad context values, naming each key', () => {
    const context = { throttleRateLimit: 'fast', logRetentionDays: 42, tracing: 'yes', upstreamKeySecret: 'arn:aws:s3:::bucket' };
    expect(() => settingsFromContext({ tryGetContext: (key: string) => context[key as keyof typeof context] })).toThrow(
      /throttleRateLimit: .*; tracing: .*upstreamKeySecret: .*logRetentionDays: must be one of/,
    );
  });
});
