/**
 * The web ACL (on by default; `-c waf=false` leaves it out). AWS WAF runs before everything else API
 * Gateway does with a request (resource policy, authorizer, throttling), so what it blocks costs WAF's
 * per-request fee only. Four rules, answered in the service's own envelope:
 *
 * 0. A body over 16 KiB (the API's own limit, MAX_BODY_BYTES): 413. WAF sees the first 16 KiB of a body
 *    sent to API Gateway; a larger one is "oversize" and matches. A route whose contract takes more (a
 *    reference list's 256 KiB, a job's 5 MiB: `maxBodyBytes` in lib/routes.ts) is left out of the rule, by
 *    its path's end (the stage's name may come before it): WAF cannot see past 16 KiB, so its function keeps
 *    the limit.
 * 1. Per address, requests without a valid-looking key (lib/auth/bearer.ts): more than
 *    `wafRequestsPer5MinutesPerIp` in any 5 minutes and the address is blocked, 429. Requests that carry a
 *    key of the right shape never count here, so clients behind one NAT are never blocked by it.
 * 2. Per address, requests with a valid-looking key: a far higher limit, `wafKeyedRequestsPer5MinutesPerIp`,
 *    which a NAT of clients within their own rates stays under, and which bounds the authorizer's
 *    invocations from one host making keys up (each new token is one).
 * 3. Per address and Authorization header (WAF's custom aggregation keys, IP + header, over the 5-minute
 *    evaluation window): `wafRequestsPer5MinutesPerKey`, one key's share of an address. A made-up bearer sent
 *    again and again is answered from the authorizer's cache without invoking it, so only this rule stops it
 *    before it takes the account's API Gateway capacity. The header is compared with its runs of white space
 *    compressed and in lower case, so that "Bearer  x" and "bearer x" are the same key here, as they are to
 *    the authorizer (lib/auth/bearer.ts). A request without the header is no instance of it (WAF counts
 *    only requests holding every key), and the rule is scoped to valid-looking keys anyway.
 *
 * Optional request logging (`wafLogging`) to a log group of its own, with the Authorization header redacted.
 */
import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { VALID_LOOKING_AUTHORIZATION } from '../lib/auth/bearer.js';
import { MAX_BODY_BYTES } from '../lib/middleware/body.js';
import { ROUTES } from '../lib/routes.js';
import { envelopeTemplate } from './gateway-responses.js';

export interface RateLimitAclProps {
  /** The stage the web ACL guards. */
  stage: apigw.Stage;
  requestsPer5MinutesPerIp: number;
  keyedRequestsPer5MinutesPerIp: number;
  requestsPer5MinutesPerKey: number;
  /** A log group `aws-waf-logs-<stack>` receiving every request's record (Authorization redacted). */
  logging?: { retention: logs.RetentionDays };
}

/** The window every rate rule counts over (WAF's evaluation window, seconds; 300 is also its default). */
export const WAF_EVALUATION_WINDOW_SECONDS = 300;

/** Seconds a blocked address is told to wait: WAF re-evaluates its rate over a 5-minute window. */
export const WAF_RETRY_AFTER_SECONDS = WAF_EVALUATION_WINDOW_SECONDS;

/** The body size WAF blocks above: the API's own limit, which is also what WAF sees of a body by default. */
export const WAF_MAX_BODY_BYTES = MAX_BODY_BYTES;

/** The paths whose routes take bodies over WAF_MAX_BODY_BYTES: their functions keep their own limit. */
export const LARGE_BODY_PATHS: readonly string[] = ROUTES.filter((route) => (route.maxBodyBytes ?? 0) > WAF_MAX_BODY_BYTES).map(
  (route) => route.path,
);

/** A body over the API's own limit, on a path that is none of LARGE_BODY_PATHS. */
function oversizeBody(): wafv2.CfnWebACL.StatementProperty {
  const oversize: wafv2.CfnWebACL.StatementProperty = {
    sizeConstraintStatement: {
      fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
      comparisonOperator: 'GT',
      size: WAF_MAX_BODY_BYTES,
      textTransformations: [{ priority: 0, type: 'NONE' }],
    },
  };
  const paths = LARGE_BODY_PATHS.map(
    (path): wafv2.CfnWebACL.StatementProperty => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'ENDS_WITH',
        searchString: path,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    }),
  );
  if (paths.length === 0) return oversize;
  const large = paths.length === 1 ? (paths[0] as wafv2.CfnWebACL.StatementProperty) : { orStatement: { statements: paths } };
  return { andStatement: { statements: [oversize, { notStatement: { statement: large } }] } };
}

/** The Authorization header as WAF reads it: the header itself, untransformed. */
const AUTHORIZATION = { singleHeader: { Name: 'authorization' } };

const VALID_LOOKING_KEY: wafv2.CfnWebACL.StatementProperty = {
  regexMatchStatement: {
    regexString: VALID_LOOKING_AUTHORIZATION,
    fieldToMatch: AUTHORIZATION,
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
};

/**
 * The Authorization header as one aggregation key: runs of white space made one, then lower case. The
 * scheme word and its spaces (any case, one or more) then cannot make one key many instances; keys that
 * differ only in letter case count together, which only makes the rule stricter.
 */
const KEY_AS_THE_AUTHORIZER_READS_IT: wafv2.CfnWebACL.TextTransformationProperty[] = [
  { priority: 0, type: 'COMPRESS_WHITE_SPACE' },
  { priority: 1, type: 'LOWERCASE' },
];

export class RateLimitAcl extends Construct {
  readonly acl: wafv2.CfnWebACL;
  /** The web ACL's name, also its metric name: the WebACL dimension of its AWS/WAFV2 metrics. */
  readonly webAclName: string;
  /** The per-IP rule for requests without a valid-looking key: its name is the Rule dimension of its metrics. */
  readonly ruleMetricName: string;
  /** The per-IP rule for requests with a valid-looking key. */
  readonly keyedRuleMetricName: string;
  /** The rule per IP and Authorization header: one key repeated from one address. */
  readonly keyRuleMetricName: string;
  readonly bodyRuleMetricName: string;
  readonly logGroup?: logs.LogGroup;

  constructor(scope: Construct, id: string, props: RateLimitAclProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const metricPrefix = stack.stackName;
    // Named after the stack (unique per copy) and named as its metrics, so that alarms find them by either.
    this.webAclName = `${metricPrefix}-acl`;
    this.ruleMetricName = `${metricPrefix}-per-ip-rate`;
    this.keyedRuleMetricName = `${metricPrefix}-per-ip-keyed-rate`;
    this.keyRuleMetricName = `${metricPrefix}-per-ip-key-rate`;
    this.bodyRuleMetricName = `${metricPrefix}-body-size`;
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    const rateLimited: wafv2.CfnWebACL.RuleActionProperty = {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: 'rateLimited',
          responseHeaders: [{ name: 'Retry-After', value: String(WAF_RETRY_AFTER_SECONDS) }],
        },
      },
    };
    this.acl = new wafv2.CfnWebACL(this, 'Acl', {
      name: this.webAclName,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      description: 'Blocks bodies over the API limit, and addresses over their request rate, before the API',
      visibilityConfig: visibility(this.webAclName),
      customResponseBodies: {
        rateLimited: {
          contentType: 'APPLICATION_JSON',
          content: envelopeTemplate(
            'RATE_LIMITED',
            'Too many requests from this address; retry after the seconds in Retry-After',
          ),
        },
        tooLarge: {
          contentType: 'APPLICATION_JSON',
          content: envelopeTemplate('PAYLOAD_TOO_LARGE', `body: must be at most ${WAF_MAX_BODY_BYTES} bytes`),
        },
      },
      rules: [
        {
          name: this.bodyRuleMetricName,
          priority: 0,
          statement: oversizeBody(),
          action: { block: { customResponse: { responseCode: 413, customResponseBodyKey: 'tooLarge' } } },
          visibilityConfig: visibility(this.bodyRuleMetricName),
        },
        {
          name: this.ruleMetricName,
          priority: 1,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: props.requestsPer5MinutesPerIp,
              evaluationWindowSec: WAF_EVALUATION_WINDOW_SECONDS,
              scopeDownStatement: { notStatement: { statement: VALID_LOOKING_KEY } },
            },
          },
          action: rateLimited,
          visibilityConfig: visibility(this.ruleMetricName),
        },
        {
          name: this.keyedRuleMetricName,
          priority: 2,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: props.keyedRequestsPer5MinutesPerIp,
              evaluationWindowSec: WAF_EVALUATION_WINDOW_SECONDS,
              scopeDownStatement: VALID_LOOKING_KEY,
            },
          },
          action: rateLimited,
          visibilityConfig: visibility(this.keyedRuleMetricName),
        },
        {
          name: this.keyRuleMetricName,
          priority: 3,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'CUSTOM_KEYS',
              customKeys: [
                { ip: {} },
                { header: { name: 'authorization', textTransformations: KEY_AS_THE_AUTHORIZER_READS_IT } },
              ],
              limit: props.requestsPer5MinutesPerKey,
              evaluationWindowSec: WAF_EVALUATION_WINDOW_SECONDS,
              scopeDownStatement: VALID_LOOKING_KEY,
            },
          },
          action: rateLimited,
          visibilityConfig: visibility(this.keyRuleMetricName),
        },
      ],
    });
    // The stage ARN holds a reference to the stage, so CloudFormation creates the stage first.
    new wafv2.CfnWebACLAssociation(this, 'Association', { resourceArn: props.stage.stageArn, webAclArn: this.acl.attrArn });

    if (props.logging) {
      // WAF writes only to a log group whose name starts with aws-waf-logs-, given by its ARN without ":*".
      const logGroupName = `aws-waf-logs-${metricPrefix}`;
      const logGroupArn = stack.formatArn({
        service: 'logs',
        resource: 'log-group',
        resourceName: logGroupName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      });
      this.logGroup = new logs.LogGroup(this, 'Logs', {
        logGroupName,
        retention: props.logging.retention,
        removalPolicy: RemovalPolicy.RETAIN,
      });
      // The delivery policy WAF needs on the group, for this account's web ACLs only.
      const delivery = new logs.ResourcePolicy(this, 'LogDelivery', {
        policyStatements: [
          new iam.PolicyStatement({
            principals: [new iam.ServicePrincipal('delivery.logs.amazonaws.com')],
            actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            resources: [`${logGroupArn}:*`],
            conditions: {
              StringEquals: { 'aws:SourceAccount': stack.account },
              ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'logs', resource: '*' }) },
            },
          }),
        ],
      });
      const logging = new wafv2.CfnLoggingConfiguration(this, 'Logging', {
        resourceArn: this.acl.attrArn,
        logDestinationConfigs: [logGroupArn],
        // Never the key: WAF logs every header it sees unless told otherwise.
        redactedFields: [{ singleHeader: { Name: 'authorization' } }],
      });
      logging.node.addDependency(this.logGroup, delivery);
    }
  }
}
