/**
 * What a team may choose at deploy time, as CDK context (`cdk deploy -c searchesPerHour=100`, or
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
   * The spending budget, in SerpApi searches (paid calls; cache hits and Crossref are free), shared by
   * every endpoint, client and container: SEARCHES_PER_HOUR and SEARCHES_PER_MONTH (0: no monthly cap).
   */
  searchesPerHour: number;
  searchesPerMonth: number;
  /** While the budget's counter cannot be reached, refuse paid searches instead of failing open. */
  budgetFailClosed: boolean;
  /**
   * The gateway's flood guard: one stage-wide steady rate (requests/s) and burst for every method. It
   * guards the functions against floods only; money is guarded by the budget, after authentication.
   */
  floodRatePerSecond: number;
  floodBurst: number;
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
   * Exact IAM principal ARNs (no wildcards) that may read the secrets the stack creates, besides the
   * functions and the admins. Everyone else is denied by the secrets' resource policies.
   */
  secretReaderArns: string[];
  /**
   * Exact IAM principal ARNs (no wildcards) of the people who manage the secrets the stack creates: they
   * may read them, write new values (client keys) and change their policies, as may the account root and
   * the deployment's CloudFormation role. Everyone else is denied those actions.
   */
  secretAdminArns: string[];
  /** SNS topic ARN that every alarm notifies; unset: the stack creates a topic. */
  alarmTopicArn?: string;
  /** E-mail address subscribed to the alarm topic (AWS sends a confirmation mail first). */
  alarmEmail?: string;
  /**
   * Upstream calls in one hour (all endpoints, all clients) above which the spend alarm fires; unset:
   * four fifths of searchesPerHour, so that it warns before the budget refuses.
   */
  spendAlarmCallsPerHour: number;
  /** A WAF web ACL on the stage with a per-IP rate rule (costs a monthly fee: README, "Cost"). */
  waf: boolean;
  /** Requests one IP address may make in any 5 minutes before WAF blocks it (with `waf`). */
  wafRequestsPer5MinutesPerIp: number;
  /**
   * Whether the stack sets the account's API Gateway CloudWatch Logs role, without which a stage cannot
   * write logs. It is one setting per account and region, so only the first copy should set it: the
   * default is on for the default stack name and off for any other (a second copy), and the role is kept
   * when the stack is deleted, so that deleting a copy never takes the account's logging with it.
   */
  apiGatewayCloudWatchRole: boolean;
}

export const DEFAULT_SETTINGS: Readonly<StackSettings> = Object.freeze({
  stackName: 'SearchCitationApi',
  stageName: 'prod',
  // The same defaults as the code (lib/config.ts); README, "Spending budget", says why these numbers.
  searchesPerHour: 250,
  searchesPerMonth: 5_000,
  budgetFailClosed: false,
  // Generous: a team's clients never meet it; a flood from one source is WAF's job (-c waf=true).
  floodRatePerSecond: 50,
  floodBurst: 100,
  logRetentionDays: 30,
  // A request mostly waits on SerpApi, then parses its JSON (up to 21 answers for a cite search). 512 MB
  // buys about 0.29 vCPU (a full one comes at 1,769 MB), enough to keep cold starts and parsing short,
  // while Lambda stays a rounding error next to the search each request pays for (README, "Cost").
  memorySize: 512,
  tracing: false,
  sourceMaps: false,
  secretReaderArns: [],
  secretAdminArns: [],
  // Four fifths of the default hourly budget: the alarm warns before the budget starts refusing.
  spendAlarmCallsPerHour: 200,
  waf: false,
  wafRequestsPer5MinutesPerIp: 300,
  apiGatewayCloudWatchRole: true,
});

// The retention periods CloudWatch Logs accepts.
const RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

/** Keys an older version read, and what replaced them: a deploy that still sets one must not pass silently. */
const REPLACED: Readonly<Record<string, string>> = {
  throttleRateLimit: 'replaced by floodRatePerSecond, the stage-wide flood guard',
  throttleBurstLimit: 'replaced by floodBurst, the stage-wide flood guard',
  upstreamCallsPerSecond:
    'replaced by searchesPerHour (the spending budget, counted after authentication) and floodRatePerSecond (the gateway flood guard)',
};

type IntegerKey =
  | 'searchesPerHour'
  | 'searchesPerMonth'
  | 'floodRatePerSecond'
  | 'floodBurst'
  | 'reservedConcurrency'
  | 'citeCacheTtlSeconds'
  | 'answerCacheTtlSeconds'
  | 'logRetentionDays'
  | 'memorySize'
  | 'spendAlarmCallsPerHour'
  | 'wafRequestsPer5MinutesPerIp';
type FlagKey = 'tracing' | 'sourceMaps' | 'waf' | 'apiGatewayCloudWatchRole' | 'budgetFailClosed';
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
  const principals = (key: 'secretReaderArns' | 'secretAdminArns') => {
    const raw = read(key);
    if (raw === undefined) return [...DEFAULT_SETTINGS[key]];
    const values = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((v) => v.trim()).filter(Boolean);
    for (const value of values) {
      // Exact principals only: a wildcard (arn:aws:iam::*:role/*) would exempt anyone from the deny.
      if (!/^arn:aws[a-z-]*:(iam|sts)::\d{12}:[\w+=,.@/-]+$/.test(value)) {
        problems.push(`${key}: each entry must be one exact IAM principal ARN, no wildcards (got ${JSON.stringify(value)})`);
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
    // The ranges lib/config.ts accepts for SEARCHES_PER_HOUR and SEARCHES_PER_MONTH.
    searchesPerHour: integer('searchesPerHour', 1, 10_000_000) ?? DEFAULT_SETTINGS.searchesPerHour,
    searchesPerMonth: integer('searchesPerMonth', 0, 1_000_000_000) ?? DEFAULT_SETTINGS.searchesPerMonth,
    budgetFailClosed: flag('budgetFailClosed'),
    // API Gateway's account limit is 10,000 requests/s; below 1 request/s or a burst of 2 a method starves.
    floodRatePerSecond: integer('floodRatePerSecond', 1, 10_000) ?? DEFAULT_SETTINGS.floodRatePerSecond,
    floodBurst: integer('floodBurst', 2, 5_000) ?? DEFAULT_SETTINGS.floodBurst,
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
    secretAdminArns: principals('secretAdminArns'),
    alarmTopicArn: text('alarmTopicArn', /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/, 'must be an SNS topic ARN'),
    alarmEmail: text('alarmEmail', /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/, 'must be one e-mail address'),
    crossrefMailto: text('crossrefMailto', /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/, 'must be one e-mail address'),
    spendAlarmCallsPerHour: 0,
    waf: flag('waf'),
    // WAF's rate-based rules count over 5 minutes and accept a limit from 10.
    wafRequestsPer5MinutesPerIp:
      integer('wafRequestsPer5MinutesPerIp', 10, 2_000_000_000) ?? DEFAULT_SETTINGS.wafRequestsPer5MinutesPerIp,
    apiGatewayCloudWatchRole: false,
  };
  settings.spendAlarmCallsPerHour =
    read('spendAlarmCallsPerHour') === undefined
      ? Math.max(1, Math.floor((settings.searchesPerHour * 4) / 5))
      : (integer('spendAlarmCallsPerHour', 1, 100_000_000) ?? DEFAULT_SETTINGS.spendAlarmCallsPerHour);
  // On by default only for the first copy (the default name); a second copy must not take over the account's role.
  const roleFlag = read('apiGatewayCloudWatchRole');
  settings.apiGatewayCloudWatchRole =
    roleFlag === undefined ? settings.stackName === DEFAULT_SETTINGS.stackName : flag('apiGatewayCloudWatchRole');
  if (!RETENTION_DAYS.includes(settings.logRetentionDays)) {
    problems.push(`logRetentionDays: must be one of ${RETENTION_DAYS.join(', ')} (got ${settings.logRetentionDays})`);
  }
  if (problems.length > 0) throw new Error(`Invalid CDK context: ${problems.join('; ')}`);
  return settings;
}
