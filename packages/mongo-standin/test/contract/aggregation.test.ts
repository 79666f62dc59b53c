/**
 * Aggregation contract: the pipeline stages the API uses ($match, $project, $addFields/$set, $unwind,
 * $group, $sort, $skip, $limit, $count, $facet, $lookup, $replaceRoot, $unset, $sortByCount) and the
 * error for an unknown stage, following the MongoDB manual's stage reference.
 */
import { Decimal128, Double, Long, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { type AnyCollection, collections, idsOf, serverError, sortedStrings } from './shared.ts';

let tdb: TestDatabase;
let fresh: (label: string) => AnyCollection;
let services: AnyCollection;
let organizations: AnyCollection;

const serviceDocs: Document[] = [
  { _id: 's1', org: 'o1', name: 'Food Pantry', status: 'active', tags: ['food', 'free'], capacity: 10 },
  { _id: 's2', org: 'o1', name: 'Shelter', status: 'active', tags: ['housing'], capacity: 30 },
  { _id: 's3', org: 'o2', name: 'Clinic', status: 'inactive', tags: ['health', 'free'], capacity: 5 },
  { _id: 's4', org: 'o2', name: 'Legal Aid', status: 'active', tags: ['free'], capacity: 8 },
  { _id: 's5', org: 'o3', name: 'Meals', status: 'active', tags: ['food', 'free'], capacity: 12 },
  { _id: 's6', org: 'o9', name: 'Orphan', status: 'inactive', capacity: 1 },
];

beforeAll(async () => {
  tdb = await startTestDatabase();
  fresh = collections(tdb.db, 'agg');
  services = fresh('services');
  organizations = fresh('organizations');
  await services.insertMany(serviceDocs);
  await organizations.insertMany([
    { _id: 'o1', name: 'Org One', address: { city: 'Chicago', zip: '60601' } },
    { _id: 'o2', name: 'Org Two', address: { city: 'Evanston', zip: '60201' } },
    { _id: 'o3', name: 'Org Three', address: { city: 'Skokie', zip: '60076' } },
  ]);
});

afterAll(async () => {
  await tdb?.close();
});

const run = (c: AnyCollection, pipeline: Document[]) => c.aggregate(pipeline).toArray();

describe('$match, $project, $addFields/$set, $unset', () => {
  it('$match filters with query operators and $project reshapes with expressions', async () => {
    const out = await run(services, [
      { $match: { status: 'active', capacity: { $gte: 10 } } },
      { $sort: { _id: 1 } },
      {
        $project: { _id: 0, name: 1, upper: { $toUpper: '$name' }, double: { $multiply: ['$capacity', 2] } },
      },
    ]);
    expect(out).toEqual([
      { name: 'Food Pantry', upper: 'FOOD PANTRY', double: 20 },
      { name: 'Shelter', upper: 'SHELTER', double: 60 },
      { name: 'Meals', upper: 'MEALS', double: 24 },
    ]);
  });

  it('$project exclusion removes fields and keeps the rest', async () => {
    const out = await run(services, [{ $match: { _id: 's2' } }, { $project: { tags: 0, capacity: 0 } }]);
    expect(out).toEqual([{ _id: 's2', org: 'o1', name: 'Shelter', status: 'active' }]);
  });

  it('$project inclusion keeps the fields shown in the order of the document, with _id unless left out', async () => {
    const c = fresh('inclusion');
    await c.insertOne({ _id: 1, b: 2, a: { x: 1 }, c: [3] });
    const [shown] = await run(c, [{ $project: { c: 1, a: 1, missing: 1 } }]);
    expect(shown).toEqual({ _id: 1, a: { x: 1 }, c: [3] });
    expect(Object.keys(shown!)).toEqual(['_id', 'a', 'c']);
    const [withoutId] = await run(c, [{ $project: { c: true, b: 1, _id: 0 } }]);
    expect(Object.keys(withoutId!)).toEqual(['b', 'c']);
    const [twice] = await run(c, [{ $project: { a: 1, b: 1 } }, { $project: { b: 1, _id: false } }]);
    expect(twice).toEqual({ b: 2 });
    expect(await run(c, [{ $project: { missing: 1, _id: 0 } }])).toEqual([{}]);
    // Wherever the stage stands, and whatever the numbers' BSON type.
    const [later] = await run(c, [{ $match: { _id: 1 } }, { $skip: 0 }, { $project: { c: 1, a: 1 } }]);
    expect(Object.keys(later!)).toEqual(['_id', 'a', 'c']);
    const [typed] = await run(c, [
      { $project: { c: new Double(1), a: Long.fromNumber(1), _id: new Double(0) } },
    ]);
    expect(typed).toEqual({ a: { x: 1 }, c: [3] });
    expect(Object.keys(typed!)).toEqual(['a', 'c']);
    const [odd] = await run(c, [
      { $project: { c: NaN, b: Decimal128.fromString('2.5'), _id: Decimal128.fromString('0E-3') } },
    ]);
    expect(odd).toEqual({ b: 2, c: [3] });
    const [faceted] = await run(c, [{ $facet: { shown: [{ $project: { c: 1, b: 1 } }] } }]);
    expect(Object.keys(faceted!.shown[0])).toEqual(['_id', 'b', 'c']);
  });

  it('$match with $expr compares fields of the same document', async () => {
    const c = fresh('expr');
    await c.insertMany([
      { _id: 1, used: 5, limit: 10 },
      { _id: 2, used: 12, limit: 10 },
    ]);
    expect(idsOf(await run(c, [{ $match: { $expr: { $gt: ['$used', '$limit'] } } }]))).toEqual([2]);
  });

  it('$addFields and its alias $set add or overwrite fields, including embedded ones', async () => {
    const out = await run(services, [
      { $match: { _id: 's1' } },
      { $addFields: { capacity: { $add: ['$capacity', 1] }, 'meta.source': 'test' } },
      { $set: { tagCount: { $size: '$tags' } } },
      { $project: { _id: 1, capacity: 1, meta: 1, tagCount: 1 } },
    ]);
    expect(out).toEqual([{ _id: 's1', capacity: 11, meta: { source: 'test' }, tagCount: 2 }]);
  });

  it('$unset removes one or several fields, also embedded ones', async () => {
    const out = await run(organizations, [
      { $match: { _id: 'o1' } },
      { $unset: 'name' },
      { $unset: ['address.zip'] },
    ]);
    expect(out).toEqual([{ _id: 'o1', address: { city: 'Chicago' } }]);
  });
});

describe('expression operators', () => {
  it('$round rounds to the given decimal place, halves to even', async () => {
    const c = fresh('round');
    await c.insertOne({ _id: 1 });
    const [out] = await run(c, [
      {
        $project: {
          _id: 0,
          a: { $round: [39.479, 0] },
          b: { $round: [1234.5678, 2] },
          c: { $round: [1234.5678, -2] },
          d: { $round: [1234.5678, -4] },
          e: { $round: [1234.5678, 0] },
          f: { $round: [10.5, 0] },
          g: { $round: [11.5, 0] },
          h: { $round: [10.51, 0] },
          i: { $round: [1290, -2] },
          j: { $round: [-2.7, 0] },
        },
      },
    ]);
    // the manual's examples: 1234.57, 1200, 0 and 1235; a value of 5 rounds to the nearest even value
    expect(out).toEqual({ a: 39, b: 1234.57, c: 1200, d: 0, e: 1235, f: 10, g: 12, h: 11, i: 1300, j: -3 });
  });
});

describe('$unwind', () => {
  // The manual's inventory example: an array, an empty array, a non-array value, a missing field and null.
  let inventory: AnyCollection;
  beforeAll(async () => {
    inventory = fresh('inventory');
    await inventory.insertMany([
      { _id: 1, item: 'ABC', sizes: ['S', 'M', 'L'] },
      { _id: 2, item: 'EFG', sizes: [] },
      { _id: 3, item: 'IJK', sizes: 'M' },
      { _id: 4, item: 'LMN' },
      { _id: 5, item: 'XYZ', sizes: null },
    ]);
  });

  it('outputs one document per element, treats a non-array as one element, and drops null/missing/empty', async () => {
    expect(
      await run(inventory, [{ $sort: { _id: 1 } }, { $unwind: '$sizes' }, { $project: { item: 0 } }]),
    ).toEqual([
      { _id: 1, sizes: 'S' },
      { _id: 1, sizes: 'M' },
      { _id: 1, sizes: 'L' },
      { _id: 3, sizes: 'M' },
    ]);
  });

  it('preserveNullAndEmptyArrays keeps the documents without elements', async () => {
    const out = await run(inventory, [
      { $sort: { _id: 1 } },
      { $unwind: { path: '$sizes', preserveNullAndEmptyArrays: true } },
      { $project: { item: 0 } },
    ]);
    expect(out).toEqual([
      { _id: 1, sizes: 'S' },
      { _id: 1, sizes: 'M' },
      { _id: 1, sizes: 'L' },
      { _id: 2 },
      { _id: 3, sizes: 'M' },
      { _id: 4 },
      { _id: 5, sizes: null },
    ]);
  });

  it('includeArrayIndex adds the element index (a long), null for non-array values', async () => {
    const out = await run(inventory, [
      { $sort: { _id: 1 } },
      { $unwind: { path: '$sizes', includeArrayIndex: 'arrayIndex', preserveNullAndEmptyArrays: true } },
      { $project: { item: 0 } },
    ]);
    expect(out).toEqual([
      { _id: 1, sizes: 'S', arrayIndex: 0 },
      { _id: 1, sizes: 'M', arrayIndex: 1 },
      { _id: 1, sizes: 'L', arrayIndex: 2 },
      { _id: 2, arrayIndex: null },
      { _id: 3, sizes: 'M', arrayIndex: null },
      { _id: 4, arrayIndex: null },
      { _id: 5, sizes: null, arrayIndex: null },
    ]);
    const longs = await run(inventory, [
      { $unwind: { path: '$sizes', includeArrayIndex: 'arrayIndex' } },
      { $match: { arrayIndex: { $type: 'long' } } },
    ]);
    expect(longs).toHaveLength(3);
  });
});

describe('$group, $sort, $skip, $limit, $count, $sortByCount', () => {
  it('$group computes accumulators per key', async () => {
    const out = await run(services, [
      {
        $group: {
          _id: '$org',
          count: { $sum: 1 },
          total: { $sum: '$capacity' },
          avg: { $avg: '$capacity' },
          min: { $min: '$capacity' },
          max: { $max: '$capacity' },
          names: { $push: '$name' },
          statuses: { $addToSet: '$status' },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    const normalised = out.map((g) => ({
      ...g,
      names: sortedStrings(g.names),
      statuses: sortedStrings(g.statuses),
    }));
    expect(normalised).toEqual([
      {
        _id: 'o1',
        count: 2,
        total: 40,
        avg: 20,
        min: 10,
        max: 30,
        names: ['Food Pantry', 'Shelter'],
        statuses: ['active'],
      },
      {
        _id: 'o2',
        count: 2,
        total: 13,
        avg: 6.5,
        min: 5,
        max: 8,
        names: ['Clinic', 'Legal Aid'],
        statuses: ['active', 'inactive'],
      },
      { _id: 'o3', count: 1, total: 12, avg: 12, min: 12, max: 12, names: ['Meals'], statuses: ['active'] },
      { _id: 'o9', count: 1, total: 1, avg: 1, min: 1, max: 1, names: ['Orphan'], statuses: ['inactive'] },
    ]);
  });

  it('$group with _id null totals everything; $first and $last follow the preceding $sort', async () => {
    const out = await run(services, [
      { $sort: { capacity: 1 } },
      {
        $group: {
          _id: null,
          n: { $sum: 1 },
          capacity: { $sum: '$capacity' },
          smallest: { $first: '$name' },
          largest: { $last: '$name' },
        },
      },
    ]);
    expect(out).toEqual([{ _id: null, n: 6, capacity: 66, smallest: 'Orphan', largest: 'Shelter' }]);
  });

  it('$group by a compound key and by a missing field (grouped under null)', async () => {
    const out = await run(services, [
      { $group: { _id: { org: '$org', status: '$status' }, n: { $sum: 1 } } },
      { $sort: { '_id.org': 1, '_id.status': 1 } },
    ]);
    expect(out).toEqual([
      { _id: { org: 'o1', status: 'active' }, n: 2 },
      { _id: { org: 'o2', status: 'active' }, n: 1 },
      { _id: { org: 'o2', status: 'inactive' }, n: 1 },
      { _id: { org: 'o3', status: 'active' }, n: 1 },
      { _id: { org: 'o9', status: 'inactive' }, n: 1 },
    ]);
    const byMissing = await run(services, [{ $group: { _id: '$nonexistent', n: { $sum: 1 } } }]);
    expect(byMissing).toEqual([{ _id: null, n: 6 }]);
  });

  it('$sort, $skip and $limit page through results', async () => {
    const out = await run(services, [
      { $sort: { status: 1, capacity: -1 } },
      { $skip: 1 },
      { $limit: 3 },
      { $project: { _id: 1 } },
    ]);
    // active by capacity desc: s2(30), s5(12), s1(10), s4(8); inactive: s3(5), s6(1)
    expect(idsOf(out)).toEqual(['s5', 's1', 's4']);
  });

  it('$count outputs one document with the count, and no document for empty input', async () => {
    expect(await run(services, [{ $match: { status: 'active' } }, { $count: 'activeCount' }])).toEqual([
      { activeCount: 4 },
    ]);
    expect(await run(services, [{ $match: { status: 'nope' } }, { $count: 'n' }])).toEqual([]);
  });

  it('$sortByCount groups by a value and sorts by count descending', async () => {
    const out = await run(services, [{ $unwind: '$tags' }, { $sortByCount: '$tags' }]);
    expect(out.slice(0, 2)).toEqual([
      { _id: 'free', count: 4 },
      { _id: 'food', count: 2 },
    ]);
    // the two tags with count 1 tie, so their relative order is not defined
    expect(out).toHaveLength(4);
    expect(sortedStrings(out.slice(2).map((g) => g._id))).toEqual(['health', 'housing']);
    expect(out.slice(2).every((g) => g.count === 1)).toBe(true);
  });
});

describe('$facet', () => {
  it('returns a page of items and the total count in one document (list paging)', async () => {
    const out = await run(services, [
      { $match: { status: 'active' } },
      {
        $facet: {
          items: [{ $sort: { name: 1 } }, { $skip: 1 }, { $limit: 2 }, { $project: { _id: 1, name: 1 } }],
          total: [{ $count: 'count' }],
        },
      },
    ]);
    expect(out).toEqual([
      {
        items: [
          { _id: 's4', name: 'Legal Aid' },
          { _id: 's5', name: 'Meals' },
        ],
        total: [{ count: 4 }],
      },
    ]);
  });

  it('gives each facet the input as it came: one that changes or reorders documents leaves the others theirs', async () => {
    const out = await run(services, [
      { $match: { status: 'active' } },
      {
        $facet: {
          renamed: [{ $set: { name: 'x', 'extra.n': 1 } }, { $project: { _id: 1, name: 1, extra: 1 } }],
          byCapacity: [{ $sort: { capacity: -1 } }, { $project: { _id: 1 } }],
          asGiven: [{ $limit: 10 }],
          total: [{ $count: 'count' }],
        },
      },
    ]);
    const active = serviceDocs.filter((doc) => doc.status === 'active');
    expect(out).toEqual([
      {
        renamed: active.map(({ _id }) => ({ _id, name: 'x', extra: { n: 1 } })),
        byCapacity: [{ _id: 's2' }, { _id: 's5' }, { _id: 's1' }, { _id: 's4' }],
        asGiven: active,
        total: [{ count: 4 }],
      },
    ]);
    expect(await services.find({ status: 'active' }).toArray()).toEqual(active);
  });

  it('gives each facet its own copy of nested values: setting a field inside one changes no other facet', async () => {
    const out = await run(organizations, [
      { $sort: { _id: 1 } },
      {
        $facet: {
          moved: [{ $set: { 'address.city': 'Moved' } }, { $project: { _id: 0, address: 1 } }],
          asGiven: [{ $project: { _id: 0, address: 1 } }],
        },
      },
    ]);
    expect(out[0]!.moved.map((doc: Document) => doc.address.city)).toEqual(['Moved', 'Moved', 'Moved']);
    expect(out[0]!.asGiven.map((doc: Document) => doc.address.city)).toEqual([
      'Chicago',
      'Evanston',
      'Skokie',
    ]);
    expect((await organizations.findOne({ _id: 'o1' }))!.address.city).toBe('Chicago');
  });

  it('gives facets that pass documents on their own copies: a later stage setting a field in one leaves the other', async () => {
    const out = await run(organizations, [
      { $sort: { _id: 1 } },
      { $facet: { first: [{ $limit: 1 }], again: [{ $limit: 1 }], total: [{ $count: 'n' }] } },
      { $unwind: '$first' },
      { $set: { 'first.address.city': 'Moved' } },
    ]);
    expect(out[0]!.first.address.city).toBe('Moved');
    expect(out[0]!.again[0].address.city).toBe('Chicago');
    expect(out[0]!.total).toEqual([{ n: 3 }]);
  });

  it('refuses a malformed specification as MongoDB parses it, before reading anything', async () => {
    const empty = fresh('facet-errors');
    const refusal = async (facet: unknown) => {
      const error = await serverError(run(empty, [{ $facet: facet }]));
      return { code: error.code, message: error.message };
    };
    expect(await refusal({})).toEqual({
      code: 40169,
      message: 'the $facet specification must be a non-empty object, but found: $facet: {}',
    });
    expect(await refusal([])).toMatchObject({ code: 40169 });
    expect(await refusal({ items: { $limit: 1 } })).toEqual({
      code: 40170,
      message: 'arguments to $facet must be arrays, items is type object',
    });
    expect(await refusal({ items: [{ $limit: 1 }, 2] })).toEqual({
      code: 40171,
      message:
        'elements of arrays in $facet spec must be non-empty objects, items argument contained an element of type int: 1: 2',
    });
    const naming =
      '$facet pipeline names must follow the naming rules of field path expressions. :: caused by :: ';
    expect(await refusal({ 'a.b': [] })).toEqual({
      code: 16412,
      message: `${naming}FieldPath field names may not contain '.', given 'a.b'.`,
    });
    expect(await refusal({ $items: [] })).toMatchObject({ code: 16410 });
    expect(await refusal({ '': [] })).toMatchObject({ code: 15998 });
    expect(await refusal({ items: [{ $noSuchStage: {} }] })).toMatchObject({ code: 40324 });
    expect(await refusal({ items: [{ $limit: 1, $skip: 1 }] })).toMatchObject({ code: 40323 });
    expect(await refusal({ inner: [{ $facet: { items: [] } }] })).toEqual({
      code: 40600,
      message: '$facet is not allowed to be used within a $facet stage',
    });
    expect(await refusal({ near: [{ $geoNear: { near: [0, 0], distanceField: 'd' } }] })).toEqual({
      code: 40600,
      message: '$geoNear is not allowed to be used within a $facet stage',
    });
    // A branch may be empty, and named like a DBRef field.
    expect(await run(services, [{ $facet: { all: [], $id: [{ $count: 'n' }] } }])).toEqual([
      { all: serviceDocs, $id: [{ n: serviceDocs.length }] },
    ]);
  });

  it('on an empty match returns empty arrays for every facet', async () => {
    const out = await run(services, [
      { $match: { status: 'none' } },
      { $facet: { items: [{ $limit: 10 }], total: [{ $count: 'count' }] } },
    ]);
    expect(out).toEqual([{ items: [], total: [] }]);
  });
});

describe('$lookup', () => {
  it('joins on localField/foreignField, with an empty array when nothing matches', async () => {
    const out = await run(services, [
      { $match: { _id: { $in: ['s1', 's6'] } } },
      { $sort: { _id: 1 } },
      {
        $lookup: {
          from: organizations.collectionName,
          localField: 'org',
          foreignField: '_id',
          as: 'organization',
        },
      },
      { $project: { _id: 1, organization: 1 } },
    ]);
    expect(out).toEqual([
      {
        _id: 's1',
        organization: [{ _id: 'o1', name: 'Org One', address: { city: 'Chicago', zip: '60601' } }],
      },
      { _id: 's6', organization: [] },
    ]);
  });

  it('an array localField matches any of its elements', async () => {
    const c = fresh('lookuparray');
    await c.insertOne({ _id: 'x', orgs: ['o3', 'o1', 'o7'] });
    const out = await run(c, [
      {
        $lookup: {
          from: organizations.collectionName,
          localField: 'orgs',
          foreignField: '_id',
          as: 'joined',
        },
      },
    ]);
    expect(out).toHaveLength(1);
    expect(sortedStrings(idsOf(out[0]?.joined))).toEqual(['o1', 'o3']);
  });

  it('the pipeline form with let joins on an $expr condition and runs the sub-pipeline', async () => {
    const out = await run(organizations, [
      { $sort: { _id: 1 } },
      {
        $lookup: {
          from: services.collectionName,
          let: { orgId: '$_id' },
          pipeline: [
            { $match: { $expr: { $and: [{ $eq: ['$org', '$$orgId'] }, { $eq: ['$status', 'active'] }] } } },
            { $sort: { name: 1 } },
            { $project: { _id: 0, name: 1 } },
          ],
          as: 'activeServices',
        },
      },
      { $project: { _id: 1, activeServices: 1 } },
    ]);
    expect(out).toEqual([
      { _id: 'o1', activeServices: [{ name: 'Food Pantry' }, { name: 'Shelter' }] },
      { _id: 'o2', activeServices: [{ name: 'Legal Aid' }] },
      { _id: 'o3', activeServices: [{ name: 'Meals' }] },
    ]);
  });
});

describe('$replaceRoot', () => {
  it('promotes an embedded document to the top level', async () => {
    const out = await run(organizations, [{ $sort: { _id: 1 } }, { $replaceRoot: { newRoot: '$address' } }]);
    expect(out).toEqual([
      { city: 'Chicago', zip: '60601' },
      { city: 'Evanston', zip: '60201' },
      { city: 'Skokie', zip: '60076' },
    ]);
  });

  it('accepts a computed document', async () => {
    const out = await run(organizations, [
      { $match: { _id: 'o2' } },
      { $replaceRoot: { newRoot: { id: '$_id', city: '$address.city' } } },
    ]);
    expect(out).toEqual([{ id: 'o2', city: 'Evanston' }]);
  });

  it('fails when newRoot does not evaluate to a document', async () => {
    await serverError(run(services, [{ $replaceRoot: { newRoot: '$name' } }]));
  });
});

describe('pipeline errors', () => {
  it('an unknown stage fails with "Unrecognized pipeline stage name" (code 40324)', async () => {
    const err = await serverError(run(services, [{ $match: {} }, { $noSuchStage: {} }]));
    expect(err.code).toBe(40324);
    expect(err.message).toContain('$noSuchStage');
  });

  it('an unknown expression operator fails', async () => {
    const err = await serverError(run(services, [{ $project: { x: { $noSuchOperator: '$name' } } }]));
    expect(typeof err.code).toBe('number');
  });

  it('aggregating a collection that does not exist yields no documents', async () => {
    expect(await run(fresh('missing'), [{ $match: {} }, { $count: 'n' }])).toEqual([]);
  });
});
