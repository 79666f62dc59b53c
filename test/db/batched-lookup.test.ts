import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { Int32, MongoClient, ReadConcern, type Collection, type CommandStartedEvent, type Db } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchedLookup } from '../../src/db/batched-lookup.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { openCursors } from '../support/open-cursors.ts';

let testDatabase: TestDatabase;
let client: MongoClient;
let db: Db;
let collection: Collection;
/** The filters of the find commands sent, in order. */
let finds: unknown[] = [];
/** The find commands sent, whole. */
let findCommands: Record<string, unknown>[] = [];

const COUNT = 600;
const idOf = (n: number) => `record-${n}`;

beforeAll(async () => {
  testDatabase = await startTestDatabase();
  client = await new MongoClient(testDatabase.uri, { monitorCommands: true }).connect();
  client.on('commandStarted', (event: CommandStartedEvent) => {
    if (event.commandName !== 'find') return;
    finds.push(event.command.filter);
    findCommands.push(event.command);
  });
  db = client.db(randomDatabaseName());
  collection = db.collection('records');
  await collection.createIndex({ id: 1 }, { unique: true });
  await collection.insertMany(Array.from({ length: COUNT }, (_, n) => ({ id: idOf(n), n, secret: 'x' })));
});
afterAll(async () => {
  await collection?.drop();
  await client?.close();
  await testDatabase?.close();
});
beforeEach(() => {
  finds = [];
  findCommands = [];
});

const projection = { _id: 0, id: 1, n: 1 };

describe('batched lookups by id', () => {
  it('answers lookups made together with one query, each with its own document or null', async () => {
    const lookup = new BatchedLookup(db, 'records', projection);
    const asked = [idOf(3), idOf(1), 'missing', idOf(3), idOf(7)];
    const found = await Promise.all(asked.map((id) => lookup.find(id)));
    expect(found).toEqual([
      { id: idOf(3), n: 3 },
      { id: idOf(1), n: 1 },
      null,
      { id: idOf(3), n: 3 },
      { id: idOf(7), n: 7 },
    ]);
    // Read as the first batch of a find, the server closing the cursor; the id not in it is read again
    // through a cursor (it could have been left out of a batch that reached 16 MiB).
    expect(finds).toEqual([{ id: { $in: [idOf(3), idOf(1), 'missing', idOf(7)] } }, { id: 'missing' }]);
    expect(findCommands[0]).toMatchObject({ batchSize: 4, singleBatch: true });
  });

  it('reads again the documents left out of a first batch that reached 16 MiB, leaving no cursor open', async () => {
    // In the test database, where openCursors looks on a shared MongoDB.
    const testDb = client.db(testDatabase.db.databaseName);
    const large = testDb.collection('large');
    await large.createIndex({ id: 1 }, { unique: true });
    // Three documents of 6 MB: two fit in a reply of at most 16 MiB, the third does not.
    const padding = 'x'.repeat(6_000_000);
    await large.insertMany(['a', 'b', 'c'].map((id) => ({ id, padding })));
    try {
      const lookup = new BatchedLookup(testDb, 'large', { _id: 0, id: 1, padding: 1 });
      const found = await Promise.all(['a', 'b', 'c'].map((id) => lookup.find(id)));
      expect(found.map((document) => [document?.id, document?.padding.length])).toEqual([
        ['a', 6_000_000],
        ['b', 6_000_000],
        ['c', 6_000_000],
      ]);
      expect(finds).toEqual([{ id: { $in: ['a', 'b', 'c'] } }, { id: 'c' }]);
      expect(await openCursors(testDatabase, 'large')).toBe(0);
    } finally {
      await large.drop();
    }
  });

  it('reads with the collection’s read concern', async () => {
    const majority = client.db(db.databaseName, { readConcern: new ReadConcern('majority') });
    const lookup = new BatchedLookup(majority, 'records', projection);
    expect(await lookup.find(idOf(8))).toEqual({ id: idOf(8), n: 8 });
    expect(findCommands[0]).toMatchObject({ readConcern: { level: 'majority' } });
  });

  it('reads a lookup alone by plain equality, and lookups made after an answer in a query of their own', async () => {
    const lookup = new BatchedLookup(db, 'records', projection);
    expect(await lookup.find(idOf(5))).toEqual({ id: idOf(5), n: 5 });
    expect(await lookup.find(idOf(6))).toEqual({ id: idOf(6), n: 6 });
    expect(finds).toEqual([{ id: idOf(5) }, { id: idOf(6) }]);
  });

  it('splits many lookups over several bounded queries', async () => {
    const lookup = new BatchedLookup(db, 'records', projection);
    const found = await Promise.all(Array.from({ length: COUNT }, (_, n) => lookup.find(idOf(n))));
    expect(found.map((document) => document?.n)).toEqual(Array.from({ length: COUNT }, (_, n) => n));
    expect(finds).toHaveLength(3);
  });

  it('fails every lookup of a query that fails', async () => {
    const lookup = new BatchedLookup(db, 'records', { _id: 0, id: 1, n: 1, secret: 0 });
    const failed = await Promise.allSettled([lookup.find(idOf(1)), lookup.find(idOf(2))]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    // A bad query is not one the driver would retry: sent once.
    expect(finds).toHaveLength(1);
  });

  it('asks once when none of the ids exists (an empty first batch was not cut short)', async () => {
    const lookup = new BatchedLookup(db, 'records', projection);
    expect(await Promise.all(['none-1', 'none-2'].map((id) => lookup.find(id)))).toEqual([null, null]);
    expect(finds).toEqual([{ id: { $in: ['none-1', 'none-2'] } }]);
  });

  describe('over a connection cut while the first find is sent', () => {
    /** A proxy to the test database that drops the connection carrying the first `find` command. */
    async function cuttingProxy(): Promise<Server> {
      const { hostname, port } = new URL(testDatabase.uri);
      let cut = false;
      const proxy = createServer((socket) => {
        const upstream = connect(Number(port), hostname);
        upstream.on('error', () => socket.destroy());
        socket.on('error', () => upstream.destroy());
        upstream.pipe(socket);
        socket.on('data', (chunk: Buffer) => {
          // An OP_MSG whose command document starts with the string field `find`.
          if (!cut && chunk.includes('\x02find\x00')) {
            cut = true;
            socket.destroy();
            upstream.destroy();
          } else upstream.write(chunk);
        });
      });
      proxy.listen(0, '127.0.0.1');
      await once(proxy, 'listening');
      return proxy;
    }

    async function lookUpThrough(retryReads: boolean) {
      const proxy = await cuttingProxy();
      const sent: unknown[] = [];
      const viaProxy = new MongoClient(`mongodb://127.0.0.1:${(proxy.address() as AddressInfo).port}/`, {
        directConnection: true,
        monitorCommands: true,
        retryReads,
      });
      viaProxy.on('commandStarted', (event: CommandStartedEvent) => {
        if (event.commandName === 'find') sent.push(event.command.filter);
      });
      try {
        const lookup = new BatchedLookup(viaProxy.db(db.databaseName), 'records', projection);
        const answer = await lookup.find(idOf(5)).then(
          (document) => ({ document }),
          (error: unknown) => ({ error }),
        );
        return { answer, sent };
      } finally {
        await viaProxy.close();
        proxy.close();
      }
    }

    it('is tried once more, as the driver retries a read after a network error', async (context) => {
      if (testDatabase.kind !== 'standin') context.skip(); // one host to proxy: the stand-in's
      const { answer, sent } = await lookUpThrough(true);
      expect(answer).toEqual({ document: { id: idOf(5), n: 5 } });
      expect(sent).toEqual([{ id: idOf(5) }, { id: idOf(5) }]);
    });

    it('fails without a second try when the client says retryReads=false', async (context) => {
      if (testDatabase.kind !== 'standin') context.skip();
      const { answer, sent } = await lookUpThrough(false);
      expect(answer).toEqual({ error: expect.objectContaining({ name: 'MongoNetworkError' }) });
      expect(sent).toHaveLength(1);
    });
  });

  it('decodes with the BSON options of the collection, as a cursor would', async () => {
    const unpromoted = client.db(db.databaseName, { promoteValues: false });
    const lookup = new BatchedLookup(unpromoted, 'records', projection);
    const found = await lookup.find(idOf(9));
    expect(found?.n).toBeInstanceOf(Int32);
    expect(found).toEqual(await unpromoted.collection('records').findOne({ id: idOf(9) }, { projection }));
  });
});
