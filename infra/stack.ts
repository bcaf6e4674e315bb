/**
 * The one stack: a regional REST API whose resources are the route table's paths (so the public URL is
 * `https://<api>/<stage>/v1/...`, or exactly `https://<domain>/v1/...` behind a custom domain mapped with
 * an empty base path), one POST method and one Lambda function per path, each holding only what its route
 * needs; a TOKEN authorizer before every method and a usage plan rate per client key; the spending
 * budget's counter table, the envelope on every answer the gateway makes itself, the two secrets and an
 * alert on any change to them, the shared cache table, logs with retention, alarms that notify a topic
 * someone reads, a dashboard and a WAF web ACL (on by default).
 */
import {
  Annotations,
  ArnFormat,
  Aws,
  CfnOutput,
  CfnRule,
  DefaultStackSynthesizer,
  Duration,
  Fn,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct, IConstruct } from 'constructs';
import { ROUTES } from '../lib/routes.js';
import { ApiFunction, type ApiFunctionProps } from './api-function.js';
import { BUDGET_TABLE_KEYS, floodGuard } from './budget.js';
import { ClientPlans, GatewayAuthorizer } from './gateway-keys.js';
import { addGatewayResponses, addMethodNotAllowed } from './gateway-responses.js';
import { Jobs, jobRouteReservation } from './jobs.js';
import { MCP_ROUTE, McpEndpoint } from './mcp.js';
import { Observability } from './observability.js';
import { PACE_TABLE_KEYS } from './pace.js';
import type { StackSettings } from './settings.js';
import { StylePackLayer } from './style-pack-layer.js';
import { RateLimitAcl } from './waf.js';

/**
 * The TLS policy of the execute-api endpoint: TLS 1.3, and TLS 1.2 with forward-secret AES-GCM suites
 * only (no CBC, no TLS 1.0/1.1, which a regional API otherwise accepts by default), with post-quantum
 * key exchange where the client offers it. An enhanced policy needs an endpoint access mode: STRICT,
 * the one AWS recommends for production (BASIC exists for migrating clients).
 */
export const API_SECURITY_POLICY = 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09';
export const API_ENDPOINT_ACCESS_MODE = 'STRICT';

/** The shared cache table's key and TTL attributes: the names lib/cache/dynamo-table.ts writes. */
export const CACHE_TABLE_KEYS = { partitionKey: 'pk', timeToLive: 'expires_at' } as const;

export interface SearchCitationApiStackProps extends StackProps {
  settings: StackSettings;
}

/** A secret as the functions see it: the id they read and the ARN their role may read; `created` when the stack owns it. */
interface ServiceSecret {
  id: string;
  arn: string;
  created?: secretsmanager.Secret;
}

export class SearchCitationApiStack extends Stack {
  readonly api: apigw.RestApi;
  readonly functions: ReadonlyArray<ApiFunction>;
  readonly cacheTable: dynamodb.Table;
  readonly budgetTable: dynamodb.ITable;
  readonly paceTable: dynamodb.Table;
  readonly alarmTopic: sns.ITopic;
  readonly gatewayAuthorizer: GatewayAuthorizer;
  readonly clientPlans: ClientPlans;
  readonly jobs: Jobs;

  constructor(scope: Construct, id: string, props: SearchCitationApiStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const retention = settings.logRetentionDays as logs.RetentionDays;

    const clientKeys = this.serviceSecret('ClientKeys', settings.clientKeysSecret, {
      description:
        'Search and Citation API client keys as SHA-256 digests: {"keys":[{"name","sha256"}]}. Add keys with infra/create-client-key.ts.',
      // No key at all until an operator adds one: every request is 401 until then.
      template: { keys: [] },
    });
    const upstreamKey = this.serviceSecret('UpstreamKey', settings.upstreamKeySecret, {
      description:
        'Search and Citation API upstream key: {"serpapi_api_key":"..."}. Put the SerpApi key here after the first deploy.',
      // Empty until an operator puts the key: requests answer 500 SERVICE_MISCONFIGURED, and the
      // generated placeholder sits in a field of its own, so it can never be mistaken for a key.
      template: { serpapi_api_key: '' },
    });

    // The shared cache: every container of every function reads and writes it, so a paper's citations are
    // paid for once per deployment, not once per warm container. Only disposable copies live here.
    this.cacheTable = new dynamodb.Table(this, 'CacheTable', {
      partitionKey: { name: CACHE_TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      // On demand: a team's traffic is bursty and mostly idle, and an idle table costs storage only.
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      // DynamoDB deletes expired items by itself, at no charge; the code also ignores an expired item it reads.
      timeToLiveAttribute: CACHE_TABLE_KEYS.timeToLive,
      // Nothing here is the only copy of anything: a teardown may take the table with it.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // The spending budget's counter (newBudgetTable), or the one an earlier copy of the stack kept
    // (budgetTableName), which goes on counting where it stopped.
    this.budgetTable = settings.budgetTableName
      ? dynamodb.Table.fromTableName(this, 'BudgetTable', settings.budgetTableName)
      : this.newBudgetTable();
    // The deployment's pace (lib/pace/): every container takes its turns for Crossref and DataCite here, so
    // that together they keep each source's published rate. A few seconds of starts: nothing worth keeping.
    this.paceTable = new dynamodb.Table(this, 'PaceTable', {
      partitionKey: { name: PACE_TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: PACE_TABLE_KEYS.timeToLive,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const flood = floodGuard(settings.floodRatePerSecond, settings.floodBurst);

    // One copy of the CSL style pack for the functions that read it (infra/style-pack-layer.ts).
    const stylePack = new StylePackLayer(this, 'StylePack');
    const baseProps: Omit<ApiFunctionProps, 'route'> = {
      stylePackLayer: stylePack.layer,
      memorySize: settings.memorySize,
      logRetention: retention,
      tracing: settings.tracing,
      sourceMaps: settings.sourceMaps,
      clientKeysSecret: clientKeys,
      upstreamKeySecret: upstreamKey,
      cacheTable: this.cacheTable,
      budget: {
        table: this.budgetTable,
        searchesPerHour: settings.searchesPerHour,
        searchesPerMonth: settings.searchesPerMonth,
        failClosed: settings.budgetFailClosed,
      },
      reservedConcurrency: settings.reservedConcurrency,
      citeCacheTtlSeconds: settings.citeCacheTtlSeconds,
      answerCacheTtlSeconds: settings.answerCacheTtlSeconds,
      crossrefMailto: settings.crossrefMailto,
      paceTable: this.paceTable,
    };
    // Jobs: their queue, dead-letter queue, worker, table and bucket (infra/jobs.ts); the job routes get them too.
    this.jobs = new Jobs(this, 'Jobs', {
      functionProps: baseProps,
      ttlDays: settings.jobsTtlDays,
      crossrefMailto: settings.crossrefMailto,
      reservedConcurrency: settings.reservedConcurrency,
    });
    const functionProps: Omit<ApiFunctionProps, 'route'> = { ...baseProps, jobs: this.jobs.resources };
    // Before every method: a key refused here never reaches a usage plan or a function.
    this.gatewayAuthorizer = new GatewayAuthorizer(this, 'GatewayAuthorizer', { functionProps, usageKeyScope: this.stackName });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention, removalPolicy: RemovalPolicy.RETAIN });
    this.api = new apigw.RestApi(this, 'Api', {
      restApiName: `${this.stackName}-api`,
      description: 'Search and Citation API: POST+JSON endpoints in front of SerpApi',
      // Clients are programs, not browsers around the world: no CloudFront distribution in front.
      endpointTypes: [apigw.EndpointType.REGIONAL],
      cloudWatchRole: settings.apiGatewayCloudWatchRole,
      // Kept on delete: the account's API Gateway logging role must outlive the copy that set it.
      ...(settings.apiGatewayCloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      // Every method: the authorizer first, then the key's own usage plan (the API key the authorizer names).
      defaultMethodOptions: { authorizer: this.gatewayAuthorizer.authorizer, apiKeyRequired: true },
      apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
      deployOptions: {
        stageName: settings.stageName,
        // No stage-wide limit unless one is asked for (settings.ts, floodRatePerSecond): AWS does not say
        // whether it counts before the authorizer, and strangers must never take capacity from clients.
        // Each key is limited by its usage plan; the account's limits bound the stage.
        ...(flood.rateLimit === undefined ? {} : { throttlingRateLimit: flood.rateLimit }),
        ...(flood.burstLimit === undefined ? {} : { throttlingBurstLimit: flood.burstLimit }),
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
    // Not in the L2 construct yet: set on the CloudFormation resource, which has both properties.
    const cfnApi = this.api.node.defaultChild as apigw.CfnRestApi;
    cfnApi.securityPolicy = API_SECURITY_POLICY;
    cfnApi.endpointAccessMode = API_ENDPOINT_ACCESS_MODE;
    this.clientPlans = new ClientPlans(this, 'ClientPlans', {
      api: this.api,
      usageKeyScope: this.stackName,
      keyRatePerSecond: settings.keyRatePerSecond,
      keyBurst: settings.keyBurst,
      clients: settings.clients,
    });
    if (settings.clients.length === 0) {
      Annotations.of(this).addWarningV2(
        'search-citation-api:no-clients',
        'No client is listed in the clients setting: the gateway answers every valid key 500 SERVICE_MISCONFIGURED ' +
          'until its name is listed (-c clients=<name>,<name>) and the stack deployed again.',
      );
    }
    // On by default: bodies over the API's limit, and addresses flooding without a key (or with made-up
    // ones), are stopped before API Gateway does anything with them.
    const waf = settings.waf
      ? new RateLimitAcl(this, 'Waf', {
          stage: this.api.deploymentStage,
          requestsPer5MinutesPerIp: settings.wafRequestsPer5MinutesPerIp,
          keyedRequestsPer5MinutesPerIp: settings.wafKeyedRequestsPer5MinutesPerIp,
          requestsPer5MinutesPerKey: settings.wafRequestsPer5MinutesPerKey,
          ...(settings.wafLogging ? { logging: { retention } } : {}),
        })
      : undefined;
    const endpoints = ROUTES.map((route) => {
      const fn = new ApiFunction(this, constructId(route.name), {
        route,
        ...functionProps,
        // The job routes answer from the table in milliseconds: a smaller share of the stack's reservation.
        ...(route.needs.jobs ? { reservedConcurrency: jobRouteReservation(settings.reservedConcurrency) } : {}),
      });
      const resource = this.api.root.resourceForPath(route.path);
      // The console's test-invoke permission is left out: only this stage's POST may invoke the function.
      resource.addMethod('POST', new apigw.LambdaIntegration(fn.function, { allowTestInvoke: false }));
      addMethodNotAllowed(resource);
      return { route, fn };
    });
    // POST /mcp: every endpoint as an MCP tool, run by a function with the endpoints' own props.
    const mcp = new McpEndpoint(this, 'Mcp', { api: this.api, functionProps });
    this.functions = [...endpoints.map(({ fn }) => fn), mcp.fn, this.gatewayAuthorizer.fn, this.jobs.worker];
    // Each copy of the stack writes its metrics apart (settings.metricsNamespace), so that a staging copy's
    // searches never count into another copy's alarms; the default stack keeps the one namespace it had.
    for (const fn of this.functions) fn.function.addEnvironment('POWERTOOLS_METRICS_NAMESPACE', settings.metricsNamespace);
    // Each secret readable by the functions that use it: the client keys by all (the authorizer and every
    // function's second check), the SerpApi key by the routes that need it (lib/routes.ts) alone.
    const roles = (fns: readonly ApiFunction[]) => fns.map((fn) => fn.role.roleArn);
    this.restrictSecrets(
      [
        { secret: clientKeys, readers: roles(this.functions.filter((fn) => fn.readsClientKeys)) },
        { secret: upstreamKey, readers: roles(this.functions.filter((fn) => fn.route.needs.upstreamKey)) },
      ],
      settings,
    );

    // No KMS key on the topic: CloudWatch alarms cannot publish to one encrypted with the AWS-managed
    // aws/sns key, and a customer key costs a monthly fee for messages holding only alarm names, states and
    // metric values. Delivery is TLS-only.
    this.alarmTopic = settings.alarmTopicArn
      ? sns.Topic.fromTopicArn(this, 'AlarmTopic', settings.alarmTopicArn)
      : new sns.Topic(this, 'AlarmTopic', { displayName: `${this.stackName} alarms`, enforceSSL: true });
    if (this.alarmTopic instanceof sns.Topic) {
      // enforceSSL replaces the topic's default policy, which let the account's services publish: say so again
      // for CloudWatch, for this account's alarms only.
      this.alarmTopic.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: 'CloudWatchAlarmsPublish',
          principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['sns:Publish'],
          resources: [this.alarmTopic.topicArn],
          conditions: {
            StringEquals: { 'aws:SourceAccount': this.account },
            ArnLike: {
              'aws:SourceArn': this.formatArn({
                service: 'cloudwatch',
                resource: 'alarm',
                resourceName: '*',
                arnFormat: ArnFormat.COLON_RESOURCE_NAME,
              }),
            },
          },
        }),
      );
    }
    if (settings.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(settings.alarmEmail));
    this.jobs.notify(this.alarmTopic);
    if (settings.alarmsUnwatched) {
      Annotations.of(this).addWarningV2(
        'search-citation-api:alarms-unwatched',
        'alarmEmail=none: the alarms notify a topic no one is subscribed to. Subscribe someone before the API faces the internet.',
      );
    }
    const undeliveredAlerts = this.alertOnSecretChanges([clientKeys, upstreamKey]);
    this.requireAdminsOfThisAccount(settings);
    for (const warning of settings.warnings) Annotations.of(this).addWarningV2('search-citation-api:settings', warning);

    const observability = new Observability(this, 'Observability', {
      api: this.api,
      metricsNamespace: settings.metricsNamespace,
      ...(waf
        ? {
            waf: {
              webAclName: waf.webAclName,
              ruleMetricName: waf.ruleMetricName,
              keyedRuleMetricName: waf.keyedRuleMetricName,
              keyRuleMetricName: waf.keyRuleMetricName,
            },
          }
        : {}),
      stageName: settings.stageName,
      endpoints,
      otherFunctions: [
        { route: MCP_ROUTE, fn: mcp.fn },
        { route: this.gatewayAuthorizer.fn.route, fn: this.gatewayAuthorizer.fn },
        { route: this.jobs.worker.route, fn: this.jobs.worker },
      ],
      accessLogs,
      alarmTopic: this.alarmTopic,
      spendAlarmCallsPerHour: settings.spendAlarmCallsPerHour,
      undeliveredAlerts,
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL; endpoints are <ApiUrl>v1/..., e.g. <ApiUrl>v1/web-search/alpha',
      value: this.api.url,
    });
    new CfnOutput(this, 'ClientKeysSecretId', { description: 'Secret holding the client key digests', value: clientKeys.id });
    new CfnOutput(this, 'UpstreamKeySecretId', { description: 'Secret holding the SerpApi key', value: upstreamKey.id });
    new CfnOutput(this, 'DashboardName', { value: observability.dashboard.dashboardName });
    new CfnOutput(this, 'AlarmTopicArn', { description: 'SNS topic every alarm notifies', value: this.alarmTopic.topicArn });
    new CfnOutput(this, 'CacheTableName', { description: 'Shared cache (DynamoDB)', value: this.cacheTable.tableName });
    new CfnOutput(this, 'BudgetTableName', {
      description: 'Spending budget counter (DynamoDB)',
      value: this.budgetTable.tableName,
    });
    new CfnOutput(this, 'PaceTableName', {
      description: "Crossref's and DataCite's pace for every container (DynamoDB)",
      value: this.paceTable.tableName,
    });

    acknowledgeFindings(this, this.api, settings);
    Validations.of(this.paceTable).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason:
        'No point-in-time recovery: the table holds the last few seconds of lookups started at Crossref and DataCite, ' +
        'which a lost table forgets at no cost but a moment of the sources at their full rate.',
    });
    Validations.of(this.cacheTable).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason:
        'No point-in-time recovery: the table is a cache of upstream answers that expire within days, each one ' +
        'fetched again on a miss. Restoring it would bring back nothing that is not one upstream call away, and ' +
        'continuous backups would bill per GB-month for data that is disposable by design.',
    });
  }

  /**
   * The spending budget's counter: one item per window (hour, month, a client's day), expiring by TTL. A
   * table of its own so that the functions' grants on it are UpdateItem and GetItem alone. The month's count is what
   * stops the month's spend: a table lost or replaced mid-month would allow the whole monthly budget
   * again. So it is kept on teardown and replacement, undeletable until protection is lifted, and
   * restorable to any second of the last 35 days.
   */
  private newBudgetTable(): dynamodb.Table {
    return new dynamodb.Table(this, 'BudgetTable', {
      partitionKey: { name: BUDGET_TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: BUDGET_TABLE_KEYS.timeToLive,
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    });
  }

  /** An existing secret (context: a name or a complete ARN), else one created by the stack. */
  private serviceSecret(
    id: string,
    existing: string | undefined,
    created: { description: string; template: object },
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
      // No value in the template: Secrets Manager generates the string once, at creation, as the JSON
      // shape plus a random `placeholder` field the code ignores. CloudFormation sends a new value only if
      // this generator changes, so a later deploy never overwrites the keys an operator put.
      generateSecretString: {
        secretStringTemplate: JSON.stringify(created.template),
        generateStringKey: 'placeholder',
        passwordLength: 20,
        excludePunctuation: true,
      },
      // The keys outlive the stack: a teardown and redeploy must not revoke every client.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    return { id: secret.secretArn, arn: secret.secretArn, created: secret };
  }

  /**
   * An e-mail to the alarm topic on any change to either secret or its policy (a new value, a version stage
   * moved, rotation, deletion, tags, replication, the resource policy): every action the secrets' deny keeps
   * for the admins, so a change by an admin is seen too. It reads CloudTrail's record of the call, which
   * EventBridge receives only where a trail logs management events in the region. EventBridge may publish to
   * the stack's topic for this rule alone (aws:SourceArn); an alert it could not deliver after its retries
   * (24 hours, 185 tries) waits in a dead-letter queue, returned here for its alarm.
   */
  private alertOnSecretChanges(secrets: ServiceSecret[]): sqs.Queue {
    const ids = secrets.flatMap((secret): unknown[] => {
      // Any form a caller can name the secret by: its full ARN, its name, or its ARN without the suffix.
      const name = secret.created ? secret.created.secretName : secretNameOf(secret.id);
      const partialArn = this.formatArn({
        service: 'secretsmanager',
        resource: 'secret',
        resourceName: name,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      });
      return [...new Set([secret.id, name]), { prefix: partialArn }];
    });
    const rule = new events.Rule(this, 'SecretChanges', {
      description: 'Mails the alarm topic when a service secret or its policy changes',
      eventPattern: {
        source: ['aws.secretsmanager'],
        detailType: ['AWS API Call via CloudTrail'],
        detail: {
          eventSource: ['secretsmanager.amazonaws.com'],
          eventName: SECRET_CHANGE_ACTIONS.map((action) => action.replace(/^secretsmanager:/, '')),
          requestParameters: { secretId: ids },
        },
      },
    });
    const undelivered = new sqs.Queue(this, 'SecretChangeAlertsUndelivered', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    const topic = this.alarmTopic;
    const message = events.RuleTargetInput.fromText(
      `${this.stackName}: ${events.EventField.fromPath('$.detail.eventName')} on secret ` +
        `${events.EventField.fromPath('$.detail.requestParameters.secretId')} by ` +
        `${events.EventField.fromPath('$.detail.userIdentity.arn')} at ${events.EventField.time}. ` +
        'Expected only when an admin puts the SerpApi key, adds or removes a client key, or a deploy changes a policy.',
    );
    // Not targets.SnsTopic: its grant lets events.amazonaws.com publish for any rule of any account.
    rule.addTarget({
      bind: (bound) => {
        // EventBridge may send to the queue for this rule alone (aws:SourceArn).
        targets.addToDeadLetterQueueResourcePolicy(bound, undelivered);
        return {
          arn: topic.topicArn,
          input: message,
          deadLetterConfig: { arn: undelivered.queueArn },
          retryPolicy: { maximumEventAgeInSeconds: Duration.hours(24).toSeconds(), maximumRetryAttempts: 185 },
        };
      },
    });
    if (topic instanceof sns.Topic) {
      topic.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: 'SecretChangeRulePublish',
          principals: [new iam.ServicePrincipal('events.amazonaws.com')],
          actions: ['sns:Publish'],
          resources: [topic.topicArn],
          conditions: { ArnEquals: { 'aws:SourceArn': rule.ruleArn } },
        }),
      );
    }
    Validations.of(undelivered).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter queue: EventBridge’s, for the secret-change alerts it could not deliver to the ' +
        'alarm topic (its rule names it in DeadLetterConfig). A dead-letter queue of its own would only move those alerts again.',
    });
    return undelivered;
  }

  /**
   * The secrets' admins and readers must be principals of the account the stack is deployed to: the policy
   * compares aws:PrincipalArn, which no principal of another account can equal. Checked by CloudFormation
   * before anything is created (a template rule), as the synth cannot know the account; settings.ts checks
   * it at synth too when the CDK CLI says which account it deploys to.
   */
  private requireAdminsOfThisAccount(settings: StackSettings): void {
    const accounts = [
      ...new Set([...settings.secretAdminArns, ...settings.secretReaderArns].map((arn) => arn.split(':')[4] ?? '')),
    ].filter((account) => /^\d{12}$/.test(account));
    if (accounts.length === 0) return;
    new CfnRule(this, 'SecretPrincipalsInThisAccount', {
      assertions: accounts.map((account) => ({
        assert: Fn.conditionEquals(Aws.ACCOUNT_ID, account),
        assertDescription:
          `secretAdminArns / secretReaderArns name account ${account}, not the one this stack is deployed to: ` +
          "such a principal never matches the secrets' policies. Name principals of this account.",
      })),
    });
  }

  /**
   * Resource policies on the secrets the stack created. A Deny here wins over any identity policy in the
   * account (an over-broad `secretsmanager:*` grant included):
   * - GetSecretValue is denied to every principal but the functions' roles, the readers and admins named in
   *   context, the account root and the deployment's CloudFormation role;
   * - every other action but the metadata reads (SECRET_READ_ACTIONS: NotAction, so that an action Secrets
   *   Manager adds later is denied too) is denied to every principal but the admins, the account root and
   *   the deployment's CloudFormation role: writing a value, moving a version stage (a rollback to a
   *   revoked key list), rotation, restore, replication, tags, deletion, and the policy itself.
   * The CloudFormation role (the bootstrap's cfn-exec-role, or with deployerArns the stack's own execution
   * role, infra/deployer.ts; and deployRoleArn for `--role-arn`) is exempt from both, so that a deploy can
   * update the secrets and their policies whatever it has to read: anyone who can deploy the stack can
   * rewrite these policies anyway. The policies are kept, as the secrets are,
   * when the stack is deleted: a kept secret never stands unguarded. Secrets given by name or ARN are the
   * team's own: their policies are left as they are.
   */
  private restrictSecrets(secrets: { secret: ServiceSecret; readers: string[] }[], settings: StackSettings): void {
    const root = this.formatArn({ service: 'iam', region: '', resource: 'root', arnFormat: ArnFormat.NO_RESOURCE_NAME });
    // The bootstrap's execution role: the default bootstrap's, shared by every CDK app in the account and
    // region, or with bootstrapQualifier a bootstrap of this stack's own (infra/app.ts). Its ARN holds
    // ${AWS::AccountId}-style placeholders, which only Fn::Sub fills in.
    const deployers = [
      ...(this.synthesizer instanceof DefaultStackSynthesizer ? [Fn.sub(this.synthesizer.cloudFormationExecutionRoleArn)] : []),
      ...(settings.deployRoleArn ? [settings.deployRoleArn] : []),
    ];
    const changers = [root, ...settings.secretAdminArns, ...deployers];
    for (const { secret, readers: functionRoles } of secrets) {
      const { created } = secret;
      if (!created) continue;
      const readers = [...functionRoles, ...changers, ...settings.secretReaderArns];
      created.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: 'OnlyServiceAndAdminsRead',
          effect: iam.Effect.DENY,
          principals: [new iam.AnyPrincipal()],
          actions: ['secretsmanager:GetSecretValue'],
          resources: ['*'],
          conditions: exemptPrincipals(readers),
        }),
      );
      created.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: 'OnlyAdminsChange',
          effect: iam.Effect.DENY,
          principals: [new iam.AnyPrincipal()],
          notActions: [...SECRET_READ_ACTIONS],
          resources: ['*'],
          conditions: exemptPrincipals(changers),
        }),
      );
      const policy = created.node.tryFindChild('Policy');
      if (!(policy instanceof secretsmanager.ResourcePolicy)) throw new Error(`${created.node.path}: no resource policy`);
      // Kept with its secret on `cdk destroy` (CloudFormation deletes neither); see docs, "Teardown".
      policy.applyRemovalPolicy(RemovalPolicy.RETAIN);
    }
  }
}

/**
 * The Deny's exemption: principals matched exactly (StringNotEquals), and a role named by its session,
 * whose path the session does not show, by pattern (ArnNotLike; settings.ts, principalMatches). The
 * Deny applies only when both hold: the caller is neither an exact principal nor a pattern's role.
 */
function exemptPrincipals(principals: readonly string[]): Record<string, Record<string, string[]>> {
  const patterns = principals.filter((p) => p.includes('*'));
  return {
    StringNotEquals: { 'aws:PrincipalArn': principals.filter((p) => !p.includes('*')) },
    ...(patterns.length > 0 ? { ArnNotLike: { 'aws:PrincipalArn': patterns } } : {}),
  };
}

/**
 * What everyone with an identity grant may still do to the secrets the stack created: read the metadata
 * (no value) and the policy. GetSecretValue is denied separately to all but the readers; every other
 * action, present or future, to all but the admins and the deployment.
 */
export const SECRET_READ_ACTIONS = [
  'secretsmanager:GetSecretValue',
  'secretsmanager:DescribeSecret',
  'secretsmanager:GetResourcePolicy',
  'secretsmanager:ListSecretVersionIds',
] as const;

/** Changes measured against the policy: each one denied to everyone but the admins and the deployment. */
export const SECRET_CHANGE_ACTIONS = [
  'secretsmanager:PutSecretValue',
  'secretsmanager:UpdateSecret',
  'secretsmanager:UpdateSecretVersionStage',
  'secretsmanager:DeleteSecret',
  'secretsmanager:RestoreSecret',
  'secretsmanager:RotateSecret',
  'secretsmanager:CancelRotateSecret',
  'secretsmanager:PutResourcePolicy',
  'secretsmanager:DeleteResourcePolicy',
  'secretsmanager:ReplicateSecretToRegions',
  'secretsmanager:RemoveRegionsFromReplication',
  'secretsmanager:StopReplicationToReplica',
  'secretsmanager:TagResource',
  'secretsmanager:UntagResource',
] as const;

/** A secret's name from the id a setting gave: a name as is, an ARN without its "-" and six-character suffix. */
function secretNameOf(id: string): string {
  const match = /^arn:[^:]+:secretsmanager:[^:]*:\d*:secret:(.+)-[A-Za-z0-9]{6}$/.exec(id);
  return match?.[1] ?? id;
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
    'AwsSolutions-COG4',
    'Clients are programs holding API keys, not Cognito users: every method is guarded by a Lambda TOKEN authorizer ' +
      '(a bearer key compared in constant time with SHA-256 digests kept in Secrets Manager, infra/gateway-keys.ts), ' +
      'and each function checks the key again.',
  );
  if (!settings.waf) {
    ack(
      api,
      'AwsSolutions-APIG3',
      'WAF left out on purpose with -c waf=false (it is on by default): the deployer chose to save its monthly fee ' +
        '($5 per web ACL, $1 per rule). The authorizer still refuses keyless and unknown keys before any function, each ' +
        'key keeps its own rate, and the gateway refuses bodies over 10 MB and the functions over 16 KiB; but one host ' +
        'with made-up keys can then invoke the authorizer at will, which the refused-flood alarm reports.',
    );
  }
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
