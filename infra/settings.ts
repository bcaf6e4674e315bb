/**
 * What a team may choose at deploy time, as CDK context (`cdk deploy -c searchesPerHour=100`, or
 * the "context" block of cdk.json). Everything has a default that is safe to deploy as is; a bad value
 * fails the synth with a message naming the key, never a half-configured stack.
 */
import type { Node } from 'constructs';
import { JOB_TTL_DAYS_DEFAULT } from '../lib/contract/jobs.js';
import { KEY_NAME } from '../lib/credentials/key-shape.js';

/** One client key's own limits at the gateway; unset: the `keyRatePerSecond` / `keyBurst` defaults. */
export interface ClientSetting {
  /** The key's name, as in the client key secret (infra/create-client-key.ts). */
  name: string;
  ratePerSecond?: number;
  burst?: number;
}

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
   * The budget's counter table kept by an earlier copy of the stack (its BudgetTableName output): a new copy
   * goes on counting this month where the old one stopped. Unset: the stack creates the table.
   */
  budgetTableName?: string;
  /**
   * An optional stage-wide ceiling (requests/s and burst) on every method, every caller together. Unset by
   * default: AWS does not document whether API Gateway counts a request against it before or after the
   * authorizer, so strangers might fill it; each key has its own limits instead (`keyRatePerSecond`), and
   * the account's own limits (10,000 requests/s, burst 5,000) bound the stage.
   */
  floodRatePerSecond?: number;
  floodBurst?: number;
  /** Every client key's steady rate (requests/s) and burst at the gateway, unless `clients` says otherwise. */
  keyRatePerSecond: number;
  keyBurst: number;
  /**
   * The client keys the gateway serves, by name: each gets an API key in a usage plan (its own rate and
   * burst). A key in the secret whose name is not listed is answered 500 SERVICE_MISCONFIGURED at the gateway.
   */
  clients: ClientSetting[];
  /**
   * Reserved concurrency of every function, a hard cap per function and what it may always use; default
   * 20 (docs/deploy-and-operations.md, "Reserved concurrency"). `none`: no cap, the account's shared pool
   * (new accounts, whose quota of 10 leaves nothing to reserve).
   */
  reservedConcurrency?: number;
  /**
   * The most this copy of the stack reserves, every function of it together (checked at synth,
   * infra/concurrency.ts): 400 by default, so that a second copy (staging) fits beside the first in what
   * an account of the default quota may reserve (1,000 less the 100 Lambda keeps unreserved: 900).
   */
  reservedConcurrencyPerCopy: number;
  /**
   * The account's Lambda concurrency quota in the region (Service Quotas, "Concurrent executions"), as the
   * deployer states it: 1,000 by default. Lambda keeps 100 of it unreserved, so a copy reserving more than
   * the rest fails at deploy; the synth refuses it first.
   */
  accountConcurrency: number;
  /**
   * How long the caches keep a paper's citations and an endpoint's upstream answers (seconds, 0 turns
   * that cache off), passed to every function as CITE_CACHE_TTL_SECONDS and ANSWER_CACHE_TTL_SECONDS;
   * unset: the code's defaults (30 days, 1 hour).
   */
  citeCacheTtlSeconds?: number;
  answerCacheTtlSeconds?: number;
  /**
   * Contact address sent to Crossref and DataCite with every lookup (CROSSREF_MAILTO): Crossref's polite
   * pool and DataCite's identified tier, whose rates are twice the anonymous ones, and someone they can write
   * to before they block the deployment. Required, like alarmEmail, unless declined: `crossrefMailto=none`
   * (the anonymous pools, half the rate, `crossrefMailtoDeclined`).
   */
  crossrefMailto?: string;
  /** `crossrefMailto=none`: the deployer chose Crossref's and DataCite's anonymous pools. */
  crossrefMailtoDeclined: boolean;
  /** Days a job and its results are kept (JOBS_TTL_DAYS; DynamoDB's TTL and the bucket's lifecycle rule delete them). */
  jobsTtlDays: number;
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
   * IAM principals that may read the secrets the stack creates, besides the functions and the admins.
   * Everyone else is denied by the secrets' resource policies. Each entry is what `aws:PrincipalArn` can
   * match (principalMatches): a user's or role's ARN (path included), the account root, or a role session's
   * ARN, which stands for its role.
   */
  secretReaderArns: string[];
  /**
   * IAM principals (the same forms as secretReaderArns) of the people who manage the secrets the stack
   * creates: they may read them, write new values (the SerpApi key, client keys) and change them in any
   * other way, as may the account root and the deployment's CloudFormation role. Every other principal is
   * denied every change. Required while the stack creates a secret: without it only the account root could
   * put the SerpApi key or add a client key, so the synth refuses instead.
   */
  secretAdminArns: string[];
  /**
   * The principals (the same forms as secretAdminArns) a dedicated deploy role trusts, alone: with it the app
   * holds a second stack, `<stackName>-Deployer` (infra/deployer.ts), deployed once by an administrator,
   * with that deploy role and the CloudFormation execution role it alone may pass; this stack deploys
   * through them, and only that execution role is exempt from the secrets' denies. Unset: the bootstrap's
   * roles, whose deploy role any principal of the account may assume if its own policies let it.
   */
  deployerArns: string[];
  /**
   * The CloudFormation service role a deploy passes with `cdk deploy --role-arn`, exempt like the CDK
   * bootstrap's own (cfn-exec-role) from the secrets' denies, so that it can update their policies and
   * tear the stack down. Unset: the bootstrap's role.
   */
  deployRoleArn?: string;
  /**
   * A CDK bootstrap of this stack's own (`cdk bootstrap --qualifier <q>`): the stack is deployed through
   * that bootstrap's roles, and the secrets' denies exempt its CloudFormation execution role instead of the
   * default bootstrap's, which every CDK app deployed to the account and region uses.
   */
  bootstrapQualifier?: string;
  /** Things a deployer should know that do not stop the synth (a role ARN without a path). */
  warnings: string[];
  /** SNS topic ARN that every alarm notifies; unset: the stack creates a topic. */
  alarmTopicArn?: string;
  /**
   * E-mail address subscribed to the alarm topic (AWS sends a confirmation mail first). Required, unless
   * `alarmTopicArn` names a topic of the team's or `alarmEmail=none` says that alarms may reach no one.
   */
  alarmEmail?: string;
  /** `alarmEmail=none`: the deployer chose alarms that notify a topic no one reads. */
  alarmsUnwatched: boolean;
  /**
   * Upstream calls in one hour (all endpoints, all clients) above which the spend alarm fires; unset:
   * four fifths of searchesPerHour, so that it warns before the budget refuses.
   */
  spendAlarmCallsPerHour: number;
  /**
   * A WAF web ACL on the stage, on by default: bodies over 16 KiB, and per address requests without a
   * valid-looking key (and a far higher rate of requests with one), blocked before API Gateway. It costs $8
   * a month plus $0.60 per million requests (docs/deploy-and-operations.md, "Cost"); `-c waf=false` leaves it
   * out.
   */
  waf: boolean;
  /**
   * Requests without a valid-looking key (lib/auth/bearer.ts) one IP address may make in any 5 minutes before
   * WAF blocks it (with `waf`). Requests with one never count here: a NAT full of clients is never blocked by it.
   */
  wafRequestsPer5MinutesPerIp: number;
  /**
   * Requests with a valid-looking key one IP address may make in any 5 minutes (with `waf`), whatever the
   * keys: the bound on the authorizer's invocations from one address making keys up (each new token is
   * one), 100 a second by default, which 20 clients behind one NAT at their full default rate stay under.
   */
  wafKeyedRequestsPer5MinutesPerIp: number;
  /**
   * Requests one IP address may make with one Authorization header in any 5 minutes (with `waf`): one
   * client's share of an address, twice what a key may send at its default rate, so that a constant
   * made-up bearer (answered from the authorizer's cache, never invoking it) is stopped early. Unset, it
   * is 3,000, or what the fastest client may send in 5 minutes (rate × 300 + burst) if more; given, the
   * synth refuses a value that would cut a client's own rate (as for wafKeyedRequestsPer5MinutesPerIp).
   */
  wafRequestsPer5MinutesPerKey: number;
  /** WAF's request log, to a log group of its own (Authorization redacted); off by default. */
  wafLogging: boolean;
  /**
   * Whether the stack sets the account's API Gateway CloudWatch Logs role, without which a stage cannot
   * write logs. It is one setting per account and region, so only the first copy should set it: the
   * default is on for the default stack name and off for any other (a second copy), and the role is kept
   * when the stack is deleted, so that deleting a copy never takes the account's logging with it.
   */
  apiGatewayCloudWatchRole: boolean;
  /**
   * The CloudWatch namespace the functions write their metrics to and the alarms and dashboard read
   * (POWERTOOLS_METRICS_NAMESPACE): `SearchCitationApi` for the default stack name, and
   * `SearchCitationApi/<stackName>` for any other, so that a second copy (staging) never counts into the
   * first copy's alarms. Derived from stackName, not a context key.
   */
  metricsNamespace: string;
}

/** The metrics namespace of the default stack; a copy writes to `<this>/<stackName>`. */
export const BASE_METRICS_NAMESPACE = 'SearchCitationApi';

/** The metrics namespace of the stack with this name (StackSettings.metricsNamespace). */
export function metricsNamespaceFor(stackName: string): string {
  return stackName === DEFAULT_SETTINGS.stackName ? BASE_METRICS_NAMESPACE : `${BASE_METRICS_NAMESPACE}/${stackName}`;
}

export const DEFAULT_SETTINGS: Readonly<StackSettings> = Object.freeze({
  stackName: 'SearchCitationApi',
  stageName: 'prod',
  // The same defaults as the code (lib/config.ts); README, "Spending budget", says why these numbers.
  searchesPerHour: 250,
  searchesPerMonth: 5_000,
  budgetFailClosed: false,
  // Generous: a team's clients never meet it; a flood from one source is WAF's job (on unless -c waf=false).
  keyRatePerSecond: 5,
  keyBurst: 10,
  clients: [],
  reservedConcurrency: 20,
  reservedConcurrencyPerCopy: 400,
  accountConcurrency: 1_000,
  jobsTtlDays: JOB_TTL_DAYS_DEFAULT,
  logRetentionDays: 30,
  // A request mostly waits on SerpApi, then parses its JSON (up to 21 answers for a cite search). 512 MB
  // buys about 0.29 vCPU (a full one comes at 1,769 MB), enough to keep cold starts and parsing short,
  // while Lambda stays a rounding error next to the search each request pays for (README, "Cost").
  memorySize: 512,
  tracing: false,
  sourceMaps: false,
  secretReaderArns: [],
  secretAdminArns: [],
  deployerArns: [],
  warnings: [],
  alarmsUnwatched: false,
  crossrefMailtoDeclined: false,
  // Four fifths of the default hourly budget: the alarm warns before the budget starts refusing.
  spendAlarmCallsPerHour: 200,
  waf: true,
  wafRequestsPer5MinutesPerIp: 300,
  // 100 requests/s from one address, whatever the keys: 20 clients behind one NAT at the default 5/s each;
  // 100 addresses to reach the account's 10,000/s, and at most 8.64 M authorizer calls a day from one.
  wafKeyedRequestsPer5MinutesPerIp: 30_000,
  // 10 requests/s with one key from one address: twice the default key rate (5/s, 1,500 in 5 minutes + burst).
  wafRequestsPer5MinutesPerKey: 3_000,
  wafLogging: false,
  apiGatewayCloudWatchRole: true,
  metricsNamespace: 'SearchCitationApi',
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
  | 'keyRatePerSecond'
  | 'keyBurst'
  | 'reservedConcurrency'
  | 'reservedConcurrencyPerCopy'
  | 'accountConcurrency'
  | 'citeCacheTtlSeconds'
  | 'answerCacheTtlSeconds'
  | 'jobsTtlDays'
  | 'logRetentionDays'
  | 'memorySize'
  | 'spendAlarmCallsPerHour'
  | 'wafRequestsPer5MinutesPerIp'
  | 'wafKeyedRequestsPer5MinutesPerIp'
  | 'wafRequestsPer5MinutesPerKey';
type FlagKey = 'tracing' | 'sourceMaps' | 'waf' | 'wafLogging' | 'apiGatewayCloudWatchRole' | 'budgetFailClosed';
type TextKey =
  | 'stackName'
  | 'stageName'
  | 'clientKeysSecret'
  | 'upstreamKeySecret'
  | 'alarmTopicArn'
  | 'alarmEmail'
  | 'crossrefMailto'
  | 'deployRoleArn'
  | 'bootstrapQualifier'
  | 'budgetTableName';

/**
 * Reads the settings from CDK context; throws one error naming every bad key. `account`: the account the
 * CDK CLI deploys to, when it knows it (CDK_DEFAULT_ACCOUNT): admins of another account are refused.
 */
export function settingsFromContext(node: Pick<Node, 'tryGetContext'>, deploy: { account?: string } = {}): StackSettings {
  const problems: string[] = [];
  const warnings: string[] = [];
  const read = (key: string): unknown => {
    const value: unknown = node.tryGetContext(key);
    return value === '' || value === null ? undefined : value;
  };
  const integer = (key: IntegerKey, min: number, max: number): number | undefined => {
    const raw = read(key);
    if (raw === undefined) return DEFAULT_SETTINGS[key];
    // The one number that may be switched off by name.
    if (key === 'reservedConcurrency' && raw === 'none') return undefined;
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
  const principals = (key: 'secretReaderArns' | 'secretAdminArns' | 'deployerArns') => {
    const raw = read(key);
    if (raw === undefined) return [...DEFAULT_SETTINGS[key]];
    const values = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((v) => v.trim()).filter(Boolean);
    const matches: string[] = [];
    for (const value of values) {
      const found = principalMatches(value);
      if ('problem' in found) problems.push(`${key}: ${found.problem} (got ${JSON.stringify(value)})`);
      else matches.push(...found.matches.filter((m) => !matches.includes(m)));
    }
    return matches;
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
    budgetTableName: text('budgetTableName', /^[A-Za-z0-9_.-]{3,255}$/, 'must be a DynamoDB table name'),
    // API Gateway's account limit is 10,000 requests/s; below 1 request/s or a burst of 2 a method starves.
    floodRatePerSecond: integer('floodRatePerSecond', 1, 10_000),
    floodBurst: integer('floodBurst', 2, 5_000),
    keyRatePerSecond: integer('keyRatePerSecond', 1, 10_000) ?? DEFAULT_SETTINGS.keyRatePerSecond,
    keyBurst: integer('keyBurst', 1, 5_000) ?? DEFAULT_SETTINGS.keyBurst,
    clients: [],
    reservedConcurrency: integer('reservedConcurrency', 1, 1_000),
    reservedConcurrencyPerCopy:
      integer('reservedConcurrencyPerCopy', 0, 10_000_000) ?? DEFAULT_SETTINGS.reservedConcurrencyPerCopy,
    // Lambda's quota starts at 10 for some new accounts and 1,000 for most.
    accountConcurrency: integer('accountConcurrency', 10, 10_000_000) ?? DEFAULT_SETTINGS.accountConcurrency,
    // The ranges lib/config.ts accepts, so that a value the functions would refuse fails the synth instead.
    citeCacheTtlSeconds: integer('citeCacheTtlSeconds', 0, 31_536_000),
    answerCacheTtlSeconds: integer('answerCacheTtlSeconds', 0, 604_800),
    // The range lib/config.ts accepts for JOBS_TTL_DAYS.
    jobsTtlDays: integer('jobsTtlDays', 1, 30) ?? DEFAULT_SETTINGS.jobsTtlDays,
    logRetentionDays: integer('logRetentionDays', 1, 3653) ?? DEFAULT_SETTINGS.logRetentionDays,
    memorySize: integer('memorySize', 128, 10_240) ?? DEFAULT_SETTINGS.memorySize,
    tracing: flag('tracing'),
    sourceMaps: flag('sourceMaps'),
    clientKeysSecret: text('clientKeysSecret', secret, secretRule),
    upstreamKeySecret: text('upstreamKeySecret', secret, secretRule),
    secretReaderArns: principals('secretReaderArns'),
    secretAdminArns: principals('secretAdminArns'),
    deployerArns: principals('deployerArns'),
    alarmTopicArn: text('alarmTopicArn', /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/, 'must be an SNS topic ARN'),
    alarmEmail:
      read('alarmEmail') === 'none'
        ? undefined
        : text('alarmEmail', /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/, 'must be one e-mail address'),
    alarmsUnwatched: read('alarmEmail') === 'none',
    crossrefMailto:
      read('crossrefMailto') === 'none'
        ? undefined
        : text('crossrefMailto', /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/, 'must be one e-mail address'),
    crossrefMailtoDeclined: read('crossrefMailto') === 'none',
    spendAlarmCallsPerHour: 0,
    waf: flag('waf'),
    // WAF's rate-based rules count over 5 minutes and accept a limit from 10.
    wafRequestsPer5MinutesPerIp:
      integer('wafRequestsPer5MinutesPerIp', 10, 2_000_000_000) ?? DEFAULT_SETTINGS.wafRequestsPer5MinutesPerIp,
    wafKeyedRequestsPer5MinutesPerIp:
      integer('wafKeyedRequestsPer5MinutesPerIp', 10, 2_000_000_000) ?? DEFAULT_SETTINGS.wafKeyedRequestsPer5MinutesPerIp,
    wafRequestsPer5MinutesPerKey:
      integer('wafRequestsPer5MinutesPerKey', 10, 2_000_000_000) ?? DEFAULT_SETTINGS.wafRequestsPer5MinutesPerKey,
    wafLogging: flag('wafLogging'),
    deployRoleArn: text(
      'deployRoleArn',
      /^arn:aws[a-z-]*:iam::\d{12}:role\/(?:[\w+=,.@-]+\/)*[\w+=,.@-]+$/,
      'must be one IAM role ARN, path included (the --role-arn given to cdk deploy)',
    ),
    // CDK's own rule for a qualifier; the default one (hnb659fds) is the shared bootstrap this setting avoids.
    bootstrapQualifier: text(
      'bootstrapQualifier',
      /^(?!hnb659fds$)[a-z0-9]{1,10}$/,
      'must be the qualifier of a bootstrap of its own: 1-10 lower-case letters and digits, not the default hnb659fds',
    ),
    warnings,
    apiGatewayCloudWatchRole: false,
    metricsNamespace: DEFAULT_SETTINGS.metricsNamespace,
  };
  settings.metricsNamespace = metricsNamespaceFor(settings.stackName);
  settings.clients = clientSettings(read('clients'), problems);
  // Alarms that reach no one are worth nothing: a flood, a spend spike or a broken counter goes unseen.
  if (!settings.alarmEmail && !settings.alarmTopicArn && !settings.alarmsUnwatched) {
    problems.push(
      'alarmEmail: required, or the alarms reach no one (a flood, a spend spike or a budget counter that stopped ' +
        'would go unseen until the bill). Give -c alarmEmail=ops@example.com (AWS mails a confirmation link first), ' +
        '-c alarmTopicArn=<a topic of yours>, or -c alarmEmail=none to deploy alarms no one reads',
    );
  }
  const accounts = new Set(
    [...settings.secretAdminArns, ...settings.secretReaderArns, ...settings.deployerArns]
      .map((arn) => arn.split(':')[4])
      .filter((a) => a && /^\d{12}$/.test(a)),
  );
  if (deploy.account && /^\d{12}$/.test(deploy.account)) {
    for (const account of accounts) {
      if (account !== deploy.account) {
        problems.push(
          `secretAdminArns / secretReaderArns / deployerArns: ${account} is not the account this deploy goes to (${deploy.account}); ` +
            "a principal of another account never matches the secrets' policies or the deploy role's trust, and an admin there could change nothing",
        );
      }
    }
  }
  for (const key of ['secretAdminArns', 'secretReaderArns', 'deployerArns'] as const) {
    for (const arn of settings[key]) {
      if (/^arn:aws[a-z-]*:iam::\d{12}:role\/[^/*]+$/.test(arn) && !settings[key].includes(arn.replace(':role/', ':role/*/'))) {
        warnings.push(
          `${key}: ${arn} names a role without a path. If the role has one (aws iam get-role --role-name ` +
            `${arn.split('/').pop()} --query Role.Arn), the secrets' policies will not match it: give that ARN, or the ` +
            'role session ARN aws sts get-caller-identity prints',
        );
      }
    }
  }
  // A secret the stack creates with no admin could be written by the account root alone: the first
  // steps after a deploy (put the SerpApi key, add a client key) would fail with AccessDenied.
  if ((!settings.clientKeysSecret || !settings.upstreamKeySecret) && settings.secretAdminArns.length === 0) {
    problems.push(
      'secretAdminArns: required while the stack creates a secret, or no one but the account root may put the SerpApi key ' +
        'or add client keys. Name who does, e.g. yourself: -c secretAdminArns=$(aws sts get-caller-identity --query Arn ' +
        '--output text) (a role session ARN stands for its role), or -c secretAdminArns=arn:aws:iam::<account>:role/<name> ' +
        '(path included; comma-separate several); -c secretAdminArns=arn:aws:iam::<account>:root leaves it to the root',
    );
  }
  // The contact address doubles the free sources' rate for the whole deployment (lib/pace/): asked for, never assumed.
  if (!settings.crossrefMailto && !settings.crossrefMailtoDeclined) {
    problems.push(
      'crossrefMailto: required, or Crossref and DataCite are asked at their anonymous rates (Crossref 5 lookups a second ' +
        'for the whole deployment, 10 with an address; DataCite half as fast) and cannot write before they block it. Give ' +
        '-c crossrefMailto=ops@example.com (sent to both with every lookup), or -c crossrefMailto=none for the anonymous pools',
    );
  }
  if (settings.crossrefMailtoDeclined) {
    warnings.push(
      'crossrefMailto=none: Crossref and DataCite are asked at their anonymous rates, half the rates with a contact address, ' +
        'and a citation page waits for them twice as long.',
    );
  }
  settings.spendAlarmCallsPerHour =
    read('spendAlarmCallsPerHour') === undefined
      ? Math.max(1, Math.floor((settings.searchesPerHour * 4) / 5))
      : (integer('spendAlarmCallsPerHour', 1, 100_000_000) ?? DEFAULT_SETTINGS.spendAlarmCallsPerHour);
  // WAF's per-key rule must never block a client within its own rate: a key sends at most rate × 300 + its
  // burst in any 5 minutes. Unset, the limit is 3,000 or, if a client may send more, that client's most.
  const keys = [
    { name: 'keyRatePerSecond / keyBurst', rate: settings.keyRatePerSecond, burst: settings.keyBurst },
    ...settings.clients.map((c) => ({
      name: `clients: ${c.name}`,
      rate: c.ratePerSecond ?? settings.keyRatePerSecond,
      burst: c.burst ?? settings.keyBurst,
    })),
  ].map((key) => ({ ...key, most: key.rate * 300 + key.burst }));
  // The same holds for the per-address rule on keyed requests: one client alone must fit in it.
  for (const limit of ['wafRequestsPer5MinutesPerKey', 'wafKeyedRequestsPer5MinutesPerIp'] as const) {
    if (read(limit) === undefined) {
      settings[limit] = Math.max(DEFAULT_SETTINGS[limit], ...keys.map((k) => k.most));
      continue;
    }
    if (!settings.waf) continue;
    for (const key of keys) {
      if (key.most > settings[limit]) {
        problems.push(
          `${limit}: ${settings[limit]} is below what ${key.name} lets one key send in 5 minutes (${key.rate}/s × 300 + ` +
            `a burst of ${key.burst} = ${key.most}): WAF would block that client within its own rate. Give -c ${limit}=${key.most} or more`,
        );
      }
    }
  }
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

/** A principal entry as the secrets' policies match it against `aws:PrincipalArn`. */
export type PrincipalMatch = { matches: string[] } | { problem: string };

const ARN_NAME = '[\\w+=,.@-]+';
const IAM_PRINCIPAL = new RegExp(`^arn:(aws[a-z-]*):iam::(\\d{12}):(user|role)/((?:${ARN_NAME}/)*)(${ARN_NAME})$`);
const ROOT = /^arn:aws[a-z-]*:iam::\d{12}:root$/;
const ROLE_SESSION = new RegExp(`^arn:(aws[a-z-]*):sts::(\\d{12}):assumed-role/(${ARN_NAME})/${ARN_NAME}$`);
/** The path IAM Identity Center gives its roles (then, in newer instances, its region and "/"). */
export const SSO_ROLE_PATH = 'aws-reserved/sso.amazonaws.com/';

/**
 * What `aws:PrincipalArn` can equal for one principal entry, or why the entry can never match. It holds a
 * user's or role's ARN with its path (`arn:aws:iam::<account>:role/<path>/<name>`), or the account root,
 * never a session, a group or a federated user. A role session's ARN (what `aws sts get-caller-identity`
 * prints for a role) names its role but not the role's path, so it becomes two matches: the role's ARN
 * with no path, and a pattern of it with any path before the name (an ArnLike match). Both name that one role:
 * a role's name is unique in its account whatever its path, and cannot hold a "/". An IAM Identity Center
 * role given without its path (aws-reserved/sso.amazonaws.com/, and the region in newer instances) is
 * refused: it would match nothing. Any other wildcard is refused: it would exempt every matching name.
 */
export function principalMatches(value: string): PrincipalMatch {
  if (ROOT.test(value)) return { matches: [value] };
  const session = ROLE_SESSION.exec(value);
  if (session) {
    const [, partition, account, role] = session;
    const roleArn = `arn:${partition}:iam::${account}:role/`;
    // An Identity Center role always has a path, so only the pattern can match it.
    const anyPath = `${roleArn}*/${role}`;
    return { matches: role?.startsWith('AWSReservedSSO_') ? [anyPath] : [`${roleArn}${role}`, anyPath] };
  }
  if (/^arn:aws[a-z-]*:iam::\d{12}:group\//.test(value)) {
    return {
      problem:
        'a group is never the principal of a request (aws:PrincipalArn names users and roles, not their groups): name each user or the role they use',
    };
  }
  const principal = IAM_PRINCIPAL.exec(value);
  if (!principal) {
    return {
      problem:
        'each entry must be one exact IAM principal ARN, no wildcards: arn:aws:iam::<account>:role/<path>/<name>, ' +
        'arn:aws:iam::<account>:user/<name>, arn:aws:iam::<account>:root, or the assumed-role ARN aws sts get-caller-identity prints',
    };
  }
  const [, partition, account, kind, path = '', name = ''] = principal;
  if (kind === 'role' && name.startsWith('AWSReservedSSO_') && !path.startsWith(SSO_ROLE_PATH)) {
    return {
      problem:
        `an IAM Identity Center role's ARN holds its path: arn:${partition}:iam::${account}:role/${SSO_ROLE_PATH}<region>/${name} ` +
        `(older instances: without <region>/); aws iam get-role --role-name ${name} --query Role.Arn prints it, ` +
        'or give the assumed-role ARN aws sts get-caller-identity prints',
    };
  }
  return { matches: [value] };
}

/**
 * The `clients` setting: client key names, comma-separated (or a JSON array in cdk.json), each alone
 * (the default rate and burst) or with its own, as `name:rate=R:burst=B` (either part may be left out),
 * or as objects `{"name", "rate"?, "burst"?}`. A problem per bad entry; a name given twice is one.
 */
export function clientSettings(raw: unknown, problems: string[]): ClientSetting[] {
  if (raw === undefined) return [];
  const entries: unknown[] = Array.isArray(raw) ? raw : String(raw).split(',');
  const clients: ClientSetting[] = [];
  for (const entry of entries) {
    const text = typeof entry === 'string' ? entry.trim() : undefined;
    if (text === '') continue;
    let client: { name: unknown; rate?: unknown; burst?: unknown } | undefined;
    if (text !== undefined) {
      const match = /^([^:]+)((?::(?:rate|burst)=[^:]*)*)$/.exec(text);
      if (match) {
        const options = Object.fromEntries(
          (match[2] ?? '')
            .split(':')
            .filter(Boolean)
            .map((part) => part.split('=', 2) as [string, string]),
        );
        client = { name: match[1], rate: options.rate, burst: options.burst };
      }
    } else if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      client = entry as { name: unknown; rate?: unknown; burst?: unknown };
    }
    const shown = JSON.stringify(entry);
    if (!client || typeof client.name !== 'string' || !KEY_NAME.test(client.name)) {
      problems.push(
        `clients: each entry is a key name (1-64 letters, digits, ".", "_", "-"), optionally :rate=R:burst=B (got ${shown})`,
      );
      continue;
    }
    const limit = (value: unknown, max: number) => {
      if (value === undefined) return undefined;
      const number = typeof value === 'number' ? value : Number(String(value));
      return Number.isInteger(number) && number >= 1 && number <= max ? number : Number.NaN;
    };
    const ratePerSecond = limit(client.rate, 10_000);
    const burst = limit(client.burst, 5_000);
    if (Number.isNaN(ratePerSecond) || Number.isNaN(burst)) {
      problems.push(
        `clients: ${client.name}: rate must be a whole number from 1 to 10000 and burst from 1 to 5000 (got ${shown})`,
      );
      continue;
    }
    if (clients.some((c) => c.name === client.name)) {
      problems.push(`clients: ${client.name} is listed twice`);
      continue;
    }
    clients.push({
      name: client.name,
      ...(ratePerSecond === undefined ? {} : { ratePerSecond }),
      ...(burst === undefined ? {} : { burst }),
    });
  }
  return clients;
}
