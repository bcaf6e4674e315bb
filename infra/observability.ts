/**
 * Alarms and the one dashboard. The service's own metrics (Powertools, in the stack's own namespace:
 * SearchCitationApi for the default stack, SearchCitationApi/<stackName> for a copy; dimensions service +
 * endpoint, and service + client for usage) say what each endpoint and each client
 * did; API Gateway's and Lambda's say what the platform saw, including the answers no function made
 * (throttling, unknown paths, gateway timeouts). Every alarm notifies the alarm topic, going in and out.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CLIENT_DIMENSION, METRIC } from '../lib/metric-names.js';
import type { Route } from '../lib/routes.js';
import type { ApiFunction } from './api-function.js';
import { SERVICE_ENVIRONMENT } from './api-function.js';

const SERVICE = SERVICE_ENVIRONMENT.POWERTOOLS_SERVICE_NAME;
const PERIOD = Duration.minutes(5);

/**
 * 5XX answers in five minutes before the API alarm fires. They include the upstream's failures (502, 503
 * quota, 504), which a team wants to hear about, but a single upstream hiccup should not page anyone.
 */
export const API_5XX_THRESHOLD = 5;

/**
 * Share of the API's answers in five minutes that may be 429 before the alarm fires, once at least
 * RATE_LIMITED_MIN_REQUESTS came in: then the spending budget (or the flood guard, or WAF) turns real work
 * away, and either a client loops or the budget is too small for the team.
 */
export const RATE_LIMITED_PERCENT_THRESHOLD = 10;
export const RATE_LIMITED_MIN_REQUESTS = 20;

/**
 * 4XX answers in five minutes before the flood alarm fires: requests without a valid key (401), to no
 * endpoint (404) or over the flood guard (429), at more than 3 a second for five minutes. A team's own
 * clients make a handful; each such request costs API Gateway and a short function call, no search.
 */
export const REFUSED_FLOOD_THRESHOLD = 1_000;

/** Requests WAF's per-IP rule blocked in five minutes before its alarm fires: one address is flooding. */
export const WAF_BLOCKED_THRESHOLD = 100;

/**
 * Failed, refused or skipped calls to the shared cache table (CacheTableErrors, all endpoints) in each of
 * CACHE_TABLE_ERRORS_PERIODS five-minute periods in a row before the cache's alarm fires: a table failing
 * for ten minutes (refused by IAM, throttled, down), not a passing timeout. Every such miss can cost a paid
 * search the cache would have saved; no request fails for it.
 */
export const CACHE_TABLE_ERRORS_THRESHOLD = 5;
export const CACHE_TABLE_ERRORS_PERIODS = 2;

/**
 * Requests in five minutes that a function answered (the access log) while the functions wrote no metric,
 * before the metrics-stopped alarm fires: the spend and counter alarms read those metrics, and would stay
 * quiet forever if they stopped arriving.
 */
export const METRICS_STOPPED_MIN_ANSWERS = 10;

export interface ObservabilityProps {
  api: apigw.RestApi;
  /** The namespace the functions write to (StackSettings.metricsNamespace): this stack's metrics only. */
  metricsNamespace: string;
  /** The web ACL's rate rules, when the stage has one: their blocked requests are alarmed on. */
  waf?: { webAclName: string; ruleMetricName: string; keyedRuleMetricName: string; keyRuleMetricName: string };
  /** The queue of secret-change alerts EventBridge could not deliver to the topic: one in it is an alarm. */
  undeliveredAlerts?: sqs.IQueue;
  stageName: string;
  endpoints: ReadonlyArray<{ route: Route; fn: ApiFunction }>;
  /**
   * Functions that serve no endpoint metrics of their own (the MCP server, whose tool calls count under
   * the endpoints they run): alarmed on crashes and throttles like the endpoints, not graphed per endpoint.
   */
  otherFunctions?: ReadonlyArray<{ route: Route; fn: ApiFunction }>;
  /** The API's access log: its 429 lines are counted into a metric. */
  accessLogs: logs.ILogGroup;
  /** Every alarm notifies it when it fires and when it clears. */
  alarmTopic: sns.ITopic;
  /** Upstream calls in one hour above which the spend alarm fires. */
  spendAlarmCallsPerHour: number;
}

export class Observability extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { api, endpoints } = props;
    const METRICS_NAMESPACE = props.metricsNamespace;
    // A SEARCH schema takes a namespace of letters, digits, _ and / as is; any other (a stack name's "-") quoted.
    const searchNamespace = /^[\w/]+$/.test(METRICS_NAMESPACE) ? METRICS_NAMESPACE : JSON.stringify(METRICS_NAMESPACE);
    const apiMetric = (metricName: string, statistic: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiName: api.restApiName, Stage: props.stageName },
        statistic,
        period: PERIOD,
      });
    const serviceMetric = (metricName: string, route: Route, statistic: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: SERVICE, endpoint: route.name },
        statistic,
        period: PERIOD,
        label: route.name,
      });

    this.alarms.push(
      new cloudwatch.Alarm(this, 'Api5xx', {
        alarmDescription: `More than ${API_5XX_THRESHOLD - 1} 5XX answers in 5 minutes: upstream failing or out of quota, or the service broken. Check the dashboard's error codes.`,
        metric: apiMetric('5XXError', 'Sum'),
        threshold: API_5XX_THRESHOLD,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    // Spend: every paid call of every endpoint and client, from the usage record (dimension service alone).
    // No label on the alarm's copy: a labelled metric is written as metric math, which hides its name.
    const upstreamCallsTotal = (period: Duration, label?: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: METRIC.upstreamCalls,
        dimensionsMap: { service: SERVICE },
        statistic: 'Sum',
        period,
        label,
      });
    this.alarms.push(
      new cloudwatch.Alarm(this, 'UpstreamSpend', {
        alarmDescription: `More than ${props.spendAlarmCallsPerHour} upstream calls (paid searches, retries included) in one hour. Check the dashboard's "Upstream calls by client".`,
        metric: upstreamCallsTotal(Duration.hours(1)),
        threshold: props.spendAlarmCallsPerHour,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );

    // The budget's counter failing: searches go on uncounted (within each container's backstop), or are
    // refused with budgetFailClosed. Either way the operator must hear of it at once.
    this.alarms.push(
      new cloudwatch.Alarm(this, 'BudgetCounterErrors', {
        alarmDescription:
          'The spending budget could not reach its counter table (errors or timeouts ≥ 1 in 5 minutes): paid searches ' +
          'are going on uncounted, up to each container’s backstop ceiling (or are refused with budgetFailClosed).',
        metric: new cloudwatch.Metric({
          namespace: METRICS_NAMESPACE,
          metricName: METRIC.budgetCounterErrors,
          dimensionsMap: { service: SERVICE },
          statistic: 'Sum',
          period: PERIOD,
        }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );

    // 429s: the gateway's throttle answers never reach a function, so they are counted from the access log.
    const rateLimited = new logs.MetricFilter(this, 'RateLimitedAnswers', {
      logGroup: props.accessLogs,
      filterPattern: logs.FilterPattern.numberValue('$.status', '=', 429),
      metricNamespace: METRICS_NAMESPACE,
      metricName: METRIC.rateLimitedAnswers,
      metricValue: '1',
    }).metric({ statistic: 'Sum', period: PERIOD, label: '429 answers' });
    this.alarms.push(
      new cloudwatch.Alarm(this, 'RateLimitedShare', {
        alarmDescription: `More than ${RATE_LIMITED_PERCENT_THRESHOLD} % of answers in 5 minutes were 429 (the spending budget used up, the flood guard or WAF), with at least ${RATE_LIMITED_MIN_REQUESTS} requests.`,
        metric: new cloudwatch.MathExpression({
          expression: `IF(requests >= ${RATE_LIMITED_MIN_REQUESTS}, 100 * FILL(limited, 0) / requests, 0)`,
          usingMetrics: { limited: rateLimited, requests: apiMetric('Count', 'Sum') },
          period: PERIOD,
          label: '429 share of answers (%)',
        }),
        threshold: RATE_LIMITED_PERCENT_THRESHOLD,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );

    // A flood of refused requests: without a key (401), to no endpoint, or over the flood guard. They cost
    // no search, but API Gateway, a function call and logs each, and at the flood guard's rate they crowd
    // real clients out.
    this.alarms.push(
      new cloudwatch.Alarm(this, 'RefusedFlood', {
        alarmDescription: `${REFUSED_FLOOD_THRESHOLD} or more 4XX answers in 5 minutes: a flood without a valid key (401), to unknown paths, or over the flood guard (429). Check the access log's ip and status fields.`,
        metric: apiMetric('4XXError', 'Sum'),
        threshold: REFUSED_FLOOD_THRESHOLD,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    if (props.waf) {
      // Blocked requests never reach the stage, so the gateway's metrics do not see them.
      const wafBlocked = (id: string, rule: string, what: string) =>
        new cloudwatch.Alarm(this, id, {
          alarmDescription: `WAF blocked ${WAF_BLOCKED_THRESHOLD} or more requests in 5 minutes: ${what}. Each blocked request costs WAF's per-request fee only.`,
          metric: new cloudwatch.Metric({
            namespace: 'AWS/WAFV2',
            metricName: 'BlockedRequests',
            dimensionsMap: { WebACL: props.waf?.webAclName ?? '', Rule: rule, Region: Stack.of(this).region },
            statistic: 'Sum',
            period: PERIOD,
          }),
          threshold: WAF_BLOCKED_THRESHOLD,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        });
      this.alarms.push(
        wafBlocked(
          'WafBlocked',
          props.waf.ruleMetricName,
          'an address went over its per-IP rate for requests without a valid-looking key',
        ),
        wafBlocked(
          'WafBlockedKeyed',
          props.waf.keyedRuleMetricName,
          'an address went over its per-IP rate for requests with a key, above what clients behind one NAT send: made-up keys, or clients looping',
        ),
        wafBlocked(
          'WafBlockedKey',
          props.waf.keyRuleMetricName,
          'an address sent one Authorization header more often than one key’s share: a made-up bearer repeated, or a client looping past its rate',
        ),
      );
    }

    // The shared cache's table failing: nothing fails for it, but every miss it causes may be a paid search.
    // All endpoints together, from the totals record the functions write (dimension service alone).
    const cacheTotal = (metricName: string, label?: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: SERVICE },
        statistic: 'Sum',
        period: PERIOD,
        label,
      });
    this.alarms.push(
      new cloudwatch.Alarm(this, 'CacheTableErrors', {
        alarmDescription:
          `The shared cache table failed, refused (an IAM AccessDenied included) or was skipped ${CACHE_TABLE_ERRORS_THRESHOLD} or more ` +
          `times in each of ${CACHE_TABLE_ERRORS_PERIODS} five-minute periods in a row: answers are not shared, and each miss may be a ` +
          'paid search. The WARN lines "cache table unavailable" name the operation and the error.',
        metric: cacheTotal(METRIC.cacheTableErrors),
        threshold: CACHE_TABLE_ERRORS_THRESHOLD,
        evaluationPeriods: CACHE_TABLE_ERRORS_PERIODS,
        datapointsToAlarm: CACHE_TABLE_ERRORS_PERIODS,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    if (props.undeliveredAlerts) {
      this.alarms.push(
        new cloudwatch.Alarm(this, 'SecretChangeAlertsUndelivered', {
          alarmDescription:
            'A secret-change alert could not be delivered to the alarm topic after EventBridge’s retries: it waits in the ' +
            'dead-letter queue (14 days). Read it there, and check the topic’s policy (or its key) lets EventBridge publish.',
          metric: props.undeliveredAlerts.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }

    // A heartbeat for the service's own metrics. The spend and counter alarms read metrics that are absent
    // when all is idle, so missing data cannot fire them; if the functions stopped writing metrics while
    // serving, those alarms would stay green for ever. The access log (API Gateway's, independent of the
    // functions) counts the requests a function answered; when there are some and no Requests metric came
    // in for the same five minutes, this fires. /mcp is left out: its tool calls count under their
    // endpoints, and a request that calls no tool writes no metric.
    const answered = new logs.MetricFilter(this, 'AnsweredByFunctions', {
      logGroup: props.accessLogs,
      filterPattern: logs.FilterPattern.all(
        logs.FilterPattern.stringValue('$.httpMethod', '=', 'POST'),
        logs.FilterPattern.stringValue('$.integrationStatus', '=', '200'),
        logs.FilterPattern.stringValue('$.resourcePath', '!=', '/mcp'),
      ),
      metricNamespace: METRICS_NAMESPACE,
      metricName: METRIC.answeredByFunctions,
      metricValue: '1',
    }).metric({ statistic: 'Sum', period: PERIOD });
    this.alarms.push(
      new cloudwatch.Alarm(this, 'MetricsStopped', {
        alarmDescription: `Functions answered ${METRICS_STOPPED_MIN_ANSWERS} or more requests in 5 minutes (access log) and wrote no Requests metric: the service's metrics stopped arriving, and the spend and budget counter alarms cannot fire without them.`,
        metric: new cloudwatch.MathExpression({
          expression: `IF(FILL(answered, 0) >= ${METRICS_STOPPED_MIN_ANSWERS} AND FILL(reported, 0) == 0, 1, 0)`,
          usingMetrics: {
            answered,
            reported: new cloudwatch.Metric({
              namespace: METRICS_NAMESPACE,
              metricName: METRIC.requests,
              dimensionsMap: { service: SERVICE },
              statistic: 'Sum',
              period: PERIOD,
            }),
          },
          period: PERIOD,
          label: 'requests answered with no metric written',
        }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );

    for (const { route, fn } of [...endpoints, ...(props.otherFunctions ?? [])]) {
      // The middleware answers every failure with an envelope, so a Lambda error is a crash or a timeout: a bug.
      this.alarms.push(
        new cloudwatch.Alarm(this, `${fn.node.id}Errors`, {
          alarmDescription: `${route.path}: the function crashed or timed out (Lambda Errors ≥ 1 in 5 minutes)`,
          metric: fn.function.metricErrors({ period: PERIOD, statistic: 'Sum' }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
      // A throttled invocation is a request API Gateway answers with an error: the account's (or the
      // function's reserved) concurrency is spent.
      this.alarms.push(
        new cloudwatch.Alarm(this, `${fn.node.id}Throttles`, {
          alarmDescription: `${route.path}: Lambda refused invocations for lack of concurrency (Throttles ≥ 1 in 5 minutes). Raise the account's concurrency quota or reservedConcurrency.`,
          metric: fn.function.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
    const notify = new actions.SnsAction(props.alarmTopic);
    for (const alarm of this.alarms) {
      alarm.addAlarmAction(notify);
      alarm.addOkAction(notify);
    }

    const perEndpoint = (metricName: string, statistic: string) =>
      endpoints.map(({ route }) => serviceMetric(metricName, route, statistic));
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) =>
      new cloudwatch.GraphWidget({ title, left, width, height: 6, legendPosition: cloudwatch.LegendPosition.BOTTOM });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          new cloudwatch.TextWidget({
            markdown: `# Search and Citation API\nService metrics: namespace \`${METRICS_NAMESPACE}\`, dimensions \`service\` + \`endpoint\`. Gateway: REST API \`${api.restApiName}\`, stage \`${props.stageName}\`.`,
            width: 16,
            height: 2,
          }),
          new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 8, height: 2 }),
        ],
        [
          graph('Gateway: requests and errors', [
            apiMetric('Count', 'Sum'),
            apiMetric('4XXError', 'Sum'),
            apiMetric('5XXError', 'Sum'),
          ]),
          graph('Gateway: latency (p50, p99) and integration latency (p99)', [
            apiMetric('Latency', 'p50'),
            apiMetric('Latency', 'p99'),
            apiMetric('IntegrationLatency', 'p99'),
          ]),
          graph('Errors by code (all endpoints)', [
            new cloudwatch.MathExpression({
              expression: `SEARCH('{${searchNamespace},endpoint,errorCode,service} MetricName="${METRIC.errorsByCode}"', 'Sum', ${PERIOD.toSeconds()})`,
              label: '',
              period: PERIOD,
            }),
          ]),
        ],
        [
          graph('Requests per endpoint', perEndpoint(METRIC.requests, 'Sum')),
          graph('Errors per endpoint', perEndpoint(METRIC.errors, 'Sum')),
          graph('Latency per endpoint (p99, ms)', perEndpoint(METRIC.latency, 'p99')),
        ],
        [
          graph(
            'Upstream calls by client (hourly)',
            [
              new cloudwatch.MathExpression({
                expression: `SEARCH('{${searchNamespace},${CLIENT_DIMENSION},service} MetricName="${METRIC.upstreamCalls}"', 'Sum', 3600)`,
                label: '',
                period: Duration.hours(1),
              }),
              upstreamCallsTotal(Duration.hours(1), 'all clients'),
            ],
            16,
          ),
          graph('429 answers (access log: gateway throttles and functions)', [rateLimited]),
        ],
        [
          graph('Upstream calls per endpoint (attempts, retries included)', perEndpoint(METRIC.upstreamCalls, 'Sum')),
          graph('Upstream latency per endpoint (p99, ms)', perEndpoint(METRIC.upstreamLatency, 'p99')),
          graph('Cache hits per endpoint', perEndpoint(METRIC.cacheHits, 'Sum')),
        ],
        [
          graph('Cache table errors and questions paid twice (all endpoints)', [
            cacheTotal(METRIC.cacheTableErrors, 'table errors'),
            cacheTotal(METRIC.cacheDuplicateCalls, 'duplicate calls'),
          ]),
        ],
        [
          graph(
            'Lambda duration (p99, ms)',
            endpoints.map(({ route, fn }) => fn.function.metricDuration({ period: PERIOD, statistic: 'p99', label: route.name })),
          ),
          graph(
            'Lambda errors and throttles',
            endpoints.flatMap(({ route, fn }) => [
              fn.function.metricErrors({ period: PERIOD, statistic: 'Sum', label: `${route.name} errors` }),
              fn.function.metricThrottles({ period: PERIOD, statistic: 'Sum', label: `${route.name} throttles` }),
            ]),
          ),
          graph(
            'Lambda concurrent executions (max)',
            endpoints.map(({ route, fn }) =>
              fn.function.metric('ConcurrentExecutions', { period: PERIOD, statistic: 'Maximum', label: route.name }),
            ),
          ),
        ],
      ],
    });
  }
}
