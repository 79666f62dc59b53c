import { ObjectId, type Document } from 'bson';
import { describe, expect, it } from 'vitest';
import type { Collection } from '../src/engine/collection.ts';
import { Database } from '../src/engine/database.ts';
import { fileStorage } from './support/file-storage.ts';

const storage = fileStorage('standin-index-');

let collections = 0;
/** A new collection in the storage; its writes commit one by one (no command transaction around them). */
function collection(): Collection {
  return new Database('db', storage(), []).createCollection(`c${collections++}`, {});
}

describe('index planning', () => {
  it('narrows equality and $in lookups on indexed fields to the index entries', () => {
    const c = collection();
    c.createIndex({ v: 2, key: { id: 1 }, name: 'id_1' });
    for (let i = 0; i < 1000; i++) c.insert({ _id: new ObjectId(), id: `id-${i}`, tags: [i % 3, 'all'] });
    const byId = c.candidates({ id: 'id-42', other: { $exists: false } });
    expect(byId.indexName).toBe('id_1');
    expect([...byId.docs]).toHaveLength(1);
    const byIn = c.candidates({ id: { $in: ['id-1', 'id-2', 'nope'] } });
    expect([...byIn.docs]).toHaveLength(2);
    expect(c.candidates({ tags: 1 }).indexName).toBeNull();
    expect(c.candidates({ id: { $ne: 'id-5' } }).indexName).toBeNull();
    // Alone, an equality is answered exactly by a complete index; beside another condition it only narrows.
    expect(byIn.exact).toBe(true);
    expect(byId.exact).toBe(false);
  });

  it('narrows ranges to a span of the index, within the type of its bounds, exactly for one bound', () => {
    const c = collection();
    c.createIndex({ v: 2, key: { id: 1 }, name: 'id_1' });
    for (let i = 0; i < 100; i++) c.insert({ _id: i, id: `id-${String(i).padStart(2, '0')}` });
    c.insert({ _id: 'number', id: 7 });
    const above = c.candidates({ id: { $gt: 'id-95' } });
    expect(above.indexName).toBe('id_1');
    expect([...above.docs].map((doc) => doc._id)).toEqual([96, 97, 98, 99]);
    expect(above.exact).toBe(true);
    const between = c.candidates({ id: { $gte: 'id-10', $lt: 'id-12' } });
    expect([...between.docs].map((doc) => doc._id)).toEqual([10, 11]);
    const numbers = c.candidates({ id: { $lte: 100 } });
    expect([...numbers.docs].map((doc) => doc._id)).toEqual(['number']);
    // Number keys are doubles: a range of numbers narrows, and the query's own test decides.
    expect(numbers.exact).toBe(false);
  });

  it('indexes array elements (multikey) and matches numbers across types', () => {
    const c = collection();
    c.createIndex({ v: 2, key: { tags: 1 }, name: 'tags_1' });
    c.insert({ _id: 1, tags: ['a', 'b'] });
    c.insert({ _id: 2, tags: 'b' });
    c.insert({ _id: 3, n: 1 });
    expect([...c.candidates({ tags: 'b' }).docs].map((d) => d._id)).toEqual([1, 2]);
    expect([...c.candidates({ _id: 3.0 }).docs]).toHaveLength(1);
  });
});

describe('index planning for search-shaped filters', () => {
  it('answers $all on a multikey index by intersecting, and looks inside a top-level $and', () => {
    const c = collection();
    c.createIndex({ v: 2, key: { words: 1 }, name: 'words_1' });
    c.createIndex({ v: 2, key: { id: 1 }, name: 'id_1' });
    c.insert({ _id: 1, id: 'a', words: ['food', 'pantry'] });
    c.insert({ _id: 2, id: 'b', words: ['food', 'bank'] });
    c.insert({ _id: 3, id: 'c', words: ['legal', 'pantry'] });
    const all = c.candidates({ words: { $all: ['food', 'pantry'] } });
    expect(all.indexName).toBe('words_1');
    expect([...all.docs].map((d) => d._id)).toEqual([1]);
    const and = c.candidates({ $and: [{ words: { $all: ['pantry'] } }, { id: { $in: ['c', 'x'] } }] });
    expect(and.indexName).toBe('id_1');
    expect([...and.docs].map((d) => d._id)).toEqual([3]);
  });
});

describe('index order', () => {
  /** A collection of these `_id`s and names (none: no name field), indexed on `name`. */
  const named = (documents: [number, string | undefined][]) => {
    const c = collection();
    c.createIndex({ v: 2, key: { name: 1 }, name: 'name_1' });
    for (const [id, name] of documents) c.insert(name === undefined ? { _id: id } : { _id: id, name });
    return c;
  };
  const ids = (docs: Iterable<Document> | null) => [...(docs ?? [])].map((d) => d._id);

  it('walks a single-field index in sort order, both directions, missing values first as null', () => {
    const c = named([
      [1, 'b'],
      [2, 'a'],
      [3, undefined],
      [4, 'c'],
      [5, 'a'],
    ]);
    expect(ids(c.inIndexOrder({ name: 1 }))).toEqual([3, 2, 5, 1, 4]);
    expect(ids(c.inIndexOrder({ name: -1 }))).toEqual([4, 1, 5, 2, 3]);
    c.replace(c.getById(4)!, { _id: 4, name: '0' });
    expect(ids(c.inIndexOrder({ name: 1 }))).toEqual([3, 4, 2, 5, 1]);
    expect(c.inIndexOrder({ other: 1 })).toBeNull();
    expect(c.inIndexOrder({ name: 1, _id: 1 })).toBeNull();
  });

  it('starts a walk at its skip-th document, in both directions, as postings grow and shrink', () => {
    const c = named([
      [1, 'b'],
      [2, 'a'],
      [3, 'c'],
      [4, 'a'],
    ]);
    // Ids of one key come in record order, reversed when walking backwards (as MongoDB's index scans).
    const expectEverySkip = (ascending: number[], descending: number[]) => {
      for (const [direction, walk] of [
        [1, ascending],
        [-1, descending],
      ] as const) {
        for (let skip = 0; skip <= walk.length + 1; skip++)
          expect(ids(c.inIndexOrder({ name: direction }, skip)), `${direction} skip ${skip}`).toEqual(
            walk.slice(skip),
          );
      }
    };
    expectEverySkip([2, 4, 1, 3], [3, 1, 4, 2]);
    c.insert({ _id: 5, name: 'a' }); // a key's posting grows, no key is added
    expect(ids(c.inIndexOrder({ name: 1 }, 3))).toEqual([1, 3]);
    expectEverySkip([2, 4, 5, 1, 3], [3, 1, 5, 4, 2]);
    c.remove(c.getById(4)!); // and shrinks
    expect(ids(c.inIndexOrder({ name: -1 }, 2))).toEqual([5, 2]);
    expectEverySkip([2, 5, 1, 3], [3, 1, 5, 2]);
  });

  it('is not used once a document made the index multikey (arrays sort by one element)', () => {
    const c = collection();
    c.createIndex({ v: 2, key: { tags: 1 }, name: 'tags_1' });
    c.insert({ _id: 1, tags: 'a' });
    expect(c.inIndexOrder({ tags: 1 })).not.toBeNull();
    c.insert({ _id: 2, tags: ['b', 'c'] });
    expect(c.inIndexOrder({ tags: 1 })).toBeNull();
  });
});
