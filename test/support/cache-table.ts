/**
 * The shared cache's table for tests and the benchmark: dynalite (a DynamoDB-protocol server on LevelDB,
 * in memory) on a loopback port, with the table created as the stack creates it (`pk` string key, TTL
 * on `expires_at`). A thin HTTP front passes requests to dynalite and can misbehave on purpose: be down
 * (connections refused), slow, throttle, or fail, so the tests can show that the cache never makes a
 * request worse than no cache.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import {
  CreateTableCommand,
  DynamoDBClient,
  ScanCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
const dynalite = createRequire(import.meta.url)('dynalite') as (options: Record<string, unknown>) => Server;

/** How the table answers: normally, slowly, with DynamoDB's throttling error, or with HTTP 500. */
export type TableMode = { kind: 'ok' } | { kind: 'slow'; delayMs: number } | { kind: 'throttle' } | { kind: 'error' };

export interface StoredItem {
  pk: string;
  value: unknown;
  expiresAt: number;
  bytes: number;
}

export interface CacheTableServer {
  /** For AWS_ENDPOINT_URL_DYNAMODB. */
  endpoint: string;
  tableName: string;
  /** The environment a service needs to use this table (endpoint, table, region, test credentials). */
  env: Record<string, string>;
  /** Operations received (X-Amz-Target without the API version), in order; cleared by `resetLog`. */
  readonly operations: string[];
  /**
   * With `recordKeys`: every partition key each operation named (read, written or claimed), in order;
   * cleared by `resetLog`. What dynalite cannot check (IAM's dynamodb:LeadingKeys), a test checks on these.
   */
  readonly keys: { operation: string; key: string }[];
  resetLog(): void;
  setMode(mode: TableMode): void;
  /** Stops listening and drops open connections: the table is down (connection refused). */
  stop(): Promise<void>;
  /** Listens again on the same port, with the same data. */
  start(): Promise<void>;
  /** Every item, decoded. */
  items(): Promise<StoredItem[]>;
  /** The partition key of every item, whatever it holds (a claim, a pace's state). */
  allKeys(): Promise<string[]>;
  close(): Promise<void>;
}

const THROTTLED = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
  message: 'Rate of requests exceeds the allowed throughput.',
});

/** The partition keys a DynamoDB request names: its Key, Item, and the keys and items of a batch. */
function keysNamed(body: string): string[] {
  const request = JSON.parse(body || '{}') as Record<string, unknown>;
  const pk = (item: unknown) => (item as { pk?: { S?: string } } | undefined)?.pk?.S ?? undefined;
  const keys = [pk(request.Key), pk(request.Item)];
  for (const entry of Object.values((request.RequestItems ?? {}) as Record<string, unknown>)) {
    const { Keys } = entry as { Keys?: unknown[] };
    for (const key of Keys ?? []) keys.push(pk(key));
    if (Array.isArray(entry))
      for (const write of entry) keys.push(pk((write as { PutRequest?: { Item?: unknown } }).PutRequest?.Item));
  }
  return keys.filter((key): key is string => key !== undefined);
}

export async function startCacheTable(
  tableName = 'search-citation-cache',
  options: { recordKeys?: boolean } = {},
): Promise<CacheTableServer> {
  const db = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const handle = db.listeners('request')[0] as RequestListener;
  const operations: string[] = [];
  const keys: { operation: string; key: string }[] = [];
  const sockets = new Set<Socket>();
  let mode: TableMode = { kind: 'ok' };
  let port = 0;

  const front = createServer((incoming, res) => {
    const target = String(incoming.headers['x-amz-target'] ?? '');
    const operation = target.split('.').pop() ?? target;
    operations.push(operation);
    if (options.recordKeys) {
      // Read whole to record the keys it names, then handed to dynalite as the request it was.
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const body = Buffer.concat(chunks);
        for (const key of keysNamed(body.toString('utf8'))) keys.push({ operation, key });
        const replay = Object.assign(new PassThrough(), {
          headers: incoming.headers,
          method: incoming.method,
          url: incoming.url,
        }) as unknown as IncomingMessage;
        answer(replay, res);
        (replay as unknown as PassThrough).end(body);
      });
      return;
    }
    answer(incoming, res);
  });
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const current = mode;
    if (current.kind === 'throttle') {
      res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' });
      res.end(THROTTLED);
      return;
    }
    if (current.kind === 'error') {
      res.writeHead(500, { 'Content-Type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'boom' }));
      return;
    }
    if (current.kind === 'slow') setTimeout(() => handle(req, res), current.delayMs);
    else handle(req, res);
  };
  front.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(port, '127.0.0.1', () => {
        front.off('error', reject);
        port = (front.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      front.close(() => resolve());
    });
  await listen();

  const endpoint = `http://127.0.0.1:${port}`;
  const env = {
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    CACHE_TABLE_NAME: tableName,
  };
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 2 }, { TableName: tableName });
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
      }),
    );
  } catch (error) {
    // dynalite does not implement UpdateTimeToLive (nor expire items); the service ignores expired items itself.
    if ((error as Error).name !== 'UnknownOperationException') throw error;
  }
  operations.length = 0;

  return {
    endpoint,
    tableName,
    env,
    operations,
    keys,
    resetLog: () => {
      operations.length = 0;
      keys.length = 0;
    },
    setMode: (next) => {
      mode = next;
    },
    stop,
    start: listen,
    async items() {
      const found: StoredItem[] = [];
      let start: Record<string, never> | undefined;
      do {
        const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
        for (const item of page.Items ?? []) {
          // A claim on a key being loaded (or one given up) holds no value: it is no cached answer.
          if (!item.v?.B) continue;
          const packed = item.v.B;
          found.push({
            pk: item.pk?.S ?? '',
            value: JSON.parse(gunzipSync(packed).toString('utf8')),
            expiresAt: Number(item.expires_at?.N),
            bytes: packed.length,
          });
        }
        start = page.LastEvaluatedKey as Record<string, never> | undefined;
      } while (start);
      // Scans pass through the front too; they are the test's reads, not the service's.
      for (let i = operations.length - 1; i >= 0; i--) if (operations[i] === 'Scan') operations.splice(i, 1);
      return found;
    },
    async allKeys() {
      const found: string[] = [];
      let start: Record<string, never> | undefined;
      do {
        const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
        for (const item of page.Items ?? []) found.push(item.pk?.S ?? '');
        start = page.LastEvaluatedKey as Record<string, never> | undefined;
      } while (start);
      // The test's reads, not the service's.
      for (let i = operations.length - 1; i >= 0; i--) if (operations[i] === 'Scan') operations.splice(i, 1);
      return found;
    },
    async close() {
      if (front.listening) await stop();
      client.destroy();
    },
  };
}
