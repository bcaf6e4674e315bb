/**
 * What a team may choose at deploy time, as CDK context (`cdk deploy -c throttleRateLimit=20`, or the
 * "context" block of cdk.json). Everything has a default that is safe to deploy as is; a bad value fails
 * the synth with a message naming the key, never a half-configured stack.
 */
import type { Node } from 'constructs';

export interface StackSettings {
  /** API Gateway stage name: the first path segment of the execute-api URL. */
  stageName: string;
  /** Steady-state requests per second the stage accepts before answering 429 RATE_LIMITED. */
  throttleRateLimit: number;
  /** Requests the stage accepts in a burst above the rate. */
  throttleBurstLimit: number;
  /** Retention of every log group the stack creates. */
  logRetentionDays: number;
  /** Lambda memory in MB (CPU share grows with it). */
  memorySize: number;
  /** X-Ray active tracing on the stage and every function. */
  tracing: boolean;
  /**
   * Source-mapped stack traces in the functions' error logs (NODE_OPTIONS=--enable-source-maps). Off by
   * default: it costs every cold start ~5 ms of map parsing (README, "Performance"); the maps are deployed
   * either way, so a minified stack can still be mapped offline.
   */
  sourceMaps: boolean;
  /** Name or complete ARN of an existing client key secret; unset: the stack creates one. */
  clientKeysSecret?: string;
  /** Name or complete ARN of an existing upstream key secret; unset: the stack creates one. */
  upstreamKeySecret?: string;
  /** SNS topic ARN that every alarm notifies; unset: alarms only change state (dashboard, console). */
  alarmTopicArn?: string;
  /**
   * Whether the stack sets the account's API Gateway CloudWatch Logs role, without which a stage cannot
   * write logs. Turn off when the account already has one (it is one setting per account and region).
   */
  apiGatewayCloudWatchRole: boolean;
}

export const DEFAULT_SETTINGS: Readonly<StackSettings> = Object.freeze({
  stageName: 'prod',
  // A team's interactive and agent traffic fits well below this; a runaway loop is cut off at ~10
  // paid searches a second (cite search makes up to 21 upstream calls per request) instead of draining
  // the SerpApi plan in minutes. Raise it per deployment with -c.
  throttleRateLimit: 10,
  throttleBurstLimit: 20,
  logRetentionDays: 30,
  // A request mostly waits on SerpApi, then parses its JSON (up to 21 answers for a cite search). 512 MB
  // buys about 0.29 vCPU (a full one comes at 1,769 MB), enough to keep cold starts and parsing short,
  // while Lambda stays a rounding error next to the search each request pays for (README, "Cost").
  memorySize: 512,
  tracing: false,
  sourceMaps: false,
  apiGatewayCloudWatchRole: true,
});

// The retention periods CloudWatch Logs accepts.
const RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

/** Reads the settings from CDK context; throws one error naming every bad key. */
export function settingsFromContext(node: Pick<Node, 'tryGetContext'>): StackSettings {
  const problems: string[] = [];
  const read = (key: keyof StackSettings): unknown => {
    const value: unknown = node.tryGetContext(key);
    return value === '' || value === null ? undefined : value;
  };
  const integer = (
    key: 'throttleRateLimit' | 'throttleBurstLimit' | 'logRetentionDays' | 'memorySize',
    min: number,
    max: number,
  ) => {
    const raw = read(key);
    if (raw === undefined) return DEFAULT_SETTINGS[key];
    const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${key}: must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
      return DEFAULT_SETTINGS[key];
    }
    return value;
  };
  const flag = (key: 'tracing' | 'sourceMaps' | 'apiGatewayCloudWatchRole') => {
    const raw = read(key);
    if (raw === undefined) return DEFAULT_SETTINGS[key];
    if (raw === true || raw === 'true') return true;
    if (raw === false || raw === 'false') return false;
    problems.push(`${key}: must be true or false (got ${JSON.stringify(raw)})`);
    return DEFAULT_SETTINGS[key];
  };
  const text = (key: 'clientKeysSecret' | 'upstreamKeySecret' | 'alarmTopicArn' | 'stageName', pattern: RegExp, rule: string) => {
    const raw = read(key);
    if (raw === undefined) return undefined;
    const value = String(raw).trim();
    if (!pattern.test(value)) problems.push(`${key}: ${rule} (got ${JSON.stringify(raw)})`);
    return value;
  };

  const secretRule = 'must be a secret name or a complete Secrets Manager ARN';
  const secret = /^(arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+-[A-Za-z0-9]{6}|[\w/+=.@-]{1,512})$/;
  const settings: StackSettings = {
    stageName: text('stageName', /^[A-Za-z0-9_]{1,128}$/, 'must be letters, digits or _') ?? DEFAULT_SETTINGS.stageName,
    throttleRateLimit: integer('throttleRateLimit', 1, 10_000),
    throttleBurstLimit: integer('throttleBurstLimit', 1, 5_000),
    logRetentionDays: integer('logRetentionDays', 1, 3653),
    memorySize: integer('memorySize', 128, 10_240),
    tracing: flag('tracing'),
    sourceMaps: flag('sourceMaps'),
    clientKeysSecret: text('clientKeysSecret', secret, secretRule),
    upstreamKeySecret: text('upstreamKeySecret', secret, secretRule),
    alarmTopicArn: text('alarmTopicArn', /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/, 'must be an SNS topic ARN'),
    apiGatewayCloudWatchRole: flag('apiGatewayCloudWatchRole'),
  };
  if (!RETENTION_DAYS.includes(settings.logRetentionDays)) {
    problems.push(`logRetentionDays: must be one of ${RETENTION_DAYS.join(', ')} (got ${settings.logRetentionDays})`);
  }
  if (settings.throttleBurstLimit < settings.throttleRateLimit) {
    problems.push('throttleBurstLimit: must be at least throttleRateLimit');
  }
  if (problems.length > 0) throw new Error(`Invalid CDK context: ${problems.join('; ')}`);
  return settings;
}
