/**
 * Least privilege, read off the synthesized template: every function's role (the endpoints', the MCP
 * server's and the authorizer's) compared statement by statement with what its route needs in the routes
 * table (lib/routes.ts), and its environment with the same facts. A free route holds no grant on the
 * SerpApi key's secret and is not among that secret's readers; cache writes are limited to the route's own
 * key prefix; only a route that makes paid calls may update the budget's counters, and /v1/usage may only
 * read them (infra/budget.ts, BUDGET_READ_ACTIONS).
 */
import { readFileSync } from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CACHE_TABLE_ACTIONS } from '../../infra/api-function.js';
import { createApp } from '../../infra/app.js';
import { BUDGET_READ_ACTIONS, BUDGET_TABLE_ACTIONS, PAID_CALLS_PER_REQUEST } from '../../infra/budget.js';
import { AUTHORIZER_ROUTE } from '../../infra/gateway-keys.js';
import { type JobGrantUse, jobActions } from '../../infra/job-grants.js';
import { JOBS_WORKER_DESCRIPTION, JOBS_WORKER_ROUTE } from '../../infra/jobs.js';
import { MCP_ROUTE } from '../../infra/mcp.js';
import { PACE_TABLE_ACTIONS } from '../../infra/pace.js';
import { cacheKeyPrefix, PACE_KEYS, ROUTES, type Route } from '../../lib/routes.js';

const CDK_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<
  string,
  unknown
>;

// biome-ignore lint/suspicious/noExplicitAny: a synthesized template is arbitrary JSON, read by path
type Json = any;
type Resource = { Type: string; Properties: Record<string, Json> };

let resources: Record<string, Resource>;

vi.setConfig({ testTimeout: 120_000 });

beforeAll(() => {
  const { stack } = createApp({
    context: {
      ...CDK_CONTEXT,
      secretAdminArns: 'arn:aws:iam::123456789012:role/Deployer',
      alarmEmail: 'ops@example.com',
      crossrefMailto: 'ops@example.com',
      'aws:cdk:bundling-stacks': [],
    },
  });
  resources = Template.fromStack(stack).toJSON().Resources;
}, 600_000);

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
/** The one resource of the stack's own whose logical id is this construct id and a hash. */
const logicalId = (prefix: string) => {
  const found = Object.keys(resources).filter((id) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id));
  expect(found, prefix).toHaveLength(1);
  return found[0] as string;
};

/** What a function uses of the jobs' resources: its route's (`needs.jobs`), or the worker's own. */
const jobUsesOf = (route: Route): JobGrantUse[] => (route === JOBS_WORKER_ROUTE ? ['work'] : [...(route.needs.jobs ?? [])]);

/** Every function with the route it serves: the endpoints' and the MCP server's by path, the authorizer's and the jobs' worker's by name. */
function functionsWithRoutes(): Array<{ route: Route; id: string; fn: Resource }> {
  return ofType('AWS::Lambda::Function').map(([id, fn]) => {
    const description = String(fn.Properties.Description);
    const route =
      [...ROUTES, MCP_ROUTE].find((r) => description.endsWith(`(POST ${r.path})`)) ??
      (description.startsWith('Checks the client key') ? AUTHORIZER_ROUTE : undefined) ??
      (description === JOBS_WORKER_DESCRIPTION ? JOBS_WORKER_ROUTE : undefined);
    if (!route) throw new Error(`no route for ${id}: ${description}`);
    return { route, id, fn };
  });
}

/** A role's inline policy statements. */
function statementsOf(roleId: string): Array<Record<string, Json>> {
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Array<Record<string, Json>>);
}

const sorted = (actions: Json) => (Array.isArray(actions) ? [...actions].sort() : [actions]);

/** What the routes table says a role holds, statement by statement (the log group's own write aside). */
function expectedStatements(route: Route) {
  const { needs } = route;
  const clientKeys = { Ref: logicalId('ClientKeys') };
  const upstreamKey = { Ref: logicalId('UpstreamKey') };
  const table = (prefix: string) => ({ 'Fn::GetAtt': [logicalId(prefix), 'Arn'] });
  const jobs = jobActions(jobUsesOf(route));
  const jobResource = (prefix: string) => ({ 'Fn::GetAtt': [logicalId(prefix), 'Arn'] });
  return [
    // Every endpoint checks the caller's key; the jobs' worker, which no client calls, does not.
    ...(route === JOBS_WORKER_ROUTE
      ? []
      : [{ Sid: 'ReadClientKeys', Action: ['secretsmanager:GetSecretValue'], Resource: clientKeys }]),
    ...(jobs.table.length > 0 ? [{ Sid: 'UseJobTable', Action: jobs.table, Resource: jobResource('JobsTable') }] : []),
    ...(jobs.bucket.length > 0
      ? [{ Sid: 'UseJobBucket', Action: jobs.bucket, Resource: { 'Fn::Join': ['', [jobResource('JobsBucket'), '/jobs/*']] } }]
      : []),
    ...(jobs.queue.length > 0 ? [{ Sid: 'UseJobQueue', Action: jobs.queue, Resource: jobResource('JobsQueue') }] : []),
    ...(needs.upstreamKey ? [{ Sid: 'ReadUpstreamKey', Action: ['secretsmanager:GetSecretValue'], Resource: upstreamKey }] : []),
    ...(needs.sharedCache
      ? [
          {
            Sid: 'UseOwnCacheKeys',
            Action: [...CACHE_TABLE_ACTIONS].sort(),
            Resource: table('CacheTable'),
            Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${cacheKeyPrefix(route.name)}*`] } },
          },
        ]
      : []),
    ...(needs.budget === 'reserve'
      ? [{ Sid: 'ReserveSearches', Action: [...BUDGET_TABLE_ACTIONS].sort(), Resource: table('BudgetTable') }]
      : needs.budget === 'read'
        ? [{ Sid: 'ReadBudget', Action: [...BUDGET_READ_ACTIONS].sort(), Resource: table('BudgetTable') }]
        : []),
    ...((needs.paces ?? []).length > 0
      ? [
          {
            Sid: 'KeepPaces',
            Action: [...PACE_TABLE_ACTIONS].sort(),
            Resource: table('PaceTable'),
            Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [...(needs.paces ?? [])] } },
          },
        ]
      : []),
  ].sort((a, b) => a.Sid.localeCompare(b.Sid));
}

describe('the routes table', () => {
  it('says what each route needs, consistently: paid calls need the key and reserve; the cost table agrees', () => {
    for (const route of [...ROUTES, MCP_ROUTE]) {
      const { needs } = route;
      if (needs.paidCalls) expect(needs, route.name).toMatchObject({ upstreamKey: true, budget: 'reserve' });
      else expect(needs.budget, route.name).not.toBe('reserve');
    }
    for (const route of ROUTES) expect(route.needs.paidCalls, route.name).toBe((PAID_CALLS_PER_REQUEST[route.name] ?? 0) > 0);
  });

  it('keeps the pace of Crossref and DataCite for the routes that look records up, and only for them', () => {
    const keeping = [...ROUTES, MCP_ROUTE].filter((route) => (route.needs.paces ?? []).length > 0).map((route) => route.name);
    expect(keeping.sort()).toEqual(['cite-check', 'cite-resolve', 'cite-search', 'mcp']);
  });

  it('keeps the SerpApi key from the free routes and the counters from all but the paid routes and /v1/usage', () => {
    const needs = Object.fromEntries(ROUTES.map((r) => [r.name, r.needs]));
    expect(needs['cite-styles']).toEqual({ paidCalls: false, upstreamKey: false, budget: 'none', sharedCache: false });
    expect(needs['cite-resolve']).toEqual({
      paidCalls: false,
      upstreamKey: false,
      budget: 'none',
      sharedCache: true,
      paces: [PACE_KEYS.crossref, PACE_KEYS.datacite],
    });
    // The plan's numbers come from SerpApi's free Account API, which takes the key; the counter is read only.
    expect(needs.usage).toEqual({ paidCalls: false, upstreamKey: true, budget: 'read', sharedCache: false });
    expect(AUTHORIZER_ROUTE.needs).toEqual({ paidCalls: false, upstreamKey: false, budget: 'none', sharedCache: false });
  });
});

describe('every function role of the template, against the routes table', () => {
  it('holds exactly what its route needs, besides writing its own log group', () => {
    const functions = functionsWithRoutes();
    expect(functions.map(({ route }) => route.name).sort()).toEqual(
      [...ROUTES.map((r) => r.name), MCP_ROUTE.name, AUTHORIZER_ROUTE.name, JOBS_WORKER_ROUTE.name].sort(),
    );
    for (const { route, fn } of functions) {
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = statementsOf(roleId);
      const granted = statements
        .filter((s) => s.Sid !== undefined)
        .map((s) => ({
          Sid: s.Sid,
          Action: sorted(s.Action),
          Resource: s.Resource,
          ...(s.Condition ? { Condition: s.Condition } : {}),
        }))
        .sort((a, b) => String(a.Sid).localeCompare(String(b.Sid)));
      expect(granted, route.name).toEqual(expectedStatements(route));
      // The rest: its own log group, written to, nothing else; the worker's event source mapping also
      // receives and deletes messages of the jobs' queue (the grant CDK gives the mapping's function).
      const logGroup = fn.Properties.LoggingConfig.LogGroup.Ref;
      for (const rest of statements.filter((s) => s.Sid === undefined)) {
        if (
          route === JOBS_WORKER_ROUTE &&
          JSON.stringify(rest.Resource) === JSON.stringify({ 'Fn::GetAtt': [logicalId('JobsQueue'), 'Arn'] })
        ) {
          expect(sorted(rest.Action)).toEqual([
            'sqs:ChangeMessageVisibility',
            'sqs:DeleteMessage',
            'sqs:GetQueueAttributes',
            'sqs:GetQueueUrl',
            'sqs:ReceiveMessage',
          ]);
          continue;
        }
        expect(sorted(rest.Action), route.name).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
        expect(JSON.stringify(rest.Resource), route.name).toContain(logGroup);
      }
      for (const statement of statements) expect(statement.Effect).toBe('Allow');
    }
  });

  it('gives the environment the same facts: the key’s secret id or NO_UPSTREAM_KEY, the tables it may use, its cache prefix', () => {
    for (const { route, fn } of functionsWithRoutes()) {
      const variables = fn.Properties.Environment.Variables as Record<string, Json>;
      const { needs } = route;
      expect(variables.SERPAPI_SECRET_ID !== undefined, route.name).toBe(needs.upstreamKey);
      expect(variables.NO_UPSTREAM_KEY, route.name).toBe(needs.upstreamKey ? undefined : 'true');
      expect(variables.CACHE_TABLE_NAME !== undefined, route.name).toBe(needs.sharedCache);
      expect(variables.CACHE_KEY_PREFIX, route.name).toBe(needs.sharedCache ? cacheKeyPrefix(route.name) : undefined);
      expect(variables.BUDGET_TABLE_NAME !== undefined, route.name).toBe(needs.budget !== 'none');
      expect(variables.JOBS_TABLE_NAME !== undefined, route.name).toBe(jobUsesOf(route).length > 0);
      expect(variables.JOBS_QUEUE_URL !== undefined, route.name).toBe(jobUsesOf(route).length > 0);
      expect(variables.PACE_TABLE_NAME !== undefined, route.name).toBe((needs.paces ?? []).length > 0);
      expect(variables.CLIENT_KEYS_SECRET_ID, route.name).toEqual({ Ref: logicalId('ClientKeys') });
    }
  });

  it('leaves cite-styles and cite-resolve (and the authorizer) out of the SerpApi key secret’s readers', () => {
    const [, policy] = ofType('AWS::SecretsManager::ResourcePolicy').find(
      ([, p]) => p.Properties.SecretId.Ref === logicalId('UpstreamKey'),
    ) as [string, Resource];
    const read = policy.Properties.ResourcePolicy.Statement.find((s: Json) => s.Sid === 'OnlyServiceAndAdminsRead');
    const readers = JSON.stringify(read.Condition.StringNotEquals['aws:PrincipalArn']);
    for (const { route, fn } of functionsWithRoutes()) {
      const role = fn.Properties.Role['Fn::GetAtt'][0];
      expect(readers.includes(`"${role}"`), route.name).toBe(route.needs.upstreamKey);
    }
    const free = functionsWithRoutes().filter(({ route }) => ['cite-styles', 'cite-resolve'].includes(route.name));
    expect(free).toHaveLength(2);
  });

  it("leaves the jobs' worker out of the client key secret's readers: no client calls it", () => {
    const [, policy] = ofType('AWS::SecretsManager::ResourcePolicy').find(
      ([, p]) => p.Properties.SecretId.Ref === logicalId('ClientKeys'),
    ) as [string, Resource];
    const read = policy.Properties.ResourcePolicy.Statement.find((s: Json) => s.Sid === 'OnlyServiceAndAdminsRead');
    const readers = JSON.stringify(read.Condition.StringNotEquals['aws:PrincipalArn']);
    for (const { route, fn } of functionsWithRoutes()) {
      expect(readers.includes(`"${fn.Properties.Role['Fn::GetAtt'][0]}"`), route.name).toBe(route !== JOBS_WORKER_ROUTE);
    }
  });
});
