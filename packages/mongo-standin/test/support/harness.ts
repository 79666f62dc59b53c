import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startStandin, type StandinServer } from '../../src/index.ts';
import { refuseInUnitTests } from './database.ts';

export interface Harness {
  server: StandinServer;
  client: MongoClient;
  dataDir: string;
  /** Stops client and server, keeping the data directory. */
  stop(): Promise<void>;
  /** Stops and deletes the data directory. */
  dispose(): Promise<void>;
}

export async function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'standin-test-'));
}

export async function startHarness(dataDir?: string): Promise<Harness> {
  refuseInUnitTests();
  const dir = dataDir ?? (await makeDataDir());
  const server = await startStandin({ port: 0, dataDir: dir });
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 2000 });
  await client.connect();
  const stop = async () => {
    await client.close();
    await server.close();
  };
  return {
    server,
    client,
    dataDir: dir,
    stop,
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
