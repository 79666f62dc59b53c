/**
 * Index contract: createIndex/createIndexes/listIndexes/dropIndex/indexes(), unique indexes and the
 * duplicate key error E11000 (code 11000 with keyPattern/keyValue), sparse unique indexes, idempotent
 * index creation and 2dsphere indexes, as the MongoDB manual documents them.
 */
import { MongoBulkWriteError } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { type AnyCollection, collections, idsOf, serverError, sortedStrings } from './shared.ts';

let tdb: TestDatabase;
let fresh: (label: string) => AnyCollection;

beforeAll(async () => {
  tdb = await startTestDatabase();
  fresh = collections(tdb.db, 'idx');
});

afterAll(async () => {
  await tdb?.close();
});

const indexNames = async (c: AnyCollection) => sortedStrings((await c.indexes()).map((i) => i.name));

describe('index management', () => {
  it('a new collection has only the _id_ index', async () => {
    const c = fresh('default');
    await c.insertOne({ a: 1 });
    const indexes = await c.indexes();
    expect(indexes).toHaveLength(1);
    expect(indexes[0]?.name).toBe('_id_');
    expect(indexes[0]?.key).toEqual({ _id: 1 });
  });

  it('createIndex returns the generated name and listIndexes describes the index', async () => {
    const c = fresh('create');
    expect(await c.createIndex({ name: 1 })).toBe('name_1');
    expect(await c.createIndex({ org: 1, updated: -1 })).toBe('org_1_updated_-1');
    expect(await c.createIndex({ 'address.city': 1 }, { name: 'by_city' })).toBe('by_city');
    const listed = await c.listIndexes().toArray();
    const byName = new Map(listed.map((i) => [i.name as string, i]));
    expect([...byName.keys()].sort()).toEqual(['_id_', 'by_city', 'name_1', 'org_1_updated_-1']);
    expect(byName.get('name_1')?.key).toEqual({ name: 1 });
    expect(Object.entries(byName.get('org_1_updated_-1')?.key ?? {})).toEqual([
      ['org', 1],
      ['updated', -1],
    ]);
    expect(byName.get('by_city')?.key).toEqual({ 'address.city': 1 });
    expect(byName.get('name_1')?.v).toBe(2);
  });

  it('createIndex on a collection that does not exist yet creates the collection', async () => {
    const c = fresh('implicit');
    await c.createIndex({ x: 1 });
    const names = (await tdb.db.listCollections({ name: c.collectionName }).toArray()).map((i) => i.name);
    expect(names).toEqual([c.collectionName]);
  });

  it('createIndexes creates several indexes and returns their names', async () => {
    const c = fresh('createmany');
    const names = await c.createIndexes([
      { key: { a: 1 } },
      { key: { b: -1 }, name: 'b_desc' },
      { key: { c: 1 }, unique: true },
    ]);
    expect(names).toEqual(['a_1', 'b_desc', 'c_1']);
    expect(await indexNames(c)).toEqual(['_id_', 'a_1', 'b_desc', 'c_1']);
    const unique = (await c.indexes()).find((i) => i.name === 'c_1');
    expect(unique?.unique).toBe(true);
  });

  it('creating the same index again is a no-op', async () => {
    const c = fresh('twice');
    expect(await c.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    expect(await c.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    expect(await indexNames(c)).toEqual(['_id_', 'email_1']);
    const result = await tdb.db.command({
      createIndexes: c.collectionName,
      indexes: [{ key: { email: 1 }, name: 'email_1', unique: true }],
    });
    expect(result.ok).toBe(1);
    expect(result.numIndexesBefore).toBe(result.numIndexesAfter);
  });

  it('dropIndex removes an index by name or by key; indexExists reflects it', async () => {
    const c = fresh('drop');
    await c.createIndexes([{ key: { a: 1 } }, { key: { b: 1 } }]);
    await c.dropIndex('a_1');
    expect(await indexNames(c)).toEqual(['_id_', 'b_1']);
    expect(await c.indexExists('a_1')).toBe(false);
    expect(await c.indexExists('b_1')).toBe(true);
    await tdb.db.command({ dropIndexes: c.collectionName, index: { b: 1 } });
    expect(await indexNames(c)).toEqual(['_id_']);
  });

  it('dropping an index that does not exist fails with IndexNotFound (27)', async () => {
    const c = fresh('dropmissing');
    await c.insertOne({ a: 1 });
    const err = await serverError(c.dropIndex('nope_1'));
    expect(err.code).toBe(27);
    expect(err.codeName).toBe('IndexNotFound');
  });

  it('dropIndexes("*") drops every index except _id_', async () => {
    const c = fresh('dropall');
    await c.createIndexes([{ key: { a: 1 } }, { key: { b: 1 } }]);
    await c.dropIndexes();
    expect(await indexNames(c)).toEqual(['_id_']);
  });

  it('indexed and unindexed queries return the same documents', async () => {
    const c = fresh('queryindex');
    await c.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i, k: i % 4, tags: [`t${i % 3}`] })));
    const before = idsOf(await c.find({ k: 2, tags: 't1' }).sort({ _id: 1 }).toArray());
    await c.createIndexes([{ key: { k: 1 } }, { key: { tags: 1 } }]);
    const after = idsOf(await c.find({ k: 2, tags: 't1' }).sort({ _id: 1 }).toArray());
    expect(after).toEqual(before);
    expect(after).toEqual([10]);
  });
});

describe('unique indexes', () => {
  it('a duplicate insert fails with E11000: code 11000, keyPattern and keyValue', async () => {
    const c = fresh('unique');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: 'a@example.org' });
    const err = await serverError(c.insertOne({ email: 'a@example.org' }));
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: 'a@example.org' });
    expect(err.message).toContain('E11000');
    expect(await c.countDocuments()).toBe(1);
  });

  it('a compound unique index only rejects an identical combination', async () => {
    const c = fresh('compound');
    await c.createIndex({ org: 1, name: 1 }, { unique: true });
    await c.insertMany([
      { org: 'o1', name: 'a' },
      { org: 'o1', name: 'b' },
      { org: 'o2', name: 'a' },
    ]);
    const err = await serverError(c.insertOne({ org: 'o2', name: 'a' }));
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ org: 'o2', name: 'a' });
  });

  it('an update that would create a duplicate fails with 11000 and changes nothing', async () => {
    const c = fresh('dupupdate');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertMany([
      { _id: 1, email: 'a' },
      { _id: 2, email: 'b' },
    ]);
    const err = await serverError(c.updateOne({ _id: 2 }, { $set: { email: 'a' } }));
    expect(err.code).toBe(11000);
    const replaceErr = await serverError(c.replaceOne({ _id: 2 }, { email: 'a' }));
    expect(replaceErr.code).toBe(11000);
    expect((await c.findOne({ _id: 2 }))?.email).toBe('b');
    // an upsert that would insert a duplicate is rejected as well
    const upsertErr = await serverError(c.updateOne({ _id: 3 }, { $set: { email: 'b' } }, { upsert: true }));
    expect(upsertErr.code).toBe(11000);
    expect(await c.countDocuments()).toBe(2);
  });

  it('unordered insertMany with a duplicate inserts all the others and reports insertedCount', async () => {
    const c = fresh('unorderedunique');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: 'taken' });
    const err = await serverError(
      c.insertMany([{ email: 'x' }, { email: 'taken' }, { email: 'y' }, { email: 'x' }, { email: 'z' }], {
        ordered: false,
      }),
    );
    expect(err).toBeInstanceOf(MongoBulkWriteError);
    const bulkErr = err as MongoBulkWriteError;
    expect(bulkErr.code).toBe(11000);
    expect(bulkErr.insertedCount).toBe(3);
    const writeErrors = [bulkErr.writeErrors].flat();
    expect(writeErrors.map((e) => e.index)).toEqual([1, 3]);
    expect(writeErrors.every((e) => e.code === 11000)).toBe(true);
    expect(sortedStrings(await c.distinct('email'))).toEqual(['taken', 'x', 'y', 'z']);
    expect(await c.countDocuments()).toBe(4);
  });

  it('creating a unique index over existing duplicates fails with 11000 and creates no index', async () => {
    const c = fresh('existingdups');
    await c.insertMany([{ email: 'a' }, { email: 'a' }, { email: 'b' }]);
    const err = await serverError(c.createIndex({ email: 1 }, { unique: true }));
    expect(err.code).toBe(11000);
    expect(await indexNames(c)).toEqual(['_id_']);
    expect(await c.countDocuments()).toBe(3);
  });

  it('documents missing the unique field collide (they index as null) unless the index is sparse', async () => {
    const c = fresh('missingfield');
    await c.createIndex({ code: 1 }, { unique: true });
    await c.insertOne({ name: 'first' });
    const err = await serverError(c.insertOne({ name: 'second' }));
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ code: null });

    const sparse = fresh('sparse');
    await sparse.createIndex({ code: 1 }, { unique: true, sparse: true });
    await sparse.insertMany([{ name: 'first' }, { name: 'second' }, { code: 'A' }]);
    expect(await sparse.countDocuments()).toBe(3);
    const sparseErr = await serverError(sparse.insertOne({ code: 'A' }));
    expect(sparseErr.code).toBe(11000);
  });

  it('a unique index on an array field rejects a value already present in another document', async () => {
    const c = fresh('multikey');
    await c.createIndex({ aliases: 1 }, { unique: true });
    await c.insertOne({ aliases: ['x', 'y'] });
    await c.insertOne({ aliases: ['z'] });
    const err = await serverError(c.insertOne({ aliases: ['w', 'y'] }));
    expect(err.code).toBe(11000);
  });

  it('after the conflicting document is deleted the value can be inserted again', async () => {
    const c = fresh('reuse');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: 'a' });
    await c.deleteOne({ email: 'a' });
    await c.insertOne({ email: 'a' });
    expect(await c.countDocuments({ email: 'a' })).toBe(1);
  });

  it('_id is always unique', async () => {
    const c = fresh('idunique');
    await c.insertOne({ _id: 'same' });
    const err = await serverError(c.insertOne({ _id: 'same' }));
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ _id: 'same' });
  });
});

describe('2dsphere indexes', () => {
  it('a 2dsphere index is accepted and listed with its key type', async () => {
    const c = fresh('geo');
    expect(await c.createIndex({ location: '2dsphere' })).toBe('location_2dsphere');
    const geo = (await c.indexes()).find((i) => i.name === 'location_2dsphere');
    expect(geo?.key).toEqual({ location: '2dsphere' });
    await c.insertOne({ location: { type: 'Point', coordinates: [-87.6298, 41.8781] } });
    // documents without the field are allowed (2dsphere indexes are sparse)
    await c.insertOne({ name: 'no location' });
    expect(await c.countDocuments()).toBe(2);
  });

  it('a compound index with a 2dsphere key is accepted', async () => {
    const c = fresh('geocompound');
    expect(await c.createIndex({ location: '2dsphere', status: 1 })).toBe('location_2dsphere_status_1');
  });
});
