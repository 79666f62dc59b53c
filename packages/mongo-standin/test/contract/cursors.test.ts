/**
 * Cursor contract: results spread over several batches (find and aggregate), closing a cursor
 * part-way (the server cursor is then gone: getMore fails with CursorNotFound, code 43),
 * and limit combined with batchSize. Batches are observed through the driver's command monitoring.
 */
import {
  Long,
  MongoClient,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Db,
  type Document,
} from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { type AnyCollection, collections, idsOf, serverError } from './shared.ts';

let tdb: TestDatabase;
/** A second client on the same database, with command monitoring on. */
let monitored: MongoClient;
let db: Db;
let fresh: (label: string) => AnyCollection;
let started: CommandStartedEvent[] = [];
let succeeded: CommandSucceededEvent[] = [];

beforeAll(async () => {
  tdb = await startTestDatabase();
  monitored = new MongoClient(tdb.uri, { monitorCommands: true });
  monitored.on('commandStarted', (event) => started.push(event));
  monitored.on('commandSucceeded', (event) => succeeded.push(event));
  await monitored.connect();
  db = monitored.db(tdb.db.databaseName);
  fresh = collections(db, 'cursor');
});

afterAll(async () => {
  await monitored?.close();
  await tdb?.close();
});

beforeEach(() => {
  started = [];
  succeeded = [];
});

const seed = async (label: string, count = 11) => {
  const c = fresh(label);
  await c.insertMany(Array.from({ length: count }, (_, i) => ({ _id: i, n: i })));
  started = [];
  succeeded = [];
  return c;
};

/** The batches the server returned for the cursor commands seen so far, in order. */
const batches = () =>
  succeeded
    .filter((e) => ['find', 'aggregate', 'getMore'].includes(e.commandName))
    .map((e) => {
      const cursor = (e.reply as Document).cursor as Document;
      const docs = (cursor.firstBatch ?? cursor.nextBatch) as Document[];
      return { command: e.commandName, size: docs.length, id: cursor.id as Long };
    });

/** Cursor ids must be sent back as 64-bit integers, whatever JS type the reply decoded to. */
const asLong = (id: unknown): Long => Long.fromValue(id as Long);

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('find cursors', () => {
  it('reads 11 documents in batches of 2 with toArray, through several getMores', async () => {
    const c = await seed('toarray');
    const docs = await c.find({}).sort({ _id: 1 }).batchSize(2).toArray();
    expect(idsOf(docs)).toEqual(range(11));
    const seen = batches();
    expect(seen[0]?.command).toBe('find');
    expect(seen[0]?.size).toBe(2);
    for (const batch of seen) expect(batch.size).toBeLessThanOrEqual(2);
    expect(seen.filter((b) => b.command === 'getMore').length).toBeGreaterThanOrEqual(5);
    expect(seen.reduce((sum, b) => sum + b.size, 0)).toBe(11);
    // the last reply closes the cursor on the server (id 0)
    expect(asLong(seen.at(-1)?.id ?? 1).isZero()).toBe(true);
  });

  it('reads 11 documents in batches of 2 with for await', async () => {
    const c = await seed('forawait');
    const ids: unknown[] = [];
    for await (const doc of c.find({}, { batchSize: 2 }).sort({ _id: -1 })) ids.push(doc._id);
    expect(ids).toEqual(range(11).reverse());
    expect(batches().filter((b) => b.command === 'getMore').length).toBeGreaterThanOrEqual(5);
  });

  it('getMore on the cursor id keeps returning the next documents', async () => {
    const c = await seed('rawgetmore');
    const first = await db.command({ find: c.collectionName, filter: {}, sort: { _id: 1 }, batchSize: 3 });
    const cursorId = asLong(first.cursor.id);
    expect(idsOf(first.cursor.firstBatch)).toEqual([0, 1, 2]);
    expect(cursorId.isZero()).toBe(false);
    const next = await db.command({ getMore: cursorId, collection: c.collectionName, batchSize: 4 });
    expect(idsOf(next.cursor.nextBatch)).toEqual([3, 4, 5, 6]);
    expect(next.cursor.ns).toBe(`${db.databaseName}.${c.collectionName}`);
    const rest = await db.command({ getMore: cursorId, collection: c.collectionName });
    expect(idsOf(rest.cursor.nextBatch)).toEqual([7, 8, 9, 10]);
    expect(asLong(rest.cursor.id).isZero()).toBe(true);
  });

  it('close() part-way kills the server cursor: getMore on its id fails with CursorNotFound (43)', async () => {
    const c = await seed('close');
    const cursor = c.find({}).sort({ _id: 1 }).batchSize(2);
    const read: unknown[] = [];
    for (let i = 0; i < 3; i++) read.push((await cursor.next())?._id);
    expect(read).toEqual([0, 1, 2]);
    expect(cursor.id).toBeDefined();
    const cursorId = asLong(cursor.id);
    expect(cursorId.isZero()).toBe(false);
    await cursor.close();
    expect(started.some((e) => e.commandName === 'killCursors')).toBe(true);
    const err = await serverError(db.command({ getMore: cursorId, collection: c.collectionName }));
    expect(err.code).toBe(43);
    expect(err.codeName).toBe('CursorNotFound');
  });

  it('the killCursors command reports the killed cursor and getMore then fails with 43', async () => {
    const c = await seed('killcursors');
    const first = await db.command({ find: c.collectionName, filter: {}, batchSize: 2 });
    const cursorId = asLong(first.cursor.id);
    const killed = await db.command({ killCursors: c.collectionName, cursors: [cursorId] });
    expect(killed.cursorsKilled.map((id: unknown) => asLong(id).toString())).toEqual([cursorId.toString()]);
    const err = await serverError(db.command({ getMore: cursorId, collection: c.collectionName }));
    expect(err.code).toBe(43);
  });

  it('getMore on an id that never existed fails with CursorNotFound (43)', async () => {
    const c = await seed('nocursor', 1);
    const err = await serverError(
      db.command({ getMore: Long.fromString('1234567890123'), collection: c.collectionName }),
    );
    expect(err.code).toBe(43);
  });

  it('limit combined with batchSize returns exactly limit documents and closes the cursor', async () => {
    const c = await seed('limit');
    const docs = await c.find({}).sort({ _id: 1 }).limit(5).batchSize(2).toArray();
    expect(idsOf(docs)).toEqual([0, 1, 2, 3, 4]);
    const seen = batches();
    for (const batch of seen) expect(batch.size).toBeLessThanOrEqual(2);
    expect(seen.reduce((sum, b) => sum + b.size, 0)).toBe(5);
    expect(asLong(seen.at(-1)?.id ?? 1).isZero()).toBe(true);
  });

  it('a batch size larger than the result returns everything in the first batch with cursor id 0', async () => {
    const c = await seed('single');
    const docs = await c
      .find({ n: { $lt: 4 } })
      .batchSize(100)
      .toArray();
    expect(docs).toHaveLength(4);
    const seen = batches();
    expect(seen).toHaveLength(1);
    expect(asLong(seen[0]?.id ?? 1).isZero()).toBe(true);
  });
});

describe('aggregate cursors', () => {
  it('returns an aggregation result over several batches', async () => {
    const c = await seed('aggregate');
    const docs = await c
      .aggregate([{ $match: { n: { $gte: 0 } } }, { $sort: { n: -1 } }, { $project: { _id: 0, n: 1 } }], {
        batchSize: 2,
      })
      .toArray();
    expect(docs).toEqual(
      range(11)
        .reverse()
        .map((n) => ({ n })),
    );
    const seen = batches();
    expect(seen[0]?.command).toBe('aggregate');
    expect(seen[0]?.size).toBeLessThanOrEqual(2);
    for (const batch of seen) expect(batch.size).toBeLessThanOrEqual(2);
    expect(seen.filter((b) => b.command === 'getMore').length).toBeGreaterThanOrEqual(5);
    expect(seen.reduce((sum, b) => sum + b.size, 0)).toBe(11);
  });

  it('an aggregate cursor closed part-way is gone on the server', async () => {
    const c = await seed('aggclose');
    const cursor = c.aggregate([{ $sort: { n: 1 } }], { batchSize: 2 });
    expect((await cursor.next())?.n).toBe(0);
    expect((await cursor.next())?.n).toBe(1);
    expect((await cursor.next())?.n).toBe(2);
    const cursorId = asLong(cursor.id ?? 0);
    expect(cursorId.isZero()).toBe(false);
    await cursor.close();
    const err = await serverError(db.command({ getMore: cursorId, collection: c.collectionName }));
    expect(err.code).toBe(43);
  });
});
