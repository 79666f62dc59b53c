/*
 * `npm run import` rides out a database out of reach: the process running the embedded database killed
 * mid-import (the CLI takes it over and goes on), and gives up, exit 2, on a database gone for good.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startStandin } from 'mongo-standin';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { freePort } from '../support/free-port.ts';
import { startScript, waitFor, type RunningProcess } from '../support/process.ts';
import { servedHashes } from '../support/import.ts';

const SERVICES = 500;

let dir: string;
let file: string;
let reference: TestDatabase;
const running: RunningProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hsds-cli-takeover-'));
  file = path.join(dir, 'services.ndjson');
  const generator = startScript('scripts/generate-services.ts', {}, [
    ...['--count', String(SERVICES), '--seed', '7', '--out', file],
  ]);
  expect(await generator.exited).toBe(0);
  reference = await startTestDatabase();
});
afterEach(async () => {
  for (const process of running.splice(0)) {
    process.child.kill('SIGKILL');
    await process.exited;
  }
});
afterAll(async () => {
  await reference?.close();
  await rm(dir, { recursive: true, force: true });
});

const run = (script: string, env: Record<string, string>, args: string[] = []) => {
  const process = startScript(script, env, args);
  running.push(process);
  return process;
};

const importing = (env: Record<string, string>) =>
  run('scripts/import.ts', { LOG_LEVEL: 'warn', ...env }, ['--batch-size', '100', file]);

/** Waits until the import has written its first documents, and gives how many services there are then. */
async function midImport(uri: string, dbName: string, cli: RunningProcess): Promise<number> {
  const client = await new MongoClient(uri).connect();
  try {
    const services = client.db(dbName).collection('services');
    await waitFor(
      async () => (await services.countDocuments()) > 0,
      60_000,
      `the first documents\n${cli.output()}`,
    );
    return await services.countDocuments();
  } finally {
    await client.close();
  }
}

/** The directory a clean import of the same file makes. */
async function cleanImport(): Promise<Record<string, Record<string, string>>> {
  const db = reference.client.db(randomDatabaseName());
  const cli = importing({ MONGODB_URI: reference.uri, HSDS_DB_NAME: db.databaseName });
  expect(await cli.exited, cli.output()).toBe(0);
  return servedHashes(db);
}

describe.skipIf(Boolean(process.env.MONGODB_URI))('npm run import while the database goes away', () => {
  it('takes over the embedded database when the process running it is killed, and loads every record', async () => {
    const dbPort = String(await freePort());
    const embedded = {
      MONGODB_URI: '',
      HSDS_EMBEDDED: 'standin',
      HSDS_EMBEDDED_DB_PORT: dbPort,
      HSDS_DB_NAME: 'takeover',
    };
    const ownerData = path.join(dir, 'owner');
    const owner = run('scripts/db.ts', { ...embedded, HSDS_DATA_DIR: ownerData });
    const uri = `mongodb://127.0.0.1:${dbPort}/?directConnection=true`;
    await waitFor(
      async () => {
        await (await new MongoClient(uri, { serverSelectionTimeoutMS: 500 }).connect()).close();
        return true;
      },
      30_000,
      `npm run db\n${owner.output()}`,
    );
    // A data directory of its own: the owner's is the one it takes over.
    const cli = importing({ ...embedded, HSDS_DATA_DIR: path.join(dir, 'cli') });
    const loadedBefore = await midImport(uri, 'takeover', cli);
    owner.child.kill('SIGKILL');
    await owner.exited;

    expect(await cli.exited, cli.output()).toBe(0);
    expect(loadedBefore).toBeLessThan(SERVICES);
    // Whether a command was under way when the database died, and so retried (logged as "out of reach;
    // retrying"), depends on timing: the takeover is what must happen either way.
    expect(cli.output()).toMatch(/running it here now/);
    expect(cli.output()).toContain(`${SERVICES} inserted, 0 updated, 0 unchanged, 0 rejected`);

    // The CLI stopped the database with itself: its data is read here.
    const standin = await startStandin({ port: 0, dataDir: path.join(ownerData, 'standin') });
    const client = await new MongoClient(standin.uri).connect();
    try {
      expect(await servedHashes(client.db('takeover'))).toEqual(await cleanImport());
    } finally {
      await client.close();
      await standin.close();
    }
  }, 240_000);

  it('gives up, exit 2, when the database stays out of reach for HSDS_IMPORT_OUTAGE_MS', async () => {
    const port = await freePort();
    const dataDir = path.join(dir, 'gone');
    const standin = await startStandin({ port, dataDir });
    const cli = importing({
      MONGODB_URI: standin.uri,
      HSDS_DB_NAME: 'gone',
      HSDS_DB_TIMEOUT_MS: '1000',
      HSDS_IMPORT_OUTAGE_MS: '4000',
    });
    await midImport(standin.uri, 'gone', cli);
    await standin.close();
    const stoppedAt = Date.now();

    expect(await cli.exited, cli.output()).toBe(2);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(4_000);
    expect(cli.output()).toMatch(/"msg":"the database is out of reach; retrying"/);
    expect(cli.output().trim().split('\n').at(-1)).toMatch(/^the database cannot be reached: /);
  }, 120_000);
});
