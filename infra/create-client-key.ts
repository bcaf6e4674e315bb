/**
 * Creates a client API key: prints the key once, for the operator to hand to the client, and the entry
 * to add to the client key secret, which holds only its SHA-256 digest (the plain key is stored nowhere).
 *
 *   npx tsx infra/create-client-key.ts <name>
 *       prints the key and the {"name","sha256"} entry to add to the secret's "keys" array
 *   aws secretsmanager get-secret-value --secret-id <id> --query SecretString --output text \
 *     | npx tsx infra/create-client-key.ts <name> --merge > keys.json
 *       reads the current secret value on stdin and writes the whole new value (digests only) to
 *       stdout, the key to stderr; then: aws secretsmanager put-secret-value --secret-id <id>
 *       --secret-string file://keys.json
 */
import { createHash, randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';

/** An entry of the client key secret, `{"keys":[{"name","sha256"}]}`. */
export interface ClientKeyEntry {
  name: string;
  sha256: string;
}

export const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * A new key: 32 random bytes (256 bits), base64url, behind a prefix that secret scanners and people can
 * recognise. The digest is the one lib/client-keys.ts computes for a presented key: SHA-256 of its UTF-8
 * bytes, in hex. (That module reads the service's configuration when imported, so it is not imported
 * here; a test checks the two digests agree.)
 */
export function createClientKey(name: string): { key: string; entry: ClientKeyEntry } {
  if (!KEY_NAME.test(name)) {
    throw new Error(
      `name: must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(name)})`,
    );
  }
  const key = `sca_${randomBytes(32).toString('base64url')}`;
  return { key, entry: { name, sha256: createHash('sha256').update(key, 'utf8').digest('hex') } };
}

/** The secret's new value with the entry added; refuses a value that is not the service's shape or a name in use. */
export function mergeEntry(current: string, entry: ClientKeyEntry): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(current.trim() === '' ? '{"keys":[]}' : current);
  } catch {
    throw new Error('the current secret value is not JSON');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('the current secret value has no "keys" array');
  if (keys.some((k: { name?: unknown }) => k?.name === entry.name)) {
    throw new Error(`a key named ${JSON.stringify(entry.name)} already exists; remove it first or choose another name`);
  }
  return JSON.stringify({ ...(parsed as object), keys: [...keys, entry] });
}

async function main(args: string[]): Promise<void> {
  const merge = args.includes('--merge');
  const [name, ...rest] = args.filter((a) => a !== '--merge');
  if (name === undefined || rest.length > 0) {
    throw new Error('usage: npx tsx infra/create-client-key.ts <name> [--merge < current-secret.json > new-secret.json]');
  }
  const { key, entry } = createClientKey(name);
  if (merge) {
    const updated = mergeEntry(await text(process.stdin), entry);
    process.stderr.write(`New client key for "${name}" (shown once, not stored anywhere):\n\n  ${key}\n\n`);
    process.stdout.write(`${updated}\n`);
    return;
  }
  process.stdout.write(
    [
      `New client key for "${name}" (shown once, not stored anywhere; hand it to the client):`,
      '',
      `  ${key}`,
      '',
      'Add this entry to the "keys" array of the client key secret (stack output ClientKeysSecretId):',
      '',
      `  ${JSON.stringify(entry)}`,
      '',
    ].join('\n'),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
