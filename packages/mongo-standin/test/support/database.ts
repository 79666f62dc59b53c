/**
 * The server a test talks to: real MongoDB when `MONGODB_URI` is set, otherwise the stand-in, started in
 * this process on a free port over a fresh data directory. The contract suite must pass on both: that is
 * what holds the stand-in to MongoDB's behaviour.
 *
 *     MONGODB_URI=mongodb://localhost:27017 npm test -w mongo-standin -- test/contract
 *
 * Each test database is named `standin_test_<random>` and dropped on `close()`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { startStandin } from '../../src/index.ts';

export interface TestDatabase {
  /** Connection string of the server (no database name in it). */
  uri: string;
  client: MongoClient;
  /** A fresh database for this test. */
  db: Db;
  close(): Promise<void>;
}

/** True when tests run against an external MongoDB (`MONGODB_URI`) rather than the stand-in. */
export const usingExternalMongo = (): boolean => Boolean(process.env.MONGODB_URI);

/** Unit tests (`*.unit.test.ts`, HSDS_TEST_UNIT) need no database: one that starts one is in the wrong project. */
export function refuseInUnitTests(): void {
  if (process.env.HSDS_TEST_UNIT)
    throw new Error('a unit test (*.unit.test.ts) started a server: name it *.test.ts, or use none');
}

export async function startTestDatabase(): Promise<TestDatabase> {
  refuseInUnitTests();
  const name = `standin_test_${randomBytes(6).toString('hex')}`;
  const external = process.env.MONGODB_URI;
  const dataDir = external ? undefined : await mkdtemp(join(tmpdir(), 'standin-contract-'));
  const server = dataDir ? await startStandin({ port: 0, dataDir }) : undefined;
  const uri = external ?? server!.uri;
  const client = await new MongoClient(uri).connect().catch(async (error: unknown) => {
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const db = client.db(name);
  return {
    uri,
    client,
    db,
    async close() {
      try {
        if (external) await db.dropDatabase();
      } finally {
        await client.close();
        await server?.close();
        if (dataDir) await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
