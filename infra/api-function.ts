/**
 * One endpoint's Lambda function with the house defaults: built from functions/<name>.ts by esbuild,
 * nodejs22.x on arm64, its own log group with retention, and its own role holding only what its route
 * needs (lib/routes.ts, `needs`): write its log group, read the client key secret (the second key check),
 * and, as the route uses them, read the SerpApi key's secret, read and write the shared cache table under
 * the route's own key prefix, reserve in or read the budget's counters, and take turns in the pace table
 * under its upstreams' keys. Its environment follows the
 * same facts: a route without the upstream key gets NO_UPSTREAM_KEY instead of the secret's id.
 */

import { fileURLToPath } from 'node:url';
import { type CfnElement, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type Node } from 'constructs';
import { cacheKeyPrefix, type Route } from '../lib/routes.js';
import { BUDGET_READ_ACTIONS, BUDGET_TABLE_ACTIONS } from './budget.js';
import { BUNDLE_ALIASES, ESM_REQUIRE_BANNER, STYLE_PACK_ROUTES, stylePackDir } from './bundling.js';
import { type JobGrantUse, jobActions } from './job-grants.js';
import { PACE_TABLE_ACTIONS, paceKeyCondition } from './pace.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The design card's runtime; the AwsSolutions-L1 acknowledgement below says why not nodejs24.x. */
export const RUNTIME = lambda.Runtime.NODEJS_22_X;

/**
 * API Gateway gives up on an integration after 29 s. The function's own request deadline
 * (REQUEST_DEADLINE_MS, 25 s by default) ends every upstream wait and leaves time to answer with an
 * envelope; 28 s lets that answer out even after a slow cold start, while a function that still hangs is
 * stopped by Lambda (and counted by the Errors alarm) before the gateway's own 504.
 */
export const TIMEOUT = Duration.seconds(28);

/** The Lambda environment every function gets (contract: names the code reads). */
export const SERVICE_ENVIRONMENT = {
  POWERTOOLS_SERVICE_NAME: 'search-citation-api',
  POWERTOOLS_METRICS_NAMESPACE: 'SearchCitationApi',
} as const;

/**
 * What a function may do with the shared cache table: read one item or a page of them, write new
 * answers. No Query, Scan, UpdateItem or DeleteItem: the cache is read by key and expires by TTL.
 */
export const CACHE_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:PutItem',
  'dynamodb:BatchWriteItem',
] as const;

/**
 * A function's grant on the shared cache table: CACHE_TABLE_ACTIONS on the keys under its route's prefix
 * alone (IAM's dynamodb:LeadingKeys: every partition key a call names must match), so that no function can
 * write, or read, another route's answers.
 */
export function cacheKeyCondition(routeName: string) {
  return { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${cacheKeyPrefix(routeName)}*`] } };
}

/** Set only with the `sourceMaps` setting: parsing the map at start costs every cold start. */
export const SOURCE_MAPS_ENVIRONMENT = { NODE_OPTIONS: '--enable-source-maps' } as const;

/** The bucket's logical id as the template (and cdk-nag's finding) writes it. */
function bucketLogicalId(scope: Construct, bucket: Node): string {
  const stack = Stack.of(scope);
  return stack.resolve(stack.getLogicalId(bucket.defaultChild as CfnElement)) as string;
}

export interface ApiFunctionProps {
  route: Route;
  memorySize: number;
  logRetention: logs.RetentionDays;
  tracing: boolean;
  /** Source-mapped stack traces at run time (NODE_OPTIONS=--enable-source-maps). */
  sourceMaps: boolean;
  /** Secret id (name or ARN) the code reads, and the ARN the role may read. */
  clientKeysSecret: { id: string; arn: string };
  /** Read only by the routes that need the SerpApi key (`needs.upstreamKey`). */
  upstreamKeySecret: { id: string; arn: string };
  /**
   * The shared cache table (CACHE_TABLE_NAME), for the routes that use it (`needs.sharedCache`); unset, or
   * for another route: the function caches in memory only.
   */
  cacheTable?: { tableName: string; tableArn: string };
  /**
   * The deployment's pace table (PACE_TABLE_NAME), for the routes that keep an upstream's pace
   * (`needs.paces`); unset, or for another route: each container keeps its own pace.
   */
  paceTable?: { tableName: string; tableArn: string };
  /** Reserved concurrency: at most this many instances, and this many kept for the function alone. */
  reservedConcurrency?: number;
  /** Cache lifetimes in seconds (CITE_CACHE_TTL_SECONDS, ANSWER_CACHE_TTL_SECONDS); unset: the code's defaults. */
  citeCacheTtlSeconds?: number;
  answerCacheTtlSeconds?: number;
  /** CROSSREF_MAILTO: the contact address for Crossref's polite pool; unset: the public pool. */
  crossrefMailto?: string;
  /**
   * The spending budget: its counter table and limits, for the routes that use it (`needs.budget`); unset,
   * or for another route: the code's defaults, counted in memory.
   */
  budget?: {
    table: { tableName: string; tableArn: string };
    searchesPerHour: number;
    searchesPerMonth: number;
    failClosed: boolean;
  };
  /**
   * The jobs' table, bucket and queue (docs/decisions.md §27), for the routes that use them (`needs.jobs`)
   * and the worker (`jobUses`); unset, or for another route: none.
   */
  jobs?: {
    table: { tableName: string; tableArn: string };
    bucket: { bucketName: string; bucketArn: string; node: Node };
    queue: { queueUrl: string; queueArn: string };
    ttlDays: number;
  };
  /** The jobs' uses of a function no route names (the worker); a route's come from `needs.jobs`. */
  jobUses?: readonly JobGrantUse[];
  /** Whether it checks client keys (every endpoint does); the jobs' worker, which no client calls, does not. */
  readsClientKeys?: boolean;
  /** The function's description; default: the route's summary and path. */
  description?: string;
  /** Variables of its own, beside the service's. */
  environment?: Record<string, string>;
  /** Default: TIMEOUT. */
  timeout?: Duration;
  /**
   * The CSL style pack's layer (infra/style-pack-layer.ts), one for the stack: attached to the functions
   * that read the pack (STYLE_PACK_ROUTES), which are told where it lies (STYLE_PACK_DIR); no other has it.
   */
  stylePackLayer: lambda.ILayerVersion;
  /**
   * Lambda's own START/END/REPORT lines left out (JSON log format, system log level WARN): for a function
   * called on every request a stranger sends (the authorizer), where they would be most of the log bill.
   */
  quietPlatformLogs?: boolean;
}

export class ApiFunction extends Construct {
  /** The route it serves: what it needs comes from there. */
  readonly route: Route;
  readonly function: NodejsFunction;
  readonly logGroup: logs.LogGroup;
  readonly role: iam.Role;
  /** Whether its role may read the client keys (every endpoint's; not the jobs' worker's). */
  readonly readsClientKeys: boolean;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const { route } = props;
    this.route = route;
    const { needs } = route;
    const cacheTable = needs.sharedCache ? props.cacheTable : undefined;
    const budget = needs.budget === 'none' ? undefined : props.budget;
    const jobUses = [...(needs.jobs ?? []), ...(props.jobUses ?? [])];
    const jobs = jobUses.length > 0 ? props.jobs : undefined;
    const readsClientKeys = props.readsClientKeys ?? true;
    this.readsClientKeys = readsClientKeys;
    const paces = needs.paces ?? [];
    const paceTable = paces.length > 0 ? props.paceTable : undefined;
    const readsStylePack = STYLE_PACK_ROUTES.has(route.name);

    // Created here rather than by Lambda on first write, so that it has a retention. Kept after a
    // teardown (the request lines are the record of who called what); the retention still ends them.
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Not the default role: AWSLambdaBasicExecutionRole may create and write any log group in the account.
    const uses = [
      'writes its own log group',
      ...(readsClientKeys ? ['reads the client keys'] : []),
      ...(needs.upstreamKey ? ['reads the SerpApi key'] : []),
      ...(cacheTable ? [`uses the cache table under ${cacheKeyPrefix(route.name)}`] : []),
      ...(budget ? [needs.budget === 'reserve' ? 'reserves searches in the budget' : 'reads the budget'] : []),
      ...(jobs ? [`uses the jobs' store and queue (${jobUses.join(', ')})`] : []),
      ...(paceTable ? [`keeps the pace of ${paces.join(' and ')}`] : []),
    ];
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${route.path}: ${uses.join(', ')}`,
    });
    this.role = role;
    this.logGroup.grantWrite(role);
    if (readsClientKeys) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'ReadClientKeys',
          actions: ['secretsmanager:GetSecretValue'],
          resources: [props.clientKeysSecret.arn],
        }),
      );
    }
    if (needs.upstreamKey) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'ReadUpstreamKey',
          actions: ['secretsmanager:GetSecretValue'],
          resources: [props.upstreamKeySecret.arn],
        }),
      );
    }
    if (cacheTable) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'UseOwnCacheKeys',
          actions: [...CACHE_TABLE_ACTIONS],
          resources: [cacheTable.tableArn],
          conditions: cacheKeyCondition(route.name),
        }),
      );
    }
    if (budget) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: needs.budget === 'reserve' ? 'ReserveSearches' : 'ReadBudget',
          actions: [...(needs.budget === 'reserve' ? BUDGET_TABLE_ACTIONS : BUDGET_READ_ACTIONS)],
          resources: [budget.table.tableArn],
        }),
      );
    }

    if (jobs) {
      const actions = jobActions(jobUses);
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid: 'UseJobTable', actions: [...actions.table], resources: [jobs.table.tableArn] }),
      );
      if (actions.bucket.length > 0) {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            sid: 'UseJobBucket',
            actions: [...actions.bucket],
            resources: [`${jobs.bucket.bucketArn}/jobs/*`],
          }),
        );
        Validations.of(role).acknowledge({
          id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bucketLogicalId(this, jobs.bucket.node)}.Arn>/jobs/*]`,
          reason:
            "Objects are named by the job they belong to (jobs/<job id>/…), which no grant can know ahead: the prefix holds only jobs' " +
            'values too large for a table item, in a bucket of their own, and only object reads and writes are granted.',
        });
      }
      if (actions.queue.length > 0) {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({ sid: 'UseJobQueue', actions: [...actions.queue], resources: [jobs.queue.queueArn] }),
        );
      }
    }
    if (paceTable) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'KeepPaces',
          actions: [...PACE_TABLE_ACTIONS],
          resources: [paceTable.tableArn],
          conditions: paceKeyCondition(paces),
        }),
      );
    }

    this.function = new NodejsFunction(this, 'Function', {
      entry: `${ROOT}functions/${route.name}.ts`,
      handler: 'handler',
      projectRoot: ROOT,
      depsLockFilePath: `${ROOT}package-lock.json`,
      description: props.description ?? `${route.summary} (POST ${route.path})`,
      runtime: RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout ?? TIMEOUT,
      reservedConcurrentExecutions: props.reservedConcurrency,
      role,
      logGroup: this.logGroup,
      // The style pack, deployed once for the functions that read it rather than in each one's zip.
      ...(readsStylePack ? { layers: [props.stylePackLayer] } : {}),
      ...(props.quietPlatformLogs
        ? {
            loggingFormat: lambda.LoggingFormat.JSON,
            systemLogLevelV2: lambda.SystemLogLevel.WARN,
            applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
          }
        : {}),
      tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      environment: {
        ...SERVICE_ENVIRONMENT,
        ...(props.sourceMaps ? SOURCE_MAPS_ENVIRONMENT : {}),
        // Named even where it is never read (the jobs' worker checks no key): the configuration requires a key source.
        CLIENT_KEYS_SECRET_ID: props.clientKeysSecret.id,
        // A route without the key is told so: nothing in it loads the key (lib/credentials/upstream-key.ts).
        ...(needs.upstreamKey ? { SERPAPI_SECRET_ID: props.upstreamKeySecret.id } : { NO_UPSTREAM_KEY: 'true' }),
        ...(cacheTable ? { CACHE_TABLE_NAME: cacheTable.tableName, CACHE_KEY_PREFIX: cacheKeyPrefix(route.name) } : {}),
        ...(props.citeCacheTtlSeconds === undefined ? {} : { CITE_CACHE_TTL_SECONDS: String(props.citeCacheTtlSeconds) }),
        ...(props.answerCacheTtlSeconds === undefined ? {} : { ANSWER_CACHE_TTL_SECONDS: String(props.answerCacheTtlSeconds) }),
        ...(props.crossrefMailto ? { CROSSREF_MAILTO: props.crossrefMailto } : {}),
        ...(paceTable ? { PACE_TABLE_NAME: paceTable.tableName } : {}),
        // Where Lambda puts the style pack's layer (/opt/csl-style-pack): lib/citations/render/style-catalogue.ts.
        ...(readsStylePack ? { STYLE_PACK_DIR: stylePackDir() } : {}),
        // No CITATION_STYLES_AT_INIT: every function builds its citation styles while its first citation
        // request waits on the network, which answered a new container's first request sooner than a build
        // at start-up at realistic latencies (the benchmark's first answers; docs/decisions.md §26).
        ...(jobs
          ? {
              JOBS_TABLE_NAME: jobs.table.tableName,
              JOBS_BUCKET_NAME: jobs.bucket.bucketName,
              JOBS_QUEUE_URL: jobs.queue.queueUrl,
              JOBS_TTL_DAYS: String(jobs.ttlDays),
            }
          : {}),
        ...(budget
          ? {
              BUDGET_TABLE_NAME: budget.table.tableName,
              SEARCHES_PER_HOUR: String(budget.searchesPerHour),
              SEARCHES_PER_MONTH: String(budget.searchesPerMonth),
              BUDGET_FAIL_CLOSED: String(budget.failClosed),
            }
          : {}),
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        platform: 'node',
        // ESM builds of the dependencies, so that esbuild can drop what is not used.
        mainFields: ['module', 'main'],
        minify: true,
        sourceMap: true,
        // Stack traces need the mappings only; leaving the sources out keeps the zip small.
        sourcesContent: false,
        logLevel: LogLevel.WARNING,
        // The runtime's own AWS SDK v3 (Secrets Manager and DynamoDB clients), left out of the bundle: it is
        // ~300 KiB of each bundle otherwise, and the code imports it only on the first secret read or table
        // access, so a cold start never loads it before it is needed (measured: README, "Performance").
        // The trade-off is the SDK version, the runtime's.
        bundleAwsSDK: false,
        banner: ESM_REQUIRE_BANNER,
        // citation-js's remote-input fetchers, never called here: ~100 KiB less to parse per cold start.
        esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([name, path]) => [`--alias:${name}`, path])),
      },
    });

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'nodejs22.x on purpose: the runtime the design fixes and the closest to the Node versions the tests run on. ' +
        'It is in standard support, patched by AWS, until its published deprecation (2027); moving to nodejs24.x ' +
        'is the RUNTIME constant in infra/api-function.ts, to change once the toolchain is tested on Node 24.',
    });
    if (props.tracing) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Added by Lambda active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no ' +
          'resource-level permissions, so AWS documents Resource "*" for them. They write traces only.',
      });
    }
  }
}
