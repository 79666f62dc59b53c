import { MongoClient, type Collection, type CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { readAhead } from '../../src/db/read-ahead.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { openCursors } from '../support/open-cursors.ts';

let testDatabase: TestDatabase;
let client: MongoClient;
let collection: Collection<{ n: number }>;
/** The getMore commands this client sent. */
let getMores = 0;

const COUNT = 250;
const BATCH = 100;

beforeAll(async () => {
  testDatabase = await startTestDatabase();
  client = await new MongoClient(testDatabase.uri, { monitorCommands: true }).connect();
  client.on('commandStarted', (event: CommandStartedEvent) => {
    if (event.commandName === 'getMore') getMores++;
  });
  collection = client.db(randomDatabaseName()).collection('records');
  await collection.insertMany(Array.from({ length: COUNT }, (_, n) => ({ n })));
});
afterAll(async () => {
  await collection?.drop();
  await client?.close();
  await testDatabase?.close();
});
beforeEach(() => {
  getMores = 0;
});

const open = () => collection.find({}, { projection: { _id: 0, n: 1 }, batchSize: BATCH }).sort({ n: 1 });

it('gives every document in order, across batches', async () => {
  const seen: number[] = [];
  for await (const doc of readAhead(open())) seen.push(doc.n);
  expect(seen).toEqual(Array.from({ length: COUNT }, (_, n) => n));
  expect(getMores).toBe(Math.ceil(COUNT / BATCH) - 1);
});

it('asks for the next batch as soon as the first is taken, before the caller has read it', async () => {
  const documents = readAhead(open());
  expect((await documents.next()).value).toEqual({ n: 0 });
  // One document read of the first batch, and the second batch already asked for.
  await expect.poll(() => getMores).toBe(1);
  // Iterated alone, the driver asks only once its buffer is empty.
  const plain = open();
  expect(await plain.next()).toEqual({ n: 0 });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(getMores).toBe(1);
  await plain.close();
  await documents.return(undefined);
});

it('closes the server-side cursor when the caller stops early, with the next batch in flight', async () => {
  const before = await openCursors(testDatabase, 'records');
  const documents = readAhead(open());
  await documents.next();
  expect(await openCursors(testDatabase, 'records')).toBe(before + 1);
  await documents.return(undefined);
  await expect.poll(() => openCursors(testDatabase, 'records')).toBe(before);
});

it("fails the caller's iteration when a later batch cannot be read, and leaves nothing open", async () => {
  const before = await openCursors(testDatabase, 'records');
  const cursor = open();
  const documents = readAhead(cursor);
  await documents.next();
  // Killed from elsewhere (an operator, a failover): every getMore after this one fails.
  await client.db(collection.dbName).command({ killCursors: 'records', cursors: [cursor.id!] });
  const iterate = async () => {
    for (let next = await documents.next(); !next.done; next = await documents.next());
  };
  await expect(iterate()).rejects.toThrow(/cursor/i);
  await expect.poll(() => openCursors(testDatabase, 'records')).toBe(before);
});
