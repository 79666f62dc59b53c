import { Long, type Collection, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { seededRandom } from './support/seeded-random.ts';
import { planStages } from './support/query-plan.ts';

/**
 * Ranges read from an index, and sorted pages read in the sort index's order among the candidates
 * another index gives (skipping, unread, those an exact index vouches for): each query runs on a
 * collection with the indexes and on the same documents without any (a scan), and must give the same
 * documents in the same order, and the same counts. The documents mix types in one field, arrays
 * (multikey), missing fields and values MongoDB brackets apart (NaN, strings among dates).
 */

const rand = seededRandom(42);
const WORDS = ['ash', 'birch', 'cedar', 'elm', 'fir', 'hazel', 'larch', 'oak', 'pine', 'yew'];
const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);
const date = () => new Date(START + rand.int(365) * DAY + rand.int(DAY));

interface Row {
  _id: number;
  id: string;
  modified?: unknown;
  tags?: unknown;
  n?: unknown;
  name?: string;
}

function row(i: number): Row {
  const doc: Row = { _id: i, id: `r${String(rand.int(1_000_000)).padStart(7, '0')}-${i}` };
  const m = rand.next();
  if (m < 0.85) doc.modified = date();
  else if (m < 0.9)
    doc.modified = '2026-06-01'; // a string, which no date range matches
  else if (m < 0.95) doc.modified = [date(), date()];
  const t = rand.next();
  if (t < 0.6) doc.tags = Array.from({ length: rand.int(4) }, () => rand.pick(WORDS));
  else if (t < 0.9) doc.tags = rand.pick(WORDS);
  const n = rand.next();
  if (n < 0.7) doc.n = rand.int(1000) / 10;
  else if (n < 0.8) doc.n = Long.fromNumber(rand.int(100));
  else if (n < 0.85) doc.n = NaN;
  else if (n < 0.9) doc.n = String(rand.int(100));
  if (rand.next() < 0.7) doc.name = rand.pick(WORDS) + rand.int(100);
  return doc;
}

let h: Harness;
let indexed: Collection<Row>;
let scanned: Collection<Row>;

beforeAll(async () => {
  h = await startHarness();
  const db = h.client.db('ranges');
  indexed = db.collection<Row>('indexed');
  scanned = db.collection<Row>('scanned');
  await indexed.createIndexes([
    { key: { id: 1 }, unique: true },
    { key: { modified: 1 } },
    { key: { tags: 1 } },
    { key: { n: 1 } },
    { key: { name: 1 }, sparse: true },
  ]);
  const rows = Array.from({ length: 3000 }, (_, i) => row(i));
  for (const { modified } of rows) if (modified instanceof Date) held.push(modified);
  await indexed.insertMany(rows);
  await scanned.insertMany(rows);
});

afterAll(async () => {
  await h.dispose();
});

/** Dates the documents hold: a bound equal to one tells $gt from $gte. */
const held: Date[] = [];
const someDate = () => (rand.next() < 0.5 && held.length > 0 ? rand.pick(held) : date());
const filters: (() => Document)[] = [
  () => ({ modified: { $gte: someDate() } }),
  () => ({ modified: { $gt: someDate() } }),
  () => ({ modified: { $lt: someDate() } }),
  () => ({ modified: { $gte: someDate(), $lte: someDate() } }),
  () => ({ modified: { $gt: someDate(), $lt: new Date(START + 400 * DAY) } }),
  () => ({ tags: { $in: [rand.pick(WORDS), rand.pick(WORDS)] } }),
  () => ({ tags: rand.pick(WORDS) }),
  () => ({ tags: { $gte: rand.pick(WORDS) } }),
  () => ({ tags: { $gt: rand.pick(WORDS) } }),
  () => ({ tags: { $lte: rand.pick(WORDS) } }),
  () => ({ tags: { $gt: 'c', $lt: rand.pick(WORDS) } }), // multikey: one bound read, the other tested
  () => ({ n: { $gte: rand.int(100) } }),
  () => ({ n: { $gt: 10, $lte: rand.int(100) } }),
  () => ({ n: { $lt: 50 } }), // NaN is below every number, and not less than 50
  () => ({ name: { $lt: rand.pick(WORDS) } }),
  () => ({ name: { $gte: 'm' }, tags: rand.pick(WORDS) }),
  () => ({ $and: [{ modified: { $gte: someDate() } }, { tags: { $in: [rand.pick(WORDS)] } }] }),
  () => ({ modified: { $gte: someDate() }, n: { $gte: 20 } }),
];

const ids = async (collection: Collection<Row>, filter: Document, skip: number, limit: number) =>
  (await collection.find(filter).sort({ id: 1 }).skip(skip).limit(limit).toArray()).map((doc) => doc._id);

describe('ranges and sorted pages among index candidates', () => {
  it('give what a scan gives, page by page, and count alike', async () => {
    let pages = 0;
    let matched = 0;
    for (let round = 0; round < 12; round++) {
      for (const make of filters) {
        const filter = make();
        const total = await scanned.countDocuments(filter);
        expect(await indexed.countDocuments(filter)).toBe(total);
        // A count with a limit reads no further than it: the same number as counting everything would give.
        const part = { skip: rand.pick([0, 2, total]), limit: rand.pick([1, 7, 5_000]) };
        const partCount = Math.min(Math.max(0, total - part.skip), part.limit);
        expect(await scanned.countDocuments(filter, part)).toBe(partCount);
        expect(await indexed.countDocuments(filter, part)).toBe(partCount);
        const skip = rand.pick([0, 0, rand.int(Math.max(1, total)), Math.max(0, total - 3)]);
        const limit = rand.pick([0, 1, 50]);
        expect(await ids(indexed, filter, skip, limit)).toEqual(await ids(scanned, filter, skip, limit));
        pages++;
        matched += total;
      }
    }
    expect(pages).toBe(12 * filters.length);
    expect(matched).toBeGreaterThan(10_000);
    const all = await scanned.estimatedDocumentCount();
    expect(await scanned.countDocuments({})).toBe(all);
    expect(await scanned.countDocuments({}, { limit: 1 })).toBe(1);
    expect(await scanned.countDocuments({}, { skip: all - 2, limit: 5 })).toBe(2);
  });

  it('give what is stored, asked again around writes: one in the range, one refused, one moved out', async () => {
    const filter = { modified: { $gte: new Date(START + 200 * DAY) } };
    const same = async () => {
      const total = await scanned.countDocuments(filter);
      // A page and its total, as a list asks them: the second walk of one range.
      expect(await indexed.countDocuments(filter)).toBe(total);
      expect(await ids(indexed, filter, 10, 50)).toEqual(await ids(scanned, filter, 10, 50));
      // Every match in order: the id index's walk, kept between writes, must show each write.
      expect(await ids(indexed, filter, 0, 0)).toEqual(await ids(scanned, filter, 0, 0));
      const part = { skip: 5, limit: 20 };
      expect(await indexed.countDocuments(filter, part)).toBe(await scanned.countDocuments(filter, part));
      const groups = (collection: Collection<Row>, match: Document) =>
        collection
          .aggregate([{ $match: match }, { $group: { _id: 'all', n: { $sum: 2 } } }, { $limit: 1 }])
          .toArray();
      expect(await groups(indexed, filter)).toEqual(await groups(scanned, filter));
      const none = { modified: { $gt: new Date(START + 9_000 * DAY) } };
      expect(await groups(indexed, none)).toEqual([]);
      return total;
    };
    const before = await same();
    const inRange = { _id: 9_000, id: 'r-late', modified: new Date(START + 300 * DAY) };
    await indexed.insertOne(inRange);
    await scanned.insertOne(inRange);
    expect(await same()).toBe(before + 1);
    // A write refused as a whole (a duplicate id within one document's unique index): nothing changes.
    const refused = { _id: 9_001, id: 'r-late', modified: new Date(START + 301 * DAY) };
    await expect(indexed.insertOne(refused)).rejects.toMatchObject({ code: 11000 });
    expect(await same()).toBe(before + 1);
    await indexed.updateOne({ _id: 9_000 }, { $set: { modified: new Date(START) } });
    await scanned.updateOne({ _id: 9_000 }, { $set: { modified: new Date(START) } });
    expect(await same()).toBe(before);
  });

  it('walk a range afresh for each statement of one write: a document moved into it by the one before is seen', async () => {
    const within = h.client.db('ranges').collection<{ _id: number; modified: Date; b?: number }>('within');
    await within.createIndex({ modified: 1 });
    const day = (n: number) => new Date(START + n * DAY);
    await within.insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: i, modified: day(i) })));
    const range = { modified: { $gte: day(100) } };
    await within.bulkWrite([
      { updateMany: { filter: range, update: { $set: { a: 1 } } } },
      { updateOne: { filter: { _id: 50 }, update: { $set: { modified: day(150) } } } },
      { updateMany: { filter: range, update: { $set: { b: 1 } } } },
    ]);
    expect((await within.findOne({ _id: 50 }))?.b).toBe(1);
    expect(await within.countDocuments({ b: 1 })).toBe(101);
  });

  it('count only what counts: a $match then $skip or $limit alone gives the documents, a $group needs its _id', async () => {
    const match = { $match: { modified: { $gte: new Date(START + 100 * DAY) } } };
    // Every match, whole (the order of unsorted documents is the server's: compared by _id).
    const byId = (docs: Document[]) => docs.sort((a, b) => String(a._id).localeCompare(String(b._id)));
    for (const rest of [[{ $limit: 100_000 }], [{ $skip: 0 }, { $limit: 100_000 }], [{ $skip: 0 }]]) {
      const found = byId(await indexed.aggregate([match, ...rest]).toArray());
      expect(found.length).toBeGreaterThan(100);
      expect(found).toEqual(byId(await scanned.aggregate([match, ...rest]).toArray()));
    }
    const refusal = (collection: Collection<Row>) =>
      collection
        .aggregate([match, { $group: { n: { $sum: 1 } } }])
        .toArray()
        .then(
          () => ({ refused: false }),
          (error: { code: number }) => ({ code: error.code }),
        );
    expect(await refusal(indexed)).toEqual(await refusal(scanned));
    expect(await refusal(indexed)).not.toEqual({ refused: false });
  });

  it('read a range from its index, and a sorted page of many candidates in the sort index order', async () => {
    const range = await indexed
      .find({ modified: { $gte: new Date(START + 300 * DAY) } })
      .explain('queryPlanner');
    expect(planStages(range)).toContainEqual({ stage: 'IXSCAN', indexName: 'modified_1' });
    const page = await indexed
      .find({ modified: { $gte: new Date(START + 100 * DAY) } })
      .sort({ id: 1 })
      .skip(500)
      .limit(50)
      .explain('queryPlanner');
    const stages = planStages(page);
    expect(stages).toContainEqual({ stage: 'AND_HASH' });
    expect(stages).toContainEqual({ stage: 'IXSCAN', indexName: 'modified_1' });
    expect(stages).toContainEqual({ stage: 'IXSCAN', indexName: 'id_1' });
    expect(stages.map((stage) => stage.stage)).not.toContain('SORT');
  });
});
