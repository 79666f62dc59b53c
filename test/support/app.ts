import { once } from 'node:events';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { Database } from '../../src/db/database.ts';
import { createHttpServer } from '../../src/http/server.ts';
import { createLogger } from '../../src/log.ts';
import type { Db } from 'mongodb';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from './database.ts';

export interface TestApp {
  /** Base URL of the listening app, e.g. http://127.0.0.1:54321 */
  url: string;
  database: Database;
  testDatabase: TestDatabase;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  server: Server;
  close(): Promise<void>;
}

/**
 * The real app over real HTTP, on a fresh test database (or `sharing` another app's, which its close
 * leaves open), with its log lines captured. `indexed` stands in for `main.ts`'s making of the indexes
 * (done, unless given), `stopping` for its shutdown signal.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  {
    indexed,
    sharing,
    stopping,
  }: { indexed?: () => boolean; sharing?: TestDatabase; stopping?: AbortSignal } = {},
): Promise<TestApp> {
  const testDatabase = sharing ?? (await startTestDatabase());
  const config = loadConfig({ LOG_LEVEL: 'info', ...env });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger('info', sink);
  const database = new Database({
    uri: testDatabase.uri,
    dbName: testDatabase.db.databaseName,
    // Room for a loaded machine: at 1.5 s a test's import on a busy CI runner timed out in the driver's pool.
    timeoutMs: 10_000,
    logger,
  });
  await database.ensureIndexes();
  const server = createHttpServer(buildApp({ config, database, logger, indexed, stopping }), logger, {
    requestTimeoutMs: config.requestTimeoutMs,
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    database,
    testDatabase,
    logs,
    server,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await database.close();
      if (!sharing) await testDatabase.close();
    },
  };
}

/**
 * Apps each on a database of its own, all on one database server (a feed, a directory, is a database's):
 * `start` in a beforeAll, `close` in an afterAll, `fresh` in each test.
 */
export function appsOnOneServer() {
  let shared: TestDatabase | undefined;
  const apps: TestApp[] = [];
  return {
    async start() {
      shared = await startTestDatabase();
    },
    async close() {
      for (const app of apps) await app.close();
      await shared?.close();
    },
    async fresh(stopping?: AbortSignal): Promise<{ app: TestApp; db: Db }> {
      const db = shared!.client.db(randomDatabaseName());
      const app = await startTestApp({}, { sharing: { ...shared!, db }, stopping });
      apps.push(app);
      return { app, db };
    },
  };
}
