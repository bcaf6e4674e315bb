/**
 * Creates a client API key. The plain key is printed once, for the operator to hand to the client; the
 * client key secret holds only its SHA-256 digest (the plain key is stored nowhere).
 *
 * `--hourly N` and `--daily N` give the key its own limits of N paid searches per UTC hour and day
 * (`hourlySearches`, `dailySearches` in its entry); over one, that client alone is answered 429
 * BUDGET_EXHAUSTED until the window ends. `none` gives it no limit of its own. Without them, a key whose
 * deployment has several keys gets its default share of the deployment's hour and day (lib/budget/budget.ts).
 *
 *   npm run create-key -- <name> --secret-id <id>
 *       reads the client key secret, adds the new entry, keeps every other one, writes the secret back,
 *       checks it holds the entry, and only then prints the key. If the read fails, nothing is written.
 *   npm run create-key -- <name>
 *       prints the key and the {"name","sha256"} entry to add to the secret's "keys" array by hand
 *   npm run --silent create-key -- <name> --merge < current.json > new.json
 *       reads the current secret value on stdin, writes the whole new value to stdout and the key to
 *       stderr. Empty or unreadable input is an error: it is what a failed read upstream of the pipe gives.
 *
 * The gateway serves a key once its name is in the stack's `clients` setting (infra/settings.ts): its own
 * rate and burst there (`name:rate=R:burst=B`), its searches here (`--hourly`, `--daily`). Each way of running it
 * ends by saying so.
 *
 * The AWS SDK finds the region and credentials as the AWS CLI does (AWS_REGION or the profile's region,
 * AWS_PROFILE, ...), and AWS_ENDPOINT_URL_SECRETS_MANAGER points it at another endpoint.
 */
import { createHash, randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { KEY_NAME } from '../lib/credentials/key-shape.js';

/** An entry of the client key secret, `{"keys":[{"name","sha256","hourlySearches"?,"dailySearches"?}]}`. */
export interface ClientKeyEntry {
  name: string;
  sha256: string;
  /**
   * The key's own limit of paid searches per UTC hour (`--hourly N`); null (`none`): no limit of its own;
   * absent: its default share when several keys share the deployment.
   */
  hourlySearches?: number | null;
  /** As `hourlySearches`, per UTC day (`--daily N`). */
  dailySearches?: number | null;
}

/** A key's own limits, as `--hourly` and `--daily` give them. */
export type KeyLimitOptions = Pick<ClientKeyEntry, 'hourlySearches' | 'dailySearches'>;

export { KEY_NAME };

/**
 * A new key: 32 random bytes (256 bits), base64url, behind a prefix that secret scanners and people can
 * recognise. The digest is the one lib/credentials/client-keys.ts computes for a presented key: SHA-256 of its UTF-8
 * bytes, in hex. (That module reads the service's configuration when imported, so it is not imported
 * here; a test checks the two digests agree.)
 */
export function createClientKey(name: string, limits: KeyLimitOptions = {}): { key: string; entry: ClientKeyEntry } {
  if (!KEY_NAME.test(name)) {
    throw new Error(
      `name: must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(name)})`,
    );
  }
  for (const [option, value] of [
    ['--hourly', limits.hourlySearches],
    ['--daily', limits.dailySearches],
  ] as const) {
    if (value !== undefined && value !== null && !(Number.isInteger(value) && value >= 0 && value <= 1e9)) {
      throw new Error(`${option}: must be a whole number of searches from 0 to 1000000000, or none (got ${value})`);
    }
  }
  const key = `sca_${randomBytes(32).toString('base64url')}`;
  const sha256 = createHash('sha256').update(key, 'utf8').digest('hex');
  const own = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
  return { key, entry: { name, sha256, ...own } };
}

/** The entries of a client key secret's value; refuses anything else, an empty value included. */
export function readEntries(current: string): unknown[] {
  // An empty value is never a secret's: it is what a failed read gives, and taking it for "no keys yet"
  // would write a list holding the new key alone, deleting every other.
  if (current.trim() === '') throw new Error('the current secret value is empty');
  let parsed: unknown;
  try {
    parsed = JSON.parse(current);
  } catch {
    throw new Error('the current secret value is not JSON');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('the current secret value has no "keys" array');
  return keys;
}

/** The secret's new value with the entry added and everything else kept; refuses a name in use. */
export function mergeEntry(current: string, entry: ClientKeyEntry): string {
  const keys = readEntries(current);
  if (keys.some((k) => (k as { name?: unknown } | null)?.name === entry.name)) {
    throw new Error(`a key named ${JSON.stringify(entry.name)} already exists; remove it first or choose another name`);
  }
  return JSON.stringify({ ...(JSON.parse(current) as object), keys: [...keys, entry] });
}

const NOTHING_WRITTEN = 'Nothing was written; the secret is as it was.';

/**
 * Adds the entry to the secret through the SDK: read, merge, write, read back. Any failure before the
 * write leaves the secret untouched. Secrets Manager has no compare-and-swap, so the read-back is what
 * catches another writer that replaced the value in between: the key is then reported as not stored.
 */
export async function addToSecret(client: SecretsManagerClient, secretId: string, entry: ClientKeyEntry): Promise<number> {
  let current: { SecretString?: string; VersionId?: string };
  try {
    current = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  } catch (error) {
    throw new Error(`could not read the secret ${secretId}: ${reasonOf(error)}. ${NOTHING_WRITTEN}`, { cause: error });
  }
  let updated: string;
  try {
    if (typeof current.SecretString !== 'string') throw new Error('the current secret value is not a string');
    updated = mergeEntry(current.SecretString, entry);
  } catch (error) {
    throw new Error(`${reasonOf(error)}. ${NOTHING_WRITTEN}`, { cause: error });
  }
  let written: { VersionId?: string };
  try {
    written = await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: updated }));
  } catch (error) {
    throw new Error(`could not write the secret ${secretId}: ${reasonOf(error)}. The key was not stored.`, { cause: error });
  }
  return confirmStored(client, secretId, entry, { previous: current.VersionId, written: written.VersionId });
}

/** Reads the secret back until it shows the written version, or a later one that holds the entry too. */
async function confirmStored(
  client: SecretsManagerClient,
  secretId: string,
  entry: ClientKeyEntry,
  versions: { previous?: string; written?: string },
): Promise<number> {
  const notStored = (why: string) =>
    new Error(
      `${why}. The key was not handed out: check the secret's "keys" (an entry named ${JSON.stringify(entry.name)} ` +
        'there now belongs to no one; remove it), then run again.',
    );
  for (let attempt = 0; attempt < 10; attempt++) {
    let now: { SecretString?: string; VersionId?: string };
    try {
      now = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    } catch (error) {
      throw notStored(`the secret ${secretId} was written but could not be read back: ${reasonOf(error)}`);
    }
    let keys: unknown[] = [];
    try {
      keys = readEntries(now.SecretString ?? '');
    } catch {
      // Another writer's value without a "keys" list: it does not hold the entry.
    }
    const held = keys.some((k) => {
      const { name, sha256 } = (k ?? {}) as Partial<ClientKeyEntry>;
      return name === entry.name && sha256 === entry.sha256;
    });
    if (held) return keys.length;
    // Still the value it replaced: the new version is not visible yet. Anything else is another writer's.
    if (now.VersionId === versions.written || now.VersionId !== versions.previous) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw notStored(`the secret ${secretId} does not hold the new entry after the write (another writer may have replaced it)`);
}

/**
 * The step after adding a key: the gateway's usage plans know clients by name (infra/gateway-keys.ts), so
 * a key whose name is not in the `clients` setting is answered 500 SERVICE_MISCONFIGURED at the gateway.
 */
export function gatewayStep(name: string): string {
  return (
    `The gateway serves it once "${name}" is in the stack's clients setting: add it to the "clients" list in ` +
    `cdk.json's context (or to -c clients=...), with :rate=R:burst=B for limits of its own, and deploy.`
  );
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

const USAGE =
  'usage: npm run create-key -- <name> [--hourly <searches|none>] [--daily <searches|none>] [--secret-id <id> | --merge < current-secret.json > new-secret.json]';

async function main(args: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(args);
  } catch (error) {
    throw new Error(`${reasonOf(error)}\n${USAGE}`);
  }
  const { name, secretId, merge, limits } = parsed;
  const { key, entry } = createClientKey(name, limits);
  if (secretId !== undefined) {
    const client = new SecretsManagerClient({
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000, throwOnRequestTimeout: true },
    });
    const count = await addToSecret(client, secretId, entry);
    process.stdout.write(
      [
        `New client key for "${name}" (shown once, not stored anywhere; hand it to the client):`,
        '',
        `  ${key}`,
        '',
        `Its digest is in ${secretId} (${count} keys). Functions read the secret again within`,
        'SECRETS_TTL_SECONDS (5 minutes by default), so the key may be refused until then.',
        gatewayStep(name),
        '',
      ].join('\n'),
    );
    return;
  }
  if (merge) {
    if (process.stdin.isTTY) throw new Error('--merge reads the current secret value on stdin: pipe it in');
    let current: string;
    try {
      current = await text(process.stdin);
    } catch (error) {
      throw new Error(`could not read stdin: ${reasonOf(error)}`);
    }
    // Refusing here writes nothing to stdout, so a `> new.json` holds nothing a put could take for a value.
    const updated = mergeEntry(current, entry);
    process.stderr.write(`New client key for "${name}" (shown once, not stored anywhere):\n\n  ${key}\n\n${gatewayStep(name)}\n`);
    process.stdout.write(`${updated}\n`);
    return;
  }
  process.stdout.write(
    [
      `New client key for "${name}" (shown once, not stored anywhere; hand it to the client):`,
      '',
      `  ${key}`,
      '',
      'Add this entry to the "keys" array of the client key secret (stack output ClientKeysSecretId),',
      'or run again with --secret-id <id> to have it added:',
      '',
      `  ${JSON.stringify(entry)}`,
      '',
      gatewayStep(name),
      '',
    ].join('\n'),
  );
}

/** A limit as the command line gives it: a whole number of searches, or `none`. */
function limitOf(option: string, text: string | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  if (text === 'none') return null;
  if (!/^\d{1,10}$/.test(text))
    throw new Error(`${option}: must be a whole number of searches, or none (got ${JSON.stringify(text)})`);
  return Number(text);
}

export function parseCommandLine(args: string[]): { name: string; secretId?: string; merge: boolean; limits: KeyLimitOptions } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'secret-id': { type: 'string' },
      merge: { type: 'boolean', default: false },
      hourly: { type: 'string' },
      daily: { type: 'string' },
    },
  });
  const hourly = limitOf('--hourly', values.hourly);
  const daily = limitOf('--daily', values.daily);
  const [name, ...rest] = positionals;
  if (name === undefined) throw new Error('a name is required');
  if (rest.length > 0) throw new Error(`one name only (got ${positionals.length})`);
  if (values['secret-id'] !== undefined && values.merge) throw new Error('--secret-id and --merge do not go together');
  if (values['secret-id'] === '') throw new Error('--secret-id needs a value');
  return {
    name,
    secretId: values['secret-id'],
    merge: values.merge ?? false,
    limits: {
      ...(hourly === undefined ? {} : { hourlySearches: hourly }),
      ...(daily === undefined ? {} : { dailySearches: daily }),
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
