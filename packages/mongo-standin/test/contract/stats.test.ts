/**
 * Storage statistics contract: dbStats, collStats and serverStatus's memory answer as MongoDB does (the
 * fields operators and tools read), sizes follow the data, and `scale` divides them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { collections, serverError, type AnyCollection } from './shared.ts';

let tdb: TestDatabase;
let fresh: (label: string) => AnyCollection;

beforeAll(async () => {
  tdb = await startTestDatabase();
  fresh = collections(tdb.db, 'stats');
});

afterAll(async () => {
  await tdb?.close();
});

/** 200 documents of ~1 KB each. */
const documents = () =>
  Array.from({ length: 200 }, (_, i) => ({ _id: i, name: `service ${i}`, text: 'x'.repeat(1000) }));

describe('collStats', () => {
  it('counts the documents and sizes their data, storage and indexes', async () => {
    const c = fresh('sized');
    await c.insertMany(documents());
    await c.createIndex({ name: 1 });
    const stats = await tdb.db.command({ collStats: c.collectionName });
    expect(stats.ok).toBe(1);
    expect(stats.ns).toBe(`${tdb.db.databaseName}.${c.collectionName}`);
    expect(stats.count).toBe(200);
    expect(stats.size).toBeGreaterThanOrEqual(200 * 1000);
    expect(stats.size).toBeLessThan(200 * 1200);
    expect(stats.avgObjSize).toBe(Math.floor(stats.size / 200));
    expect(stats.storageSize).toBeGreaterThan(0);
    expect(stats.nindexes).toBe(2);
    expect(Object.keys(stats.indexSizes).sort()).toEqual(['_id_', 'name_1']);
    expect(stats.totalIndexSize).toBe(stats.indexSizes._id_ + stats.indexSizes.name_1);
    expect(stats.totalSize).toBe(stats.storageSize + stats.totalIndexSize);

    await c.deleteMany({ _id: { $gte: 100 } });
    const after = await tdb.db.command({ collStats: c.collectionName });
    expect(after.count).toBe(100);
    expect(after.size).toBeCloseTo(stats.size / 2, -3);
  });

  it('divides sizes by `scale`, and answers zeros for a collection that does not exist', async () => {
    const c = fresh('scaled');
    await c.insertMany(documents());
    const bytes = await tdb.db.command({ collStats: c.collectionName });
    const kib = await tdb.db.command({ collStats: c.collectionName, scale: 1024 });
    expect(kib.scaleFactor).toBe(1024);
    expect(kib.size).toBe(Math.floor(bytes.size / 1024));
    expect(kib.count).toBe(200);

    const none = await tdb.db.command({ collStats: 'stats_none' });
    expect(none).toMatchObject({ ok: 1, count: 0, size: 0, storageSize: 0, totalIndexSize: 0 });
    expect((await serverError(tdb.db.command({ collStats: c.collectionName, scale: 0 }))).code).toBe(2);
  });
});

describe('dbStats', () => {
  it('sums its collections: objects, data, storage and index sizes', async () => {
    const c = fresh('db');
    await c.insertMany(documents());
    const stats = await tdb.db.command({ dbStats: 1 });
    expect(stats.ok).toBe(1);
    expect(stats.db).toBe(tdb.db.databaseName);
    expect(stats.collections).toBeGreaterThanOrEqual(1);
    expect(stats.objects).toBeGreaterThanOrEqual(200);
    expect(stats.dataSize).toBeGreaterThanOrEqual(200 * 1000);
    expect(stats.avgObjSize).toBeGreaterThan(0);
    expect(stats.storageSize).toBeGreaterThan(0);
    expect(stats.indexes).toBeGreaterThanOrEqual(1);
    expect(stats.indexSize).toBeGreaterThan(0);
    expect(stats.totalSize).toBe(stats.storageSize + stats.indexSize);
    expect(stats.fsTotalSize).toBeGreaterThan(stats.fsUsedSize);
    const mib = await tdb.db.command({ dbStats: 1, scale: 1024 * 1024 });
    expect(mib.dataSize).toBe(Math.floor(stats.dataSize / (1024 * 1024)));
  });

  it('listDatabases reports the database with its size on disk', async () => {
    await fresh('listed').insertOne({ a: 1 });
    const { databases, totalSize } = await tdb.client.db('admin').command({ listDatabases: 1 });
    const entry = databases.find((database: { name: string }) => database.name === tdb.db.databaseName);
    expect(entry.sizeOnDisk).toBeGreaterThan(0);
    expect(totalSize).toBeGreaterThanOrEqual(entry.sizeOnDisk);
  });
});

describe('serverStatus', () => {
  it('reports the memory in use (MiB)', async () => {
    const { mem } = await tdb.client.db('admin').command({ serverStatus: 1 });
    expect(mem.bits).toBe(64);
    expect(mem.resident).toBeGreaterThan(0);
    expect(mem.virtual).toBeGreaterThanOrEqual(mem.resident);
  });
});
