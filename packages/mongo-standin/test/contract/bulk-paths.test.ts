/**
 * Contract for the paths the bulk import leans on: update operator validation, `$in` over long lists
 * and mixed numeric types, multikey lookups, index-ordered list pages, and `$lookup` with both
 * `localField`/`foreignField` and a pipeline, as the MongoDB manual documents them.
 */
import { Decimal128, Long, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { type AnyCollection, collections, idsOf, serverError, sortedNumbers } from './shared.ts';

let tdb: TestDatabase;
let fresh: (label: string) => AnyCollection;

beforeAll(async () => {
  tdb = await startTestDatabase();
  fresh = collections(tdb.db, 'bulk');
});

afterAll(async () => {
  await tdb?.close();
});

describe('update operator validation', () => {
  it('a path and a path inside it in two operators conflict (code 40), and nothing changes', async () => {
    const c = fresh('prefix');
    await c.insertOne({ _id: 1, a: { b: 1 } });
    const err = await serverError(c.updateOne({ _id: 1 }, { $set: { 'a.b': 2 }, $unset: { a: '' } }));
    expect(err.code).toBe(40);
    expect(err.message).toMatch(/would create a conflict at 'a'/);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: { b: 1 } });
  });

  it('$addToSet on a non-array field fails with BadValue; $inc with a non-number fails with TypeMismatch', async () => {
    const c = fresh('types');
    await c.insertOne({ _id: 1, tags: 'a', n: 1 });
    expect((await serverError(c.updateOne({ _id: 1 }, { $addToSet: { tags: 'b' } }))).code).toBe(2);
    expect((await serverError(c.updateOne({ _id: 1 }, { $inc: { n: 'x' } } as Document))).code).toBe(14);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, tags: 'a', n: 1 });
  });

  it('$addToSet with $each adds each absent value once and creates a missing array', async () => {
    const c = fresh('addtoset');
    await c.insertOne({ _id: 1 });
    await c.updateOne({ _id: 1 }, { $addToSet: { tags: { $each: ['x', 'y', 'x'] } } });
    expect((await c.findOne({ _id: 1 }))?.tags).toEqual(['x', 'y']);
  });
});

describe('equality lookups', () => {
  it('$in over a long list finds exactly the listed values, numbers across numeric types', async () => {
    const c = fresh('in');
    await c.createIndex({ id: 1 }, { unique: true });
    await c.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, id: `s${i}` })));
    const numbers = fresh('numbers');
    await numbers.insertMany([
      { _id: 'long', n: Long.fromNumber(7) },
      { _id: 'decimal', n: Decimal128.fromString('7') },
      { _id: 'double', n: 7.5 },
    ]);
    const wanted = Array.from({ length: 150 }, (_, i) => `s${i * 2}`).concat(['missing']);
    const found = await c.find({ id: { $in: wanted } }).toArray();
    expect(sortedNumbers(idsOf(found))).toEqual(Array.from({ length: 150 }, (_, i) => i * 2));
    expect((await numbers.find({ n: { $in: [7, 'x'] } }).toArray()).map((d) => d._id).sort()).toEqual([
      'decimal',
      'long',
    ]);
  });

  it('a multikey index finds every document whose array holds one of the values', async () => {
    const c = fresh('multikey');
    await c.createIndex({ deps: 1 });
    await c.insertMany([
      { _id: 1, deps: ['a', 'b'] },
      { _id: 2, deps: ['b', 'c'] },
      { _id: 3, deps: ['d'] },
      { _id: 4 },
    ]);
    expect(sortedNumbers(idsOf(await c.find({ deps: { $in: ['b', 'd'] } }).toArray()))).toEqual([1, 2, 3]);
    expect(idsOf(await c.find({ deps: 'c' }).toArray())).toEqual([2]);
  });
});

describe('list pages', () => {
  it('sort on an indexed field with skip and limit pages through the sorted documents', async () => {
    const c = fresh('pages');
    await c.createIndex({ name: 1 });
    const names = ['m', 'c', 'x', 'a', 'q', 'f', 'b', 'z', 'k', 'e'];
    await c.insertMany(names.map((name, i) => ({ _id: i, name })));
    await c.insertOne({ _id: 'none' });
    const page = async (direction: 1 | -1, skip: number) =>
      (await c.find({}).sort({ name: direction }).skip(skip).limit(3).toArray()).map((d) => d.name ?? null);
    expect(await page(1, 0)).toEqual([null, 'a', 'b']);
    expect(await page(1, 3)).toEqual(['c', 'e', 'f']);
    expect(await page(-1, 0)).toEqual(['z', 'x', 'q']);
    expect(await page(-1, 9)).toEqual(['a', null]);
    await c.updateOne({ _id: 2 }, { $set: { name: 'd' } });
    expect(await page(-1, 0)).toEqual(['z', 'q', 'm']);
  });

  it('skips into and past runs of equal keys, with and without a filter', async () => {
    const c = fresh('tied-pages');
    await c.createIndex({ group: 1 });
    const groups = ['b', 'a', 'c', 'b', 'a', 'b', 'c', 'a', 'b'];
    await c.insertMany(groups.map((group, i) => ({ _id: i, group, odd: i % 2 === 1 })));
    const page = async (filter: Document, direction: 1 | -1, skip: number, limit = 3) =>
      (await c.find(filter).sort({ group: direction }).skip(skip).limit(limit).toArray()).map((d) => d.group);
    expect(await page({}, 1, 2)).toEqual(['a', 'b', 'b']);
    expect(await page({}, 1, 4)).toEqual(['b', 'b', 'b']);
    expect(await page({}, 1, 7)).toEqual(['c', 'c']);
    expect(await page({}, -1, 1)).toEqual(['c', 'b', 'b']);
    expect(await page({}, 1, 9)).toEqual([]);
    expect(await page({}, 1, 100)).toEqual([]);
    expect(await page({ odd: true }, 1, 1, 10)).toEqual(['a', 'b', 'b']);
    const all = await c.find({}).sort({ group: 1 }).skip(3).toArray();
    expect(all.map((d) => d.group)).toEqual(['b', 'b', 'b', 'b', 'c', 'c']);
  });
});

describe('$lookup with localField, foreignField and a pipeline', () => {
  it('runs the pipeline over the matching foreign documents only', async () => {
    const orgs = fresh('orgs');
    const services = fresh('services');
    await orgs.insertMany([
      { _id: 'o1', name: 'One' },
      { _id: 'o2', name: 'Two' },
    ]);
    await services.insertMany([
      { _id: 's1', org: 'o1' },
      { _id: 's2', org: 'o3' },
    ]);
    const out = await services
      .aggregate([
        { $sort: { _id: 1 } },
        {
          $lookup: {
            from: orgs.collectionName,
            localField: 'org',
            foreignField: '_id',
            pipeline: [{ $project: { _id: 0, name: 1 } }],
            as: 'organization',
          },
        },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 's1', org: 'o1', organization: [{ name: 'One' }] },
      { _id: 's2', org: 'o3', organization: [] },
    ]);
  });
});
