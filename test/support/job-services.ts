/**
 * The AWS side of jobs on loopback, for the tests of the deployed adapters: the jobs' table on dynalite
 * (created as infra/jobs.ts creates it: `pk` and `sk`, TTL on `expires_at`), a fake S3 (PutObject and
 * GetObject, path-style, any key; able to fail a key), and a fake SQS endpoint speaking SQS's JSON protocol
 * (SendMessage, SendMessageBatch, ChangeMessageVisibility) in front of an embedded queue
 * (lib/jobs/queue-embedded.ts), whose SQS semantics (receive counts, visibility, partial batch failures,
 * the redrive to the dead-letter queue) deliver to whatever handler the test gives it, as Lambda's event
 * source mapping delivers to the worker. Every request is logged by operation.
 */
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { CreateTableCommand, DynamoDBClient, ScanCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { createEmbeddedQueue, type EmbeddedQueue, type EmbeddedQueueOptions } from '../../lib/jobs/queue-embedded.js';
import { listenOnLoopback } from './loopback.js';

const dynalite = createRequire(import.meta.url)('dynalite') as (options: Record<string, unknown>) => Server;

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface JobTable {
  endpoint: string;
  tableName: string;
  /** Operations received, by name (X-Amz-Target's last part), in order. */
  readonly operations: string[];
  /** Every item's sort key under a job, and its attribute names. */
  items(jobId: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function startJobTable(tableName = 'search-citation-jobs'): Promise<JobTable> {
  const db = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const handle = db.listeners('request')[0] as (req: IncomingMessage, res: unknown) => void;
  const operations: string[] = [];
  const front = createServer((req, res) => {
    operations.push(
      String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() ?? '',
    );
    handle(req, res);
  });
  const listening = await listenOnLoopback(front);
  const client = new DynamoDBClient({
    endpoint: listening.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 2 }, { TableName: tableName });
  operations.length = 0;
  return {
    endpoint: listening.url,
    tableName,
    operations,
    async items(jobId) {
      const page = await client.send(
        new ScanCommand({
          TableName: tableName,
          FilterExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: `job#${jobId}` } },
        }),
      );
      operations.pop();
      return (page.Items ?? []) as Record<string, unknown>[];
    },
    async close() {
      client.destroy();
      await listening.close();
    },
  };
}

export interface FakeS3 {
  url: string;
  /** Objects by key (the bucket's name left out). */
  readonly objects: Map<string, Buffer>;
  /** Requests received, as "PUT key" or "GET key". */
  readonly requests: string[];
  /** Keys whose GET answers HTTP 500 (a store that fails for one object). */
  readonly failing: Set<string>;
  close(): Promise<void>;
}

export async function startFakeS3(): Promise<FakeS3> {
  const objects = new Map<string, Buffer>();
  const requests: string[] = [];
  const failing = new Set<string>();
  const server = createServer(async (req, res) => {
    const body = await read(req);
    // Path-style: /<bucket>/<key>.
    const key = decodeURIComponent(new URL(req.url ?? '/', 'http://s3').pathname.split('/').slice(2).join('/'));
    requests.push(`${req.method} ${key}`);
    if (req.method === 'PUT') {
      objects.set(key, body);
      res.writeHead(200, { ETag: `"${createHash('md5').update(body).digest('hex')}"` });
      res.end();
      return;
    }
    const found = objects.get(key);
    if (req.method === 'GET' && failing.has(key)) {
      res.writeHead(500, { 'Content-Type': 'application/xml' });
      res.end('<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>');
      return;
    }
    if (req.method === 'GET' && found) {
      res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': String(found.length) });
      res.end(found);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/xml' });
    res.end(`<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>${key}</Key></Error>`);
  });
  const listening = await listenOnLoopback(server);
  return { url: listening.url, objects, requests, failing, close: () => listening.close() };
}

export interface FakeSqs {
  url: string;
  /** The queue URL the service is given (JOBS_QUEUE_URL). */
  queueUrl: string;
  /** The queue behind the endpoint: what it holds, its dead letters, its consumer. */
  queue: EmbeddedQueue;
  /** Operations received (X-Amz-Target's last part), in order. */
  readonly operations: string[];
  close(): Promise<void>;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** SQS's JSON protocol over an embedded queue with these settings (its maxReceiveCount is the redrive policy's). */
export async function startFakeSqs(options: EmbeddedQueueOptions): Promise<FakeSqs> {
  const queue = createEmbeddedQueue({ name: 'jobs', ...options });
  const operations: string[] = [];
  const server = createServer(async (req, res) => {
    const operation = String(req.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
    operations.push(operation);
    const input = JSON.parse((await read(req)).toString('utf8') || '{}') as Record<string, unknown>;
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(body));
    };
    if (operation === 'SendMessageBatch') {
      const entries = input.Entries as { Id: string; MessageBody: string; DelaySeconds?: number }[];
      const successful = entries.map((entry) => {
        const [id] = queue.sendBodies([entry.MessageBody], (entry.DelaySeconds ?? 0) * 1000);
        return { Id: entry.Id, MessageId: id, MD5OfMessageBody: md5(entry.MessageBody) };
      });
      return reply(200, { Successful: successful, Failed: [] });
    }
    if (operation === 'SendMessage') {
      const [id] = queue.sendBodies([String(input.MessageBody)], Number(input.DelaySeconds ?? 0) * 1000);
      return reply(200, { MessageId: id, MD5OfMessageBody: md5(String(input.MessageBody)) });
    }
    if (operation === 'ChangeMessageVisibility') {
      await queue.retryAfter(String(input.ReceiptHandle), Number(input.VisibilityTimeout));
      return reply(200, {});
    }
    reply(400, { __type: 'com.amazonaws.sqs#InvalidAction', message: `${operation} is not served by this fake` });
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    queueUrl: `${listening.url}/000000000000/jobs`,
    queue,
    operations,
    close: async () => {
      queue.stop();
      await listening.close();
    },
  };
}
