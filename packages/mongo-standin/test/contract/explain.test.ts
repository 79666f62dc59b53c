/**
 * Explain contract (queryPlanner verbosity): the winning plan says whether a find reads an index (IXSCAN,
 * naming it) or the whole collection (COLLSCAN), as the MongoDB manual's explain results document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { planSummary } from '../support/query-plan.ts';
import { type AnyCollection, collections } from './shared.ts';

let tdb: TestDatabase;
let c: AnyCollection;

beforeAll(async () => {
  tdb = await startTestDatabase();
  c = collections(tdb.db, 'explain')('find');
  await c.insertMany(
    Array.from({ length: 200 }, (_, i) => ({ _id: i, k: i % 20, tags: [`t${i % 7}`], other: i })),
  );
  await c.createIndexes([
    { key: { k: 1 }, name: 'k_1' },
    { key: { tags: 1 }, name: 'tags_1' },
  ]);
});

afterAll(async () => {
  await tdb?.close();
});

const plan = async (filter: object, sort?: Record<string, 1 | -1>) =>
  planSummary(await c.find(filter, sort ? { sort } : {}).explain('queryPlanner'));

describe('explain of a find', () => {
  it('names the index an equality, $in or $all on an indexed field reads', async () => {
    for (const filter of [
      { k: 3 },
      { k: { $in: [3, 4] } },
      { tags: { $all: ['t1', 't2'] } },
      { tags: 't1' },
    ]) {
      const summary = await plan(filter);
      expect(summary.collectionScan, JSON.stringify(filter)).toBe(false);
      expect(summary.indexes, JSON.stringify(filter)).toEqual([
        Object.keys(filter)[0] === 'k' ? 'k_1' : 'tags_1',
      ]);
    }
  });

  it('uses an indexed condition of a top-level $and, even sorted by another field', async () => {
    const summary = await plan({ $and: [{ other: { $gt: 5 } }, { k: 3 }] }, { other: 1 });
    expect(summary).toEqual({ indexes: ['k_1'], collectionScan: false });
  });

  it('scans the collection for a condition no index serves', async () => {
    expect(await plan({ other: 5 })).toEqual({ indexes: [], collectionScan: true });
  });

  it('answers a sort on an indexed field by reading that index', async () => {
    expect(await plan({}, { k: 1 })).toEqual({ indexes: ['k_1'], collectionScan: false });
  });
});
