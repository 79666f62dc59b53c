/**
 * A database for the app's tests: real MongoDB when `MONGODB_URI` is set, otherwise the offline
 * MongoDB stand-in (the `mongo-standin` package) started in-process on a free port with a fresh data dir.
 *
 * Against real MongoDB each `startTestDatabase()` uses a fresh database named `hsds_test_<random>` and
 * drops it on `close()`: `MONGODB_URI=mongodb://localhost:27017 npm test`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { Database } from '../../src/db/database.ts';
import { createLogger } from '../../src/log.ts';

export interface TestDatabase {
  /** Connection string of the server (no database name in it). */
  uri: string;
  client: MongoClient;
  /** A fresh database for this test run. */
  db: Db;
  kind: 'mongodb' | 'standin';
  close(): Promise<void>;
}

/** Runs `use` with a client of the embedded database on this loopback port, closed after. */
export async function withEmbeddedClient<T>(
  dbPort: number,
  use: (client: MongoClient) => Promise<T>,
): Promise<T> {
  const client = await new MongoClient(`mongodb://127.0.0.1:${dbPort}/?directConnection=true`).connect();
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** True when tests run against an external MongoDB (`MONGODB_URI`) rather than the stand-in. */
export const usingExternalMongo = (): boolean => Boolean(process.env.MONGODB_URI);

export const randomDatabaseName = (): string => `hsds_test_${randomBytes(6).toString('hex')}`;

/** Unit tests (`*.unit.test.ts`, HSDS_TEST_UNIT) need no database: one that starts one is in the wrong project. */
function refuseInUnitTests(): void {
  if (process.env.HSDS_TEST_UNIT)
    throw new Error('a unit test (*.unit.test.ts) started a database: name it *.test.ts, or use none');
}

export async function startTestDatabase(): Promise<TestDatabase> {
  refuseInUnitTests();
  const external = process.env.MONGODB_URI;
  if (external) {
    const client = await new MongoClient(external).connect();
    const db = client.db(randomDatabaseName());
    return {
      uri: external,
      client,
      db,
      kind: 'mongodb',
      async close() {
        try {
          await db.dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  }

  // Imported lazily so that a run against real MongoDB never loads the stand-in.
  const { startStandin } = await import('mongo-standin');
  const dataDir = await mkdtemp(join(tmpdir(), 'hsds-standin-'));
  let standin: Awaited<ReturnType<typeof startStandin>> | undefined;
  let client: MongoClient | undefined;
  try {
    standin = await startStandin({ port: 0, dataDir });
    client = await new MongoClient(standin.uri).connect();
  } catch (error) {
    await client?.close();
    await standin?.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const started = standin;
  const connected = client;
  return {
    uri: started.uri,
    client: connected,
    db: connected.db(randomDatabaseName()),
    kind: 'standin',
    async close() {
      try {
        await connected.close();
      } finally {
        try {
          await started.close();
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      }
    },
  };
}

/**
 * A fresh database on the test server, owned by the app's `Database` with the production indexes created
 * (their geo indexes refuse what MongoDB would). The caller closes it.
 */
export async function openIndexedDatabase(testDatabase: TestDatabase): Promise<Database> {
  const database = new Database({
    uri: testDatabase.uri,
    dbName: randomDatabaseName(),
    timeoutMs: 5000,
    logger: createLogger('silent'),
  });
  await database.ensureIndexes();
  return database;
}

/**
 * A test server and fresh indexed databases on it, for files that want a new database per case: `start`
 * in beforeAll, `fresh()` for each database, `close` in afterAll (every database, then the server).
 */
export function indexedDatabases() {
  let server: TestDatabase | undefined;
  const opened: Database[] = [];
  return {
    async start(): Promise<void> {
      server = await startTestDatabase();
    },
    async fresh(): Promise<Db> {
      if (!server) throw new Error('indexedDatabases: start() first');
      const database = await openIndexedDatabase(server);
      opened.push(database);
      return database.db;
    },
    async close(): Promise<void> {
      for (const database of opened.splice(0)) await database.close();
      await server?.close();
    },
  };
}
