/**
 * Database command contract: ping, hello, buildInfo, collection and database management
 * (listCollections/createCollection/drop/dropDatabase/listDatabases), and the errors for an unknown
 * command (59 CommandNotFound) and an unknown query operator (2 BadValue).
 */
import { randomBytes } from 'node:crypto';
import { type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { type AnyCollection, collections, serverError, sortedStrings } from './shared.ts';

let tdb: TestDatabase;
let fresh: (label: string) => AnyCollection;

beforeAll(async () => {
  tdb = await startTestDatabase();
  fresh = collections(tdb.db, 'cmd');
});

afterAll(async () => {
  await tdb?.close();
});

describe('server commands', () => {
  it('ping answers ok: 1', async () => {
    expect((await tdb.db.command({ ping: 1 })).ok).toBe(1);
    expect((await tdb.client.db('admin').command({ ping: 1 })).ok).toBe(1);
  });

  it('hello reports a writable primary and the documented limits', async () => {
    const hello = await tdb.db.admin().command({ hello: 1 });
    expect(hello.ok).toBe(1);
    expect(hello.isWritablePrimary).toBe(true);
    expect(hello.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    expect(hello.maxMessageSizeBytes).toBe(48_000_000);
    expect(hello.maxWriteBatchSize).toBe(100_000);
    expect(hello.localTime).toBeInstanceOf(Date);
    expect(typeof hello.minWireVersion).toBe('number');
    expect(typeof hello.maxWireVersion).toBe('number');
    // driver v7 refuses servers below MongoDB 4.2 (wire version 8), so a connected server reports at least that
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(8);
    expect(hello.minWireVersion).toBeLessThanOrEqual(hello.maxWireVersion);
  });

  it('buildInfo reports a version string and a matching versionArray', async () => {
    const info = await tdb.db.admin().command({ buildInfo: 1 });
    expect(info.ok).toBe(1);
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Array.isArray(info.versionArray)).toBe(true);
    const [major, minor, patch] = (info.version as string).split(/[.-]/).map(Number);
    expect(info.versionArray.slice(0, 3)).toEqual([major, minor, patch]);
  });

  it('an unknown command fails with CommandNotFound (59)', async () => {
    const err = await serverError(tdb.db.command({ noSuchCommand: 1 }));
    expect(err.code).toBe(59);
    expect(err.codeName).toBe('CommandNotFound');
    expect(err.message).toContain('noSuchCommand');
  });

  it('an unknown query operator fails with BadValue (2)', async () => {
    const c = fresh('badop');
    await c.insertOne({ a: 1 });
    const err = await serverError(c.find({ a: { $foo: 1 } } as Document).toArray());
    expect(err.code).toBe(2);
    expect(err.codeName).toBe('BadValue');
    expect(err.message).toContain('$foo');
    // the same in a $match stage and in a count
    expect((await serverError(c.aggregate([{ $match: { a: { $foo: 1 } } }]).toArray())).code).toBe(2);
    expect((await serverError(c.countDocuments({ a: { $foo: 1 } } as Document))).code).toBe(2);
  });

  it('an unknown top-level operator fails with BadValue (2)', async () => {
    const c = fresh('badtop');
    await c.insertOne({ a: 1 });
    const err = await serverError(c.find({ $foo: [{ a: 1 }] } as Document).toArray());
    expect(err.code).toBe(2);
  });

  it('an unknown update operator fails', async () => {
    const c = fresh('badupdate');
    await c.insertOne({ _id: 1, a: 1 });
    const err = await serverError(c.updateOne({ _id: 1 }, { $foo: { a: 2 } } as Document));
    expect(typeof err.code).toBe('number');
    expect((await c.findOne({ _id: 1 }))?.a).toBe(1);
  });
});

describe('collections', () => {
  const collectionNames = async () =>
    sortedStrings((await tdb.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));

  it('createCollection creates an empty collection that listCollections reports as a collection', async () => {
    const name = `cmd_created_${randomBytes(3).toString('hex')}`;
    const created = await tdb.db.createCollection(name);
    expect(created.collectionName).toBe(name);
    expect(await collectionNames()).toContain(name);
    const [info] = await tdb.db.listCollections({ name }).toArray();
    expect(info?.name).toBe(name);
    expect(info?.type).toBe('collection');
    expect(await tdb.db.collection(name).countDocuments()).toBe(0);
  });

  it('the first insert creates a collection implicitly', async () => {
    const c = fresh('implicit');
    expect(await collectionNames()).not.toContain(c.collectionName);
    await c.insertOne({ a: 1 });
    expect(await collectionNames()).toContain(c.collectionName);
  });

  it('createCollection on an existing name with different options fails', async () => {
    const name = `cmd_exists_${randomBytes(3).toString('hex')}`;
    await tdb.db.createCollection(name);
    await serverError(tdb.db.createCollection(name, { capped: true, size: 4096 }));
  });

  it('drop removes the collection, its documents and its indexes', async () => {
    const c = fresh('drop');
    await c.insertMany([{ a: 1 }, { a: 2 }]);
    await c.createIndex({ a: 1 }, { unique: true });
    expect(await c.drop()).toBe(true);
    expect(await collectionNames()).not.toContain(c.collectionName);
    expect(await c.countDocuments()).toBe(0);
    // the unique index went with it
    await c.insertMany([{ a: 1 }, { a: 1 }]);
    expect(await c.countDocuments()).toBe(2);
  });

  it('listCollections filters by name', async () => {
    const a = fresh('lista');
    const b = fresh('listb');
    await a.insertOne({ x: 1 });
    await b.insertOne({ x: 1 });
    const listed = await tdb.db.listCollections({ name: a.collectionName }).toArray();
    expect(listed.map((c) => c.name)).toEqual([a.collectionName]);
  });
});

describe('databases', () => {
  it('listDatabases includes a database once it holds data, and dropDatabase removes it', async () => {
    const name = `${tdb.db.databaseName}_extra`;
    const other = tdb.client.db(name);
    try {
      await other.collection('things').insertOne({ a: 1 });
      const listed = await tdb.client.db('admin').admin().listDatabases();
      expect(listed.ok).toBe(1);
      expect(listed.databases.map((d) => d.name)).toContain(name);
      expect(await other.dropDatabase()).toBe(true);
      const after = await tdb.client.db('admin').admin().listDatabases();
      expect(after.databases.map((d) => d.name)).not.toContain(name);
      expect(await other.listCollections().toArray()).toEqual([]);
      expect(await other.collection('things').countDocuments()).toBe(0);
    } finally {
      await other.dropDatabase();
    }
  });

  it('listDatabases with nameOnly returns names', async () => {
    const listed = await tdb.client.db('admin').admin().listDatabases({ nameOnly: true });
    for (const db of listed.databases) expect(typeof db.name).toBe('string');
  });

  it('databases are isolated: the same collection name in two databases holds different documents', async () => {
    const a = tdb.client.db(`${tdb.db.databaseName}_a`);
    const b = tdb.client.db(`${tdb.db.databaseName}_b`);
    try {
      await a.collection('same').insertOne({ from: 'a' });
      await b.collection('same').insertOne({ from: 'b' });
      expect(
        await a
          .collection('same')
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      ).toEqual([{ from: 'a' }]);
      expect(
        await b
          .collection('same')
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      ).toEqual([{ from: 'b' }]);
    } finally {
      await a.dropDatabase();
      await b.dropDatabase();
    }
  });
});
