/**
 * A local endpoint speaking Secrets Manager's JSON 1.1 protocol (POST with X-Amz-Target
 * secretsmanager.GetSecretValue or secretsmanager.PutSecretValue), so the real AWS SDK is exercised via
 * AWS_ENDPOINT_URL_SECRETS_MANAGER.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.js';

export type FakeOperation = 'GetSecretValue' | 'PutSecretValue';

export interface FakeSecretsManager {
  url: string;
  /** Secret id → SecretString; delete an entry to make it missing. */
  secrets: Map<string, string>;
  /** When true, every call fails with HTTP 500 InternalServiceError. */
  down: boolean;
  /** When true, every call is read and then never answered: the connection stays open, silent. */
  hang: boolean;
  /** Secret ids whose calls hang as `hang` makes every call hang. */
  hangingSecrets: Set<string>;
  /** Secret ids the caller may not read: AccessDeniedException, as IAM answers a role without the grant. */
  denied: Set<string>;
  /** Operations that fail with HTTP 500 InternalServiceError while the others work. */
  failing: Set<FakeOperation>;
  /** Every call, answered or not. */
  calls: number;
  /** Calls left unanswered by `hang`, still open. */
  hanging: number;
  /** Every PutSecretValue that was stored, in order. */
  puts: { secretId: string; value: string }[];
  /** Runs after each answered call: a test plays another writer here. */
  afterCall?: (operation: string, secretId: string | undefined) => void;
  close(): Promise<void>;
}

export async function startFakeSecretsManager(initial: Record<string, string> = {}): Promise<FakeSecretsManager> {
  const held = new Set<ServerResponse>();
  const fake: FakeSecretsManager = {
    url: '',
    secrets: new Map(Object.entries(initial)),
    down: false,
    hang: false,
    hangingSecrets: new Set(),
    denied: new Set(),
    failing: new Set(),
    calls: 0,
    get hanging() {
      return held.size;
    },
    puts: [],
    close: () => listening.close(),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      fake.calls += 1;
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { SecretId?: string; SecretString?: string };
      const secretId = input.SecretId;
      if (fake.hang || (secretId !== undefined && fake.hangingSecrets.has(secretId))) {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^secretsmanager\./, '');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1', 'x-amzn-RequestId': `fake-${fake.calls}` });
        res.end(JSON.stringify(body));
        fake.afterCall?.(operation, secretId);
      };
      if (fake.down || fake.failing.has(operation as FakeOperation)) {
        return send(500, { __type: 'InternalServiceError', message: 'Service unavailable' });
      }
      if (secretId !== undefined && fake.denied.has(secretId)) {
        return send(400, {
          __type: 'AccessDeniedException',
          message: `User is not authorized to perform: secretsmanager:${operation} on resource: ${secretId}`,
        });
      }
      const notFound = () =>
        send(400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
      // A version id follows from the value, so a value set by a test gets a version of its own too.
      const described = (id: string, value: string) => ({
        ARN: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${id}-AbCdEf`,
        Name: id,
        VersionId: createHash('sha256').update(value).digest('hex').slice(0, 32),
        VersionStages: ['AWSCURRENT'],
      });
      if (operation === 'GetSecretValue') {
        const value = secretId === undefined ? undefined : fake.secrets.get(secretId);
        if (secretId === undefined || value === undefined) return notFound();
        return send(200, { ...described(secretId, value), SecretString: value, CreatedDate: 1_700_000_000 });
      }
      if (operation === 'PutSecretValue') {
        // Like the real service: a value can be put only into a secret that exists.
        if (secretId === undefined || !fake.secrets.has(secretId)) return notFound();
        if (typeof input.SecretString !== 'string' || input.SecretString === '') {
          return send(400, { __type: 'InvalidParameterException', message: 'You must provide a SecretString.' });
        }
        fake.secrets.set(secretId, input.SecretString);
        fake.puts.push({ secretId, value: input.SecretString });
        return send(200, described(secretId, input.SecretString));
      }
      send(400, { __type: 'UnknownOperationException', message: 'Only GetSecretValue and PutSecretValue are faked' });
    });
  });
  const listening = await listenOnLoopback(server);
  fake.url = listening.url;
  return fake;
}
