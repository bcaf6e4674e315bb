/**
 * A local endpoint speaking Secrets Manager's JSON 1.1 protocol (POST with X-Amz-Target
 * secretsmanager.GetSecretValue), so the real AWS SDK is exercised via AWS_ENDPOINT_URL_SECRETS_MANAGER.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeSecretsManager {
  url: string;
  /** Secret id → SecretString; delete an entry to make it missing. */
  secrets: Map<string, string>;
  /** When true, every call fails with HTTP 500 InternalServiceError. */
  down: boolean;
  calls: number;
  close(): Promise<void>;
}

export async function startFakeSecretsManager(initial: Record<string, string> = {}): Promise<FakeSecretsManager> {
  const sockets = new Set<Socket>();
  const fake: FakeSecretsManager = {
    url: '',
    secrets: new Map(Object.entries(initial)),
    down: false,
    calls: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      fake.calls += 1;
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1', 'x-amzn-RequestId': `fake-${fake.calls}` });
        res.end(JSON.stringify(body));
      };
      if (fake.down) return send(500, { __type: 'InternalServiceError', message: 'Service unavailable' });
      if (req.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue') {
        return send(400, { __type: 'UnknownOperationException', message: 'Only GetSecretValue is faked' });
      }
      const { SecretId } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { SecretId?: string };
      const value = SecretId === undefined ? undefined : fake.secrets.get(SecretId);
      if (value === undefined) {
        return send(400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
      }
      send(200, {
        ARN: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${SecretId}-AbCdEf`,
        Name: SecretId,
        SecretString: value,
        VersionId: '00000000-0000-0000-0000-000000000001',
        VersionStages: ['AWSCURRENT'],
        CreatedDate: 1_700_000_000,
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
