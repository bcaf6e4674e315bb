/**
 * The web ACL (on by default; `-c waf=false` leaves it out): one rate-based rule that blocks an IP address making more than
 * `wafRequestsPer5MinutesPerIp` requests in any 5 minutes, answered with the service's own 429 envelope.
 * Without it, unauthenticated traffic draws from the same stage-wide flood guard as real clients (each such
 * request is answered 401 by a function, with no paid call), so one address could hold every client at 429.
 */
import { Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { envelopeTemplate } from './gateway-responses.js';

export interface RateLimitAclProps {
  /** The stage the web ACL guards. */
  stage: apigw.Stage;
  requestsPer5MinutesPerIp: number;
}

/** Seconds a blocked address is told to wait: WAF re-evaluates its rate over a 5-minute window. */
export const WAF_RETRY_AFTER_SECONDS = 300;

export class RateLimitAcl extends Construct {
  readonly acl: wafv2.CfnWebACL;
  /** The web ACL's name, also its metric name: the WebACL dimension of its AWS/WAFV2 metrics. */
  readonly webAclName: string;
  /** The per-IP rule's name, also its metric name: the Rule dimension of its AWS/WAFV2 metrics. */
  readonly ruleMetricName: string;

  constructor(scope: Construct, id: string, props: RateLimitAclProps) {
    super(scope, id);
    const metricPrefix = Stack.of(this).stackName;
    // Named after the stack (unique per copy) and named as its metrics, so that alarms find them by either.
    this.webAclName = `${metricPrefix}-acl`;
    this.ruleMetricName = `${metricPrefix}-per-ip-rate`;
    this.acl = new wafv2.CfnWebACL(this, 'Acl', {
      name: this.webAclName,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      description: 'Blocks an IP address over its request rate before it reaches the API',
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: this.webAclName, sampledRequestsEnabled: true },
      customResponseBodies: {
        rateLimited: {
          contentType: 'APPLICATION_JSON',
          content: envelopeTemplate(
            'RATE_LIMITED',
            'Too many requests from this address; retry after the seconds in Retry-After',
          ),
        },
      },
      rules: [
        {
          name: this.ruleMetricName,
          priority: 0,
          statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit: props.requestsPer5MinutesPerIp } },
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: 'rateLimited',
                responseHeaders: [{ name: 'Retry-After', value: String(WAF_RETRY_AFTER_SECONDS) }],
              },
            },
          },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: this.ruleMetricName,
            sampledRequestsEnabled: true,
          },
        },
      ],
    });
    // The stage ARN holds a reference to the stage, so CloudFormation creates the stage first.
    new wafv2.CfnWebACLAssociation(this, 'Association', { resourceArn: props.stage.stageArn, webAclArn: this.acl.attrArn });
  }
}
