import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calculateObjectSize } from 'bson';
import type { Collection, Document } from 'mongodb';
import { MongoBulkWriteError, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkWriteWithRemedies,
  MAX_DOCUMENT_BYTES,
  replaceDuplicate,
  replacing,
  type Remedy,
} from '../../src/ingest/bulk-writes.ts';
import { startStandin } from 'mongo-standin';
import { leavingOutUnindexableGeo } from '../../src/ingest/unindexable-geo.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { freePort } from '../support/free-port.ts';

let testDatabase: TestDatabase;
let collection: Collection<Document>;

beforeAll(async () => {
  testDatabase = await startTestDatabase();
  collection = testDatabase.client.db(randomDatabaseName()).collection('documents');
  await collection.createIndex({ id: 1 }, { unique: true });
});
afterAll(async () => {
  await testDatabase?.close();
});

describe('bulk writes with remedies', () => {
  it('replaces a document planned as new that exists by then, keeping its _id, and inserts the others', async () => {
    await collection.insertOne({ id: 'a', version: 1 });
    const { _id: storedId } = (await collection.findOne({ id: 'a' }))!;
    await bulkWriteWithRemedies(
      collection,
      [
        { insertOne: { document: { id: 'a', version: 2 } } },
        { insertOne: { document: { id: 'b', version: 1 } } },
      ],
      replaceDuplicate('id'),
    );
    const stored = await collection
      .find({}, { projection: { _id: 1, id: 1, version: 1 } })
      .sort({ id: 1 })
      .toArray();
    expect(stored.map(({ id, version }) => ({ id, version }))).toEqual([
      { id: 'a', version: 2 },
      { id: 'b', version: 1 },
    ]);
    expect(stored[0]!._id).toEqual(storedId);
  });

  it('throws a failure no remedy knows', async () => {
    // MongoDB refuses an array as _id.
    const arrayId = { _id: [1], id: 'c' } as unknown as Document;
    const write = bulkWriteWithRemedies(collection, [{ insertOne: { document: arrayId } }]);
    await expect(write).rejects.toBeInstanceOf(MongoBulkWriteError);
    const duplicate = bulkWriteWithRemedies(collection, [{ insertOne: { document: { id: 'a' } } }]);
    await expect(duplicate).rejects.toMatchObject({ code: 11000 });
  });

  it('replaces by _id when that is the key', async () => {
    const rows = testDatabase.client.db(collection.dbName).collection<{ _id: string; n: number }>('rows');
    await bulkWriteWithRemedies(rows, [replacing('_id', { _id: 'row', n: 1 })]);
    await bulkWriteWithRemedies(
      rows,
      [{ insertOne: { document: { _id: 'row', n: 2 } } }],
      replaceDuplicate('_id'),
    );
    expect(await rows.find().toArray()).toEqual([{ _id: 'row', n: 2 }]);
  });

  it('stores a document whose geometry the database cannot index without it, with a warning', async () => {
    const places = testDatabase.client.db(collection.dbName).collection('places');
    await places.createIndex({ '_geo.point': '2dsphere' });
    const warnings: string[] = [];
    const unindexable = {
      id: 'far',
      name: 'Far',
      _geo: { point: { type: 'Point', coordinates: [500, 500] } },
    };
    await bulkWriteWithRemedies(
      places,
      [
        { insertOne: { document: unindexable } },
        { insertOne: { document: { id: 'near', _geo: { point: { type: 'Point', coordinates: [1, 2] } } } } },
      ],
      replaceDuplicate('id'),
      leavingOutUnindexableGeo(warnings),
    );
    expect(await places.findOne({ id: 'far' }, { projection: { _id: 0 } })).toEqual({
      id: 'far',
      name: 'Far',
    });
    expect(await places.countDocuments({ id: 'near', '_geo.point': { $exists: true } })).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^far: the database could not index its geometry \(.+\); left out of geo search$/,
    );
  });

  it('sends again the writes of a bulk write the driver refused for one document over the size limit', async () => {
    const oversized = { id: 'big', text: 'x'.repeat(17 * 1024 * 1024) };
    const operations = [
      { insertOne: { document: oversized } },
      { insertOne: { document: { id: 'small-1' } } },
      { insertOne: { document: { id: 'small-2' } } },
    ];
    const failures: { code: number | undefined; errmsg: string | undefined }[] = [];
    await bulkWriteWithRemedies(collection, operations, (operation, failure) => {
      failures.push(failure);
      return { insertOne: { document: { id: 'big', text: 'cut' } } };
    });
    expect(failures).toEqual([
      {
        code: 10334,
        errmsg: expect.stringMatching(/^the document is \d+ bytes, over MongoDB's limit of 16777216$/),
      },
    ]);
    const stored = await collection.find({ id: { $in: ['big', 'small-1', 'small-2'] } }).toArray();
    expect(stored.map(({ id, text }) => ({ id, text })).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'big', text: 'cut' },
      { id: 'small-1', text: undefined },
      { id: 'small-2', text: undefined },
    ]);
    // With no remedy for it, the driver's own error.
    await expect(bulkWriteWithRemedies(collection, [{ insertOne: { document: oversized } }])).rejects.toThrow(
      /larger than the maximum|out of range/,
    );
  });

  it('asks remedies in turn and no further than the first that answers a failure', async () => {
    const asked: string[] = [];
    const remedy =
      (name: string, answers: boolean): Remedy<Document> =>
      () => {
        asked.push(name);
        return answers ? { insertOne: { document: { id: 'turns', text: 'cut' } } } : undefined;
      };
    const oversized = { id: 'turns', text: 'x'.repeat(17 * 1024 * 1024) };
    await bulkWriteWithRemedies(
      collection,
      [{ insertOne: { document: oversized } }],
      remedy('first', false),
      remedy('second', true),
      remedy('third', true),
    );
    expect(asked).toEqual(['first', 'second']);
    expect(await collection.findOne({ id: 'turns' })).toMatchObject({ text: 'cut' });
  });

  it('measures a replace as the driver does: the whole statement, filter included', async () => {
    // A replacement just under the limit whose statement ({q, u, upsert, multi}) is over it.
    const base = calculateObjectSize({ id: 'edge', text: '' });
    const replacement: Document = { id: 'edge', text: 'x'.repeat(MAX_DOCUMENT_BYTES - base - 10) };
    expect(calculateObjectSize(replacement)).toBeLessThan(MAX_DOCUMENT_BYTES);
    const failures: (number | undefined)[] = [];
    await bulkWriteWithRemedies(collection, [replacing('id', replacement)], (_operation, failure) => {
      failures.push(failure.code);
      return { deleteOne: { filter: { id: 'edge' } } };
    });
    expect(failures).toEqual([10334]);
  });

  it('throws when the connection is lost, never taking unsent writes as done', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hsds-bulk-'));
    const standin = await startStandin({ port: await freePort(), dataDir });
    const client = new MongoClient(standin.uri, { serverSelectionTimeoutMS: 300 });
    try {
      const lost = client.db('lost').collection('documents');
      await lost.insertOne({ id: 'first' });
      await standin.close();
      const write = bulkWriteWithRemedies(
        lost,
        [{ insertOne: { document: { id: 'second' } } }],
        replaceDuplicate('id'),
        () => ({ insertOne: { document: { id: 'anything' } } }),
      );
      await expect(write).rejects.toThrow();
    } finally {
      await client.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
