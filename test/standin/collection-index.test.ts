import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { Collection, type CollectionHost } from '../../src/standin/engine/collection.ts';
import { compileFilter } from '../../src/standin/query/filter.ts';

function collection(): Collection {
  const host: CollectionHost = {
    databaseName: 'db',
    compileFilter: (f) => compileFilter(f),
    record: () => undefined,
  };
  return new Collection('c', {}, host);
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
    expect(c.candidates({ id: { $gt: 'id-5' } }).indexName).toBeNull();
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
