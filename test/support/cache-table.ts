/**
 * The shared cache's table for tests and the benchmark: dynalite (a DynamoDB-protocol server on LevelDB,
 * in memory) on a loopback port, with the table created as the stack creates it (`pk` string key, TTL
 * on `expires_at`). A thin HTTP front passes requests to dynalite and can misbehave on purpose: be down
 * (connections refused), slow, throttle, or fail, so the tests can show that the cache never makes a
 * request worse than no cache. It also records every partition key each call names, and can hold the
 * service to a role's grant as AWS does and dynalite does not: with `grantLeadingKeys`, a call naming any
 * key outside the grant's `dynamodb:LeadingKeys` patterns is refused AccessDeniedException, as IAM refuses it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
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

/**
 * How the table answers: normally, slowly, with DynamoDB's throttling error, with HTTP 500, or never (a
 * request is held until the table stops, closes or answers normally again; a caller must give up on it).
 */
export type TableMode =
  | { kind: 'ok' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'throttle' }
  | { kind: 'error' }
  | { kind: 'hang' };

export interface StoredItem {
  pk: string;
  value: unknown;
  expiresAt: number;
  bytes: number;
}

/** One call the table received: its operation and every partition key it names (read or written). */
export interface TableCall {
  operation: string;
  keys: string[];
}

/** IAM's StringLike: `*` any run of characters, `?` one; everything else literal. */
export function stringLike(pattern: string, value: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${source}$`, 's').test(value);
}

type Key = { pk?: { S?: string } };
/**
 * The partition keys a DynamoDB call names, as IAM reads them for dynamodb:LeadingKeys: the key of a
 * GetItem, UpdateItem or DeleteItem, the item of a PutItem, every key and item of a batch.
 */
export function keysOf(body: unknown): string[] {
  const call = (body ?? {}) as {
    Key?: Key;
    Item?: Key;
    RequestItems?: Record<string, { Keys?: Key[] } | { PutRequest?: { Item?: Key }; DeleteRequest?: { Key?: Key } }[]>;
  };
  const keys: (Key | undefined)[] = [call.Key, call.Item];
  for (const request of Object.values(call.RequestItems ?? {})) {
    if (Array.isArray(request)) keys.push(...request.map((write) => write.PutRequest?.Item ?? write.DeleteRequest?.Key));
    else keys.push(...(request.Keys ?? []));
  }
  return keys.flatMap((key) => (key?.pk?.S === undefined ? [] : [key.pk.S]));
}

export interface CacheTableServer {
  /** For AWS_ENDPOINT_URL_DYNAMODB. */
  endpoint: string;
  tableName: string;
  /** The environment a service needs to use this table (endpoint, table, region, test credentials). */
  env: Record<string, string>;
  /** Operations received (X-Amz-Target without the API version), in order; cleared by `resetLog`. */
  readonly operations: string[];
  /** Every call received with the partition keys it names, in order (the test's own scans left out); cleared by `resetLog`. */
  readonly calls: TableCall[];
  resetLog(): void;
  /**
   * Refuses, as IAM does for a role holding only this grant, every call naming a key that matches none of
   * these `dynamodb:LeadingKeys` patterns (`ForAllValues:StringLike`); undefined lifts it.
   */
  grantLeadingKeys(patterns: readonly string[] | undefined): void;
  setMode(mode: TableMode): void;
  /**
   * Closes the connection of each of the next `count` calls without answering it, as a server closes an
   * idle keep-alive connection just as a request is written on it (the client reads ECONNRESET, "socket
   * hang up"): before the table applied the call, or `after` it (the write landed, its answer is lost);
   * of any operation, or only of `operation`'s calls ("PutItem"). Each call adds to the drops pending.
   */
  dropNext(count: number, options?: { after?: boolean; operation?: string }): void;
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

/** DynamoDB's answer when IAM refuses a call (HTTP 400, AccessDeniedException). */
const accessDenied = (operation: string) =>
  JSON.stringify({
    __type: 'com.amazon.coral.service#AccessDeniedException',
    Message: `User: arn:aws:sts::123456789012:assumed-role/test-function/test is not authorized to perform: dynamodb:${operation} because no identity-based policy allows the dynamodb:${operation} action`,
  });

const THROTTLED = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
  message: 'Rate of requests exceeds the allowed throughput.',
});

export async function startCacheTable(tableName = 'search-citation-cache'): Promise<CacheTableServer> {
  const db = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const handle = db.listeners('request')[0] as RequestListener;
  const operations: string[] = [];
  const calls: TableCall[] = [];
  const sockets = new Set<Socket>();
  let mode: TableMode = { kind: 'ok' };
  const drops: { count: number; after?: boolean; operation?: string }[] = [];
  let grant: readonly string[] | undefined;
  let port = 0;

  const front = createServer(async (received, res) => {
    const target = String(received.headers['x-amz-target'] ?? '');
    const operation = target.split('.').pop() ?? target;
    operations.push(operation);
    // Read whole, for its keys, then handed on to dynalite as the request it would have read.
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of received) chunks.push(chunk as Buffer);
    } catch {
      // The caller gave up (its abort signal) before the body was in: nothing to answer.
      return;
    }
    const body = Buffer.concat(chunks);
    let keys: string[] = [];
    try {
      keys = keysOf(JSON.parse(body.toString('utf8') || '{}'));
    } catch {
      // Not JSON: dynalite answers it as DynamoDB would.
    }
    calls.push({ operation, keys });
    const req = Object.assign(Readable.from([body]), {
      headers: received.headers,
      method: received.method,
      url: received.url,
    }) as unknown as IncomingMessage;
    const allowed = grant;
    if (allowed && keys.some((key) => !allowed.some((pattern) => stringLike(pattern, key)))) {
      res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' });
      res.end(accessDenied(operation));
      return;
    }
    const drop = drops.find((each) => each.count > 0 && (each.operation === undefined || each.operation === operation));
    if (drop) {
      drop.count--;
      if (!drop.after) {
        received.socket.destroy();
        return;
      }
      // dynalite applies the call; its answer never leaves.
      res.end = (() => {
        received.socket.destroy();
        return res;
      }) as typeof res.end;
    }
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
    if (current.kind === 'hang') return;
    if (current.kind === 'slow') setTimeout(() => handle(req, res), current.delayMs);
    else handle(req, res);
  });
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
  calls.length = 0;

  return {
    endpoint,
    tableName,
    env,
    operations,
    calls,
    resetLog: () => {
      operations.length = 0;
      calls.length = 0;
    },
    grantLeadingKeys: (patterns) => {
      grant = patterns;
    },
    setMode: (next) => {
      mode = next;
    },
    dropNext: (count, options = {}) => {
      drops.push({ count, ...options });
    },
    stop,
    start: listen,
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
      for (let i = calls.length - 1; i >= 0; i--) if (calls[i]?.operation === 'Scan') calls.splice(i, 1);
      return found;
    },
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
      for (let i = calls.length - 1; i >= 0; i--) if (calls[i]?.operation === 'Scan') calls.splice(i, 1);
      return found;
    },
    async close() {
      if (front.listening) await stop();
      client.destroy();
    },
  };
}
