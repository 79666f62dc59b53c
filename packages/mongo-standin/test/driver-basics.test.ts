import { Binary, Decimal128, Double, Int32, Long, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MongoServerError } from 'mongodb';
import { startHarness, type Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.dispose();
});

describe('through the official driver', () => {
  it('pings and reports a build version', async () => {
    const admin = h.client.db('admin');
    expect((await admin.command({ ping: 1 })).ok).toBe(1);
    const info = await admin.command({ buildInfo: 1 });
    expect(info.version).toBe('8.0.0');
    expect(info.standin).toBe(true);
  });

  it('counts the commands it runs, and those that fail, in serverStatus as MongoDB does', async () => {
    const admin = h.client.db('admin');
    const commands = async () =>
      ((await admin.command({ serverStatus: 1 })).metrics as { commands: Record<string, unknown> }).commands;
    const count = (commands: Record<string, unknown>, name: string) =>
      (commands[name] as { failed: number; total: number } | undefined) ?? { failed: 0, total: 0 };
    const before = await commands();
    const coll = h.client.db('metrics').collection('counted');
    await coll.insertOne({ a: 1 });
    await coll.findOne({ a: 1 });
    await coll.findOne({ a: 2 });
    await expect(coll.find({ $bogus: 1 }).toArray()).rejects.toThrow();
    await expect(admin.command({ noSuchCommand: 1 })).rejects.toThrow();
    await admin.command({ buildinfo: 1 });
    const after = await commands();
    const delta = (name: string) => ({
      failed: count(after, name).failed - count(before, name).failed,
      total: count(after, name).total - count(before, name).total,
    });
    expect(delta('find')).toEqual({ failed: 1, total: 3 });
    expect(delta('insert')).toEqual({ failed: 0, total: 1 });
    // An alias counts under its command's name; an unknown command only among the unknown.
    expect(delta('buildInfo')).toEqual({ failed: 0, total: 1 });
    expect(after).not.toHaveProperty('buildinfo');
    expect(after).not.toHaveProperty('noSuchCommand');
    expect(Number(after['<UNKNOWN>']) - Number(before['<UNKNOWN>'] ?? 0)).toBe(1);
  });

  it('inserts, finds with filter, projection, sort, skip and limit', async () => {
    const coll = h.client.db('basics').collection('people');
    await coll.insertMany([
      { name: 'b', age: 30, tags: ['x'] },
      { name: 'a', age: 20, tags: ['y', 'x'] },
      { name: 'c', age: 40 },
    ]);
    const found = await coll
      .find({ age: { $gte: 20 } }, { projection: { _id: 0, name: 1 } })
      .sort({ name: -1 })
      .skip(1)
      .limit(5)
      .toArray();
    expect(found).toEqual([{ name: 'b' }, { name: 'a' }]);
    expect(await coll.countDocuments({ tags: 'x' })).toBe(2);
    expect(await coll.estimatedDocumentCount()).toBe(3);
    expect(await coll.distinct('tags')).toEqual(['x', 'y']);
  });

  it('round-trips BSON types exactly', async () => {
    const coll = h.client.db('basics').collection('types');
    const doc = {
      _id: new ObjectId(),
      int: new Int32(5),
      double: new Double(5),
      fraction: 1.5,
      long: Long.fromString('9007199254740993'),
      decimal: Decimal128.fromString('1.10'),
      date: new Date('2024-01-02T03:04:05.678Z'),
      bin: new Binary(Buffer.from([1, 2, 3]), 4),
      nothing: null,
      nested: [[1, [2]], { a: [new Date(0)] }],
    };
    await coll.insertOne(doc);
    const back = await coll.findOne({ _id: doc._id }, { promoteValues: false, promoteLongs: false });
    expect(back!.int).toBeInstanceOf(Int32);
    expect(back!.double).toBeInstanceOf(Double);
    expect(back!.long).toBeInstanceOf(Long);
    expect((back!.long as Long).toString()).toBe('9007199254740993');
    expect(back!.decimal.toString()).toBe('1.10');
    expect(back!.date).toEqual(doc.date);
    expect(back!.bin.sub_type).toBe(4);
    expect(back!.nothing).toBeNull();
  });

  it('compares ObjectId, Date and Long by value in equality, $in, ranges and sort', async () => {
    const coll = h.client.db('basics').collection('ordering');
    const ids = [0, 1, 2].map((i) => new ObjectId(`65000000000000000000000${i}`));
    await coll.insertMany(
      ids.map((_id, i) => ({
        _id,
        at: new Date(1000 * (3 - i)),
        n: Long.fromNumber(10 ** i),
        mixed: [null, 'a', 3, {}][i],
      })),
    );
    expect(await coll.countDocuments({ _id: { $in: [new ObjectId(ids[1]!.toHexString())] } })).toBe(1);
    expect(await coll.countDocuments({ _id: { $gt: ids[0] } })).toBe(2);
    expect(await coll.countDocuments({ at: { $lt: new Date(2500) } })).toBe(2);
    expect(await coll.countDocuments({ n: { $gte: 9 } })).toBe(2);
    expect(await coll.countDocuments({ n: 100 })).toBe(1);
    const byDate = await coll.find().sort({ at: 1 }).toArray();
    expect(byDate.map((d) => d._id.toHexString())).toEqual(
      [ids[2], ids[1], ids[0]].map((id) => id!.toHexString()),
    );
    const byMixed = await coll.find().sort({ mixed: 1 }).toArray();
    expect(byMixed.map((d) => d.mixed)).toEqual([null, 3, 'a']);
  });

  it('sorts arrays by their smallest element ascending and largest descending', async () => {
    const coll = h.client.db('basics').collection('arraysort');
    await coll.insertMany([
      { k: 'p', v: [5, 1] },
      { k: 'q', v: 3 },
      { k: 'r', v: [2, 9] },
    ]);
    expect((await coll.find().sort({ v: 1 }).toArray()).map((d) => d.k)).toEqual(['p', 'r', 'q']);
    expect((await coll.find().sort({ v: -1 }).toArray()).map((d) => d.k)).toEqual(['r', 'p', 'q']);
  });

  it('updates with operators, arrayFilters, upserts and pipelines', async () => {
    const coll = h.client.db('basics').collection('updates');
    await coll.insertOne({ _id: 1 as never, n: 1, items: [{ q: 1 }, { q: 5 }] });
    const r1 = await coll.updateOne(
      { _id: 1 as never },
      { $inc: { n: 2 }, $set: { 'items.$[big].q': 0 } },
      { arrayFilters: [{ 'big.q': { $gt: 2 } }] },
    );
    expect(r1.modifiedCount).toBe(1);
    expect(await coll.findOne({ _id: 1 as never })).toEqual({ _id: 1, n: 3, items: [{ q: 1 }, { q: 0 }] });
    const r2 = await coll.updateOne(
      { name: 'new' },
      { $set: { x: 1 }, $setOnInsert: { created: true } },
      { upsert: true },
    );
    expect(r2.upsertedId).toBeInstanceOf(ObjectId);
    expect(await coll.findOne({ name: 'new' }, { projection: { _id: 0 } })).toEqual({
      name: 'new',
      x: 1,
      created: true,
    });
    await coll.updateOne({ _id: 1 as never }, [{ $set: { total: { $add: ['$n', 10] } } }]);
    expect((await coll.findOne({ _id: 1 as never }))!.total).toBe(13);
    await expect(coll.updateOne({ _id: 1 as never }, { $set: { _id: 2 } })).rejects.toMatchObject({
      code: 66,
    });
    await expect(coll.updateOne({ _id: 1 as never }, { $foo: { a: 1 } } as never)).rejects.toMatchObject({
      code: 9,
    });
    const replaced = await coll.replaceOne({ _id: 1 as never }, { only: true });
    expect(replaced.modifiedCount).toBe(1);
    expect(await coll.findOne({ _id: 1 as never })).toEqual({ _id: 1, only: true });
  });

  it('findAndModify returns before/after values and lastErrorObject', async () => {
    const coll = h.client.db('basics').collection('fam');
    await coll.insertMany([
      { k: 1, v: 'a' },
      { k: 2, v: 'b' },
    ]);
    const after = await coll.findOneAndUpdate(
      { k: 1 },
      { $set: { v: 'z' } },
      { returnDocument: 'after', projection: { _id: 0 } },
    );
    expect(after).toEqual({ k: 1, v: 'z' });
    const upserted = await coll.findOneAndUpdate(
      { k: 3 },
      { $set: { v: 'c' } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    expect(upserted.lastErrorObject).toMatchObject({ n: 1, updatedExisting: false });
    const removed = await coll.findOneAndDelete({ k: 2 }, { projection: { _id: 0 } });
    expect(removed).toEqual({ k: 2, v: 'b' });
    expect(await coll.countDocuments()).toBe(2);
  });

  it('deletes one or many', async () => {
    const coll = h.client.db('basics').collection('deletes');
    await coll.insertMany([{ a: 1 }, { a: 1 }, { a: 2 }]);
    expect((await coll.deleteOne({ a: 1 })).deletedCount).toBe(1);
    expect((await coll.deleteMany({})).deletedCount).toBe(2);
  });

  it('aggregates with mingo and refuses unsupported stages', async () => {
    const coll = h.client.db('basics').collection('agg');
    await coll.insertMany([
      { g: 'a', v: 1 },
      { g: 'a', v: 2 },
      { g: 'b', v: 5 },
    ]);
    const out = await coll
      .aggregate([
        { $match: { v: { $gt: 0 } } },
        { $group: { _id: '$g', s: { $sum: '$v' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 'a', s: 3 },
      { _id: 'b', s: 5 },
    ]);
    await expect(coll.aggregate([{ $match: {} }, { $geoNear: {} }]).toArray()).rejects.toMatchObject({
      code: 40602,
    });
    await expect(coll.aggregate([{ $out: 'x' }]).toArray()).rejects.toMatchObject({ code: 40324 });
    expect(await coll.findOne({ g: 'a' })).toMatchObject({ v: 1 });
  });

  it('answers bad filters, unknown commands and transactions with MongoDB errors', async () => {
    const db = h.client.db('basics');
    await expect(db.collection('x').findOne({ a: { $foo: 1 } })).rejects.toMatchObject({
      code: 2,
      message: 'unknown operator: $foo',
    });
    await expect(db.collection('x').findOne({ $text: { $search: 'a' } })).rejects.toMatchObject({ code: 27 });
    const err = await db.command({ frobnicate: 1 }).catch((e: MongoServerError) => e);
    expect(err).toMatchObject({
      code: 59,
      codeName: 'CommandNotFound',
      message: "no such command: 'frobnicate'",
    });
    const session = h.client.startSession();
    session.startTransaction();
    await expect(db.collection('x').insertOne({ a: 1 }, { session })).rejects.toBeInstanceOf(Error);
    await session.endSession();
    expect((await db.command({ ping: 1 })).ok).toBe(1);
  });

  it('manages collections and indexes', async () => {
    const db = h.client.db('catalog');
    await db.createCollection('c1');
    await expect(db.createCollection('c1')).rejects.toMatchObject({ code: 48 });
    const coll = db.collection('c1');
    expect(await coll.createIndex({ name: 1 }, { unique: true })).toBe('name_1');
    expect(await coll.createIndex({ loc: '2dsphere' })).toBe('loc_2dsphere');
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual([
      '_id_',
      'name_1',
      'loc_2dsphere',
    ]);
    await coll.dropIndex('loc_2dsphere');
    expect(await db.listCollections({ name: 'c1' }, { nameOnly: true }).toArray()).toEqual([
      { name: 'c1', type: 'collection' },
    ]);
    const dbs = await h.client.db('admin').admin().listDatabases();
    expect(dbs.databases.map((d) => d.name)).toContain('catalog');
    expect(await coll.drop()).toBe(true);
    await db.dropDatabase();
    expect((await h.client.db('admin').admin().listDatabases()).databases.map((d) => d.name)).not.toContain(
      'catalog',
    );
  });
});

describe('field paths through __proto__ (a departure: MongoDB accepts them)', () => {
  // mingo ignores a `__proto__` condition, so `{__proto__: 5}` would match (and delete) every document,
  // and building objects keyed by such paths would reach Object.prototype: the stand-in refuses them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- filters, sorts and keys alike
  const fields = (json: string): any => JSON.parse(json);

  it('refuses them in filters, updates, projections, sorts and index keys, and changes nothing', async () => {
    const coll = h.client.db('proto').collection('paths');
    await coll.insertMany([{ _id: 1, n: 1 } as never, { _id: 2, n: 2 } as never]);
    const refused = async (operation: Promise<unknown>, path: string) => {
      const error = (await operation.then(
        () => null,
        (e: unknown) => e,
      )) as MongoServerError | null;
      expect(error?.code).toBe(2); // BadValue
      expect(error?.message).toBe(
        `The MongoDB stand-in does not support field paths through '__proto__': '${path}'`,
      );
    };
    await refused(coll.deleteMany(fields('{"__proto__": 5}')), '__proto__');
    await refused(coll.countDocuments(fields('{"$or": [{"n": 1}, {"a.__proto__": 5}]}')), 'a.__proto__');
    await refused(
      coll.updateMany({}, fields('{"$set": {"__proto__.polluted": true}}')),
      '__proto__.polluted',
    );
    await refused(
      coll.find({}, { projection: fields('{"__proto__.polluted": 0}') }).toArray(),
      '__proto__.polluted',
    );
    await refused(coll.find({}, { sort: fields('{"__proto__": 1}') }).toArray(), '__proto__');
    await refused(coll.createIndex(fields('{"__proto__": 1}')), '__proto__');
    // Deeper: a $pull condition, a value set, a later $match, a pipeline update.
    await refused(coll.updateMany({}, fields('{"$pull": {"arr": {"a": 1, "__proto__": 5}}}')), '__proto__');
    await refused(coll.updateMany({}, fields('{"$set": {"x": {"__proto__": {"a": 1}}}}')), '__proto__');
    await refused(
      coll.aggregate(fields('[{"$sort": {"_id": 1}}, {"$match": {"__proto__": 5}}]')).toArray(),
      '__proto__',
    );
    await refused(coll.updateMany({}, fields('[{"$set": {"__proto__.polluted": 1}}]')), '__proto__.polluted');
    // Fields named like Object members, except a $set or $unset of the field itself: mingo ignores them.
    const memberError = async (update: Record<string, unknown>) =>
      ((await coll.updateOne({ _id: 1 as never }, update).catch((e: unknown) => e)) as MongoServerError)
        .message;
    expect(await memberError({ $inc: { constructor: 1 } })).toBe(
      "The MongoDB stand-in does not support $inc on a field named 'constructor' (a JavaScript object member): 'constructor'",
    );
    expect(await memberError({ $set: { 'toString.a': 1 } })).toBe(
      "The MongoDB stand-in does not support $set on a field named 'toString' (a JavaScript object member): 'toString.a'",
    );
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 1 },
      { _id: 2, n: 2 },
    ]);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
