import { Long } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.dispose();
});

describe('server-side cursors', () => {
  it('serves a result over several getMore batches and closes when exhausted', async () => {
    const coll = h.client.db('cur').collection('many');
    await coll.insertMany(Array.from({ length: 250 }, (_, i) => ({ i })));
    const db = h.client.db('cur');
    const first = await db.command({ find: 'many', batchSize: 100, sort: { i: 1 } });
    expect(first.cursor.firstBatch).toHaveLength(100);
    expect(first.cursor.ns).toBe('cur.many');
    expect(first.cursor.id).toBeInstanceOf(Long);
    const id = first.cursor.id as Long;
    const second = await db.command({ getMore: id, collection: 'many', batchSize: 100 });
    expect(second.cursor.nextBatch[0].i).toBe(100);
    const third = await db.command({ getMore: id, collection: 'many', batchSize: 100 });
    expect(third.cursor.nextBatch).toHaveLength(50);
    expect(Number(third.cursor.id)).toBe(0);
    await expect(db.command({ getMore: id, collection: 'many' })).rejects.toMatchObject({
      code: 43,
      codeName: 'CursorNotFound',
    });
    expect(await coll.find().batchSize(7).toArray()).toHaveLength(250);
  });

  it('gives each result once, in order, as many as asked for each time, though it reads the next batch ahead', async () => {
    const coll = h.client.db('cur').collection('ahead');
    await coll.insertMany(Array.from({ length: 400 }, (_, i) => ({ i })));
    const db = h.client.db('cur');
    const numbers = (batch: { i: number }[]) => batch.map(({ i }) => i);
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
    const first = await db.command({ find: 'ahead', batchSize: 100, sort: { i: 1 } });
    expect(numbers(first.cursor.firstBatch)).toEqual(range(0, 100));
    const id = first.cursor.id as Long;
    const getMore = async (batchSize: number) =>
      (await db.command({ getMore: id, collection: 'ahead', batchSize })).cursor;
    // Fewer than were read ahead (100 to 199), then more.
    expect(numbers((await getMore(30)).nextBatch)).toEqual(range(100, 130));
    const fourth = await getMore(200);
    expect(numbers(fourth.nextBatch)).toEqual(range(130, 330));
    expect(Number(fourth.id)).not.toBe(0);
    const last = await getMore(200);
    expect(numbers(last.nextBatch)).toEqual(range(330, 400));
    expect(Number(last.id)).toBe(0);
    expect(
      numbers(
        (await coll
          .find({}, { sort: { i: 1 } })
          .batchSize(64)
          .toArray()) as never,
      ),
    ).toEqual(range(0, 400));
  });

  it('ends the cursors reading a collection dropped, or its indexes, or its database: their getMore fails, the server goes on', async () => {
    const db = h.client.db('dropped');
    const large = 'x'.repeat(5_000);
    const fill = async (name: string) => {
      await db.collection(name).drop();
      await db.collection(name).createIndex({ i: 1 });
      await db.collection(name).insertMany(Array.from({ length: 50 }, (_, i) => ({ i, large })));
    };
    const cursorOn = async (name: string) =>
      (await db.command({ find: name, batchSize: 5, sort: { i: 1 } })).cursor.id as Long;
    for (const dropping of [
      () => db.collection('one').drop(),
      () => db.collection('one').dropIndexes(),
      () => db.dropDatabase(),
    ]) {
      await fill('one');
      const id = await cursorOn('one');
      await dropping();
      await expect(db.command({ getMore: id, collection: 'one', batchSize: 5 })).rejects.toMatchObject({
        code: 43,
      });
      await fill('one');
      expect(await db.collection('one').countDocuments()).toBe(50);
    }
  });

  it('gives a cursor opened before a failed write the large fields of documents written after it', async () => {
    const db = h.client.db('reloaded');
    const coll = db.collection<{ _id: number; i: number; large?: string }>('docs');
    await coll.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i, i })));
    const first = await db.command({ find: 'docs', batchSize: 5, sort: { _id: 1 } });
    // A write refused as a whole: the database reads its collections again from the catalog.
    await coll.insertOne({ _id: 100, i: 1 });
    await expect(coll.createIndex({ i: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
    const large = 'y'.repeat(6_000);
    await coll.insertOne({ _id: 50, i: 50, large });
    const rest: { _id: number; large?: string }[] = [];
    let id = first.cursor.id as Long;
    while (Number(id) !== 0) {
      const next = await db.command({ getMore: id, collection: 'docs', batchSize: 5 });
      rest.push(...next.cursor.nextBatch);
      id = next.cursor.id as Long;
    }
    expect(rest.find((doc) => doc._id === 50)?.large).toBe(large);
  });

  it('ends a cursor whose getMore fails: the next getMore on it is CursorNotFound', async () => {
    const db = h.client.db('failing');
    await db
      .collection<{ _id: number; d: number }>('c')
      .insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, d: i === 7 ? 0 : 1 })));
    // The eighth result cannot be computed: the batch read ahead for the getMore fails on it.
    const projection = { q: { $divide: [1, '$d'] } };
    const first = await db.command({ find: 'c', batchSize: 5, sort: { _id: 1 }, projection });
    expect(first.cursor.firstBatch).toHaveLength(5);
    const getMore = () => db.command({ getMore: first.cursor.id, collection: 'c', batchSize: 5 });
    await expect(getMore()).rejects.toThrow(/divide/);
    await expect(getMore()).rejects.toMatchObject({ code: 43 });
  });

  it('kills cursors', async () => {
    const db = h.client.db('cur');
    const first = await db.command({ find: 'many', batchSize: 2 });
    const killed = await db.command({ killCursors: 'many', cursors: [first.cursor.id] });
    expect(killed.cursorsKilled).toHaveLength(1);
    await expect(db.command({ getMore: first.cursor.id, collection: 'many' })).rejects.toMatchObject({
      code: 43,
    });
  });
});

describe('unique indexes', () => {
  it('reports E11000 as writeErrors and honours ordered', async () => {
    const coll = h.client.db('uniq').collection('users');
    await coll.createIndex({ name: 1 }, { unique: true });
    await coll.insertOne({ name: 'x' });
    const error = await coll.insertOne({ name: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 11000,
      message: 'E11000 duplicate key error collection: uniq.users index: name_1 dup key: { name: "x" }',
      keyPattern: { name: 1 },
      keyValue: { name: 'x' },
    });
    const ordered = await coll
      .insertMany([{ name: 'a' }, { name: 'x' }, { name: 'b' }])
      .catch((e: { insertedCount: number }) => e);
    expect(ordered).toMatchObject({ insertedCount: 1 });
    const unordered = await coll
      .insertMany([{ name: 'c' }, { name: 'x' }, { name: 'd' }], { ordered: false })
      .catch((e: { insertedCount: number }) => e);
    expect(unordered).toMatchObject({ insertedCount: 2 });
    expect(await coll.countDocuments()).toBe(4);
  });

  it('indexes missing fields as null unless sparse, and checks _id', async () => {
    const coll = h.client.db('uniq').collection('missing');
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.insertOne({ other: 1 });
    await expect(coll.insertOne({ other: 2 })).rejects.toMatchObject({
      code: 11000,
      keyValue: { email: null },
    });
    const sparse = h.client.db('uniq').collection('sparse');
    await sparse.createIndex({ email: 1 }, { unique: true, sparse: true });
    await sparse.insertMany([{ a: 1 }, { a: 2 }]);
    await sparse.insertOne({ _id: 'k' as never });
    await expect(sparse.insertOne({ _id: 'k' as never })).rejects.toMatchObject({
      code: 11000,
      message: 'E11000 duplicate key error collection: uniq.sparse index: _id_ dup key: { _id: "k" }',
    });
  });

  it('refuses to build a unique index over duplicates and rejects duplicating updates', async () => {
    const coll = h.client.db('uniq').collection('dups');
    await coll.insertMany([{ v: 1 }, { v: 1 }, { v: 2 }]);
    await expect(coll.createIndex({ v: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
    await coll.deleteOne({ v: 1 });
    await coll.createIndex({ v: 1 }, { unique: true });
    await expect(coll.updateOne({ v: 2 }, { $set: { v: 1 } })).rejects.toMatchObject({ code: 11000 });
    expect(await coll.countDocuments({ v: 2 })).toBe(1);
  });
});

describe('explain', () => {
  it('gives the plan of a find or a count, and refuses what it would answer only in part', async () => {
    const db = h.client.db('plans');
    await db.collection('things').insertMany([{ k: 1 }, { k: 2 }, { k: 2 }]);
    await db.collection('things').createIndex({ k: 1 });
    const counted = await db.command({
      explain: { count: 'things', query: { k: 2 } },
      verbosity: 'queryPlanner',
    });
    expect(counted.queryPlanner).toEqual({
      namespace: 'plans.things',
      winningPlan: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'k_1' } },
      rejectedPlans: [],
    });
    const paged = await db.command({
      explain: { find: 'things', filter: {}, sort: { other: -1 }, skip: 1, limit: 5 },
      verbosity: 'queryPlanner',
    });
    expect(paged.queryPlanner.winningPlan).toEqual({
      stage: 'LIMIT',
      limitAmount: 5,
      inputStage: {
        stage: 'SKIP',
        skipAmount: 1,
        inputStage: { stage: 'SORT', sortPattern: { other: -1 }, inputStage: { stage: 'COLLSCAN' } },
      },
    });
    await db.collection('places').createIndex({ at: '2dsphere' });
    await db.collection('places').createIndex({ k: 1 });
    const near = { at: { $near: { $geometry: { type: 'Point', coordinates: [0, 0] } } }, k: 2 };
    const nearest = await db.command({
      explain: { find: 'places', filter: near },
      verbosity: 'queryPlanner',
    });
    expect(nearest.queryPlanner.winningPlan).toEqual({
      stage: 'GEO_NEAR_2DSPHERE',
      keyPattern: { at: '2dsphere' },
      inputStage: { stage: 'IXSCAN', indexName: 'k_1' },
    });
    await expect(
      db.command({ explain: { count: 'places', query: near }, verbosity: 'queryPlanner' }),
    ).rejects.toMatchObject({ message: expect.stringContaining('$near') });
    const missing = await db.command({
      explain: { find: 'none', filter: { k: 1 } },
      verbosity: 'queryPlanner',
    });
    expect(missing.queryPlanner.winningPlan).toEqual({ stage: 'EOF' });
    await expect(
      db.command({ explain: { find: 'things', filter: {} }, verbosity: 'executionStats' }),
    ).rejects.toMatchObject({ codeName: 'BadValue', message: expect.stringContaining('queryPlanner') });
    await expect(
      db.command({ explain: { aggregate: 'things', pipeline: [], cursor: {} }, verbosity: 'queryPlanner' }),
    ).rejects.toMatchObject({ codeName: 'CommandNotFound' });
  });

  it('answers equality and $in of values from a sparse index, and null (missing included) by a scan', async () => {
    const links = h.client.db('plans').collection<{ _id: number; parent?: string | null }>('links');
    await links.createIndex({ parent: 1 }, { sparse: true });
    await links.insertMany([
      { _id: 1, parent: 'a' },
      { _id: 2, parent: 'b' },
      { _id: 3 },
      { _id: 4, parent: null },
    ]);
    const planOf = async (filter: object) =>
      (await h.client.db('plans').command({ explain: { find: 'links', filter }, verbosity: 'queryPlanner' }))
        .queryPlanner.winningPlan;
    const ids = async (filter: object) =>
      (await links.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await planOf({ parent: { $in: ['a', 'b'] } })).toEqual({
      stage: 'FETCH',
      inputStage: { stage: 'IXSCAN', indexName: 'parent_1' },
    });
    expect(await ids({ parent: { $in: ['a', 'b'] } })).toEqual([1, 2]);
    expect(await ids({ parent: 'b' })).toEqual([2]);
    // The index has no entry for _id 3: null must not be answered from it.
    expect(await planOf({ parent: null })).toEqual({ stage: 'COLLSCAN' });
    expect(await ids({ parent: null })).toEqual([3, 4]);
    expect(await ids({ parent: { $in: ['a', null] } })).toEqual([1, 3, 4]);
  });
});
