/**
 * CRUD contract: inserts, queries (filter operators, projection, sort, skip/limit, counts, distinct),
 * updates (operators, positional and filtered positional updates, upserts), replace, delete,
 * findOneAnd*, bulkWrite and BSON round-trips, as the MongoDB manual documents them.
 */
import {
  Binary,
  Decimal128,
  Double,
  Int32,
  Long,
  MongoBulkWriteError,
  ObjectId,
  type Document,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import {
  type AnyCollection,
  collections,
  idsOf,
  serverError,
  sortedNumbers,
  sortedStrings,
} from './shared.ts';

let tdb: TestDatabase;
let fresh: (label: string) => AnyCollection;

beforeAll(async () => {
  tdb = await startTestDatabase();
  fresh = collections(tdb.db, 'crud');
});

afterAll(async () => {
  await tdb?.close();
});

describe('insert', () => {
  it('insertOne generates an ObjectId _id when none is given and stores the document', async () => {
    const c = fresh('insertone');
    const result = await c.insertOne({ name: 'Food Pantry' });
    expect(result.acknowledged).toBe(true);
    expect(result.insertedId).toBeInstanceOf(ObjectId);
    const stored = await c.findOne({ _id: result.insertedId });
    expect(stored).toEqual({ _id: result.insertedId, name: 'Food Pantry' });
  });

  it('insertOne keeps a caller-supplied _id of any type', async () => {
    const c = fresh('customid');
    await c.insertOne({ _id: 'svc-1', n: 1 });
    await c.insertOne({ _id: { a: 1, b: 2 }, n: 2 });
    expect(await c.findOne({ _id: 'svc-1' })).toEqual({ _id: 'svc-1', n: 1 });
    expect(await c.findOne({ _id: { a: 1, b: 2 } })).toEqual({ _id: { a: 1, b: 2 }, n: 2 });
  });

  it('insertMany returns every generated id keyed by position', async () => {
    const c = fresh('insertmany');
    const result = await c.insertMany([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(result.insertedCount).toBe(3);
    const ids = [result.insertedIds[0], result.insertedIds[1], result.insertedIds[2]];
    for (const id of ids) expect(id).toBeInstanceOf(ObjectId);
    expect(new Set(ids.map(String)).size).toBe(3);
    const docs = await c.find({}).sort({ n: 1 }).toArray();
    expect(docs.map((d) => [String(d._id), d.n])).toEqual(ids.map((id, i) => [String(id), i + 1]));
  });

  it('a duplicate _id fails with E11000 (code 11000)', async () => {
    const c = fresh('dupid');
    await c.insertOne({ _id: 7 });
    const err = await serverError(c.insertOne({ _id: 7 }));
    expect(err.code).toBe(11000);
    expect(await c.countDocuments()).toBe(1);
  });

  it('ordered insertMany stops at the first error: earlier documents stay, later ones are not inserted', async () => {
    const c = fresh('ordered');
    const err = await serverError(
      c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 1 }, { _id: 3 }], { ordered: true }),
    );
    expect(err).toBeInstanceOf(MongoBulkWriteError);
    const bulkErr = err as MongoBulkWriteError;
    expect(bulkErr.code).toBe(11000);
    expect(bulkErr.insertedCount).toBe(2);
    const writeErrors = [bulkErr.writeErrors].flat();
    expect(writeErrors).toHaveLength(1);
    expect(writeErrors[0]?.index).toBe(2);
    expect(writeErrors[0]?.code).toBe(11000);
    expect(idsOf(await c.find({}).sort({ _id: 1 }).toArray())).toEqual([1, 2]);
  });

  it('unordered insertMany reports the error and inserts all the other documents', async () => {
    const c = fresh('unordered');
    const err = await serverError(
      c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 1 }, { _id: 3 }], { ordered: false }),
    );
    expect(err).toBeInstanceOf(MongoBulkWriteError);
    const bulkErr = err as MongoBulkWriteError;
    expect(bulkErr.code).toBe(11000);
    expect(bulkErr.insertedCount).toBe(3);
    const writeErrors = [bulkErr.writeErrors].flat();
    expect(writeErrors).toHaveLength(1);
    expect(writeErrors[0]?.index).toBe(2);
    expect(idsOf(await c.find({}).sort({ _id: 1 }).toArray())).toEqual([1, 2, 3]);
  });

  it('refuses a document over 16 MiB, inserted or grown by an update, and keeps what was stored', async () => {
    const c = fresh('too-large');
    const large = 'x'.repeat(16.5 * 1024 * 1024);
    const inserted = await serverError(c.insertOne({ _id: 1, large }));
    // 2 (BadValue) just over the limit, 10334 (BSONObjectTooLarge) further over: the message says which.
    expect([2, 10334]).toContain(inserted.code);
    expect(await c.countDocuments()).toBe(0);

    const half = 'y'.repeat(9 * 1024 * 1024);
    await c.insertOne({ _id: 2, first: half });
    const grown = await serverError(c.updateOne({ _id: 2 }, { $set: { second: half } }));
    expect(grown.code).toBe(17419);
    expect(await c.findOne({ _id: 2 }, { projection: { second: 1 } })).toEqual({ _id: 2 });
  });
});

describe('find filters', () => {
  let c: AnyCollection;
  const docs: Document[] = [
    {
      _id: 1,
      name: 'Alpha Clinic',
      status: 'active',
      rating: 4,
      tags: ['health', 'free'],
      phones: [
        { type: 'voice', number: '555-0001' },
        { type: 'fax', number: '555-0002' },
      ],
      address: { city: 'Chicago', zip: '60601' },
      note: null,
    },
    {
      _id: 2,
      name: 'beta food pantry',
      status: 'active',
      rating: 2,
      tags: ['food', 'free'],
      phones: [{ type: 'voice', number: '555-0003' }],
      address: { city: 'Evanston', zip: '60201' },
    },
    {
      _id: 3,
      name: 'Gamma Shelter',
      status: 'inactive',
      rating: 5,
      tags: ['housing'],
      phones: [
        { type: 'fax', number: '555-0004' },
        { type: 'voice', number: '555-0005' },
      ],
      address: { city: 'Chicago', zip: '60614' },
    },
    { _id: 4, name: 'Delta Legal', status: 'inactive', rating: 'high', tags: [], phones: [] },
    { _id: 5, name: 'Epsilon Meals', rating: 3, tags: ['food', 'health', 'free'] },
  ];
  const ids = async (filter: Document) => idsOf(await c.find(filter).sort({ _id: 1 }).toArray());

  beforeAll(async () => {
    c = fresh('filters');
    await c.insertMany(docs);
  });

  it('$eq and implicit equality', async () => {
    expect(await ids({ status: 'active' })).toEqual([1, 2]);
    expect(await ids({ status: { $eq: 'inactive' } })).toEqual([3, 4]);
  });

  it('$ne also matches documents that lack the field', async () => {
    expect(await ids({ status: { $ne: 'active' } })).toEqual([3, 4, 5]);
  });

  it('$gt/$gte/$lt/$lte compare only values of the same type bracket', async () => {
    expect(await ids({ rating: { $gt: 3 } })).toEqual([1, 3]);
    expect(await ids({ rating: { $gte: 3 } })).toEqual([1, 3, 5]);
    expect(await ids({ rating: { $lt: 3 } })).toEqual([2]);
    expect(await ids({ rating: { $lte: 3 } })).toEqual([2, 5]);
    expect(await ids({ rating: { $gt: 2, $lt: 5 } })).toEqual([1, 5]);
    // the string "high" is only compared with strings
    expect(await ids({ rating: { $gte: 'a' } })).toEqual([4]);
  });

  it('$in and $nin (with $nin matching missing fields) and array fields matching any element', async () => {
    expect(await ids({ status: { $in: ['inactive', 'closed'] } })).toEqual([3, 4]);
    expect(await ids({ tags: { $in: ['housing', 'food'] } })).toEqual([2, 3, 5]);
    expect(await ids({ name: { $in: [/^gamma/i, 'Delta Legal'] } })).toEqual([3, 4]);
    expect(await ids({ status: { $nin: ['active'] } })).toEqual([3, 4, 5]);
    expect(await ids({ tags: { $nin: ['free'] } })).toEqual([3, 4]);
  });

  it('$exists, and null matching both null and missing', async () => {
    expect(await ids({ address: { $exists: true } })).toEqual([1, 2, 3]);
    expect(await ids({ address: { $exists: false } })).toEqual([4, 5]);
    expect(await ids({ note: { $exists: true } })).toEqual([1]);
    expect(await ids({ note: null })).toEqual([1, 2, 3, 4, 5]);
    expect(await ids({ note: { $type: 'null' } })).toEqual([1]);
  });

  it('$regex with and without options, and regular expression literals', async () => {
    expect(await ids({ name: { $regex: '^[a-c]' } })).toEqual([2]);
    expect(await ids({ name: { $regex: '^[a-c]', $options: 'i' } })).toEqual([1, 2]);
    expect(await ids({ name: /clinic$/i })).toEqual([1]);
    expect(await ids({ name: { $regex: /SHELTER/i } })).toEqual([3]);
    expect(await ids({ tags: { $regex: '^hea' } })).toEqual([1, 5]);
  });

  it('$elemMatch requires one element to satisfy every condition; dotted paths may match different elements', async () => {
    expect(await ids({ phones: { $elemMatch: { type: 'fax', number: '555-0005' } } })).toEqual([]);
    expect(await ids({ 'phones.type': 'fax', 'phones.number': '555-0005' })).toEqual([3]);
    expect(await ids({ phones: { $elemMatch: { type: 'fax', number: '555-0002' } } })).toEqual([1]);
  });

  it('$all and $size', async () => {
    expect(await ids({ tags: { $all: ['free', 'health'] } })).toEqual([1, 5]);
    expect(await ids({ tags: { $size: 2 } })).toEqual([1, 2]);
    expect(await ids({ tags: { $size: 0 } })).toEqual([4]);
  });

  it('$and, $or, $nor and $not', async () => {
    expect(await ids({ $and: [{ status: 'active' }, { rating: { $gte: 3 } }] })).toEqual([1]);
    expect(await ids({ $or: [{ status: 'inactive' }, { rating: 2 }] })).toEqual([2, 3, 4]);
    // $nor also selects documents in which the fields are missing
    expect(await ids({ $nor: [{ status: 'active' }, { rating: 5 }] })).toEqual([4, 5]);
    // $not also selects documents without the field and values outside the type bracket
    expect(await ids({ rating: { $not: { $gt: 3 } } })).toEqual([2, 4, 5]);
    expect(await ids({ name: { $not: /l$/ } })).toEqual([1, 2, 3, 5]);
  });

  it('dotted paths reach into embedded documents, arrays of subdocuments and array positions', async () => {
    expect(await ids({ 'address.city': 'Chicago' })).toEqual([1, 3]);
    expect(await ids({ 'phones.type': 'fax' })).toEqual([1, 3]);
    expect(await ids({ 'phones.number': { $gte: '555-0003' } })).toEqual([2, 3]);
    expect(await ids({ 'tags.0': 'food' })).toEqual([2, 5]);
    expect(await ids({ 'phones.1.type': 'voice' })).toEqual([3]);
  });

  it('string equality, $in of strings and $ne on dotted paths, through arrays, alone and in $or and $and', async () => {
    expect(await ids({ 'phones.type': { $in: ['fax'] } })).toEqual([1, 3]);
    expect(await ids({ 'phones.type': { $ne: 'fax' } })).toEqual([2, 4, 5]);
    expect(await ids({ 'tags.0': { $in: ['food', 'housing'] } })).toEqual([2, 3, 5]);
    expect(await ids({ 'address.zip': { $in: [] } })).toEqual([]);
    // Clauses of one $or tested each its own way: $in and $ne directly, $gt by the query engine.
    const anyOf = [
      { 'address.zip': { $in: ['60201'] } },
      { 'address.city': { $ne: 'Chicago' } },
      { rating: { $gt: 4 } },
    ];
    expect(await ids({ $or: anyOf })).toEqual([2, 3, 4, 5]);
    expect(await ids({ status: 'inactive', $or: anyOf })).toEqual([3, 4]);
    expect(await ids({ $and: [{ 'address.city': 'Chicago' }, { tags: { $ne: 'free' } }] })).toEqual([3]);
  });

  it('$ne of a boolean matches where no value on the path is that boolean, missing ones included', async () => {
    const flags = fresh('flags');
    await flags.insertMany([
      { _id: 1, geo: { covered: true } },
      { _id: 2, geo: { covered: false } },
      { _id: 3, geo: {} },
      { _id: 4 },
      { _id: 5, geo: [{ covered: true }, { covered: false }] },
      { _id: 6, geo: { covered: [false, true] } },
      { _id: 7, geo: { covered: 'true' } },
    ]);
    const found = await flags
      .find({ 'geo.covered': { $ne: true } })
      .sort({ _id: 1 })
      .toArray();
    expect(idsOf(found)).toEqual([2, 3, 4, 7]);
  });

  it('equality with an array value matches the whole array exactly, in order', async () => {
    expect(await ids({ tags: ['food', 'free'] })).toEqual([2]);
    expect(await ids({ tags: ['free', 'food'] })).toEqual([]);
    expect(await ids({ tags: 'free' })).toEqual([1, 2, 5]);
  });

  it('findOne returns null when nothing matches', async () => {
    expect(await c.findOne({ name: 'nobody' })).toBeNull();
  });
});

describe('projection', () => {
  let c: AnyCollection;
  const doc = {
    _id: 1,
    name: 'Alpha',
    status: 'active',
    tags: ['a', 'b', 'c', 'd'],
    address: { city: 'Chicago', zip: '60601' },
    phones: [
      { type: 'voice', number: '1' },
      { type: 'fax', number: '2' },
      { type: 'fax', number: '3' },
    ],
  };

  beforeAll(async () => {
    c = fresh('projection');
    await c.insertMany([doc, { _id: 2, name: 'Beta', phones: [{ type: 'voice', number: '4' }] }]);
  });

  const one = (projection: Document, id = 1) => c.findOne({ _id: id }, { projection });

  it('inclusion keeps _id and the named fields only', async () => {
    expect(await one({ name: 1, status: 1 })).toEqual({ _id: 1, name: 'Alpha', status: 'active' });
  });

  it('exclusion drops the named fields only', async () => {
    expect(await one({ tags: 0, phones: 0, address: 0 })).toEqual({
      _id: 1,
      name: 'Alpha',
      status: 'active',
    });
  });

  it('_id: 0 removes _id', async () => {
    expect(await one({ _id: 0, name: 1 })).toEqual({ name: 'Alpha' });
    expect(await one({ _id: 0 }, 2)).toEqual({ name: 'Beta', phones: [{ type: 'voice', number: '4' }] });
  });

  it('_id: 1 alone is an inclusion: only _id', async () => {
    expect(await one({ _id: 1 })).toEqual({ _id: 1 });
    expect(await c.find({}, { projection: { _id: true } }).toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
  });

  it('dotted inclusion keeps the embedded shape, also through arrays of subdocuments', async () => {
    expect(await one({ 'address.city': 1 })).toEqual({ _id: 1, address: { city: 'Chicago' } });
    expect(await one({ _id: 0, 'phones.number': 1 })).toEqual({
      phones: [{ number: '1' }, { number: '2' }, { number: '3' }],
    });
  });

  it('dotted exclusion removes only the embedded field', async () => {
    expect(await one({ 'address.zip': 0, tags: 0, phones: 0 })).toEqual({
      _id: 1,
      name: 'Alpha',
      status: 'active',
      address: { city: 'Chicago' },
    });
  });

  it('dotted exclusion through arrays removes the field from each subdocument, leaving the stored one whole', async () => {
    expect(await one({ 'phones.type': 0, tags: 0, address: 0 })).toEqual({
      _id: 1,
      name: 'Alpha',
      status: 'active',
      phones: [{ number: '1' }, { number: '2' }, { number: '3' }],
    });
    const mixed = fresh('projection-mixed');
    await mixed.insertOne({ _id: 1, list: [{ a: 1, b: 2 }, 5, { b: 3 }], keep: { b: 1 } });
    expect(await mixed.findOne({ _id: 1 }, { projection: { 'list.b': 0 } })).toEqual({
      _id: 1,
      list: [{ a: 1 }, 5, {}],
      keep: { b: 1 },
    });
    expect(await one({})).toEqual(doc);
  });

  it('$slice returns the first n, the last n, or [skip, limit] elements', async () => {
    expect(await one({ name: 1, tags: { $slice: 2 } })).toEqual({ _id: 1, name: 'Alpha', tags: ['a', 'b'] });
    expect(await one({ name: 1, tags: { $slice: -1 } })).toEqual({ _id: 1, name: 'Alpha', tags: ['d'] });
    expect(await one({ name: 1, tags: { $slice: [1, 2] } })).toEqual({
      _id: 1,
      name: 'Alpha',
      tags: ['b', 'c'],
    });
  });

  it('$slice alone leaves the other fields in place', async () => {
    expect(await one({ tags: { $slice: 1 } })).toEqual({ ...doc, tags: ['a'] });
  });

  it('$slice of a nested array beside an exclusion leaves the stored document whole', async () => {
    const nested = fresh('nested-slice');
    const stored = { _id: 1, name: 'Gamma', sub: { tags: [1, 2, 3] } };
    await nested.insertOne(stored);
    expect(await nested.findOne({ _id: 1 }, { projection: { name: 0, 'sub.tags': { $slice: 1 } } })).toEqual({
      _id: 1,
      sub: { tags: [1] },
    });
    expect(await nested.findOne({ _id: 1 })).toEqual(stored);
    // Queries and updates see the whole array too, not only the stored bytes.
    expect(await nested.countDocuments({ 'sub.tags': 3 })).toBe(1);
    await nested.updateOne({ _id: 1 }, { $set: { name: 'Delta' } });
    expect(await nested.findOne({ _id: 1 })).toEqual({ ...stored, name: 'Delta' });
  });

  it('$elemMatch projection returns only the first matching element, and omits the field when none matches', async () => {
    expect(await one({ phones: { $elemMatch: { type: 'fax' } } })).toEqual({
      _id: 1,
      phones: [{ type: 'fax', number: '2' }],
    });
    expect(await one({ phones: { $elemMatch: { type: 'fax' } } }, 2)).toEqual({ _id: 2 });
  });

  it('mixing inclusion and exclusion (other than _id) is an error', async () => {
    const err = await serverError(one({ name: 1, status: 0 }));
    expect(typeof err.code).toBe('number');
  });
});

describe('sort, skip, limit', () => {
  it('sorts on several keys', async () => {
    const c = fresh('multisort');
    await c.insertMany([
      { _id: 1, city: 'B', rating: 1 },
      { _id: 2, city: 'A', rating: 1 },
      { _id: 3, city: 'B', rating: 3 },
      { _id: 4, city: 'A', rating: 2 },
      { _id: 5, city: 'C', rating: 2 },
    ]);
    expect(idsOf(await c.find({}).sort({ city: 1, rating: -1 }).toArray())).toEqual([4, 2, 3, 1, 5]);
    expect(idsOf(await c.find({}).sort({ rating: -1, city: -1 }).toArray())).toEqual([3, 5, 4, 1, 2]);
  });

  it('orders mixed types by the BSON comparison order, missing sorting as null', async () => {
    const c = fresh('mixedsort');
    const oid = new ObjectId('0123456789abcdef01234567');
    await c.insertMany([
      { _id: 1, v: new Date('2020-01-01T00:00:00Z') },
      { _id: 2, v: true },
      { _id: 3, v: false },
      { _id: 4, v: oid },
      { _id: 5, v: new Binary(Buffer.from([1, 2, 3])) },
      { _id: 6, v: { a: 1 } },
      { _id: 7, v: 'abc' },
      { _id: 8, v: 'Abc' },
      { _id: 9, v: 10.5 },
      { _id: 10, v: Long.fromNumber(2) },
      { _id: 11, v: 3 },
      { _id: 12, v: null },
      { _id: 13 },
      { _id: 14, v: Decimal128.fromString('2.5') },
    ]);
    // MinKey < Null < Numbers < String < Object < Array < BinData < ObjectId < Boolean < Date
    const ascending = [12, 13, 10, 14, 11, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect(idsOf(await c.find({}).sort({ v: 1, _id: 1 }).toArray())).toEqual(ascending);
    const descending = idsOf(await c.find({}).sort({ v: -1, _id: 1 }).toArray());
    expect(descending).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 14, 10, 12, 13]);
  });

  it('sorts arrays by their smallest element ascending and their largest element descending', async () => {
    const c = fresh('arraysort');
    await c.insertMany([
      { _id: 'a', v: [1, 10] },
      { _id: 'b', v: [5] },
      { _id: 'c', v: 3 },
      { _id: 'd', v: [2, 8] },
    ]);
    expect(idsOf(await c.find({}).sort({ v: 1 }).toArray())).toEqual(['a', 'd', 'c', 'b']);
    expect(idsOf(await c.find({}).sort({ v: -1 }).toArray())).toEqual(['a', 'd', 'b', 'c']);
  });

  it('sorts by a dotted path and by _id descending', async () => {
    const c = fresh('dottedsort');
    await c.insertMany([
      { _id: 1, address: { zip: '60614' } },
      { _id: 2, address: { zip: '60201' } },
      { _id: 3, address: { zip: '60601' } },
    ]);
    expect(idsOf(await c.find({}).sort({ 'address.zip': 1 }).toArray())).toEqual([2, 3, 1]);
    expect(idsOf(await c.find({}).sort({ _id: -1 }).toArray())).toEqual([3, 2, 1]);
  });

  it('applies sort, then skip, then limit', async () => {
    const c = fresh('skiplimit');
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, n: (i * 7) % 10 })));
    // n values by _id: 0,7,4,1,8,5,2,9,6,3 -> ascending by n: ids 0,3,6,9,2,5,8,1,4,7
    expect(idsOf(await c.find({}).sort({ n: 1 }).skip(2).limit(3).toArray())).toEqual([6, 9, 2]);
    expect(idsOf(await c.find({}).sort({ n: 1 }).skip(8).limit(5).toArray())).toEqual([4, 7]);
    expect(await c.find({}).skip(20).toArray()).toEqual([]);
  });
});

describe('counting and distinct', () => {
  let c: AnyCollection;
  beforeAll(async () => {
    c = fresh('count');
    await c.insertMany([
      { _id: 1, status: 'active', tags: ['food', 'free'], city: 'Chicago' },
      { _id: 2, status: 'active', tags: ['health'], city: 'Evanston' },
      { _id: 3, status: 'inactive', tags: ['food'], city: 'Chicago' },
      { _id: 4, status: 'active', tags: 'legal', city: 'Skokie' },
      { _id: 5, status: 'inactive' },
    ]);
  });

  it('countDocuments counts matches and honours skip and limit', async () => {
    expect(await c.countDocuments()).toBe(5);
    expect(await c.countDocuments({ status: 'active' })).toBe(3);
    expect(await c.countDocuments({ status: 'active' }, { skip: 1 })).toBe(2);
    expect(await c.countDocuments({}, { limit: 2 })).toBe(2);
    expect(await c.countDocuments({ status: 'closed' })).toBe(0);
  });

  it('estimatedDocumentCount reports the collection size (0 for a collection that does not exist)', async () => {
    expect(await c.estimatedDocumentCount()).toBe(5);
    expect(await fresh('nonexistent').estimatedDocumentCount()).toBe(0);
  });

  it('count of everything honours skip and limit; with a query it counts the matches', async () => {
    const count = async (extra: Document) => (await tdb.db.command({ count: c.collectionName, ...extra })).n;
    expect(await count({ skip: 2, limit: 2 })).toBe(2);
    expect(await count({ skip: 4, limit: 5 })).toBe(1);
    expect(await count({ skip: 10 })).toBe(0);
    expect(await count({ limit: 3 })).toBe(3);
    expect(await count({ query: { status: 'active' }, skip: 1 })).toBe(2);
  });

  it('distinct flattens array values and skips missing fields', async () => {
    expect(sortedStrings(await c.distinct('tags'))).toEqual(['food', 'free', 'health', 'legal']);
    expect(sortedStrings(await c.distinct('city'))).toEqual(['Chicago', 'Evanston', 'Skokie']);
    expect(sortedStrings(await c.distinct('tags', { status: 'inactive' }))).toEqual(['food']);
    expect(sortedNumbers(await c.distinct('_id', { status: 'active' }))).toEqual([1, 2, 4]);
  });
});

describe('update operators', () => {
  it('$set creates embedded documents along a dotted path; $unset removes fields', async () => {
    const c = fresh('set');
    await c.insertOne({ _id: 1, a: 1, b: 2, nested: { keep: true, drop: 1 } });
    const result = await c.updateOne(
      { _id: 1 },
      { $set: { 'address.geo.lat': 41.9, a: 'x' }, $unset: { b: '', 'nested.drop': 1 } },
    );
    expect(result.matchedCount).toBe(1);
    expect(result.modifiedCount).toBe(1);
    expect(await c.findOne({ _id: 1 })).toEqual({
      _id: 1,
      a: 'x',
      nested: { keep: true },
      address: { geo: { lat: 41.9 } },
    });
  });

  it('$inc adds to numbers and creates a missing field with the increment', async () => {
    const c = fresh('inc');
    await c.insertOne({ _id: 1, n: 5 });
    await c.updateOne({ _id: 1 }, { $inc: { n: -2, m: 3, 'deep.x': 1.5 } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 3, m: 3, deep: { x: 1.5 } });
  });

  it('$inc on a non-numeric field fails', async () => {
    const c = fresh('incbad');
    await c.insertOne({ _id: 1, s: 'text' });
    const err = await serverError(c.updateOne({ _id: 1 }, { $inc: { s: 1 } }));
    // "Cannot apply $inc to a value of non-numeric type": TypeMismatch (14); 16837 on old servers
    expect([14, 16837]).toContain(err.code);
    expect((await c.findOne({ _id: 1 }))?.s).toBe('text');
  });

  it('$push appends (with $each, several), $addToSet only adds absent values', async () => {
    const c = fresh('push');
    await c.insertOne({ _id: 1, tags: ['a'] });
    await c.updateOne({ _id: 1 }, { $push: { tags: 'b' } as Document });
    await c.updateOne({ _id: 1 }, { $push: { tags: { $each: ['c', 'a'] } } as Document });
    await c.updateOne({ _id: 1 }, { $push: { created: 1 } as Document });
    expect(await c.findOne({ _id: 1 })).toEqual({
      _id: 1,
      tags: ['a', 'b', 'c', 'a'],
      created: [1],
    });

    await c.updateOne({ _id: 1 }, { $addToSet: { tags: 'b' } });
    await c.updateOne({ _id: 1 }, { $addToSet: { tags: { $each: ['d', 'c', 'e', 'd'] } } });
    // existing duplicates stay; the order within the set is not guaranteed by MongoDB
    expect(sortedStrings((await c.findOne({ _id: 1 }))?.tags)).toEqual(['a', 'a', 'b', 'c', 'd', 'e']);
  });

  it('$push to a non-array field fails', async () => {
    const c = fresh('pushbad');
    await c.insertOne({ _id: 1, tags: 'a' });
    const err = await serverError(c.updateOne({ _id: 1 }, { $push: { tags: 'b' } as Document }));
    expect(typeof err.code).toBe('number');
    expect((await c.findOne({ _id: 1 }))?.tags).toBe('a');
  });

  it('$pull removes every matching value or every subdocument matching a condition', async () => {
    const c = fresh('pull');
    await c.insertOne({
      _id: 1,
      scores: [1, 7, 3, 9, 7],
      phones: [
        { type: 'fax', n: 1 },
        { type: 'voice', n: 2 },
        { type: 'fax', n: 3 },
      ],
    });
    await c.updateOne({ _id: 1 }, { $pull: { scores: 7 } as Document });
    expect((await c.findOne({ _id: 1 }))?.scores).toEqual([1, 3, 9]);
    await c.updateOne({ _id: 1 }, { $pull: { scores: { $gte: 3 } } as Document });
    expect((await c.findOne({ _id: 1 }))?.scores).toEqual([1]);
    await c.updateOne({ _id: 1 }, { $pull: { phones: { type: 'fax' } } as Document });
    expect((await c.findOne({ _id: 1 }))?.phones).toEqual([{ type: 'voice', n: 2 }]);
  });

  it('the positional $ updates the first array element matched by the query', async () => {
    const c = fresh('positional');
    await c.insertOne({
      _id: 1,
      phones: [
        { type: 'voice', number: '1' },
        { type: 'fax', number: '2' },
        { type: 'fax', number: '3' },
      ],
      scores: [4, 8, 8],
    });
    await c.updateOne({ _id: 1, 'phones.type': 'fax' }, { $set: { 'phones.$.number': 'X' } });
    await c.updateOne({ _id: 1, scores: 8 }, { $set: { 'scores.$': 80 } });
    expect(await c.findOne({ _id: 1 })).toEqual({
      _id: 1,
      phones: [
        { type: 'voice', number: '1' },
        { type: 'fax', number: 'X' },
        { type: 'fax', number: '3' },
      ],
      scores: [4, 80, 8],
    });
  });

  it('$[] updates every element; $[<id>] with arrayFilters updates the matching ones', async () => {
    const c = fresh('allpositional');
    await c.insertOne({
      _id: 1,
      scores: [1, 2, 3],
      grades: [
        { score: 95, flag: false },
        { score: 70, flag: false },
        { score: 90, flag: false },
      ],
    });
    await c.updateOne({ _id: 1 }, { $inc: { 'scores.$[]': 10 } });
    await c.updateOne(
      { _id: 1 },
      { $set: { 'grades.$[g].flag': true } },
      { arrayFilters: [{ 'g.score': { $gte: 90 } }] },
    );
    expect(await c.findOne({ _id: 1 })).toEqual({
      _id: 1,
      scores: [11, 12, 13],
      grades: [
        { score: 95, flag: true },
        { score: 70, flag: false },
        { score: 90, flag: true },
      ],
    });
  });

  it('updateMany reports matched and modified counts; a no-op change is not counted as modified', async () => {
    const c = fresh('updatemany');
    await c.insertMany([
      { _id: 1, status: 'active', v: 1 },
      { _id: 2, status: 'active', v: 2 },
      { _id: 3, status: 'inactive', v: 1 },
    ]);
    const result = await c.updateMany({ status: 'active' }, { $set: { v: 1 } });
    expect(result.matchedCount).toBe(2);
    expect(result.modifiedCount).toBe(1);
    expect(result.upsertedCount).toBe(0);
    expect(result.upsertedId).toBeNull();
    const none = await c.updateMany({ status: 'gone' }, { $set: { v: 9 } });
    expect(none.matchedCount).toBe(0);
    expect(none.modifiedCount).toBe(0);
    expect(await c.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, status: 'active', v: 1 },
      { _id: 2, status: 'active', v: 1 },
      { _id: 3, status: 'inactive', v: 1 },
    ]);
  });

  it('updateOne modifies only one of several matching documents', async () => {
    const c = fresh('updateone');
    await c.insertMany([{ k: 1 }, { k: 1 }, { k: 1 }]);
    const result = await c.updateOne({ k: 1 }, { $set: { touched: true } });
    expect(result.matchedCount).toBe(1);
    expect(result.modifiedCount).toBe(1);
    expect(await c.countDocuments({ touched: true })).toBe(1);
  });

  it('using the same path in two operators is a conflict (code 40)', async () => {
    const c = fresh('conflict');
    await c.insertOne({ _id: 1, a: 1 });
    const err = await serverError(c.updateOne({ _id: 1 }, { $set: { a: 2 }, $inc: { a: 1 } }));
    expect(err.code).toBe(40);
    expect(err.codeName).toBe('ConflictingUpdateOperators');
  });

  it('an update that is invalid whatever the document fails even when it matches nothing', async () => {
    const c = fresh('invalid-unmatched');
    await c.insertOne({ _id: 1, a: 1 });
    const conflict = await serverError(c.updateMany({ _id: 2 }, { $set: { a: 2 }, $inc: { a: 1 } }));
    expect(conflict.code).toBe(40);
    const nonNumeric = await serverError(
      c.updateOne({ _id: 2 }, { $inc: { a: 'one' as unknown as number } }),
    );
    expect(nonNumeric.code).toBe(14);
    expect(nonNumeric.message).toMatch(/Cannot increment with non-numeric argument/);
    const upsert = await serverError(
      c.updateOne({ _id: 3 }, { $mul: { a: 'two' as unknown as number } }, { upsert: true }),
    );
    expect(upsert.code).toBe(14);
    expect(await c.find({}).toArray()).toEqual([{ _id: 1, a: 1 }]);
  });

  it('_id is immutable: $set on _id and replacing with another _id fail with code 66', async () => {
    const c = fresh('immutable');
    await c.insertOne({ _id: 1, a: 1 });
    const err = await serverError(c.updateOne({ _id: 1 }, { $set: { _id: 2 } }));
    expect(err.code).toBe(66);
    expect(err.codeName).toBe('ImmutableField');
    const err2 = await serverError(c.replaceOne({ _id: 1 }, { _id: 2, a: 2 }));
    expect(err2.code).toBe(66);
    expect(await c.find({}).toArray()).toEqual([{ _id: 1, a: 1 }]);
  });
});

describe('upsert', () => {
  it('inserts a new document built from the equality fields of the filter plus the update', async () => {
    const c = fresh('upsert');
    const result = await c.updateOne(
      { name: 'Clinic', 'address.city': 'Chicago', rating: { $gt: 3 } },
      { $set: { status: 'new' }, $setOnInsert: { createdBy: 'import' } },
      { upsert: true },
    );
    expect(result.matchedCount).toBe(0);
    expect(result.modifiedCount).toBe(0);
    expect(result.upsertedCount).toBe(1);
    expect(result.upsertedId).toBeInstanceOf(ObjectId);
    const stored = await c.findOne({ _id: result.upsertedId as ObjectId });
    // the non-equality condition (rating $gt) does not contribute a field
    expect(stored).toEqual({
      _id: result.upsertedId,
      name: 'Clinic',
      address: { city: 'Chicago' },
      status: 'new',
      createdBy: 'import',
    });
  });

  it('uses the filter _id as the new document _id, and $setOnInsert is ignored when a document matches', async () => {
    const c = fresh('upsertid');
    const first = await c.updateOne(
      { _id: 'svc-9' },
      { $set: { n: 1 }, $setOnInsert: { created: 1 } },
      { upsert: true },
    );
    expect(first.upsertedId).toBe('svc-9');
    const second = await c.updateOne(
      { _id: 'svc-9' },
      { $set: { n: 2 }, $setOnInsert: { created: 2 } },
      { upsert: true },
    );
    expect(second.matchedCount).toBe(1);
    expect(second.modifiedCount).toBe(1);
    expect(second.upsertedCount).toBe(0);
    expect(second.upsertedId).toBeNull();
    expect(await c.find({}).toArray()).toEqual([{ _id: 'svc-9', n: 2, created: 1 }]);
  });

  it('copies $eq and $and equality conditions into the upserted document', async () => {
    const c = fresh('upserteq');
    const result = await c.updateOne(
      { $and: [{ kind: { $eq: 'service' } }, { org: 'o1' }] },
      { $inc: { count: 1 } },
      { upsert: true },
    );
    const stored = await c.findOne({ _id: result.upsertedId as ObjectId });
    expect(stored).toEqual({ _id: result.upsertedId, kind: 'service', org: 'o1', count: 1 });
  });

  it('replaceOne with upsert inserts the replacement', async () => {
    const c = fresh('replaceupsert');
    const result = await c.replaceOne({ _id: 5 }, { name: 'five' }, { upsert: true });
    expect(result.upsertedId).toBe(5);
    expect(result.upsertedCount).toBe(1);
    expect(await c.find({}).toArray()).toEqual([{ _id: 5, name: 'five' }]);
  });
});

describe('replace and delete', () => {
  it('replaceOne replaces the whole document but keeps its _id', async () => {
    const c = fresh('replace');
    await c.insertMany([
      { _id: 1, a: 1, b: 2 },
      { _id: 2, a: 1 },
    ]);
    const result = await c.replaceOne({ _id: 1 }, { c: 3 });
    expect(result.matchedCount).toBe(1);
    expect(result.modifiedCount).toBe(1);
    expect(await c.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, c: 3 },
      { _id: 2, a: 1 },
    ]);
  });

  it('deleteOne deletes one matching document and deleteMany all of them', async () => {
    const c = fresh('delete');
    await c.insertMany([{ k: 1 }, { k: 1 }, { k: 1 }, { k: 2 }]);
    expect((await c.deleteOne({ k: 1 })).deletedCount).toBe(1);
    expect(await c.countDocuments({ k: 1 })).toBe(2);
    expect((await c.deleteMany({ k: 1 })).deletedCount).toBe(2);
    expect((await c.deleteOne({ k: 9 })).deletedCount).toBe(0);
    expect((await c.find({}, { projection: { _id: 0 } }).toArray()) as Document[]).toEqual([{ k: 2 }]);
    expect((await c.deleteMany({})).deletedCount).toBe(1);
    expect(await c.countDocuments()).toBe(0);
  });
});

describe('findOneAnd*', () => {
  const seed = async (label: string) => {
    const c = fresh(label);
    await c.insertMany([
      { _id: 1, name: 'a', rating: 2, hidden: 'x' },
      { _id: 2, name: 'b', rating: 5, hidden: 'y' },
      { _id: 3, name: 'c', rating: 3, hidden: 'z' },
    ]);
    return c;
  };

  it('findOneAndUpdate returns the document before the update by default, or after on request', async () => {
    const c = await seed('foau');
    const before = await c.findOneAndUpdate({ _id: 1 }, { $inc: { rating: 1 } });
    expect(before).toEqual({ _id: 1, name: 'a', rating: 2, hidden: 'x' });
    const after = await c.findOneAndUpdate({ _id: 1 }, { $inc: { rating: 1 } }, { returnDocument: 'after' });
    expect(after).toEqual({ _id: 1, name: 'a', rating: 4, hidden: 'x' });
  });

  it('findOneAndUpdate picks the first document in sort order and applies the projection', async () => {
    const c = await seed('foausort');
    const result = await c.findOneAndUpdate(
      { rating: { $gte: 2 } },
      { $set: { top: true } },
      { sort: { rating: -1 }, projection: { hidden: 0 }, returnDocument: 'after' },
    );
    expect(result).toEqual({ _id: 2, name: 'b', rating: 5, top: true });
    expect(await c.countDocuments({ top: true })).toBe(1);
  });

  it('findOneAndUpdate with upsert returns null before and the new document after', async () => {
    const c = await seed('foauupsert');
    const before = await c.findOneAndUpdate({ name: 'new1' }, { $set: { rating: 1 } }, { upsert: true });
    expect(before).toBeNull();
    const after = await c.findOneAndUpdate(
      { name: 'new2' },
      { $set: { rating: 1 } },
      { upsert: true, returnDocument: 'after', projection: { _id: 0 } },
    );
    expect(after).toEqual({ name: 'new2', rating: 1 });
    expect(await c.countDocuments({ name: { $in: ['new1', 'new2'] } })).toBe(2);
  });

  it('findOneAndUpdate returns null when nothing matches and nothing is upserted', async () => {
    const c = await seed('foaunone');
    expect(await c.findOneAndUpdate({ name: 'zzz' }, { $set: { a: 1 } })).toBeNull();
    expect(await c.countDocuments()).toBe(3);
  });

  it('findOneAndReplace replaces and returns the document before or after', async () => {
    const c = await seed('foar');
    const before = await c.findOneAndReplace({ name: 'c' }, { name: 'c2' });
    expect(before).toEqual({ _id: 3, name: 'c', rating: 3, hidden: 'z' });
    const after = await c.findOneAndReplace({ name: 'c2' }, { name: 'c3' }, { returnDocument: 'after' });
    expect(after).toEqual({ _id: 3, name: 'c3' });
    const upserted = await c.findOneAndReplace(
      { name: 'd' },
      { name: 'd', rating: 0 },
      { upsert: true, returnDocument: 'after', projection: { _id: 0 } },
    );
    expect(upserted).toEqual({ name: 'd', rating: 0 });
  });

  it('findOneAndDelete removes and returns the first document in sort order', async () => {
    const c = await seed('foad');
    const deleted = await c.findOneAndDelete({}, { sort: { rating: 1 }, projection: { name: 1 } });
    expect(deleted).toEqual({ _id: 1, name: 'a' });
    expect(idsOf(await c.find({}).sort({ _id: 1 }).toArray())).toEqual([2, 3]);
    expect(await c.findOneAndDelete({ name: 'nobody' })).toBeNull();
  });
});

describe('bulkWrite', () => {
  it('applies mixed operations in order and reports each count', async () => {
    const c = fresh('bulk');
    await c.insertMany([
      { _id: 1, v: 1 },
      { _id: 2, v: 2 },
      { _id: 3, v: 3 },
    ]);
    const result = await c.bulkWrite([
      { insertOne: { document: { _id: 4, v: 4 } } },
      { updateOne: { filter: { _id: 1 }, update: { $set: { v: 10 } } } },
      { updateMany: { filter: { v: { $gte: 3 } }, update: { $inc: { v: 100 } } } },
      { deleteOne: { filter: { _id: 2 } } },
      { replaceOne: { filter: { _id: 3 }, replacement: { v: 'replaced' } } },
      { updateOne: { filter: { _id: 9 }, update: { $set: { v: 9 } }, upsert: true } },
      { deleteMany: { filter: { v: 'nothing' } } },
    ]);
    expect(result.insertedCount).toBe(1);
    expect(result.matchedCount).toBe(5); // 1 + 3 (ids 1, 3, 4 have v >= 3) + 1
    expect(result.modifiedCount).toBe(5);
    expect(result.deletedCount).toBe(1);
    expect(result.upsertedCount).toBe(1);
    expect(result.upsertedIds).toEqual({ 5: 9 });
    expect(await c.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 110 },
      { _id: 3, v: 'replaced' },
      { _id: 4, v: 104 },
      { _id: 9, v: 9 },
    ]);
  });

  it('an ordered bulkWrite stops at the first failing operation', async () => {
    const c = fresh('bulkordered');
    await c.insertOne({ _id: 1 });
    const err = await serverError(
      c.bulkWrite([
        { insertOne: { document: { _id: 2 } } },
        { insertOne: { document: { _id: 1 } } },
        { insertOne: { document: { _id: 3 } } },
      ]),
    );
    expect(err).toBeInstanceOf(MongoBulkWriteError);
    expect((err as MongoBulkWriteError).insertedCount).toBe(1);
    expect(idsOf(await c.find({}).sort({ _id: 1 }).toArray())).toEqual([1, 2]);
  });
});

describe('BSON round-trip', () => {
  it('keeps ObjectId, Date, Decimal128, Binary, nested arrays and embedded documents intact', async () => {
    const c = fresh('bson');
    const doc = {
      _id: new ObjectId(),
      ref: new ObjectId('5f1d7a3b9c1e4a2b3c4d5e6f'),
      at: new Date('2024-02-29T12:34:56.789Z'),
      price: Decimal128.fromString('1234.50'),
      bytes: new Binary(Buffer.from([0, 1, 2, 250, 255])),
      matrix: [
        [1, 2],
        [3, [4, 5]],
      ],
      nested: { list: [{ a: 1 }, { b: [true, false] }], empty: {}, none: [] },
      text: 'héllo wörld ✓',
      flag: false,
    };
    await c.insertOne(doc);
    const stored = await c.findOne({ _id: doc._id });
    expect(stored).not.toBeNull();
    expect(stored?._id).toBeInstanceOf(ObjectId);
    expect(stored?._id.toHexString()).toBe(doc._id.toHexString());
    expect(stored?.ref.toHexString()).toBe('5f1d7a3b9c1e4a2b3c4d5e6f');
    expect(stored?.at).toBeInstanceOf(Date);
    expect(stored?.at.toISOString()).toBe('2024-02-29T12:34:56.789Z');
    expect(stored?.price).toBeInstanceOf(Decimal128);
    expect(stored?.price.toString()).toBe('1234.50');
    expect(stored?.bytes).toBeInstanceOf(Binary);
    expect(Array.from((stored?.bytes as Binary).buffer)).toEqual([0, 1, 2, 250, 255]);
    expect(stored?.matrix).toEqual([
      [1, 2],
      [3, [4, 5]],
    ]);
    expect(stored?.nested).toEqual({ list: [{ a: 1 }, { b: [true, false] }], empty: {}, none: [] });
    expect(stored?.text).toBe('héllo wörld ✓');
    expect(stored?.flag).toBe(false);
    expect(Object.keys(stored ?? {})).toEqual(Object.keys(doc));
  });

  it('distinguishes Int32, Double, Long and Decimal128 by $type, while comparing them numerically', async () => {
    const c = fresh('numbers');
    await c.insertMany([
      { _id: 'int', v: new Int32(5) },
      { _id: 'double', v: new Double(5) },
      { _id: 'long', v: Long.fromNumber(5) },
      { _id: 'decimal', v: Decimal128.fromString('5') },
      { _id: 'jsint', v: 7 },
      { _id: 'jsfraction', v: 7.25 },
    ]);
    const typeIds = async (type: string) =>
      sortedStrings(idsOf(await c.find({ v: { $type: type } }).toArray()));
    expect(await typeIds('int')).toEqual(['int', 'jsint']);
    expect(await typeIds('double')).toEqual(['double', 'jsfraction']);
    expect(await typeIds('long')).toEqual(['long']);
    expect(await typeIds('decimal')).toEqual(['decimal']);
    expect(await typeIds('number')).toHaveLength(6);
    expect(sortedStrings(idsOf(await c.find({ v: 5 }).toArray()))).toEqual([
      'decimal',
      'double',
      'int',
      'long',
    ]);

    const raw = await c.find({}, { promoteValues: false }).sort({ _id: 1 }).toArray();
    const byId = new Map(raw.map((d) => [d._id as unknown as string, d.v]));
    expect(byId.get('int')).toBeInstanceOf(Int32);
    expect(byId.get('double')).toBeInstanceOf(Double);
    expect(byId.get('long')).toBeInstanceOf(Long);
    expect(byId.get('decimal')).toBeInstanceOf(Decimal128);
  });

  it('keeps 64-bit integers beyond 2^53 exactly', async () => {
    const c = fresh('long');
    const big = Long.fromString('9007199254740993'); // 2^53 + 1
    await c.insertOne({ _id: 1, v: big });
    const stored = await c.findOne({ _id: 1 }, { useBigInt64: true });
    expect(stored?.v).toBe(9007199254740993n);
    expect(await c.countDocuments({ v: Long.fromString('9007199254740993') })).toBe(1);
    expect(await c.countDocuments({ v: Long.fromString('9007199254740992') })).toBe(0);
  });

  it('keeps null distinct from a missing field', async () => {
    const c = fresh('null');
    await c.insertMany([{ _id: 1, v: null }, { _id: 2 }]);
    const one = await c.findOne({ _id: 1 });
    const two = await c.findOne({ _id: 2 });
    expect(one).toEqual({ _id: 1, v: null });
    expect(Object.prototype.hasOwnProperty.call(one, 'v')).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(two, 'v')).toBe(false);
    expect(idsOf(await c.find({ v: { $exists: true } }).toArray())).toEqual([1]);
  });

  it('keeps a field named __proto__ as an ordinary field through reads, projections and updates', async () => {
    const c = fresh('proto');
    // JSON.parse makes `__proto__` an own field (an object literal would set the prototype instead).
    const fields = (json: string) => JSON.parse(json) as Document;
    const hasOwnProto = (doc: Document | null) => doc !== null && Object.hasOwn(doc, '__proto__');
    await c.insertOne(fields('{"_id": 1, "__proto__": {"a": 1}, "n": 1}'));

    const stored = await c.findOne({ _id: 1 });
    expect(hasOwnProto(stored)).toBe(true);
    expect(Object.keys(stored ?? {})).toEqual(['_id', '__proto__', 'n']);
    expect(stored?.['__proto__']).toEqual({ a: 1 });
    expect(hasOwnProto(await c.findOne({ _id: 1 }, { projection: { n: 0 } }))).toBe(true);
    expect(hasOwnProto(await c.findOne({ _id: 1 }, { projection: { n: 0, 'x.y': 0 } }))).toBe(true);
    expect(hasOwnProto(await c.findOne({ _id: 1 }, { projection: { n: 1 } }))).toBe(false);

    await c.updateOne({ _id: 1 }, { $set: { n: 2 } });
    const updated = await c.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } }, { returnDocument: 'after' });
    expect(hasOwnProto(updated)).toBe(true);
    expect(updated?.['__proto__']).toEqual({ a: 1 });
    expect(updated?.n).toBe(3);

    await c.replaceOne({ _id: 1 }, fields('{"__proto__": {"c": 1}, "n": 4}'));
    const replaced = await c.findOne({ _id: 1 });
    expect(replaced?.['__proto__']).toEqual({ c: 1 });
    expect(replaced?.n).toBe(4);
  });

  it('treats fields named like Object members (constructor, toString) as ordinary fields', async () => {
    const c = fresh('members');
    await c.insertOne({ _id: 1, n: 1 });
    await c.updateOne({ _id: 1 }, { $set: { constructor: 1, toString: { a: 'b' } } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 1, constructor: 1, toString: { a: 'b' } });
    expect(await c.findOne({ _id: 1 }, { projection: { 'constructor.x': 0, 'toString.y': 0 } })).toEqual({
      _id: 1,
      n: 1,
      constructor: 1,
      toString: { a: 'b' },
    });
    expect(await c.countDocuments({ constructor: 1, 'toString.a': 'b' })).toBe(1);
    await c.updateOne({ _id: 1 }, { $unset: { constructor: '' } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 1, toString: { a: 'b' } });
    expect(Object.hasOwn(Object, 'x') || Object.hasOwn(Object.prototype.toString, 'y')).toBe(false);
  });

  it('keeps the order of fields as inserted', async () => {
    const c = fresh('order');
    await c.insertOne({ _id: 1, z: 1, a: 2, m: { y: 1, b: 2 } });
    const stored = await c.findOne({ _id: 1 });
    expect(Object.keys(stored ?? {})).toEqual(['_id', 'z', 'a', 'm']);
    expect(Object.keys(stored?.m ?? {})).toEqual(['y', 'b']);
  });
});
