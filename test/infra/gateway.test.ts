/**
 * The stack on the open internet, read off the synthesized template: strangers refused at the gateway (a
 * TOKEN authorizer with its identity validation expression on every method), each client key throttled by
 * a usage plan of its own, WAF's per-address rule for requests without a valid-looking key only, bodies
 * over the API's limit refused at the edge, alarms that reach someone and notice missing metrics, an alert
 * on any change to the secrets, and the secrets' boundary narrowed on request.
 */
import { readFileSync } from 'node:fs';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../infra/app.js';
import { AUTHORIZER_CACHE_TTL } from '../../infra/gateway-keys.js';
import { METRICS_STOPPED_MIN_ANSWERS } from '../../infra/observability.js';
import { DEFAULT_SETTINGS, settingsFromContext } from '../../infra/settings.js';
import { SECRET_CHANGE_ACTIONS, type SearchCitationApiStack } from '../../infra/stack.js';
import { LARGE_BODY_PATHS, WAF_MAX_BODY_BYTES } from '../../infra/waf.js';
import { VALID_LOOKING_AUTHORIZATION } from '../../lib/auth/bearer.js';
import { usageKeyValue } from '../../lib/auth/usage-key.js';
import { MAX_BODY_BYTES } from '../../lib/middleware/body.js';
import { ROUTES } from '../../lib/routes.js';

const CDK_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<
  string,
  unknown
>;
const ADMIN = 'arn:aws:iam::123456789012:role/Deployer';
const BASE_CONTEXT = {
  ...CDK_CONTEXT,
  secretAdminArns: ADMIN,
  alarmEmail: 'ops@example.com',
  crossrefMailto: 'ops@example.com',
  // One client on the defaults, one with limits of its own.
  clients: 'team-a,bulk:rate=20:burst=40',
  'aws:cdk:bundling-stacks': [],
};

// biome-ignore lint/suspicious/noExplicitAny: a synthesized template is arbitrary JSON, read by path
type Json = any;
type Resource = { Type: string; Properties: Record<string, Json>; DependsOn?: string[] };

let stack: SearchCitationApiStack;
let template: Template;
let resources: Record<string, Resource>;

vi.setConfig({ testTimeout: 300_000 });

const build = (context: Record<string, unknown> = {}, deploy: { account?: string } = {}) =>
  createApp({ context: { ...BASE_CONTEXT, ...context } }, deploy);

beforeAll(() => {
  stack = build().stack;
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
}, 600_000);

const ofType = (type: string, from = resources) => Object.entries(from).filter(([, r]) => r.Type === type);
const only = (type: string, from = resources) => {
  const all = ofType(type, from);
  expect(all, type).toHaveLength(1);
  return all[0] as [string, Resource];
};

describe('strangers refused at the gateway', () => {
  it('has a TOKEN authorizer reading the Authorization header, refusing ill-formed ones by its validation expression', () => {
    const [, authorizer] = only('AWS::ApiGateway::Authorizer');
    expect(authorizer.Properties).toMatchObject({
      Type: 'TOKEN',
      IdentitySource: 'method.request.header.Authorization',
      IdentityValidationExpression: VALID_LOOKING_AUTHORIZATION,
      // Its answer for a token is kept: an unknown key repeated costs one invocation per five minutes.
      AuthorizerResultTtlInSeconds: AUTHORIZER_CACHE_TTL.toSeconds(),
    });
    expect(AUTHORIZER_CACHE_TTL.toSeconds()).toBeGreaterThan(0);
    const fnId = authorizer.Properties.AuthorizerUri['Fn::Join'][1].find((part: Json) => part['Fn::GetAtt'])['Fn::GetAtt'][0];
    expect(resources[fnId]?.Properties.Description).toMatch(/^Checks the client key/);
  });

  it('attaches it to every method, POST and the 405 mocks alike, with the key’s usage plan required', () => {
    const [authorizerId] = only('AWS::ApiGateway::Authorizer');
    const methods = ofType('AWS::ApiGateway::Method');
    // 19 endpoints and /mcp, a POST and an ANY each.
    expect(methods).toHaveLength(40);
    for (const [id, method] of methods) {
      expect(method.Properties, id).toMatchObject({
        AuthorizationType: 'CUSTOM',
        AuthorizerId: { Ref: authorizerId },
        ApiKeyRequired: true,
      });
    }
    // The API takes its keys from the authorizer alone: an X-API-Key header picks no plan.
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
  });

  it('lets API Gateway invoke the authorizer from this authorizer only', () => {
    const [authorizerId] = only('AWS::ApiGateway::Authorizer');
    const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) =>
      JSON.stringify(p.Properties.SourceArn ?? '').includes('/authorizers/'),
    );
    expect(permissions).toHaveLength(1);
    const [, permission] = permissions[0] as [string, Resource];
    expect(permission.Properties.Principal).toBe('apigateway.amazonaws.com');
    expect(JSON.stringify(permission.Properties.SourceArn)).toContain(`{"Ref":"${authorizerId}"}`);
  });

  it('runs the authorizer with the client keys alone, capped, and without Lambda’s own line per call', () => {
    const [, fn] = ofType('AWS::Lambda::Function').find(([, f]) =>
      String(f.Properties.Description).startsWith('Checks the client key'),
    ) as [string, Resource];
    expect(fn.Properties.Environment.Variables).toMatchObject({
      USAGE_KEY_SCOPE: DEFAULT_SETTINGS.stackName,
      NO_UPSTREAM_KEY: 'true',
      CLIENT_KEYS_SECRET_ID: { Ref: expect.stringMatching(/^ClientKeys/) },
    });
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(DEFAULT_SETTINGS.reservedConcurrency);
    expect(fn.Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: 'WARN' });
  });
});

describe('each key throttled on its own', () => {
  const plans = () => ofType('AWS::ApiGateway::UsagePlan').map(([id, plan]) => ({ id, plan }));
  /** The plan an API key of this client belongs to. */
  const planOf = (client: string) => {
    const [keyId, key] = ofType('AWS::ApiGateway::ApiKey').find(
      ([, k]) => k.Properties.Name === `${stack.stackName}-${client}`,
    ) as [string, Resource];
    const [, link] = ofType('AWS::ApiGateway::UsagePlanKey').find(([, l]) => l.Properties.KeyId.Ref === keyId) as [
      string,
      Resource,
    ];
    return { key, plan: resources[link.Properties.UsagePlanId.Ref] as Resource };
  };

  it('puts every listed client’s API key, named by the authorizer’s value, in a plan with a rate and burst per key', () => {
    const stageId = only('AWS::ApiGateway::Stage')[0];
    for (const { plan } of plans()) {
      expect(plan.Properties.ApiStages).toEqual([expect.objectContaining({ Stage: { Ref: stageId } })]);
      // No quota: money is the spending budget's, after authentication.
      expect(plan.Properties.Quota).toBeUndefined();
    }
    const teamA = planOf('team-a');
    expect(teamA.key.Properties).toMatchObject({ Enabled: true, Value: usageKeyValue(stack.stackName, 'team-a') });
    expect(teamA.plan.Properties.Throttle).toEqual({
      RateLimit: DEFAULT_SETTINGS.keyRatePerSecond,
      BurstLimit: DEFAULT_SETTINGS.keyBurst,
    });
    const bulk = planOf('bulk');
    expect(bulk.key.Properties.Value).toBe(usageKeyValue(stack.stackName, 'bulk'));
    expect(bulk.plan.Properties.Throttle).toEqual({ RateLimit: 20, BurstLimit: 40 });
    expect(plans()).toHaveLength(2);
  });

  it('takes the per-key defaults and the clients from context, refusing a bad entry by name', () => {
    const custom = Template.fromStack(
      build({ keyRatePerSecond: '2', keyBurst: '3', clients: ['x', { name: 'y', rate: 9 }] }).stack,
    );
    custom.hasResourceProperties('AWS::ApiGateway::UsagePlan', { Throttle: { RateLimit: 2, BurstLimit: 3 } });
    custom.hasResourceProperties('AWS::ApiGateway::UsagePlan', { Throttle: { RateLimit: 9, BurstLimit: 3 } });
    custom.resourceCountIs('AWS::ApiGateway::ApiKey', 2);
    const settings = (clients: unknown) =>
      settingsFromContext({
        tryGetContext: (k: string) =>
          ({ alarmEmail: 'ops@example.com', crossrefMailto: 'none', secretAdminArns: ADMIN, clients })[k],
      });
    expect(() => settings('team-a,team-a')).toThrow(/clients: team-a is listed twice/);
    expect(() => settings('team a')).toThrow(/clients: each entry is a key name/);
    expect(() => settings('bulk:rate=0')).toThrow(/clients: bulk: rate must be a whole number from 1/);
    expect(settings('a:burst=4, b').clients).toEqual([{ name: 'a', burst: 4 }, { name: 'b' }]);
  });

  it('says at synth, without failing it, that no client is listed', () => {
    const bare = build({ clients: undefined }).stack;
    Annotations.fromStack(bare).hasWarning('*', Match.stringLikeRegexp('No client is listed in the clients setting'));
    Template.fromStack(bare).resourceCountIs('AWS::ApiGateway::ApiKey', 0);
  });
});

describe('WAF at the edge', () => {
  const rules = () => only('AWS::WAFv2::WebACL')[1].Properties.Rules as Array<Record<string, Json>>;
  const rule = (suffix: string) => rules().find((r) => String(r.Name).endsWith(suffix)) as Record<string, Json>;
  const keyLooksValid = {
    RegexMatchStatement: {
      RegexString: VALID_LOOKING_AUTHORIZATION,
      FieldToMatch: { SingleHeader: { Name: 'authorization' } },
      TextTransformations: [{ Priority: 0, Type: 'NONE' }],
    },
  };

  it('refuses a body over the API’s own 16 KiB first, 413 in the envelope, a larger one unseen counting as over; a reference list and a job’s submission, whose contracts state their own limits, go to their functions', () => {
    expect(WAF_MAX_BODY_BYTES).toBe(MAX_BODY_BYTES);
    const body = rule('-body-size');
    expect(body.Priority).toBe(0);
    // Every route but those whose contract takes more (a reference list, a job's list), which WAF cannot see
    // past 16 KiB of.
    expect(LARGE_BODY_PATHS).toEqual(
      ROUTES.filter((route) => (route.maxBodyBytes ?? 0) > MAX_BODY_BYTES).map((route) => route.path),
    );
    expect(LARGE_BODY_PATHS).toEqual(['/v1/cite/check', '/v1/jobs']);
    expect(body.Statement).toEqual({
      AndStatement: {
        Statements: [
          {
            SizeConstraintStatement: {
              FieldToMatch: { Body: { OversizeHandling: 'MATCH' } },
              ComparisonOperator: 'GT',
              Size: 16_384,
              TextTransformations: [{ Priority: 0, Type: 'NONE' }],
            },
          },
          {
            NotStatement: {
              Statement: {
                OrStatement: {
                  Statements: ['/v1/cite/check', '/v1/jobs'].map((path) => ({
                    ByteMatchStatement: {
                      FieldToMatch: { UriPath: {} },
                      PositionalConstraint: 'ENDS_WITH',
                      SearchString: path,
                      TextTransformations: [{ Priority: 0, Type: 'NONE' }],
                    },
                  })),
                },
              },
            },
          },
        ],
      },
    });
    expect(body.Action.Block.CustomResponse).toMatchObject({ ResponseCode: 413, CustomResponseBodyKey: 'tooLarge' });
    const [, acl] = only('AWS::WAFv2::WebACL');
    expect(JSON.parse(acl.Properties.CustomResponseBodies.tooLarge.Content).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('counts per address only requests without a valid-looking key, so clients behind one NAT are never blocked by it', () => {
    const keyless = rule('-per-ip-rate');
    expect(keyless.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: DEFAULT_SETTINGS.wafRequestsPer5MinutesPerIp,
      EvaluationWindowSec: 300,
      ScopeDownStatement: { NotStatement: { Statement: keyLooksValid } },
    });
    expect(keyless.Action.Block.CustomResponse.ResponseCode).toBe(429);
  });

  it('bounds the authorizer’s invocations from one address making keys up: 100 keyed requests a second, 20 clients at their full rate', () => {
    const keyed = rule('-per-ip-keyed-rate');
    expect(keyed.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: DEFAULT_SETTINGS.wafKeyedRequestsPer5MinutesPerIp,
      EvaluationWindowSec: 300,
      ScopeDownStatement: keyLooksValid,
    });
    // Each new token is one invocation: at most this many a second from one address.
    expect(DEFAULT_SETTINGS.wafKeyedRequestsPer5MinutesPerIp / 300).toBe(100);
    // 20 clients at the default rate for 5 minutes send that much.
    expect(DEFAULT_SETTINGS.wafKeyedRequestsPer5MinutesPerIp).toBeGreaterThanOrEqual(
      20 * DEFAULT_SETTINGS.keyRatePerSecond * 300,
    );
    expect(rules()).toHaveLength(4);
  });

  it('limits one address repeating one Authorization header (a made-up bearer the authorizer’s cache answers): IP and the header as keys, 3,000 in 5 minutes by default', () => {
    const repeated = rule('-per-ip-key-rate');
    expect(repeated.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [
        { IP: {} },
        {
          // "Bearer  x" and "bearer x" are one key to the authorizer: one instance here too.
          Header: {
            Name: 'authorization',
            TextTransformations: [
              { Priority: 0, Type: 'COMPRESS_WHITE_SPACE' },
              { Priority: 1, Type: 'LOWERCASE' },
            ],
          },
        },
      ],
      // The fastest client here (bulk: 20/s, burst 40) may send 6,040 in 5 minutes: never cut by the rule.
      Limit: 20 * 300 + 40,
      EvaluationWindowSec: 300,
      ScopeDownStatement: keyLooksValid,
    });
    expect(repeated.Action).toEqual(rule('-per-ip-rate').Action);
    // Without such a client: 3,000, twice what a key sends at the default rate.
    const settings = (values: Record<string, unknown>) =>
      settingsFromContext({
        tryGetContext: (k: string) =>
          ({ alarmEmail: 'ops@example.com', crossrefMailto: 'none', secretAdminArns: ADMIN, ...values })[k],
      });
    expect(DEFAULT_SETTINGS.wafRequestsPer5MinutesPerKey).toBe(3_000);
    expect(settings({ clients: 'team-a' }).wafRequestsPer5MinutesPerKey).toBe(3_000);
    expect(2 * DEFAULT_SETTINGS.keyRatePerSecond * 300).toBeLessThanOrEqual(3_000);
    expect(settings({ clients: 'fast:rate=200' }).wafKeyedRequestsPer5MinutesPerIp).toBe(200 * 300 + DEFAULT_SETTINGS.keyBurst);
    expect(() => settings({ clients: 'bulk:rate=20:burst=40', wafRequestsPer5MinutesPerKey: '3000' })).toThrow(
      /wafRequestsPer5MinutesPerKey: 3000 is below what clients: bulk lets one key send in 5 minutes \(20\/s × 300 \+ a burst of 40 = 6040\)/,
    );
    expect(() => settings({ keyRatePerSecond: '150', wafKeyedRequestsPer5MinutesPerIp: '30000' })).toThrow(
      /wafKeyedRequestsPer5MinutesPerIp: 30000 is below what keyRatePerSecond \/ keyBurst lets one key send/,
    );
    expect(settings({ waf: 'false', keyRatePerSecond: '150', wafRequestsPer5MinutesPerKey: '3000' }).waf).toBe(false);
  });

  it('alarms on each rate rule’s blocks by the rule’s own name', () => {
    const [, acl] = only('AWS::WAFv2::WebACL');
    for (const suffix of ['-per-ip-rate', '-per-ip-keyed-rate', '-per-ip-key-rate']) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/WAFV2',
        MetricName: 'BlockedRequests',
        Dimensions: Match.arrayWith([
          { Name: 'Rule', Value: rule(suffix).Name },
          { Name: 'WebACL', Value: acl.Properties.Name },
        ]),
      });
      expect(rule(suffix).VisibilityConfig.MetricName).toBe(rule(suffix).Name);
    }
  });

  it('logs requests when asked, to aws-waf-logs-<stack>, the Authorization header redacted; not by default', () => {
    template.resourceCountIs('AWS::WAFv2::LoggingConfiguration', 0);
    const logged = Template.fromStack(build({ wafLogging: 'true' }).stack);
    const [, logging] = only('AWS::WAFv2::LoggingConfiguration', logged.toJSON().Resources);
    expect(logging.Properties.RedactedFields).toEqual([{ SingleHeader: { Name: 'authorization' } }]);
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).toContain(
      `:log-group:aws-waf-logs-${DEFAULT_SETTINGS.stackName}`,
    );
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).not.toContain(':*');
    logged.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: `aws-waf-logs-${DEFAULT_SETTINGS.stackName}`,
      RetentionInDays: DEFAULT_SETTINGS.logRetentionDays,
    });
    const [, delivery] = only('AWS::Logs::ResourcePolicy', logged.toJSON().Resources);
    expect(JSON.stringify(delivery.Properties.PolicyDocument)).toContain('delivery.logs.amazonaws.com');
  });
});

describe('alarms that reach someone', () => {
  it('refuses to synthesize without alarmEmail, saying what that costs, unless a topic is given or none is asked for', () => {
    const context = (values: Record<string, unknown>) => ({
      tryGetContext: (k: string) => ({ secretAdminArns: ADMIN, crossrefMailto: 'none', ...values })[k],
    });
    expect(() => settingsFromContext(context({}))).toThrow(
      /alarmEmail: required, or the alarms reach no one \(a flood, a spend spike/,
    );
    expect(() => build({ alarmEmail: undefined })).toThrow(/alarmEmail: required/);
    expect(settingsFromContext(context({ alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:ops' })).alarmEmail).toBeUndefined();
    const unwatched = build({ alarmEmail: 'none' }).stack;
    Template.fromStack(unwatched).resourceCountIs('AWS::SNS::Subscription', 0);
    Annotations.fromStack(unwatched).hasWarning('*', Match.stringLikeRegexp('alarmEmail=none: the alarms notify a topic no one'));
  });

  it('alarms when functions answer requests but their metrics stop arriving (the spend and counter alarms’ heartbeat)', () => {
    const [, alarm] = ofType('AWS::CloudWatch::Alarm').find(([, a]) =>
      JSON.stringify(a.Properties.Metrics ?? []).includes('AnsweredByFunctions'),
    ) as [string, Resource];
    const metrics = alarm.Properties.Metrics as Array<Record<string, Json>>;
    expect(metrics.find((m) => m.Expression)?.Expression).toBe(
      `IF(FILL(answered, 0) >= ${METRICS_STOPPED_MIN_ANSWERS} AND FILL(reported, 0) == 0, 1, 0)`,
    );
    const reported = metrics.find((m) => m.Id === 'reported')?.MetricStat.Metric;
    expect(reported).toEqual({
      Namespace: 'SearchCitationApi',
      MetricName: 'Requests',
      Dimensions: [{ Name: 'service', Value: 'search-citation-api' }],
    });
    expect(alarm.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    const [, filter] = ofType('AWS::Logs::MetricFilter').find(([, f]) =>
      JSON.stringify(f.Properties.MetricTransformations).includes('AnsweredByFunctions'),
    ) as [string, Resource];
    expect(filter.Properties.FilterPattern).toBe(
      '{ ($.httpMethod = "POST") && ($.integrationStatus = "200") && ($.resourcePath != "/mcp") }',
    );
    expect(JSON.stringify(filter.Properties.LogGroupName)).toContain('AccessLogs');
  });
});

describe('the secrets', () => {
  it('mails the alarm topic on any change to either secret or its policy, named in any form', () => {
    const [, rule] = only('AWS::Events::Rule');
    const pattern = rule.Properties.EventPattern;
    expect(pattern).toMatchObject({
      source: ['aws.secretsmanager'],
      'detail-type': ['AWS API Call via CloudTrail'],
      detail: { eventSource: ['secretsmanager.amazonaws.com'] },
    });
    expect([...pattern.detail.eventName].sort()).toEqual(
      SECRET_CHANGE_ACTIONS.map((a) => a.replace('secretsmanager:', '')).sort(),
    );
    expect(pattern.detail.eventName).toEqual(
      expect.arrayContaining(['PutSecretValue', 'PutResourcePolicy', 'DeleteResourcePolicy']),
    );
    const ids = JSON.stringify(pattern.detail.requestParameters.secretId);
    for (const secret of ['ClientKeys', 'UpstreamKey']) {
      // By ARN, by name, and by the ARN without its suffix.
      expect(ids).toMatch(new RegExp(`"Ref":"${secret}[0-9A-F]{8}"`));
      expect(ids.match(new RegExp(`${secret}[0-9A-F]{8}`, 'g'))?.length).toBeGreaterThanOrEqual(3);
    }
    expect(ids).toContain('"prefix"');
    const topicId = only('AWS::SNS::Topic')[0];
    expect(rule.Properties.Targets).toEqual([expect.objectContaining({ Arn: { Ref: topicId } })]);
  });

  it('lets EventBridge publish to the topic for this rule alone, and keeps what it could not deliver in a dead-letter queue, alarmed on', () => {
    const [ruleId, rule] = only('AWS::Events::Rule');
    const thisRule = { 'Fn::GetAtt': [ruleId, 'Arn'] };
    const [, policy] = only('AWS::SNS::TopicPolicy');
    const fromEvents = (policy.Properties.PolicyDocument.Statement as Json[]).filter((statement) =>
      JSON.stringify(statement.Principal).includes('events.amazonaws.com'),
    );
    expect(fromEvents).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Condition: { ArnEquals: { 'aws:SourceArn': thisRule } },
      }),
    ]);
    // The stack's one queue outside the jobs' (their queue and dead-letter queue: infra/jobs.ts).
    const [queueId, queue] = only(
      'AWS::SQS::Queue',
      Object.fromEntries(Object.entries(resources).filter(([id]) => !id.startsWith('Jobs'))),
    );
    expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
    const [target] = rule.Properties.Targets;
    expect(target.DeadLetterConfig).toEqual({ Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } });
    expect(target.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 86_400, MaximumRetryAttempts: 185 });
    const sends = ofType('AWS::SQS::QueuePolicy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[]);
    expect(sends).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'events.amazonaws.com' },
        Action: 'sqs:SendMessage',
        Condition: { ArnEquals: { 'aws:SourceArn': thisRule } },
      }),
    );
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      Threshold: 1,
      AlarmActions: [{ Ref: only('AWS::SNS::Topic')[0] }],
    });
  });

  it('requires the admins and readers to be of the deploying account: a template rule, and a synth check when the CLI knows it', () => {
    const rules = template.toJSON().Rules;
    expect(rules.SecretPrincipalsInThisAccount.Assertions).toEqual([
      expect.objectContaining({ Assert: { 'Fn::Equals': [{ Ref: 'AWS::AccountId' }, '123456789012'] } }),
    ]);
    expect(() => build({}, { account: '210987654321' })).toThrow(
      /secretAdminArns \/ secretReaderArns \/ deployerArns: 123456789012 is not the account this deploy goes to \(210987654321\)/,
    );
    expect(build({}, { account: '123456789012' }).stack.stackName).toBe(DEFAULT_SETTINGS.stackName);
  });

  it('warns when a role ARN has no path, which an admin’s real role may have; not for a session ARN, which matches any', () => {
    Annotations.fromStack(stack).hasWarning(
      '*',
      Match.stringLikeRegexp('secretAdminArns: .*role/Deployer names a role without a path'),
    );
    const session = build({ secretAdminArns: 'arn:aws:sts::123456789012:assumed-role/Deployer/alice' }).stack;
    expect(Annotations.fromStack(session).findWarning('*', Match.stringLikeRegexp('without a path'))).toEqual([]);
  });

  it('exempts a bootstrap of its own, not the account’s shared one, with bootstrapQualifier', () => {
    const exempt = (built: SearchCitationApiStack) =>
      (Object.values(Template.fromStack(built).findResources('AWS::SecretsManager::ResourcePolicy')) as Resource[]).map((p) =>
        JSON.stringify(p.Properties.ResourcePolicy.Statement),
      );
    for (const policy of exempt(stack)) expect(policy).toContain('cdk-hnb659fds-cfn-exec-role');
    const own = build({ bootstrapQualifier: 'scapi01' }).stack;
    for (const policy of exempt(own)) {
      expect(policy).toContain('cdk-scapi01-cfn-exec-role');
      expect(policy).not.toContain('hnb659fds');
    }
    const settings = (q: string) =>
      settingsFromContext({
        tryGetContext: (k: string) =>
          ({ alarmEmail: 'ops@example.com', crossrefMailto: 'none', secretAdminArns: ADMIN, bootstrapQualifier: q })[k],
      });
    expect(() => settings('hnb659fds')).toThrow(/bootstrapQualifier: must be the qualifier of a bootstrap of its own/);
    expect(() => settings('Too-Long-Qualifier')).toThrow(/bootstrapQualifier/);
  });

  it('offers a deploy role of its own, trusted by the named deployers alone, and then exempts only the execution role it passes', () => {
    expect(build().deployer).toBeUndefined();
    const deployers = 'arn:aws:sts::123456789012:assumed-role/Deployers/jane,arn:aws:iam::123456789012:user/ci';
    const { app, stack: own, deployer } = build({ deployerArns: deployers });
    if (!deployer) throw new Error('no Deployer stack');
    expect(deployer.stackName).toBe(`${DEFAULT_SETTINGS.stackName}-Deployer`);
    const roles = Template.fromStack(deployer).findResources('AWS::IAM::Role') as Record<string, Resource>;
    const [deployRoleId, deployRole] = Object.entries(roles).find(([, r]) => r.Properties.RoleName.endsWith('-deploy')) as [
      string,
      Resource,
    ];
    const [executionRoleId, executionRole] = Object.entries(roles).find(([, r]) =>
      r.Properties.RoleName.endsWith('-cfn-exec'),
    ) as [string, Resource];
    expect(Object.keys(roles).sort()).toEqual([deployRoleId, executionRoleId].sort());
    // Trusted by the account only as far as aws:PrincipalArn is one of the deployers: no other statement.
    expect(deployRole.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { AWS: expect.objectContaining({ 'Fn::Join': expect.anything() }) },
        Condition: {
          StringEquals: {
            'aws:PrincipalArn': ['arn:aws:iam::123456789012:role/Deployers', 'arn:aws:iam::123456789012:user/ci'],
          },
          ArnLike: { 'aws:PrincipalArn': ['arn:aws:iam::123456789012:role/*/Deployers'] },
        },
      },
    ]);
    expect(JSON.stringify(deployRole.Properties.AssumeRolePolicyDocument)).toContain(':root');
    const statements = deployRole.Properties.Policies[0].PolicyDocument.Statement as Json[];
    const sid = (name: string) => statements.find((st) => st.Sid === name);
    // It may pass the execution role and no other, to CloudFormation only, and change this one stack.
    expect(statements.filter((st) => JSON.stringify(st.Action).includes('iam:'))).toEqual([sid('PassTheExecutionRoleOnly')]);
    expect(sid('PassTheExecutionRoleOnly')).toMatchObject({
      Action: 'iam:PassRole',
      Resource: { 'Fn::GetAtt': [executionRoleId, 'Arn'] },
      Condition: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
    });
    expect(JSON.stringify(sid('DeployThisStackOnly')?.Resource)).toContain(`:stack/${DEFAULT_SETTINGS.stackName}/*`);
    expect(executionRole.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'cloudformation.amazonaws.com' } },
    ]);
    // The service's stack deploys through them, and the secrets exempt that execution role, not the bootstrap's.
    const assembly = app.synth();
    expect(assembly.getStackByName(own.stackName).assumeRoleArn).toBe(
      `arn:\${AWS::Partition}:iam::\${AWS::AccountId}:role/${DEFAULT_SETTINGS.stackName}-deploy`,
    );
    expect(assembly.getStackByName(own.stackName).cloudFormationExecutionRoleArn).toContain(
      `role/${DEFAULT_SETTINGS.stackName}-cfn-exec`,
    );
    // The Deployer stack itself: the administrator's own credentials, no bootstrap role.
    expect(assembly.getStackByName(deployer.stackName).assumeRoleArn).toBeUndefined();
    const policies = Object.values(Template.fromStack(own).findResources('AWS::SecretsManager::ResourcePolicy')) as Resource[];
    expect(policies).toHaveLength(2);
    for (const policy of policies) {
      for (const statement of policy.Properties.ResourcePolicy.Statement as Json[]) {
        const exempt = JSON.stringify(statement.Condition);
        expect(exempt).toContain(`:role/${DEFAULT_SETTINGS.stackName}-cfn-exec`);
        expect(exempt).not.toContain('cfn-exec-role');
      }
    }
    expect(() => build({ deployerArns: 'arn:aws:iam::123456789012:role/*' })).toThrow(
      /deployerArns: each entry must be one exact IAM principal ARN/,
    );
  });
});
