/**
 * A loopback proxy in front of a DynamoDB endpoint (dynalite) that misbehaves on cue, one request at a
 * time, so that the budget counter's slow cases are reproduced without depending on the machine's speed:
 * `drop` lets the request land and loses its answer (the connection is cut after the table answered);
 * `hold` keeps the request until `release()`, so it lands after the caller gave up; `cut` closes the
 * connection without passing the request on (it never lands); `strip` removes an
 * attribute from the answer's item (an implementation that leaves it out). Unqueued requests pass.
 * `stop()` takes the table away altogether: every connection is refused (nothing can be sent) until
 * `start()`.
 */
import { createServer, request } from 'node:http';
import type { Socket } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { type CacheTableServer, startCacheTable } from './cache-table.js';
import { listenOnLoopback } from './loopback.js';

export type ProxyAction = 'pass' | 'drop' | 'hold' | 'cut' | { strip: string };

export interface BudgetProxy {
  url: string;
  /** The next requests' actions, in order of arrival. */
  queue(...actions: ProxyAction[]): void;
  /** Operations received (X-Amz-Target without the API version), in order. */
  readonly operations: string[];
  /** Resolves once `count` requests have been received in all. */
  received(count: number): Promise<void>;
  /** Resolves once every request received and not held has been answered by the table. */
  idle(): Promise<void>;
  /** Sends the held requests on to the table, in order; resolves when the table has answered each. */
  release(): Promise<void>;
  /** Stops listening and drops open connections: every call is refused before it is sent. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

interface Forwarded {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export async function startBudgetProxy(target: string): Promise<BudgetProxy> {
  const actions: ProxyAction[] = [];
  const operations: string[] = [];
  const held: (() => Promise<void>)[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const inFlight = new Set<Promise<void>>();

  const forward = (method: string, url: string, headers: Record<string, unknown>, body: Buffer) =>
    new Promise<Forwarded>((resolve, reject) => {
      const out = request(`${target}${url}`, { method, headers: headers as Record<string, string> }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }),
        );
        answer.on('error', reject);
      });
      out.on('error', reject);
      out.end(body);
    });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      operations.push(target.split('.').pop() ?? target);
      for (const waiter of waiters.filter((w) => operations.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const action = actions.shift() ?? 'pass';
      const go = async () => {
        const answer = await forward(req.method ?? 'POST', req.url ?? '/', req.headers, Buffer.concat(chunks));
        if (action === 'drop') {
          req.socket.destroy();
          return;
        }
        let body = answer.body;
        if (typeof action === 'object') {
          const json = JSON.parse(body.toString('utf8')) as {
            Attributes?: Record<string, unknown>;
            Item?: Record<string, unknown>;
          };
          if (json.Attributes) delete json.Attributes[action.strip];
          if (json.Item) delete json.Item[action.strip];
          body = Buffer.from(JSON.stringify(json));
        }
        if (res.destroyed || req.socket.destroyed) return;
        const { 'content-length': _length, 'x-amz-crc32': _crc, ...headers } = answer.headers;
        res.writeHead(answer.status, { ...headers, 'content-length': String(body.length) });
        res.end(body);
      };
      const run = () =>
        go().catch(() => {
          req.socket.destroy();
        });
      if (action === 'cut') req.socket.destroy();
      else if (action === 'hold') held.push(run);
      else {
        const running = run();
        inFlight.add(running);
        void running.finally(() => inFlight.delete(running));
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  const listening = await listenOnLoopback(server);
  const port = new URL(listening.url).port;
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  return {
    url: listening.url,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
    start: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(Number(port), '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      }),
    operations,
    queue: (...next) => {
      actions.push(...next);
    },
    received: (count) =>
      operations.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    idle: async () => {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    release: async () => {
      for (const run of held.splice(0)) await run();
    },
    close: listening.close,
  };
}

/** A counter table in dynalite, the fault proxy in front of it and an SDK client that goes through the proxy. */
export interface CounterHarness {
  table: CacheTableServer;
  proxy: BudgetProxy;
  /** One attempt per call: the proxy's faults reach the counter as they are, never retried by the SDK. */
  client: DynamoDBClient;
  close(): Promise<void>;
}

export async function startCounterHarness(tableName: string): Promise<CounterHarness> {
  const table = await startCacheTable(tableName);
  const proxy = await startBudgetProxy(table.endpoint);
  const client = new DynamoDBClient({
    endpoint: proxy.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  return {
    table,
    proxy,
    client,
    close: async () => {
      client.destroy();
      await proxy.close();
      await table.close();
    },
  };
}

/** The `used` count of a counter item read straight from the table (undefined: no item). */
export async function storedCount(endpoint: string, tableName: string, key: string): Promise<number | undefined> {
  const item = await storedItem(endpoint, tableName, key);
  return item ? Number(item.used?.N ?? Number.NaN) : undefined;
}

/**
 * A counter item's size as DynamoDB counts it (attribute names plus values: strings and set members in
 * UTF-8 bytes, numbers about one byte per two digits plus one), read straight from the table; 0: no item.
 */
export async function storedItemBytes(endpoint: string, tableName: string, key: string): Promise<number> {
  let bytes = 0;
  for (const [name, value] of Object.entries((await storedItem(endpoint, tableName, key)) ?? {})) {
    bytes += Buffer.byteLength(name);
    if (value.S !== undefined) bytes += Buffer.byteLength(value.S);
    else if (value.N !== undefined) bytes += Math.ceil(value.N.replace(/^-/, '').length / 2) + 1;
    else if (value.SS !== undefined) bytes += value.SS.reduce((sum, member) => sum + Buffer.byteLength(member), 0);
  }
  return bytes;
}

/** A counter item as the table holds it (undefined: no item). */
export async function storedItem(
  endpoint: string,
  tableName: string,
  key: string,
): Promise<Record<string, { S?: string; N?: string; SS?: string[] }> | undefined> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  try {
    const { Item } = await client.send(
      new GetItemCommand({ TableName: tableName, Key: { pk: { S: key } }, ConsistentRead: true }),
    );
    return Item as Record<string, { S?: string; N?: string; SS?: string[] }> | undefined;
  } finally {
    client.destroy();
  }
}
