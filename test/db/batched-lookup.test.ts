import { MongoClient, type Collection, type CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchedLookup } from '../../src/db/batched-lookup.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';

let testDatabase: TestDatabase;
let client: MongoClient;
let collection: Collection;
/** The filters of the find commands sent, in order. */
let finds: unknown[] = [];

const COUNT = 600;
const idOf = (n: number) => `record-${n}`;

beforeAll(async () => {
  testDatabase = await startTestDatabase();
  client = await new MongoClient(testDatabase.uri, { monitorCommands: true }).connect();
  client.on('commandStarted', (event: CommandStartedEvent) => {
    if (event.commandName === 'find') finds.push(event.command.filter);
  });
  collection = client.db(randomDatabaseName()).collection('records');
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
});

const projection = { _id: 0, id: 1, n: 1 };

describe('batched lookups by id', () => {
  it('answers lookups made together with one query, each with its own document or null', async () => {
    const lookup = new BatchedLookup(collection, projection);
    const asked = [idOf(3), idOf(1), 'missing', idOf(3), idOf(7)];
    const found = await Promise.all(asked.map((id) => lookup.find(id)));
    expect(found).toEqual([
      { id: idOf(3), n: 3 },
      { id: idOf(1), n: 1 },
      null,
      { id: idOf(3), n: 3 },
      { id: idOf(7), n: 7 },
    ]);
    expect(finds).toEqual([{ id: { $in: [idOf(3), idOf(1), 'missing', idOf(7)] } }]);
  });

  it('reads a lookup alone by plain equality, and lookups made after an answer in a query of their own', async () => {
    const lookup = new BatchedLookup(collection, projection);
    expect(await lookup.find(idOf(5))).toEqual({ id: idOf(5), n: 5 });
    expect(await lookup.find(idOf(6))).toEqual({ id: idOf(6), n: 6 });
    expect(finds).toEqual([{ id: idOf(5) }, { id: idOf(6) }]);
  });

  it('splits many lookups over several bounded queries', async () => {
    const lookup = new BatchedLookup(collection, projection);
    const found = await Promise.all(Array.from({ length: COUNT }, (_, n) => lookup.find(idOf(n))));
    expect(found.map((document) => document?.n)).toEqual(Array.from({ length: COUNT }, (_, n) => n));
    expect(finds).toHaveLength(3);
  });

  it('fails every lookup of a query that fails', async () => {
    const lookup = new BatchedLookup(collection, { _id: 0, id: 1, n: 1, secret: 0 });
    const failed = await Promise.allSettled([lookup.find(idOf(1)), lookup.find(idOf(2))]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
