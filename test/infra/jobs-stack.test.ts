/**
 * Jobs in the synthesized template (infra/jobs.ts): the queue of batches and its dead-letter queue with an
 * alarm on its depth, the worker's event source mapping (partial batch failures, its maximum concurrency
 * sized to Crossref's published pace, and each worker's share of that pace), the jobs' table with its TTL,
 * the bucket for large values with its expiry, all kept through a deletion or a replacement; and WAF
 * letting a job's submission past its 16 KiB body rule. Each function's grants are held to the routes table
 * by test/infra/least-privilege.test.ts.
 */
import { readFileSync } from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../infra/app.js';
import {
  DEAD_LETTER_ALARM_DEPTH,
  JOBS_MAX_RECEIVES,
  JOBS_MESSAGES_PER_INVOCATION,
  JOBS_WORKER_DESCRIPTION,
  JOBS_WORKER_TIMEOUT_SECONDS,
  WORKER_LOOKUPS_IN_FLIGHT,
} from '../../infra/jobs.js';
import { WAF_MAX_BODY_BYTES } from '../../infra/waf.js';
import { PUBLISHED_PACE } from '../../lib/citations/sources/published-pace.js';
import { JOB_TTL_DAYS_DEFAULT } from '../../lib/contract/jobs.js';
import { workerConcurrency } from '../../lib/jobs/sizing.js';

const CDK_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<
  string,
  unknown
>;

// biome-ignore lint/suspicious/noExplicitAny: a synthesized template is arbitrary JSON, read by path
type Json = any;
let resources: Record<string, { Type: string; Properties: Json; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

vi.setConfig({ testTimeout: 120_000 });

beforeAll(() => {
  const { stack } = createApp({
    context: {
      ...CDK_CONTEXT,
      secretAdminArns: 'arn:aws:iam::123456789012:role/Deployer',
      alarmEmail: 'ops@example.com',
      // Crossref's public pace (5 a second): the sizing below is for it.
      crossrefMailto: 'none',
      'aws:cdk:bundling-stacks': [],
    },
  });
  resources = Template.fromStack(stack).toJSON().Resources;
}, 600_000);

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const byPrefix = (prefix: string) => {
  const found = Object.entries(resources).filter(([id]) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id));
  expect(found, prefix).toHaveLength(1);
  return found[0] as [string, (typeof resources)[string]];
};
const worker = () => {
  const found = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Description === JOBS_WORKER_DESCRIPTION);
  expect(found).toHaveLength(1);
  return found[0] as [string, (typeof resources)[string]];
};

describe("the jobs' queue, worker, table and bucket", () => {
  it('sends a batch that failed every try to the dead-letter queue, and alarms on its depth', () => {
    const [queueId, queue] = byPrefix('JobsQueue');
    const [deadId] = byPrefix('JobsDeadLetters');
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [deadId, 'Arn'] },
      maxReceiveCount: JOBS_MAX_RECEIVES,
    });
    // AWS's advice for a Lambda event source: six times the function's timeout.
    expect(queue.Properties.VisibilityTimeout).toBe(6 * JOBS_WORKER_TIMEOUT_SECONDS);
    for (const id of [queueId, deadId]) expect(resources[id]?.Properties.SqsManagedSseEnabled, id).toBe(true);
    // (The stack's other dead-letter queue, of secret-change alerts, has an alarm of its own.)
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(
      ([, alarm]) =>
        alarm.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        JSON.stringify(alarm.Properties.Dimensions).includes(deadId),
    );
    expect(alarms).toHaveLength(1);
    const [, alarm] = alarms[0] as [string, Json];
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadId, 'QueueName'] } }],
      Threshold: DEAD_LETTER_ALARM_DEPTH,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const [topicId] = byPrefix('AlarmTopic');
    expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }]);
  });

  it("feeds the worker from the queue with partial batch failures and a maximum concurrency sized to Crossref's pace", () => {
    const [queueId] = byPrefix('JobsQueue');
    const [workerId, fn] = worker();
    const mappings = ofType('AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0] as [string, Json];
    const workers = workerConcurrency(PUBLISHED_PACE.crossref.anonymous, WORKER_LOOKUPS_IN_FLIGHT);
    expect(workers).toBe(2);
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: workerId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: JOBS_MESSAGES_PER_INVOCATION,
      ScalingConfig: { MaximumConcurrency: workers },
    });
    expect(fn.Properties.Timeout).toBe(JOBS_WORKER_TIMEOUT_SECONDS);
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(workers);
    // The workers take their turns in the deployment's pace table with every endpoint (lib/pace/): no pace
    // of their own, which would add to the endpoints' rather than share it.
    const variables = fn.Properties.Environment.Variables;
    expect(variables.CROSSREF_REQUESTS_PER_SECOND).toBeUndefined();
    expect(variables.DATACITE_REQUESTS_PER_SECOND).toBeUndefined();
    const [paceTableId] = byPrefix('PaceTable');
    expect(variables.PACE_TABLE_NAME).toEqual({ Ref: paceTableId });
    expect(variables).toMatchObject({ JOBS_MAX_RECEIVES: String(JOBS_MAX_RECEIVES), NO_UPSTREAM_KEY: 'true' });
  });

  it('keeps jobs in a table with a TTL and large values in a private bucket that expires them, all kept through a deletion or a replacement', () => {
    const [, table] = byPrefix('JobsTable');
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expires_at', Enabled: true });
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    const [, bucket] = byPrefix('JobsBucket');
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      { ExpirationInDays: JOB_TTL_DAYS_DEFAULT + 1, Status: 'Enabled' },
    ]);
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    for (const prefix of ['JobsTable', 'JobsBucket', 'JobsQueue', 'JobsDeadLetters']) {
      const [, resource] = byPrefix(prefix);
      expect([resource.DeletionPolicy, resource.UpdateReplacePolicy], prefix).toEqual(['Retain', 'Retain']);
    }
    // The functions are told the same table and the same TTL.
    expect(worker()[1].Properties.Environment.Variables.JOBS_TTL_DAYS).toBe(String(JOB_TTL_DAYS_DEFAULT));
  });

  it("lets a job's submission past WAF's 16 KiB body rule, and no other path", () => {
    const [, acl] = ofType('AWS::WAFv2::WebACL')[0] as [string, Json];
    const rule = acl.Properties.Rules.find((r: Json) => r.Priority === 0);
    const [size, exempt] = rule.Statement.AndStatement.Statements;
    expect(size.SizeConstraintStatement).toMatchObject({ ComparisonOperator: 'GT', Size: WAF_MAX_BODY_BYTES });
    // The paths whose contracts take more (a reference list to check, a job), each by its path's end.
    const paths = exempt.NotStatement.Statement.OrStatement.Statements.map((one: Json) => one.ByteMatchStatement);
    expect(paths.map((one: Json) => one.SearchString)).toEqual(['/v1/cite/check', '/v1/jobs']);
    for (const one of paths) expect(one).toMatchObject({ FieldToMatch: { UriPath: {} }, PositionalConstraint: 'ENDS_WITH' });
  });
});
