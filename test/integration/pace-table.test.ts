/**
 * The pace's DynamoDB store (lib/pace/dynamo-store.ts) against a DynamoDB-protocol table on loopback
 * (dynalite, through the real AWS SDK): a state written and read back exactly, changes of several paces at
 * once serialised by the version condition (none given the room another took), and a table that is down or
 * slower than its time answered PaceStoreUnavailable, so that a container falls back to its own pace.
 */
import * as sdk from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoPaceStore, fromPaceItem, toPaceItem } from '../../lib/pace/dynamo-store.js';
import { Pace } from '../../lib/pace/pace.js';
import { PaceStoreUnavailable } from '../../lib/pace/store.js';
import { type CacheTableServer, startCacheTable } from '../support/cache-table.js';

let table: CacheTableServer;
let client: sdk.DynamoDBClient;

beforeAll(async () => {
  table = await startCacheTable('search-citation-pace-store');
  client = new sdk.DynamoDBClient({
    endpoint: table.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client.destroy();
  await table.close();
});

/** A store on the table; `timeoutMs` generous unless a test is about it (a busy machine is not a down table). */
const storeOf = (timeoutMs = 20_000) =>
  createDynamoPaceStore({ tableName: table.tableName, client: async () => ({ client, commands: sdk }), timeoutMs });

describe('the pace’s item', () => {
  it('holds a state exactly: its starts in order, the stated pace, the pause and the Retry-After it came from, the calls in flight', () => {
    const state = {
      starts: [1_795_000_000_000, 1_795_000_000_000, 1_795_000_000_667, 1_795_000_002_000],
      pausedUntil: 1_795_000_030_000,
      retryAfterUntil: 1_795_000_030_000,
      stated: { limit: 5, ms: 1_000 },
      held: [
        { id: '6f1c0a9e-2b7d-4c1e-9a43-1f0d5e7c2b11', start: 1_795_000_000_667, until: 1_795_000_005_667 },
        { id: 'an:id:with:colons', start: 1_795_000_002_000, until: 1_795_000_007_000 },
      ],
      statedInFlight: 1,
    };
    const item = toPaceItem('crossref', state, 7);
    expect(item.starts).toEqual({ S: '1795000000000,0,667,1333' });
    expect(item.stated_in_flight).toEqual({ N: '1' });
    expect(fromPaceItem(item)).toEqual({ state, version: 7 });
    // It expires a day after its last start or pause.
    expect(Number(item.expires_at?.N)).toBe(1_795_000_030 + 86_400);
    expect(fromPaceItem(undefined)).toEqual({ state: { starts: [], pausedUntil: 0 }, version: 0 });
  });
});

describe('the pace’s DynamoDB store', () => {
  it('gives paces of several containers sharing the item their turns one after another, never the same room twice', async () => {
    const paces = Array.from(
      { length: 4 },
      () => new Pace({ key: 'contended', source: 'Crossref', perSecond: 2, store: storeOf(), now: () => 0 }),
    );
    // Every pace asks for three turns at once: twelve turns for four containers, two a second.
    const turns = await Promise.all(paces.flatMap((pace) => [0, 1, 2].map(() => pace.slot(Number.POSITIVE_INFINITY, 0))));
    const starts = turns.map((turn) => ('startAt' in turn ? turn.startAt : Number.NaN)).sort((a, b) => a - b);
    expect(starts).toEqual([0, 0, 1_030, 1_030, 2_060, 2_060, 3_090, 3_090, 4_120, 4_120, 5_150, 5_150]);
    expect(paces.flatMap((pace) => pace.storeFailures())).toEqual([]);
    const stored = await client.send(
      new sdk.GetItemCommand({ TableName: table.tableName, Key: { pk: { S: 'contended' } }, ConsistentRead: true }),
    );
    expect(fromPaceItem(stored.Item).state.starts).toEqual(starts);
  });

  it('writes nothing for a change that changes nothing', async () => {
    table.resetLog();
    await storeOf().update('quiet', (state) => ({ next: undefined, result: state }));
    expect(table.operations).toEqual(['GetItem']);
  });

  it('answers PaceStoreUnavailable while the table is down, and while it is slower than its time', async () => {
    const change = () => ({ next: { starts: [1], pausedUntil: 0 }, result: true });
    await table.stop();
    try {
      await expect(storeOf().update('down', change)).rejects.toBeInstanceOf(PaceStoreUnavailable);
    } finally {
      await table.start();
    }
    table.setMode({ kind: 'slow', delayMs: 300 });
    try {
      // Whichever fires first: the store's own timer, or the SDK's abort at the same time.
      await expect(storeOf(50).update('slow', change)).rejects.toThrow(/no answer within 50 ms|TimeoutError/);
      await expect(storeOf(50).update('slow', change)).rejects.toBeInstanceOf(PaceStoreUnavailable);
    } finally {
      table.setMode({ kind: 'ok' });
    }
  });

  it('sends a call again once when its connection closed before any answer, and gives up on a second close', async () => {
    const pace = () => new Pace({ key: 'dropped', source: 'Crossref', perSecond: 1, store: storeOf(), now: () => 0 });
    table.resetLog();
    // The table closes the connection of the first read (a kept-alive connection it had just timed out).
    table.dropNext(1);
    const first = pace();
    const turn = await first.slot(Number.POSITIVE_INFINITY, 0);
    expect(turn).toEqual({ startAt: 0 });
    expect(first.storeFailures()).toEqual([]);
    expect(table.operations).toEqual(['GetItem', 'GetItem', 'PutItem']);
    // Closed twice in a row, the table is taken for down (the container keeps the pace alone a while).
    table.dropNext(2);
    const change = () => ({ next: { starts: [1], pausedUntil: 0 }, result: true });
    await expect(storeOf().update('dropped twice', change)).rejects.toBeInstanceOf(PaceStoreUnavailable);
    // An answer, even a refusal, is not sent again.
    table.resetLog();
    table.grantLeadingKeys(['crossref']);
    try {
      await expect(storeOf().update('refused', change)).rejects.toThrow(/AccessDeniedException/);
      expect(table.operations).toEqual(['GetItem']);
    } finally {
      table.grantLeadingKeys(undefined);
    }
  });

  it('takes a turn later, never the same room twice, when a write landed and its answer was lost', async () => {
    const paces = [0, 1].map(
      () => new Pace({ key: 'lost answer', source: 'Crossref', perSecond: 1, store: storeOf(), now: () => 0 }),
    );
    // The first pace's write lands and its connection closes before the answer.
    table.dropNext(1, { after: true, operation: 'PutItem' });
    const firstTurn = await paces[0]?.slot(Number.POSITIVE_INFINITY, 0);
    const secondTurn = await paces[1]?.slot(Number.POSITIVE_INFINITY, 0);
    const stored = await client.send(
      new sdk.GetItemCommand({ TableName: table.tableName, Key: { pk: { S: 'lost answer' } }, ConsistentRead: true }),
    );
    const starts = fromPaceItem(stored.Item).state.starts;
    // The lost write's turn stays in the item, unused: the first pace's turn came after it, the second's after both.
    expect(starts).toHaveLength(3);
    expect(firstTurn).toEqual({ startAt: starts[1] });
    expect(secondTurn).toEqual({ startAt: starts[2] });
    expect(new Set(starts).size).toBe(3);
    expect(paces.flatMap((pace) => pace.storeFailures())).toEqual([]);
  });
});
