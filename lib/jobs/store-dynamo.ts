/**
 * The job store in DynamoDB (deployed): one table, every item of a job under the job's partition key, so
 * that a page of results, or a job's progress, is one Query. Every write is one conditional PutItem or
 * UpdateItem (store.ts says why that is enough); a value too large for an item goes to S3 (blobs.ts).
 * Items carry `expires_at` (seconds), which the table's TTL deletes by; reads treat an expired job as
 * absent, since TTL deletes within days, not at once.
 *
 *   pk job#<id>   sk job           the job
 *   pk job#<id>   sk in#<batch>    a batch's references
 *   pk job#<id>   sk res#<index>   a reference's outcome
 *   pk job#<id>   sk count#<batch> a batch's outcomes counted (done, counts, failures), with its rank
 *   pk idem#<key> sk claim         an Idempotency-Key's claim
 */
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BLOB_OVER_BYTES, type BlobStore } from './blobs.js';
import type { BatchInput, JobProgress, JobRecord, JobWebhook, StoredResult } from './model.js';
import { decodeReferences, encodeReferences } from './model.js';
import { batchProgress, type JobStore, progressRank, sumProgress } from './store.js';

/** The table's key and TTL attributes: what infra/jobs.ts creates the table with. */
export const JOB_TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk', timeToLive: 'expires_at' } as const;

type Sdk = typeof import('@aws-sdk/client-dynamodb');
type Item = Record<string, AttributeValue>;

export interface DynamoJobStoreOptions {
  tableName: string;
  client: () => Promise<{ client: DynamoDBClient; commands: Sdk }>;
  blobs: BlobStore;
  now?: () => number;
}

const pad = (n: number) => String(n).padStart(6, '0');
const seconds = (ms: number) => ({ N: String(Math.ceil(ms / 1000)) });
const num = (n: number) => ({ N: String(n) });
const n = (value: AttributeValue | undefined) => (value?.N === undefined ? null : Number(value.N));
const isConditionFailure = (error: unknown) => error instanceof Error && error.name === 'ConditionalCheckFailedException';

function webhookItem(webhook: JobWebhook): AttributeValue {
  return {
    M: {
      url: { S: webhook.url },
      secret: { S: webhook.secret },
      state: { S: webhook.state },
      tries: num(webhook.tries),
      last_error: webhook.lastError === null ? { NULL: true } : { S: webhook.lastError },
    },
  };
}

function jobItem(job: JobRecord): Item {
  return {
    pk: { S: `job#${job.id}` },
    sk: { S: 'job' },
    owner: { S: job.owner },
    kind: { S: job.kind },
    options: { S: JSON.stringify(job.options ?? null) },
    total: num(job.total),
    batch_size: num(job.batchSize),
    batches: num(job.batches),
    status: { S: job.status },
    created_at: num(job.createdAt),
    ...(job.startedAt === null ? {} : { started_at: num(job.startedAt) }),
    ...(job.finishedAt === null ? {} : { finished_at: num(job.finishedAt) }),
    expires_at: seconds(job.expiresAt),
    enqueued: { BOOL: job.enqueued },
    ...(job.webhook ? { webhook: webhookItem(job.webhook) } : {}),
  };
}

function jobOf(item: Item): JobRecord {
  const webhook = item.webhook?.M;
  return {
    id: (item.pk?.S ?? '').slice('job#'.length),
    owner: item.owner?.S ?? '',
    kind: item.kind?.S ?? '',
    options: JSON.parse(item.options?.S ?? 'null'),
    total: n(item.total) ?? 0,
    batchSize: n(item.batch_size) ?? 1,
    batches: n(item.batches) ?? 0,
    status: (item.status?.S ?? 'queued') as JobRecord['status'],
    createdAt: n(item.created_at) ?? 0,
    startedAt: n(item.started_at),
    finishedAt: n(item.finished_at),
    expiresAt: (n(item.expires_at) ?? 0) * 1000,
    enqueued: item.enqueued?.BOOL ?? false,
    webhook: webhook
      ? {
          url: webhook.url?.S ?? '',
          secret: webhook.secret?.S ?? '',
          state: (webhook.state?.S ?? 'pending') as JobWebhook['state'],
          tries: n(webhook.tries) ?? 0,
          lastError: webhook.last_error?.S ?? null,
        }
      : null,
  };
}

/** A batch's count as kept: the progress as JSON (at most a batch's failures), and its rank for the condition. */
function countOf(item: Item): JobProgress {
  return JSON.parse(item.progress?.S ?? '{"done":0,"counts":{},"failed":[],"updatedAt":0}') as JobProgress;
}

export function createDynamoJobStore(options: DynamoJobStoreOptions): JobStore {
  const { tableName: TableName, blobs } = options;
  const clock = options.now ?? Date.now;
  const key = (id: string, sk: string): Item => ({ pk: { S: `job#${id}` }, sk: { S: sk } });

  /** A value as an item's attributes: the bytes themselves, or the S3 object they were put in. */
  async function valueAttributes(id: string, sk: string, bytes: Buffer): Promise<Item> {
    if (bytes.length <= BLOB_OVER_BYTES) return { body: { B: bytes } };
    const objectKey = `jobs/${id}/${sk}`;
    await blobs.put(objectKey, bytes);
    return { blob: { S: objectKey } };
  }
  const storedValue = async (item: Item): Promise<Buffer> =>
    item.blob?.S ? blobs.get(item.blob.S) : Buffer.from(item.body?.B ?? new Uint8Array());

  /** Items of the job with sort keys from `from` to `to`, in order, at most `limit`. */
  async function query(id: string, from: string, to: string, limit: number, projection?: string): Promise<Item[]> {
    const { client, commands } = await options.client();
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await client.send(
        new commands.QueryCommand({
          TableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': { S: `job#${id}` }, ':from': { S: from }, ':to': { S: to } },
          ConsistentRead: true,
          Limit: Math.min(1_000, limit - items.length),
          ExclusiveStartKey: start,
          ...(projection ? { ProjectionExpression: projection } : {}),
          ...(projection?.includes('#o') ? { ExpressionAttributeNames: { '#o': 'outcome' } } : {}),
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start && items.length < limit);
    return items;
  }

  async function update(id: string, input: Omit<ConstructorParameters<Sdk['UpdateItemCommand']>[0], 'TableName' | 'Key'>) {
    const { client, commands } = await options.client();
    return client.send(new commands.UpdateItemCommand({ TableName, Key: key(id, 'job'), ...input }));
  }

  async function readJob(id: string): Promise<JobRecord | undefined> {
    const { client, commands } = await options.client();
    const { Item } = await client.send(new commands.GetItemCommand({ TableName, Key: key(id, 'job'), ConsistentRead: true }));
    if (!Item) return undefined;
    const job = jobOf(Item);
    return job.expiresAt > clock() ? job : undefined;
  }

  return {
    async create(job, batches, claim) {
      const { client, commands } = await options.client();
      // The input first: a job never names batches that are not there. Input of a job never made expires by its TTL.
      const inputs: Item[] = [];
      for (const batch of batches) {
        const sk = `in#${pad(batch.batch)}`;
        const value = await valueAttributes(job.id, sk, encodeReferences(batch.references));
        inputs.push({ ...key(job.id, sk), first: num(batch.first), expires_at: seconds(job.expiresAt), ...value });
      }
      for (let i = 0; i < inputs.length; i += 25) {
        let requests = inputs.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
        for (let attempt = 0; requests.length > 0; attempt += 1) {
          if (attempt > 8) throw new Error('DynamoDB left batch items unprocessed after 9 attempts');
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 50 * 2 ** attempt)));
          const answer = await client.send(new commands.BatchWriteItemCommand({ RequestItems: { [TableName]: requests } }));
          requests = (answer.UnprocessedItems?.[TableName] ?? []) as typeof requests;
        }
      }
      if (claim) {
        const claimKey = { pk: { S: `idem#${claim.key}` }, sk: { S: 'claim' } };
        try {
          await client.send(
            new commands.PutItemCommand({
              TableName,
              Item: { ...claimKey, job_id: { S: job.id }, digest: { S: claim.digest }, expires_at: seconds(claim.expiresAt) },
              // A claim its TTL has not deleted yet is over all the same.
              ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
              ExpressionAttributeValues: { ':now': seconds(clock()) },
            }),
          );
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
          const { Item } = await client.send(new commands.GetItemCommand({ TableName, Key: claimKey, ConsistentRead: true }));
          if (Item) return { existing: { jobId: Item.job_id?.S ?? '', digest: Item.digest?.S ?? '' } };
          throw error;
        }
      }
      // After the claim: a claim whose job was never written (this process stopped between the two) is answered
      // as a job that does not exist, and the caller's next key makes a new one.
      await client.send(
        new commands.PutItemCommand({ TableName, Item: jobItem(job), ConditionExpression: 'attribute_not_exists(pk)' }),
      );
      return { created: true };
    },
    job: readJob,
    async batch(id, batch) {
      const { client, commands } = await options.client();
      const { Item } = await client.send(new commands.GetItemCommand({ TableName, Key: key(id, `in#${pad(batch)}`) }));
      if (!Item) return undefined;
      return { batch, first: n(Item.first) ?? 1, references: decodeReferences(await storedValue(Item)) } satisfies BatchInput;
    },
    async answered(id, first, last) {
      const items = await query(id, `res#${pad(first)}`, `res#${pad(last)}`, last - first + 1, 'sk, failed');
      return new Map(items.map((item) => [Number((item.sk?.S ?? '').slice(4)), item.failed?.BOOL ? 'failed' : 'answer']));
    },
    async saveOutcomes(id, outcomes) {
      const { client, commands } = await options.client();
      const job = await readJob(id);
      if (!job) return 0;
      let written = 0;
      for (const { index, outcome, failed, reason, body } of outcomes) {
        const sk = `res#${pad(index)}`;
        const value = await valueAttributes(id, sk, body);
        try {
          await client.send(
            new commands.PutItemCommand({
              TableName,
              Item: {
                ...key(id, sk),
                outcome: { S: outcome },
                failed: { BOOL: failed },
                ...(reason === undefined ? {} : { reason: { S: reason } }),
                expires_at: seconds(job.expiresAt),
                ...value,
              },
              ConditionExpression: 'attribute_not_exists(pk) OR failed = :yes',
              ExpressionAttributeValues: { ':yes': { BOOL: true } },
            }),
          );
          written += 1;
        } catch (error) {
          // Answered already (by a duplicate delivery): kept as it is.
          if (!isConditionFailure(error)) throw error;
        }
      }
      return written;
    },
    async countBatch(id, batch, first, last, now) {
      const job = await readJob(id);
      if (!job) return;
      const items = await query(id, `res#${pad(first)}`, `res#${pad(last)}`, last - first + 1, 'sk, #o, failed, reason');
      const counted = batchProgress(
        items.map((item) => ({
          index: Number((item.sk?.S ?? '').slice(4)),
          outcome: item.outcome?.S ?? 'failed',
          failed: item.failed?.BOOL ?? false,
          reason: item.reason?.S,
        })),
        now,
      );
      const { client, commands } = await options.client();
      await client
        .send(
          new commands.PutItemCommand({
            TableName,
            Item: {
              ...key(id, `count#${pad(batch)}`),
              progress: { S: JSON.stringify(counted) },
              rank: num(progressRank(counted)),
              expires_at: seconds(job.expiresAt),
            },
            // Never behind the count kept: a count made from an older read is dropped.
            ConditionExpression: 'attribute_not_exists(pk) OR #rank <= :rank',
            ExpressionAttributeNames: { '#rank': 'rank' },
            ExpressionAttributeValues: { ':rank': num(progressRank(counted)) },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        });
    },
    async progress(id) {
      const items = await query(id, 'count#000000', 'count#999999', Number.MAX_SAFE_INTEGER);
      return sumProgress(items.map(countOf));
    },
    async markEnqueued(id) {
      await update(id, {
        UpdateExpression: 'SET enqueued = :yes',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':yes': { BOOL: true } },
      }).catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
    },
    async setStatus(id, from, to, now) {
      const values: Item = { ':to': { S: to }, ':now': num(now) };
      from.forEach((status, i) => {
        values[`:from${i}`] = { S: status };
      });
      try {
        await update(id, {
          UpdateExpression: `SET #status = :to, ${to === 'running' ? 'started_at' : 'finished_at'} = :now`,
          ConditionExpression: `#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: values,
        });
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async results(id, from, limit) {
      const items = await query(id, `res#${pad(from)}`, 'res#999999', limit);
      const results: StoredResult[] = [];
      for (const item of items) {
        results.push({
          index: Number((item.sk?.S ?? '').slice(4)),
          failed: item.failed?.BOOL ?? false,
          body: await storedValue(item),
        });
      }
      return results;
    },
    async updateWebhook(id, webhook) {
      await update(id, {
        UpdateExpression: 'SET webhook = :webhook',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':webhook': webhookItem(webhook) },
      });
    },
  };
}
