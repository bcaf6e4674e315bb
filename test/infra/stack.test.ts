/**
 * The CDK stack, synthesized offline exactly as `cdk synth` does (cdk.json's context, cdk-nag as a
 * validation plugin, every function bundled by esbuild), once for the file. Counts come from ROUTES.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CACHE_TABLE_ACTIONS } from '../../infra/api-function.js';
import { createApp } from '../../infra/app.js';
import {
  BUDGET_READ_ACTIONS,
  BUDGET_TABLE_ACTIONS,
  MIN_METHOD_BURST,
  MIN_METHOD_RATE,
  PAID_CALLS_PER_REQUEST,
} from '../../infra/budget.js';
import { STYLE_PACK_ROUTES } from '../../infra/bundling.js';
import { reservedConcurrencyOf, reservedConcurrencyProblem, UNRESERVED_CONCURRENCY } from '../../infra/concurrency.js';
import {
  JOB_ROUTE_RESERVED_CONCURRENCY,
  JOBS_WORKER_DESCRIPTION,
  JOBS_WORKER_ROUTE,
  JOBS_WORKER_TIMEOUT_SECONDS,
  WORKER_LOOKUPS_IN_FLIGHT,
} from '../../infra/jobs.js';
import { MCP_ROUTE } from '../../infra/mcp.js';
import {
  API_5XX_THRESHOLD,
  CACHE_TABLE_ERRORS_PERIODS,
  CACHE_TABLE_ERRORS_THRESHOLD,
  RATE_LIMITED_PERCENT_THRESHOLD,
  REFUSED_FLOOD_THRESHOLD,
  WAF_BLOCKED_THRESHOLD,
} from '../../infra/observability.js';
import { PACE_TABLE_ACTIONS } from '../../infra/pace.js';
import { DEFAULT_SETTINGS, settingsFromContext } from '../../infra/settings.js';
import {
  API_SECURITY_POLICY,
  SECRET_CHANGE_ACTIONS,
  SECRET_READ_ACTIONS,
  type SearchCitationApiStack,
} from '../../infra/stack.js';
import { publishedInFlight, publishedPace } from '../../lib/citations/sources/published-pace.js';
import { ERROR_CODES, type ErrorCode } from '../../lib/errors.js';
import { workerConcurrency } from '../../lib/jobs/sizing.js';
import { ROUTES } from '../../lib/routes.js';
import { API_VERSION } from '../../lib/version.js';

const CDK_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<
  string,
  unknown
>;

// The deploy the README describes names who manages the secrets and who hears the alarms: the synth
// refuses otherwise (tested below).
const ADMIN = 'arn:aws:iam::123456789012:role/Deployer';
const ALARM_EMAIL = 'ops@example.com';
// And who Crossref and DataCite may write to (tested below).
const CROSSREF_MAILTO = 'research-tools@example.org';
const BASE_CONTEXT = {
  ...CDK_CONTEXT,
  secretAdminArns: ADMIN,
  alarmEmail: ALARM_EMAIL,
  crossrefMailto: CROSSREF_MAILTO,
  'aws:cdk:bundling-stacks': [],
};

/** Settings read from these context values alone, with the two the synth requires besides the admins. */
const contextOf = (values: Record<string, unknown>) => ({
  tryGetContext: (key: string) => ({ alarmEmail: ALARM_EMAIL, crossrefMailto: CROSSREF_MAILTO, ...values })[key],
});

// One function per route, and the MCP endpoint's (infra/mcp.ts; test/infra/mcp-stack.test.ts checks it).
const FUNCTION_PATHS = [...ROUTES.map((route) => route.path), MCP_ROUTE.path];
// Behind every method, one more: the gateway's authorizer (infra/gateway-keys.ts; test/infra/gateway.test.ts);
// and the jobs' worker, fed by their queue (infra/jobs.ts; test/infra/jobs-stack.test.ts).
const FUNCTION_COUNT = FUNCTION_PATHS.length + 2;
/** The jobs' workers at once, with a contact address (Crossref's polite pace): what the worker reserves. */
const jobWorkers = () =>
  workerConcurrency(publishedPace('crossref', true), WORKER_LOOKUPS_IN_FLIGHT, publishedInFlight('crossref', true));
/** What the stack reserves at the defaults: 20 a function, but 5 a job route and the worker its maximum. */
const EXPECTED_RESERVED = (FUNCTION_COUNT - 5) * 20 + 4 * JOB_ROUTE_RESERVED_CONCURRENCY + jobWorkers();

// biome-ignore lint/suspicious/noExplicitAny: a synthesized template is arbitrary JSON, read by path
type Json = any;
type Resource = { Type: string; Properties: Record<string, Json>; DependsOn?: string[] };

let stack: SearchCitationApiStack;
let assembly: CloudAssembly;
let template: Template;
let resources: Record<string, Resource>;

// Synthesizing runs cdk-nag over the whole stack, synchronously: on a busy machine it takes minutes, so
// these tests get limits that fit that work. The functions' bundles are not built here (bundling skipped):
// test/infra/mcp-stack.test.ts synthesizes the stack as `cdk synth` does, bundles included, and checks them.
vi.setConfig({ testTimeout: 300_000 });

beforeAll(() => {
  const built = createApp({ context: BASE_CONTEXT });
  stack = built.stack;
  // Throws when cdk-nag reports an error nobody acknowledged, as `cdk synth` fails.
  assembly = built.app.synth();
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
}, 600_000);

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
  it('covers all eleven endpoints of the spec, citation resolving, the reference check, the style catalogue, /v1/usage and the four job routes: one function and one POST method each', () => {
    expect(ROUTES).toHaveLength(19);
    expect(ROUTES.map((r) => r.path)).toContain('/v1/usage');
    expect(ROUTES.filter((r) => r.tag === 'Jobs')).toHaveLength(4);
    // The endpoints', the MCP server's, the authorizer's and the jobs' worker's.
    expect(ofType('AWS::Lambda::Function')).toHaveLength(19 + 3);
    expect(methods('POST')).toHaveLength(19 + 1);
  });

  it('has one function per route, nodejs22.x on arm64, with the chosen memory and a timeout below the gateway 29 s', () => {
    const functions = ofType('AWS::Lambda::Function');
    expect(functions).toHaveLength(FUNCTION_COUNT);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: DEFAULT_SETTINGS.memorySize,
        Handler: 'index.handler',
      });
      // The authorizer answers before any method runs: its one secret read is bounded well below.
      if (fn.Properties.Description.startsWith('Checks the client key')) {
        expect(fn.Properties.Timeout).toBe(10);
        continue;
      }
      // The jobs' worker answers no request: its time is a batch's (infra/jobs.ts).
      if (fn.Properties.Description === JOBS_WORKER_DESCRIPTION) {
        expect(fn.Properties.Timeout).toBe(JOBS_WORKER_TIMEOUT_SECONDS);
        continue;
      }
      expect(fn.Properties.Timeout).toBeGreaterThan(25);
      expect(fn.Properties.Timeout).toBeLessThan(29);
    }
  });

  it('gives every paid route’s function the contract environment: both secrets by id, both tables by name, the budget', () => {
    const paid = ofType('AWS::Lambda::Function').filter(([, fn]) =>
      [...ROUTES.filter((r) => r.needs.paidCalls), MCP_ROUTE].some((r) => fn.Properties.Description.endsWith(`(POST ${r.path})`)),
    );
    expect(paid).toHaveLength(ROUTES.filter((r) => r.needs.paidCalls).length + 1);
    for (const [, fn] of paid) {
      // cite-search and cite-resolve also build their citation styles at start-up, the functions that read
      // the style pack are told where its layer lies, those that keep a pace name its table (all tested
      // below), and the MCP server, which runs the job routes too, where the jobs are
      // (test/infra/least-privilege.test.ts).
      const {
        CITATION_STYLES_AT_INIT: _atInit,
        STYLE_PACK_DIR: _pack,
        PACE_TABLE_NAME: _pace,
        JOBS_TABLE_NAME: _jobs,
        JOBS_BUCKET_NAME: _bucket,
        JOBS_QUEUE_URL: _queue,
        JOBS_TTL_DAYS: _ttl,
        ...variables
      } = fn.Properties.Environment.Variables;
      expect(variables).toEqual({
        POWERTOOLS_SERVICE_NAME: 'search-citation-api',
        POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApi',
        CLIENT_KEYS_SECRET_ID: { Ref: expect.stringMatching(/^ClientKeys/) },
        SERPAPI_SECRET_ID: { Ref: expect.stringMatching(/^UpstreamKey/) },
        CACHE_TABLE_NAME: { Ref: expect.stringMatching(/^CacheTable/) },
        CACHE_KEY_PREFIX: expect.stringMatching(/^[a-z-]+\/$/),
        BUDGET_TABLE_NAME: { Ref: expect.stringMatching(/^BudgetTable/) },
        SEARCHES_PER_HOUR: String(DEFAULT_SETTINGS.searchesPerHour),
        SEARCHES_PER_MONTH: String(DEFAULT_SETTINGS.searchesPerMonth),
        BUDGET_FAIL_CLOSED: 'false',
        CROSSREF_MAILTO,
      });
    }
  });

  it('reserves at most 400 a copy by default, every function of the stack counted, so that a second copy fits in a default account', () => {
    const functions = reservedConcurrencyOf(stack);
    expect(functions).toHaveLength(FUNCTION_COUNT);
    const total = functions.reduce((sum, fn) => sum + fn.reserved, 0);
    // 20 each, but the four job routes 5 each and the jobs' worker its maximum concurrency (docs/decisions.md §27).
    expect(total).toBe(EXPECTED_RESERVED);
    expect(DEFAULT_SETTINGS.reservedConcurrencyPerCopy).toBe(400);
    expect(total).toBeLessThanOrEqual(DEFAULT_SETTINGS.reservedConcurrencyPerCopy);
    // Two copies at the defaults fit in what a default account may reserve: 1,000 less the 100 Lambda keeps.
    expect(2 * DEFAULT_SETTINGS.reservedConcurrencyPerCopy).toBeLessThanOrEqual(
      DEFAULT_SETTINGS.accountConcurrency - UNRESERVED_CONCURRENCY,
    );
    // Any function in the tree counts, whatever built it (a worker of a later construct, say).
    const other = new Stack(new App(), 'Other');
    new lambda.Function(other, 'Worker', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('export const handler = async () => undefined;'),
      reservedConcurrentExecutions: 7,
    });
    expect(reservedConcurrencyOf(other)).toEqual([{ path: 'Other/Worker/Resource', reserved: 7 }]);
  });

  it('refuses at synth a copy reserving more than its share, or than the stated account quota leaves reservable', () => {
    expect(() => createApp({ context: { ...BASE_CONTEXT, reservedConcurrency: '30' } })).toThrow(
      new RegExp(
        `^Invalid CDK context: reservedConcurrency: the stack's ${FUNCTION_COUNT} functions would reserve ${(FUNCTION_COUNT - 5) * 30 + 4 * JOB_ROUTE_RESERVED_CONCURRENCY + jobWorkers()} instances together, over this copy's share, reservedConcurrencyPerCopy 400`,
      ),
    );
    const total = EXPECTED_RESERVED;
    expect(reservedConcurrencyProblem(stack, { reservedConcurrencyPerCopy: total, accountConcurrency: 1_000 })).toBeUndefined();
    expect(reservedConcurrencyProblem(stack, { reservedConcurrencyPerCopy: total - 1, accountConcurrency: 1_000 })).toMatch(
      /reservedConcurrencyPerCopy/,
    );
    // A quota of 400 leaves 300 to reserve, whatever the copy's share.
    expect(reservedConcurrencyProblem(stack, { reservedConcurrencyPerCopy: 5_000, accountConcurrency: 400 })).toMatch(
      /over the 300 an account with a quota of 400 \(accountConcurrency\) may reserve/,
    );
    expect(
      reservedConcurrencyProblem(stack, { reservedConcurrencyPerCopy: 5_000, accountConcurrency: total + 100 }),
    ).toBeUndefined();
    const settings = (values: Record<string, unknown>) => settingsFromContext(contextOf({ secretAdminArns: ADMIN, ...values }));
    expect(settings({ reservedConcurrencyPerCopy: '600', accountConcurrency: '3000' })).toMatchObject({
      reservedConcurrencyPerCopy: 600,
      accountConcurrency: 3_000,
    });
    expect(() => settings({ accountConcurrency: '5' })).toThrow(/accountConcurrency: must be a whole number from 10/);
  });

  it("caps every function with a reserved concurrency by default (20), the job routes with 5, the jobs' worker with its maximum, none with reservedConcurrency=none", () => {
    expect(DEFAULT_SETTINGS.reservedConcurrency).toBe(20);
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      const worker = fn.Properties.Description === JOBS_WORKER_DESCRIPTION;
      const jobRoute = / \(POST \/v1\/jobs(\/\w+)?\)$/.test(fn.Properties.Description);
      expect(fn.Properties.ReservedConcurrentExecutions, fn.Properties.Description).toBe(
        worker ? jobWorkers() : jobRoute ? JOB_ROUTE_RESERVED_CONCURRENCY : 20,
      );
    }
    const unreserved = Template.fromStack(createApp({ context: { ...BASE_CONTEXT, reservedConcurrency: 'none' } }).stack);
    for (const fn of Object.values(unreserved.findResources('AWS::Lambda::Function')) as Resource[]) {
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
  });
});

describe('API', () => {
  it('has exactly one POST per route path, each a Lambda proxy to its own function', () => {
    const posts = methods('POST');
    expect(posts.map((m) => m.path).sort()).toEqual([...FUNCTION_PATHS].sort());
    for (const { props } of posts) {
      expect(props.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      // The gateway's authorizer first (test/infra/gateway.test.ts), then the function's own check.
      expect(props.AuthorizationType).toBe('CUSTOM');
    }
    const targets = posts.map(({ props }) => integratedFunction(props));
    expect(new Set(targets).size).toBe(FUNCTION_PATHS.length);
    for (const target of targets) expect(resources[target]?.Type).toBe('AWS::Lambda::Function');
  });

  it('invokes functions only from POST: every other method on a route path is a mock answering 405', () => {
    for (const [, method] of ofType('AWS::ApiGateway::Method')) {
      if (method.Properties.Integration.Type === 'AWS_PROXY') expect(method.Properties.HttpMethod).toBe('POST');
    }
    const others = methods('ANY');
    expect(others.map((m) => m.path).sort()).toEqual([...FUNCTION_PATHS].sort());
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
        'method.response.header.X-Api-Version': `'${API_VERSION}'`,
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

describe('spending budget and flood guard', () => {
  const stageOf = (stageTemplate: Template) =>
    (Object.values(stageTemplate.findResources('AWS::ApiGateway::Stage')) as [Resource])[0];
  /** The effective throttle of every method: its own setting, else the stage's. */
  const methodThrottles = (stageTemplate: Template) => {
    const stage = stageOf(stageTemplate);
    const settings = (stage.Properties.MethodSettings ?? []) as Array<Record<string, Json>>;
    const stageWide = settings.find((m) => m.ResourcePath === '/*' && m.HttpMethod === '*');
    const own = settings.filter((m) => m !== stageWide);
    return { stageWide, own };
  };

  it('knows the most paid calls a request of every route can make (the cost table); cite search is 1 + 20 papers', () => {
    expect(Object.keys(PAID_CALLS_PER_REQUEST).sort()).toEqual(ROUTES.map((r) => r.name).sort());
    expect(PAID_CALLS_PER_REQUEST['cite-search']).toBe(21);
    expect(PAID_CALLS_PER_REQUEST.usage).toBe(0);
  });

  it('sets no stage-wide or method limit by default: strangers could fill it, each key has its own plan instead', () => {
    const { stageWide, own } = methodThrottles(template);
    expect(own.filter((m) => m.ThrottlingRateLimit !== undefined || m.ThrottlingBurstLimit !== undefined)).toEqual([]);
    expect(stageWide?.ThrottlingRateLimit).toBeUndefined();
    expect(stageWide?.ThrottlingBurstLimit).toBeUndefined();
    expect(DEFAULT_SETTINGS.floodRatePerSecond).toBeUndefined();
    // The per-key limits are the usage plans' (test/infra/gateway.test.ts).
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: DEFAULT_SETTINGS.keyRatePerSecond, BurstLimit: DEFAULT_SETTINGS.keyBurst },
    });
  });

  it.each([
    [1, 2],
    [7, 20],
  ])('takes an optional stage-wide limit from context (rate %i, burst %i), never below the minimums', (rate, burst) => {
    const custom = Template.fromStack(
      createApp({ context: { ...BASE_CONTEXT, floodRatePerSecond: String(rate), floodBurst: String(burst) } }).stack,
    );
    expect(methodThrottles(custom).stageWide).toMatchObject({ ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst });
    expect(rate).toBeGreaterThanOrEqual(MIN_METHOD_RATE);
    expect(burst).toBeGreaterThanOrEqual(MIN_METHOD_BURST);
    expect(() => settingsFromContext(contextOf({ floodRatePerSecond: '0' }))).toThrow(
      /floodRatePerSecond: must be a whole number from 1/,
    );
    expect(() => settingsFromContext(contextOf({ floodBurst: '1' }))).toThrow(/floodBurst: must be a whole number from 2/);
  });

  it('gives every function that uses the budget SEARCHES_PER_HOUR, SEARCHES_PER_MONTH and the fail-closed switch from context', () => {
    const custom = Template.fromStack(
      createApp({ context: { ...BASE_CONTEXT, searchesPerHour: '40', searchesPerMonth: '0', budgetFailClosed: 'true' } }).stack,
    );
    const functions = (Object.values(custom.findResources('AWS::Lambda::Function')) as Resource[]).filter(
      (fn) => fn.Properties.Environment.Variables.BUDGET_TABLE_NAME !== undefined,
    );
    // Every route but the two free ones without a counter (cite-resolve, cite-styles), and the MCP server.
    expect(functions).toHaveLength(ROUTES.filter((r) => r.needs.budget !== 'none').length + 1);
    for (const fn of functions) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        SEARCHES_PER_HOUR: '40',
        SEARCHES_PER_MONTH: '0',
        BUDGET_FAIL_CLOSED: 'true',
      });
    }
  });

  it('counts in a table of its own, on demand, with TTL, kept on teardown, undeletable, restorable to any second', () => {
    const [[tableId, table]] = ofType('AWS::DynamoDB::Table').filter(([id]) => id.startsWith('BudgetTable')) as [
      [string, Resource],
    ];
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    expect(resources[tableId]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('goes on counting in the table an earlier copy kept, given its name, creating none', () => {
    const adopted = Template.fromStack(createApp({ context: { ...BASE_CONTEXT, budgetTableName: 'kept-budget-table' } }).stack);
    expect(Object.keys(adopted.findResources('AWS::DynamoDB::Table')).filter((id) => id.startsWith('BudgetTable'))).toEqual([]);
    const grants = JSON.stringify(adopted.findResources('AWS::IAM::Policy'));
    expect(grants).toContain(':table/kept-budget-table');
    adopted.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ BUDGET_TABLE_NAME: 'kept-budget-table' }) },
    });
    expect(() => settingsFromContext(contextOf({ budgetTableName: 'x' }))).toThrow(
      /budgetTableName: must be a DynamoDB table name/,
    );
  });

  it('lets only the functions that reserve or read the budget touch its table: UpdateItem and GetItem to reserve, GetItem alone to read', () => {
    expect([...BUDGET_TABLE_ACTIONS]).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect([...BUDGET_READ_ACTIONS]).toEqual(['dynamodb:GetItem']);
    const [[tableId]] = ofType('AWS::DynamoDB::Table').filter(([id]) => id.startsWith('BudgetTable')) as [[string, Resource]];
    const grants = ofType('AWS::IAM::Policy').flatMap(([, p]) =>
      (p.Properties.PolicyDocument.Statement as Array<Record<string, Json>>).filter((st) =>
        JSON.stringify(st.Resource).includes(tableId),
      ),
    );
    expect(grants).toHaveLength(ROUTES.filter((r) => r.needs.budget !== 'none').length + 1);
    for (const grant of grants) {
      const reads = grant.Sid === 'ReadBudget';
      expect(grant).toEqual({
        Sid: expect.stringMatching(/^(ReserveSearches|ReadBudget)$/),
        Effect: 'Allow',
        Action: reads ? 'dynamodb:GetItem' : ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
      });
    }
    expect(grants.filter((grant) => grant.Sid === 'ReadBudget')).toHaveLength(1);
    // Nothing can scan, query or manage it.
    const onTable = ofType('AWS::IAM::Policy').flatMap(([, p]) =>
      (p.Properties.PolicyDocument.Statement as Array<Record<string, Json>>).filter((st) =>
        JSON.stringify(st.Resource).includes(tableId),
      ),
    );
    expect(JSON.stringify(onTable)).not.toMatch(/dynamodb:(Scan|Query|CreateTable|DeleteTable|UpdateTable|DescribeTable|\*)/);
  });

  it('alarms as soon as the counter fails (the fail-open rule)', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'SearchCitationApi',
      MetricName: 'BudgetCounterErrors',
      Dimensions: [{ Name: 'service', Value: 'search-citation-api' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });
});

describe('gateway responses', () => {
  const expected: Array<[string, ErrorCode]> = [
    ['MISSING_AUTHENTICATION_TOKEN', 'NOT_FOUND'],
    ['INVALID_SIGNATURE', 'NOT_FOUND'],
    ['RESOURCE_NOT_FOUND', 'NOT_FOUND'],
    ['THROTTLED', 'RATE_LIMITED'],
    ['QUOTA_EXCEEDED', 'RATE_LIMITED'],
    ['UNAUTHORIZED', 'UNAUTHORIZED'],
    ['ACCESS_DENIED', 'UNAUTHORIZED'],
    ['AUTHORIZER_FAILURE', 'SERVICE_UNAVAILABLE'],
    ['AUTHORIZER_CONFIGURATION_ERROR', 'SERVICE_UNAVAILABLE'],
    ['INVALID_API_KEY', 'SERVICE_MISCONFIGURED'],
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
      'gatewayresponse.header.X-Api-Version': `'${API_VERSION}'`,
    });
    // Gateway responses take static values, request parameters and stage variables, not $context: a
    // context mapping would fail the deploy. API Gateway's own x-amzn-RequestId header carries the id.
    for (const value of Object.values(props.ResponseParameters as Record<string, string>)) expect(value).toMatch(/^'.*'$/);
    expectEnvelope(render(props.ResponseTemplates['application/json']), code);
  });

  it('sets no quota on any usage plan, so QUOTA_EXCEEDED (mapped to RATE_LIMITED should one be set) never fires', () => {
    for (const [, plan] of ofType('AWS::ApiGateway::UsagePlan')) expect(plan.Properties.Quota).toBeUndefined();
  });

  it('tells a throttled client when to retry', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseParameters: { 'gatewayresponse.header.Retry-After': "'1'" },
    });
  });

  it('tells a client whose key could not be checked to retry after a secret read’s timeout, never that the key is bad', () => {
    for (const type of ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: '503',
        ResponseParameters: { 'gatewayresponse.header.Retry-After': "'3'" },
      });
    }
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

  it('denies reading each secret to all but the function roles that use it and the admins, and any change to all but the admins', () => {
    const policies = ofType('AWS::SecretsManager::ResourcePolicy');
    expect(policies.map(([, p]) => p.Properties.SecretId.Ref.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
      'ClientKeys',
      'UpstreamKey',
    ]);
    const roles = ofType('AWS::IAM::Role')
      .filter(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'))
      .map(([id, r]) => {
        const path = /^Runs (\S+):/.exec(String(r.Properties.Description))?.[1];
        const route = [...ROUTES, MCP_ROUTE, JOBS_WORKER_ROUTE].find((known) => known.path === path);
        // The authorizer's role says "Runs (gateway authorizer)": it reads the client keys only.
        return { id, reads: route?.needs.upstreamKey ?? false, readsClientKeys: route !== JOBS_WORKER_ROUTE };
      });
    expect(roles).toHaveLength(FUNCTION_COUNT);
    // The free routes (the two citation ones and the four job routes), the authorizer and the jobs' worker
    // never read the SerpApi key (test/infra/least-privilege.test.ts).
    expect(roles.filter((r) => !r.reads)).toHaveLength(8);
    for (const [, policy] of policies) {
      const [read, change, ...more] = policy.Properties.ResourcePolicy.Statement;
      expect(more).toEqual([]);
      expect(read).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 'secretsmanager:GetSecretValue' });
      // Exact principals (an admin named by its role ARN): no pattern, so no look-alike role is exempt.
      expect(Object.keys(read.Condition)).toEqual(['StringNotEquals']);
      const readers = JSON.stringify(read.Condition.StringNotEquals['aws:PrincipalArn']);
      const upstream = policy.Properties.SecretId.Ref.startsWith('UpstreamKey');
      for (const role of roles) {
        const exempt = readers.includes(`"Fn::GetAtt":["${role.id}","Arn"]`);
        expect(exempt, role.id).toBe(upstream ? role.reads : role.readsClientKeys);
      }
      expect(readers).toContain(':root');
      expect(readers).toContain(ADMIN);
      // The deployment may read what it updates (anyone who can deploy can rewrite this policy anyway).
      expect(readers).toContain('cfn-exec-role');
      expect(readers).not.toContain('*');
      expect(readers).not.toContain('AWSReservedSSO');
      // Every action but the four reads is denied: a write, a version stage moved back to a revoked key
      // list, rotation, restore, replication, tags, deletion, the policy, and whatever is added later.
      expect(change).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Resource: '*' });
      expect(change.Action).toBeUndefined();
      expect([...change.NotAction].sort()).toEqual([...SECRET_READ_ACTIONS].sort());
      for (const action of SECRET_CHANGE_ACTIONS) expect(change.NotAction).not.toContain(action);
      expect(Object.keys(change.Condition)).toEqual(['StringNotEquals']);
      const changers = JSON.stringify(change.Condition.StringNotEquals['aws:PrincipalArn']);
      expect(changers).toContain(':root');
      expect(changers).toContain(ADMIN);
      // The deployment's own CloudFormation role updates the policy; the functions may change nothing.
      expect(changers).toContain('cfn-exec-role');
      for (const role of roles) expect(changers).not.toContain(`"Fn::GetAtt":["${role.id}","Arn"]`);
      expect(changers).not.toContain('*');
      expect(policy.Properties.BlockPublicPolicy ?? true).toBe(true);
    }
  });

  it('keeps each secret’s policy when the stack is deleted, as it keeps the secret', () => {
    const policies = ofType('AWS::SecretsManager::ResourcePolicy');
    expect(policies).toHaveLength(2);
    for (const [id] of policies) {
      expect(template.toJSON().Resources[id].DeletionPolicy, id).toBe('Retain');
      expect(template.toJSON().Resources[id].UpdateReplacePolicy, id).toBe('Retain');
    }
  });

  it('lets each function read the secrets with secretsmanager:GetSecretValue alone, one statement per secret', () => {
    const secretStatements = statements().filter((s) => JSON.stringify(s).match(/secretsmanager|ClientKeys|UpstreamKey/));
    // Every function but the jobs' worker (no client calls it) reads the client keys; the routes that need
    // the SerpApi key and the MCP server read it too.
    expect(secretStatements).toHaveLength(FUNCTION_COUNT - 1 + ROUTES.filter((r) => r.needs.upstreamKey).length + 1);
    for (const statement of secretStatements) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.Action).toBe('secretsmanager:GetSecretValue');
      expect([[{ Ref: expect.stringMatching(/^ClientKeys/) }], [{ Ref: expect.stringMatching(/^UpstreamKey/) }]]).toContainEqual([
        statement.Resource,
      ]);
    }
  });

  it('lets the functions that cache use the cache table with GetItem, BatchGetItem, PutItem and BatchWriteItem only, on their own keys', () => {
    expect([...CACHE_TABLE_ACTIONS]).toEqual([
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:BatchWriteItem',
    ]);
    const [[tableId]] = ofType('AWS::DynamoDB::Table').filter(([id]) => id.startsWith('CacheTable')) as [[string, Resource]];
    const functionPolicies = ofType('AWS::IAM::Policy');
    expect(functionPolicies).toHaveLength(FUNCTION_COUNT);
    let caching = 0;
    for (const [id, policy] of functionPolicies) {
      const tableStatements = (policy.Properties.PolicyDocument.Statement as Array<Record<string, Json>>).filter((s) =>
        JSON.stringify(s.Resource).includes(tableId),
      );
      if (tableStatements.length === 0) continue;
      caching += 1;
      expect(tableStatements, id).toEqual([
        {
          Sid: 'UseOwnCacheKeys',
          Effect: 'Allow',
          // In any order: CDK sorts the actions of a statement.
          Action: expect.arrayContaining([...CACHE_TABLE_ACTIONS]),
          Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [expect.stringMatching(/^[a-z-]+\/\*$/)] } },
        },
      ]);
      expect(tableStatements[0]?.Action).toHaveLength(CACHE_TABLE_ACTIONS.length);
    }
    expect(caching).toBe(ROUTES.filter((r) => r.needs.sharedCache).length + 1);
    // Each policy belongs to one function's role, so the grant is per function.
    const attached = functionPolicies.flatMap(([, p]) => p.Properties.Roles.map((r: { Ref: string }) => r.Ref));
    expect(new Set(attached).size).toBe(FUNCTION_COUNT);
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

/** The one table of the stack whose logical id starts so, checked on demand, keyed by `pk` alone, with TTL on `expires_at`. */
function onDemandTable(prefix: string): Resource {
  const tables = ofType('AWS::DynamoDB::Table').filter(([id]) => id.startsWith(prefix));
  expect(tables).toHaveLength(1);
  const [[, table]] = tables as [[string, Resource]];
  expect(table.Properties).toMatchObject({
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
  });
  return table;
}

describe('pace table', () => {
  it('is on demand, keyed by the string pk alone, with TTL on expires_at, and goes with the stack', () => {
    const table = onDemandTable('PaceTable');
    expect(table.Properties.TableName).toBeUndefined();
    // Seconds of starts: nothing to keep when the stack goes.
    expect((table as Resource & { DeletionPolicy?: string }).DeletionPolicy).toBe('Delete');
  });

  it('lets only the functions that keep a pace use it (the jobs’ worker among them), with GetItem and PutItem on their paces’ items alone', () => {
    expect([...PACE_TABLE_ACTIONS]).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
    const [[tableId]] = ofType('AWS::DynamoDB::Table').filter(([id]) => id.startsWith('PaceTable')) as [[string, Resource]];
    const grants = ofType('AWS::IAM::Policy').flatMap(([, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Array<Record<string, Json>>).filter((s) =>
        JSON.stringify(s.Resource).includes(tableId),
      ),
    );
    const keeping = [...ROUTES, MCP_ROUTE, JOBS_WORKER_ROUTE].filter((route) => (route.needs.paces ?? []).length > 0);
    // A job's lookups take their turns with every endpoint's (docs/decisions.md §27).
    expect(keeping).toContain(JOBS_WORKER_ROUTE);
    expect(grants).toHaveLength(keeping.length);
    for (const grant of grants) {
      expect(grant).toEqual({
        Sid: 'KeepPaces',
        Effect: 'Allow',
        Action: [...PACE_TABLE_ACTIONS],
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
        Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['crossref', 'datacite'] } },
      });
    }
    const named = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment.Variables.PACE_TABLE_NAME);
    expect(named).toHaveLength(keeping.length);
    for (const [, fn] of named) expect(fn.Properties.Environment.Variables.PACE_TABLE_NAME).toEqual({ Ref: tableId });
  });
});

describe('cache table', () => {
  it('is on demand, keyed by the string pk alone, with TTL on expires_at', () => {
    const table = onDemandTable('CacheTable');
    expect(table.Properties.ProvisionedThroughput).toBeUndefined();
    // A name of its own would collide with a second copy of the stack.
    expect(table.Properties.TableName).toBeUndefined();
  });
});

describe('logs, alarms, dashboard', () => {
  it('sets a retention on every log group and gives each function its own', () => {
    const groups = ofType('AWS::Logs::LogGroup');
    // One per function, the access log and the execution log.
    expect(groups).toHaveLength(FUNCTION_COUNT + 2);
    for (const [, group] of groups) expect(group.Properties.RetentionInDays).toBe(DEFAULT_SETTINGS.logRetentionDays);
    const used = ofType('AWS::Lambda::Function').map(([, fn]) => fn.Properties.LoggingConfig.LogGroup.Ref);
    expect(new Set(used).size).toBe(FUNCTION_COUNT);
  });

  it('creates the execution log group under the name API Gateway writes to, before the stage', () => {
    const [[id, group]] = ofType('AWS::Logs::LogGroup').filter(([, g]) =>
      JSON.stringify(g.Properties.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'),
    ) as [[string, Resource]];
    expect(JSON.stringify(group.Properties.LogGroupName)).toContain(`/${DEFAULT_SETTINGS.stageName}`);
    const [[, stage]] = ofType('AWS::ApiGateway::Stage') as [[string, Resource]];
    expect(stage.DependsOn).toContain(id);
  });

  it("alarms on 5XX answers and on every function error, the MCP server's included", () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5XXError',
      Threshold: API_5XX_THRESHOLD,
    });
    const functionAlarms = ofType('AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties.Namespace === 'AWS/Lambda' && a.Properties.MetricName === 'Errors',
    );
    expect(functionAlarms).toHaveLength(FUNCTION_COUNT);
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
    const [, filter] = ofType('AWS::Logs::MetricFilter').find(([, f]) =>
      JSON.stringify(f.Properties.MetricTransformations).includes('RateLimitedAnswers'),
    ) as [string, Resource];
    expect(filter.Properties.FilterPattern).toBe('{ $.status = 429 }');
    expect(JSON.stringify(filter.Properties.LogGroupName)).toContain('AccessLogs');
    expect(filter.Properties.MetricTransformations).toEqual([
      { MetricNamespace: 'SearchCitationApi', MetricName: 'RateLimitedAnswers', MetricValue: '1' },
    ]);
    const throttleAlarms = ofType('AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties.Namespace === 'AWS/Lambda' && a.Properties.MetricName === 'Throttles',
    );
    expect(throttleAlarms).toHaveLength(FUNCTION_COUNT);
    // 5XX, spend, budget counter, 429 share, refused flood, WAF blocks (three rate rules), metrics stopped, the
    // cache table's errors, undelivered secret-change alerts, the jobs' dead-letter queue, and errors and
    // throttles per function.
    expect(ofType('AWS::CloudWatch::Alarm')).toHaveLength(12 + 2 * FUNCTION_COUNT);
  });

  it('alarms when the cache table fails for ten minutes: CacheTableErrors of every endpoint together, 5 or more in each of two periods', () => {
    expect([CACHE_TABLE_ERRORS_THRESHOLD, CACHE_TABLE_ERRORS_PERIODS]).toEqual([5, 2]);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'SearchCitationApi',
      MetricName: 'CacheTableErrors',
      // The totals record the functions write (lib/middleware/metrics.ts): the service alone, every endpoint.
      Dimensions: [{ Name: 'service', Value: 'search-citation-api' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: CACHE_TABLE_ERRORS_THRESHOLD,
      EvaluationPeriods: CACHE_TABLE_ERRORS_PERIODS,
      DatapointsToAlarm: CACHE_TABLE_ERRORS_PERIODS,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
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
    // Someone hears them: the synth refuses without an address (tested below).
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: ALARM_EMAIL });
  });

  it("shows the service's metrics per endpoint and API Gateway's own on one dashboard", () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]?.[1].Properties.DashboardBody);
    for (const metric of [
      'Requests',
      'Errors',
      'Latency',
      'UpstreamCalls',
      'UpstreamLatency',
      'CacheHits',
      'ErrorsByCode',
      'CacheTableErrors',
      'CacheDuplicateCalls',
    ]) {
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
  it('leaves no finding unacknowledged, error or warning; the stack’s own warnings are the deployer’s to read', () => {
    const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8'));
    const findings = (report.pluginReports as Array<{ violations?: Array<{ ruleName: string }> }>).flatMap(
      (r) => r.violations ?? [],
    );
    expect(findings.filter((f) => !f.ruleName.startsWith('Annotation::search-citation-api:'))).toEqual([]);
    // This deploy lists no client and names an admin role without a path: both said at synth, neither fatal.
    expect(findings.map((f) => f.ruleName).sort()).toEqual([
      'Annotation::search-citation-api:no-clients',
      'Annotation::search-citation-api:settings',
    ]);
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
    expect([...ids]).toEqual(expect.arrayContaining(['AwsSolutions-L1', 'AwsSolutions-COG4', 'AwsSolutions-SMG4']));
    // The gateway's authorizer guards every method now: cdk-nag's APIG4 holds without an acknowledgement.
    expect([...ids]).not.toContain('AwsSolutions-APIG4');
    for (const [id, reason] of acknowledged) expect(reason.length, id).toBeGreaterThan(100);
  });
});

describe('context settings', () => {
  // Bundling is skipped here: the stack shape, not the code, is under test.
  const buildWith = (context: Record<string, unknown>) => createApp({ context: { ...BASE_CONTEXT, ...context } });
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

  it('adds the exact readers and admins named in context to the secrets’ resource policies', () => {
    const reader = 'arn:aws:iam::123456789012:role/KeyReaders';
    const admin = 'arn:aws:iam::123456789012:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_AdministratorAccess_0123abcd';
    const custom = synthWith({ secretReaderArns: reader, secretAdminArns: admin });
    const [policy] = Object.values(custom.findResources('AWS::SecretsManager::ResourcePolicy')) as Resource[];
    const [read, change] = policy?.Properties.ResourcePolicy.Statement ?? [];
    expect(read.Condition.StringNotEquals['aws:PrincipalArn']).toEqual(expect.arrayContaining([reader, admin]));
    expect(change.Condition.StringNotEquals['aws:PrincipalArn']).toEqual(expect.arrayContaining([admin]));
    expect(change.Condition.StringNotEquals['aws:PrincipalArn']).not.toContain(reader);
  });

  it('refuses to create the secrets with no admin, saying how to name one, so no default deploy locks everyone out', () => {
    const context = (key: string) => ({ stackName: 'SearchCitationApi' })[key];
    expect(() => settingsFromContext({ tryGetContext: context })).toThrow(
      /secretAdminArns: required while the stack creates a secret.*aws sts get-caller-identity --query Arn.*arn:aws:iam::<account>:role\/<name>/,
    );
    expect(() => buildWith({ secretAdminArns: undefined })).toThrow(/secretAdminArns: required/);
    // The account root, named on purpose, is an answer; so are secrets the team brings, whose policies are its own.
    expect(settingsFromContext(contextOf({ secretAdminArns: 'arn:aws:iam::123456789012:root' })).secretAdminArns).toEqual([
      'arn:aws:iam::123456789012:root',
    ]);
    const own = { clientKeysSecret: 'team/client-keys', upstreamKeySecret: 'team/serpapi' };
    expect(settingsFromContext(contextOf(own)).secretAdminArns).toEqual([]);
  });

  it('matches a role session ARN (aws sts get-caller-identity) to its role, whatever the role’s path', () => {
    const session = 'arn:aws:sts::123456789012:assumed-role/Deployer/alice';
    const read = (value: string) => settingsFromContext(contextOf({ secretAdminArns: value })).secretAdminArns;
    expect(read(session)).toEqual(['arn:aws:iam::123456789012:role/Deployer', 'arn:aws:iam::123456789012:role/*/Deployer']);
    // An Identity Center role always lives under aws-reserved/sso.amazonaws.com/[<region>/]: the pattern alone.
    expect(read('arn:aws:sts::123456789012:assumed-role/AWSReservedSSO_Admin_0123456789abcdef/alice@example.com')).toEqual([
      'arn:aws:iam::123456789012:role/*/AWSReservedSSO_Admin_0123456789abcdef',
    ]);
    // In the template: exact ARNs by StringNotEquals, the session's role by ArnNotLike, in both denies.
    const custom = synthWith({ secretAdminArns: session });
    const [policy] = Object.values(custom.findResources('AWS::SecretsManager::ResourcePolicy')) as Resource[];
    for (const statement of policy?.Properties.ResourcePolicy.Statement ?? []) {
      expect(statement.Condition.StringNotEquals['aws:PrincipalArn']).toContain('arn:aws:iam::123456789012:role/Deployer');
      expect(statement.Condition.ArnNotLike).toEqual({ 'aws:PrincipalArn': ['arn:aws:iam::123456789012:role/*/Deployer'] });
      expect(JSON.stringify(statement.Condition)).not.toContain('assumed-role');
    }
  });

  it.each([
    ['arn:aws:iam::123456789012:group/Admins', /a group is never the principal of a request/],
    [
      'arn:aws:iam::123456789012:role/AWSReservedSSO_Admin_0123456789abcdef',
      /an IAM Identity Center role's ARN holds its path: arn:aws:iam::123456789012:role\/aws-reserved\/sso\.amazonaws\.com\/<region>\/AWSReservedSSO_Admin_/,
    ],
    ['arn:aws:sts::123456789012:federated-user/alice', /each entry must be one exact IAM principal ARN/],
  ])('refuses %s, which aws:PrincipalArn can never equal', (value, message) => {
    for (const key of ['secretReaderArns', 'secretAdminArns']) {
      expect(() => settingsFromContext({ tryGetContext: (k: string) => (k === key ? value : undefined) })).toThrow(
        new RegExp(`${key}: ${message.source}`),
      );
    }
  });

  it.each([
    'arn:aws:iam::123456789012:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_Admin_0123456789abcdef',
    'arn:aws:iam::123456789012:role/aws-reserved/sso.amazonaws.com/eu-west-1/AWSReservedSSO_Admin_0123456789abcdef',
    'arn:aws:iam::123456789012:role/teams/ops/Deployer',
    'arn:aws:iam::123456789012:user/alice',
  ])('takes the principal ARN %s as it is', (value) => {
    expect(settingsFromContext(contextOf({ secretAdminArns: value })).secretAdminArns).toEqual([value]);
  });

  it('exempts the CloudFormation role given for cdk deploy --role-arn from both denies', () => {
    const deployRole = 'arn:aws:iam::123456789012:role/team/CfnDeploy';
    const custom = synthWith({ deployRoleArn: deployRole });
    const [policy] = Object.values(custom.findResources('AWS::SecretsManager::ResourcePolicy')) as Resource[];
    for (const statement of policy?.Properties.ResourcePolicy.Statement ?? []) {
      expect(statement.Condition.StringNotEquals['aws:PrincipalArn']).toContain(deployRole);
    }
    expect(() => settingsFromContext({ tryGetContext: (k) => ({ deployRoleArn: 'CfnDeploy' })[k] })).toThrow(
      /deployRoleArn: must be one IAM role ARN/,
    );
  });

  it('sets the account-wide API Gateway logging role only in the first copy, and keeps it on delete', () => {
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
    const [[roleId]] = ofType('AWS::IAM::Role').filter(([, r]) =>
      JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('apigateway.amazonaws.com'),
    ) as [[string, Resource]];
    expect(template.toJSON().Resources[roleId].DeletionPolicy).toBe('Retain');
    const copy = synthWith({ stackName: 'SearchCitationApiStaging' });
    copy.resourceCountIs('AWS::ApiGateway::Account', 0);
    synthWith({ stackName: 'SearchCitationApiStaging', apiGatewayCloudWatchRole: 'true' }).resourceCountIs(
      'AWS::ApiGateway::Account',
      1,
    );
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
    expect(alarms).toHaveLength(12 + 2 * FUNCTION_COUNT);
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
    // Unset, it follows the hourly budget: four fifths of it, so it warns before the budget refuses.
    synthWith({ searchesPerHour: '1000' }).hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'UpstreamCalls',
      Threshold: 800,
    });
    expect(DEFAULT_SETTINGS.spendAlarmCallsPerHour).toBe((DEFAULT_SETTINGS.searchesPerHour * 4) / 5);
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

  it('gives every function the Crossref contact address given, and none when it is declined', () => {
    template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ CROSSREF_MAILTO: CROSSREF_MAILTO }) },
    });
    const declined = buildWith({ crossrefMailto: 'none' }).stack;
    for (const fn of Object.values(Template.fromStack(declined).findResources('AWS::Lambda::Function')) as Resource[]) {
      expect(fn.Properties.Environment.Variables.CROSSREF_MAILTO).toBeUndefined();
    }
    expect(() =>
      settingsFromContext({ tryGetContext: (key: string) => (key === 'crossrefMailto' ? 'nobody' : undefined) }),
    ).toThrow(/crossrefMailto: must be one e-mail address/);
  });

  it('refuses to synthesize without crossrefMailto, saying what the anonymous pools cost, unless it is declined with none', () => {
    const without = { ...BASE_CONTEXT, crossrefMailto: undefined };
    expect(() => settingsFromContext({ tryGetContext: (key: string) => without[key as keyof typeof without] })).toThrow(
      /crossrefMailto: required, or Crossref and DataCite are asked at their anonymous rates \(Crossref 5 lookups a second .* -c crossrefMailto=none/,
    );
    expect(() => buildWith({ crossrefMailto: undefined })).toThrow(/crossrefMailto: required/);
    const declined = settingsFromContext(contextOf({ secretAdminArns: ADMIN, crossrefMailto: 'none' }));
    expect(declined).toMatchObject({ crossrefMailto: undefined, crossrefMailtoDeclined: true });
    Annotations.fromStack(buildWith({ crossrefMailto: 'none' }).stack).hasWarning(
      '*',
      Match.stringLikeRegexp('crossrefMailto=none: Crossref and DataCite are asked at their anonymous rates'),
    );
  });

  it('builds no citation styles at start-up: each function builds them while its first request waits on the network', () => {
    const atInit = (Object.values(template.findResources('AWS::Lambda::Function')) as Resource[]).filter(
      (fn) => fn.Properties.Environment.Variables.CITATION_STYLES_AT_INIT !== undefined,
    );
    expect(atInit).toEqual([]);
  });

  it('deploys the CSL style pack once, as one layer for nodejs22.x on arm64', () => {
    const layers = ofType('AWS::Lambda::LayerVersion');
    expect(layers).toHaveLength(1);
    expect(layers[0]?.[1].Properties).toMatchObject({
      CompatibleRuntimes: ['nodejs22.x'],
      CompatibleArchitectures: ['arm64'],
      Content: { S3Bucket: expect.anything(), S3Key: expect.stringMatching(/\.zip$/) },
    });
  });

  it('attaches the style pack’s layer to exactly the functions that read the pack, and tells them where it lies', () => {
    const [[layerId]] = ofType('AWS::Lambda::LayerVersion') as [[string, Resource]];
    const withLayer = ofType('AWS::Lambda::Function')
      .filter(([, fn]) => fn.Properties.Layers !== undefined)
      .map(([, fn]) => {
        expect(fn.Properties.Layers).toEqual([{ Ref: layerId }]);
        return fn.Properties.Description as string;
      });
    const readers = [...ROUTES, MCP_ROUTE].filter((route) => STYLE_PACK_ROUTES.has(route.name));
    expect(readers.map((route) => route.name).sort()).toEqual([
      'cite-check',
      'cite-resolve',
      'cite-search',
      'cite-styles',
      'jobs-submit',
      'mcp',
    ]);
    // The jobs' worker renders the styles a job asks for: it has the layer too.
    expect(STYLE_PACK_ROUTES.has(JOBS_WORKER_ROUTE.name)).toBe(true);
    const pathOf = (description: string) =>
      description === JOBS_WORKER_DESCRIPTION ? JOBS_WORKER_ROUTE.path : /\(POST (\S+)\)$/.exec(description)?.[1];
    expect(withLayer.map(pathOf).sort()).toEqual([...readers.map((route) => route.path), JOBS_WORKER_ROUTE.path].sort());
    expect(withLayer).toHaveLength(7);
    // The folder the layer's contents have under /opt (test/infra/mcp-stack.test.ts finds the pack there).
    const told = ofType('AWS::Lambda::Function')
      .filter(([, fn]) => fn.Properties.Environment.Variables.STYLE_PACK_DIR !== undefined)
      .map(([, fn]) => [fn.Properties.Description, fn.Properties.Environment.Variables.STYLE_PACK_DIR]);
    expect(told.map(([description]) => description).sort()).toEqual(withLayer.sort());
    for (const [, dir] of told) expect(dir).toBe('/opt/csl-style-pack');
  });

  it("caps every function with the reserved concurrency given, the jobs' worker with its maximum", () => {
    for (const fn of Object.values(
      synthWith({ reservedConcurrency: '5' }).findResources('AWS::Lambda::Function'),
    ) as Resource[]) {
      const worker = fn.Properties.Description === JOBS_WORKER_DESCRIPTION;
      expect(fn.Properties.ReservedConcurrentExecutions).toBe(worker ? jobWorkers() : 5);
    }
    expect(() => settingsFromContext(contextOf({ reservedConcurrency: '0' }))).toThrow(
      /reservedConcurrency: must be a whole number/,
    );
  });

  it('puts a WAF web ACL with a per-IP rate rule answering the 429 envelope on the stage by default, none with waf=false', () => {
    expect(DEFAULT_SETTINGS.waf).toBe(true);
    template.resourceCountIs('AWS::WAFv2::WebACL', 1);
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([
        Match.objectLike({
          Statement: {
            RateBasedStatement: Match.objectLike({ AggregateKeyType: 'IP', Limit: DEFAULT_SETTINGS.wafRequestsPer5MinutesPerIp }),
          },
        }),
      ]),
    });
    const { app, stack: wafStack } = buildWith({ wafRequestsPer5MinutesPerIp: '600' });
    const withWaf = Template.fromStack(wafStack);
    withWaf.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      Rules: Match.arrayWith([
        Match.objectLike({
          Statement: { RateBasedStatement: Match.objectLike({ AggregateKeyType: 'IP', Limit: 600 }) },
          Action: { Block: { CustomResponse: Match.objectLike({ ResponseCode: 429, CustomResponseBodyKey: 'rateLimited' }) } },
        }),
      ]),
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
    const { stack: noWafStack } = buildWith({ waf: 'false' });
    const noWaf = Template.fromStack(noWafStack);
    noWaf.resourceCountIs('AWS::WAFv2::WebACL', 0);
    noWaf.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    expect(JSON.stringify(noWafStack.node.findChild('Api').node.metadata)).toContain('AwsSolutions-APIG3');
  });

  it('alarms on a flood of refused requests, and on WAF blocking an address, by the ACL’s and rule’s own names', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '4XXError',
      Statistic: 'Sum',
      Period: 300,
      Threshold: REFUSED_FLOOD_THRESHOLD,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const [acl] = Object.values(template.findResources('AWS::WAFv2::WebACL')) as Resource[];
    const rule = acl?.Properties.Rules.find((r: Json) => r.Name.endsWith('-per-ip-rate'));
    // Named as their metrics, so the alarm's dimensions hold whichever of the two WAF reports.
    expect(acl?.Properties.Name).toBe(acl?.Properties.VisibilityConfig.MetricName);
    expect(rule.Name).toBe(rule.VisibilityConfig.MetricName);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      Dimensions: [
        { Name: 'Region', Value: { Ref: 'AWS::Region' } },
        { Name: 'Rule', Value: rule.Name },
        { Name: 'WebACL', Value: acl?.Properties.Name },
      ],
      Threshold: WAF_BLOCKED_THRESHOLD,
    });
    const noWaf = synthWith({ waf: 'false' });
    noWaf.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(JSON.stringify(noWaf.findResources('AWS::CloudWatch::Alarm'))).not.toContain('AWS/WAFV2');
    noWaf.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: '4XXError', Threshold: REFUSED_FLOOD_THRESHOLD });
  });

  it('writes and reads the metrics of a second copy in a namespace of its own, the default stack’s unchanged', () => {
    const namespaces = (all: Template) => {
      const found = new Set<string>();
      for (const fn of Object.values(all.findResources('AWS::Lambda::Function')) as Resource[])
        found.add(`env:${fn.Properties.Environment.Variables.POWERTOOLS_METRICS_NAMESPACE}`);
      for (const filter of Object.values(all.findResources('AWS::Logs::MetricFilter')) as Resource[])
        found.add(`filter:${filter.Properties.MetricTransformations[0].MetricNamespace}`);
      for (const alarm of Object.values(all.findResources('AWS::CloudWatch::Alarm')) as Resource[]) {
        for (const ns of JSON.stringify(alarm.Properties).match(/"Namespace":"[^"]+"/g) ?? [])
          found.add(`alarm:${ns.slice(13, -1)}`);
      }
      return [...found].filter((ns) => !ns.includes('AWS/')).sort();
    };
    expect(namespaces(template)).toEqual(['alarm:SearchCitationApi', 'env:SearchCitationApi', 'filter:SearchCitationApi']);
    const staging = synthWith({ stackName: 'Search-Staging' });
    const own = 'SearchCitationApi/Search-Staging';
    expect(namespaces(staging)).toEqual([`alarm:${own}`, `env:${own}`, `filter:${own}`]);
    const [dashboard] = Object.values(staging.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
    const source = dashboard?.Properties.DashboardBody;
    // The dashboard's JSON, its references to other resources left as placeholders.
    const body: string =
      typeof source === 'string'
        ? source
        : (source['Fn::Join'][1] as unknown[]).map((part) => (typeof part === 'string' ? part : '<ref>')).join('');
    // Every widget of the copy reads the copy's metrics: graphs by namespace, SEARCH by its quoted schema.
    expect(body).toContain(`"${own}"`);
    expect(body).not.toContain('"SearchCitationApi"');
    expect(body).not.toContain('{SearchCitationApi,');
    expect(body).toContain(`SEARCH('{\\"${own}\\",client,service}`);
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
      searchesPerHour: 'lots',
      upstreamCallsPerSecond: 'lots',
      logRetentionDays: 42,
      tracing: 'yes',
      upstreamKeySecret: 'arn:aws:s3:::bucket',
      alarmEmail: 'not an address',
      stackName: '1st copy',
      secretReaderArns: 'everyone',
    };
    expect(() => settingsFromContext({ tryGetContext: (key: string) => context[key as keyof typeof context] })).toThrow(
      /throttleRateLimit: replaced by floodRatePerSecond.*; upstreamCallsPerSecond: replaced by searchesPerHour.*; stackName: .*searchesPerHour: .*tracing: .*upstreamKeySecret: .*secretReaderArns: .*alarmEmail: .*logRetentionDays: must be one of/,
    );
  });
});
