/**
 * What a team may choose at deploy time, as CDK context (`cdk deploy -c upstreamCallsPerSecond=5`, or
 * the "context" block of cdk.json). Everything has a default that is safe to deploy as is; a bad value
 * fails the synth with a message naming the key, never a half-configured stack.
 */
import type { Node } from 'constructs';

export interface StackSettings {
  /**
   * CloudFormation stack name. A second name deploys an independent copy (e.g. staging) into the same
   * account and region: every resource name the stack chooses derives from it or is generated.
   */
  stackName: string;
  /** API Gateway stage name: the first path segment of the execute-api URL. */
  stageName: string;
  /**
   * The spending budget: paid upstream calls (SerpApi searches) per second the API may cause at most.
   * Each POST method's throttle is derived from it (infra/budget.ts); stated nowhere else.
   */
  upstreamCallsPerSecond: number;
  /** Reserved concurrency of every function, a hard cap per function; unset: none (the account's pool). */
  reservedConcurrency?: number;
  /**
   * How long the caches keep a paper's citations and an endpoint's upstream answers (seconds, 0 turns
   * that cache off), passed to every function as CITE_CACHE_TTL_SECONDS and ANSWER_CACHE_TTL_SECONDS;
   * unset: the code's defaults (30 days, 1 hour).
   */
  citeCacheTtlSeconds?: number;
  answerCacheTtlSeconds?: number;
  /**
   * Contact address sent to Crossref with every DOI lookup (CROSSREF_MAILTO): Crossref's polite pool,
   * and someone it can write to before it blocks the deployment. Unset: the anonymous public pool.
   */
  crossrefMailto?: string;
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
  /**
   * IAM principal ARNs (wildcards allowed) that may read the secrets the stack creates, besides the
   * functions: the people who add client keys. Everyone else is denied by the secrets' resource policies.
   */
  secretReaderArns: string[];
  /** SNS topic ARN that every alarm notifies; unset: the stack creates a topic. */
  alarmTopicArn?: string;
  /** E-mail address subscribed to the alarm topic (AWS sends a confirmation mail first). */
  alarmEmail?: string;
  /** Upstream calls in one hour (all endpoints, all clients) above which the spend alarm fires. */
  spendAlarmCallsPerHour: number;
  /** A WAF web ACL on the stage with a per-IP rate rule (costs a monthly fee: README, "Cost"). */
  waf: boolean;
  /** Requests one IP address may make in any 5 minutes before WAF blocks it (with `waf`). */
  wafRequestsPer5MinutesPerIp: number;
  /**
   * Whether the stack sets the account's API Gateway CloudWatch Logs role, without which a stage cannot
   * write logs. Turn off when the account already has one (it is one setting per account and region).
   */
  apiGatewayCloudWatchRole: boolean;
}

export const DEFAULT_SETTINGS: Readonly<StackSettings> = Object.freeze({
  stackName: 'SearchCitationApi',
  stageName: 'prod',
  // Ten paid searches a second at most, all methods together: a runaway loop is cut off there instead of
  // draining the SerpApi plan in minutes. The month's worst case at this rate is in README, "Cost".
  upstreamCallsPerSecond: 10,
  logRetentionDays: 30,
  // A request mostly waits on SerpApi, then parses its JSON (up to 21 answers for a cite search). 512 MB
  // buys about 0.29 vCPU (a full one comes at 1,769 MB), enough to keep cold starts and parsing short,
  // while Lambda stays a rounding error next to the search each request pays for (README, "Cost").
  memorySize: 512,
  tracing: false,
  sourceMaps: false,
  secretReaderArns: [],
  // 1,000 searches in an hour is $15 at $0.015 a search: more than a team's steady use, far less than
  // the budget's ceiling of 36,000 an hour.
  spendAlarmCallsPerHour: 1_000,
  waf: false,
  wafRequestsPer5MinutesPerIp: 300,
  apiGatewayCloudWatchRole: true,
});

// The retention periods CloudWatch Logs accepts.
const RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

/** Keys an older version read, and what replaced them: a deploy that still sets one must not pass silently. */
const REPLACED: Readonly<Record<string, string>> = {
  throttleRateLimit: 'replaced by upstreamCallsPerSecond, the one budget every method throttle is derived from',
  throttleBurstLimit: 'replaced by upstreamCallsPerSecond; each method bursts two seconds of its own rate',
};

type IntegerKey =
  | 'upstreamCallsPerSecond'
  | 'reservedConcurrency'
  | 'citeCacheTtlSeconds'
  | 'answerCacheTtlSeconds'
  | 'logRetentionDays'
  | 'memorySize'
  | 'spendAlarmCallsPerHour'
  | 'wafRequestsPer5MinutesPerIp';
type FlagKey = 'tracing' | 'sourceMaps' | 'waf' | 'apiGatewayCloudWatchRole';
type TextKey =
  | 'stackName'
  | 'stageName'
  | 'clientKeysSecret'
  | 'upstreamKeySecret'
  | 'alarmTopicArn'
  | 'alarmEmail'
  | 'crossrefMailto';

/** Reads the settings from CDK context; throws one error naming every bad key. */
export function settingsFromContext(node: Pick<Node, 'tryGetContext'>): StackSettings {
  const problems: string[] = [];
  const read = (key: string): unknown => {
    const value: unknown = node.tryGetContext(key);
    return value === '' || value === null ? undefined : value;
  };
  const integer = (key: IntegerKey, min: number, max: number): number | undefined => {
    const raw = read(key);
    if (raw === undefined) return DEFAULT_SETTINGS[key];
    const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${key}: must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
      return DEFAULT_SETTINGS[key];
    }
    return value;
  };
  const flag = (key: FlagKey) => {
    const raw = read(key);
    if (raw === undefined) return DEFAULT_SETTINGS[key];
    if (raw === true || raw === 'true') return true;
    if (raw === false || raw === 'false') return false;
    problems.push(`${key}: must be true or false (got ${JSON.stringify(raw)})`);
    return DEFAULT_SETTINGS[key];
  };
  const text = (key: TextKey, pattern: RegExp, rule: string) => {
    const raw = read(key);
    if (raw === undefined) return undefined;
    const value = String(raw).trim();
    if (!pattern.test(value)) problems.push(`${key}: ${rule} (got ${JSON.stringify(raw)})`);
    return value;
  };
  const principals = (key: 'secretReaderArns') => {
    const raw = read(key);
    if (raw === undefined) return [...DEFAULT_SETTINGS[key]];
    const values = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((v) => v.trim()).filter(Boolean);
    for (const value of values) {
      if (!/^arn:aws[a-z-]*:(iam|sts)::(\d{12}|\*):[\w+=,.@/*?-]+$/.test(value)) {
        problems.push(`${key}: each entry must be an IAM principal ARN, wildcards allowed (got ${JSON.stringify(value)})`);
      }
    }
    return values;
  };

  for (const [key, replacement] of Object.entries(REPLACED)) {
    if (read(key) !== undefined) problems.push(`${key}: ${replacement}`);
  }
  const secretRule = 'must be a secret name or a complete Secrets Manager ARN';
  const secret = /^(arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+-[A-Za-z0-9]{6}|[\w/+=.@-]{1,512})$/;
  const settings: StackSettings = {
    stackName:
      text('stackName', /^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'must start with a letter; letters, digits and -') ??
      DEFAULT_SETTINGS.stackName,
    stageName: text('stageName', /^[A-Za-z0-9_]{1,128}$/, 'must be letters, digits or _') ?? DEFAULT_SETTINGS.stageName,
    upstreamCallsPerSecond: integer('upstreamCallsPerSecond', 1, 1_000) ?? DEFAULT_SETTINGS.upstreamCallsPerSecond,
    reservedConcurrency: integer('reservedConcurrency', 1, 1_000),
    // The ranges lib/config.ts accepts, so that a value the functions would refuse fails the synth instead.
    citeCacheTtlSeconds: integer('citeCacheTtlSeconds', 0, 31_536_000),
    answerCacheTtlSeconds: integer('answerCacheTtlSeconds', 0, 604_800),
    logRetentionDays: integer('logRetentionDays', 1, 3653) ?? DEFAULT_SETTINGS.logRetentionDays,
    memorySize: integer('memorySize', 128, 10_240) ?? DEFAULT_SETTINGS.memorySize,
    tracing: flag('tracing'),
    sourceMaps: flag('sourceMaps'),
    clientKeysSecret: text('clientKeysSecret', secret, secretRule),
    upstreamKeySecret: text('upstreamKeySecret', secret, secretRule),
    secretReaderArns: principals('secretReaderArns'),
    alarmTopicArn: text('alarmTopicArn', /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/, 'must be an SNS topic ARN'),
    alarmEmail: text('alarmEmail', /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/, 'must be one e-mail address'),
    crossrefMailto: text('crossrefMailto', /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/, 'must be one e-mail address'),
    spendAlarmCallsPerHour: integer('spendAlarmCallsPerHour', 1, 100_000_000) ?? DEFAULT_SETTINGS.spendAlarmCallsPerHour,
    waf: flag('waf'),
    // WAF's rate-based rules count over 5 minutes and accept a limit from 10.
    wafRequestsPer5MinutesPerIp:
      integer('wafRequestsPer5MinutesPerIp', 10, 2_000_000_000) ?? DEFAULT_SETTINGS.wafRequestsPer5MinutesPerIp,
    apiGatewayCloudWatchRole: flag('apiGatewayCloudWatchRole'),
  };
  if (!RETENTION_DAYS.includes(settings.logRetentionDays)) {
    problems.push(`logRetentionDays: must be one of ${RETENTION_DAYS.join(', ')} (got ${settings.logRetentionDays})`);
  }
  if (problems.length > 0) throw new Error(`Invalid CDK context: ${problems.join('; ')}`);
  return settings;
}
