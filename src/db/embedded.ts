import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import type { Logger } from 'pino';
import { startStandin } from '../standin/server.ts';

export type EmbeddedKind = 'mongod' | 'standin';

export interface EmbeddedDatabaseOptions {
  mode: 'auto' | EmbeddedKind;
  port: number;
  dataDir: string;
  logger: Logger;
}

export interface EmbeddedDatabase {
  /** Which server answers; `shared` when another process of ours already runs it on the port. */
  kind: EmbeddedKind | 'shared';
  uri: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

const uriFor = (port: number) => `mongodb://${HOST}:${port}/?directConnection=true`;

/**
 * Starts the database used when no MONGODB_URI is given: a real mongod from mongodb-memory-server when a
 * binary can be had, else the offline stand-in. It listens on a fixed loopback port so the import CLI and
 * mongosh can share it; if something of ours already answers there, we use it instead of starting another.
 */
export async function startEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const { logger, port } = options;
  if (await answersOn(port)) {
    logger.info({ uri: uriFor(port) }, 'embedded database already running; sharing it');
    return { kind: 'shared', uri: uriFor(port), close: async () => {} };
  }
  if (options.mode !== 'standin') {
    try {
      return await startMongod(options);
    } catch (error) {
      if (options.mode === 'mongod') throw error;
      logger.warn(
        { reason: (error as Error).message.replace(/\s*\n\s*/g, ' ') },
        'no mongod binary available; using the stand-in',
      );
    }
  }
  const dbPath = path.join(options.dataDir, 'standin');
  const server = await startStandin({
    host: HOST,
    port,
    dataDir: dbPath,
    logger: logger.child({ component: 'standin' }),
  });
  logger.info({ uri: server.uri, dbPath }, 'embedded database: MongoDB stand-in');
  return { kind: 'standin', uri: server.uri, close: () => server.close() };
}

async function startMongod(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  // Loaded only when wanted: the package reads its configuration when first imported.
  process.env.MONGOMS_MAX_RETRIES ??= '1';
  const { MongoBinary, MongoMemoryServer } = await import('mongodb-memory-server');
  // The binary first (found, or downloaded): when there is none, the server's own start-up would print
  // its whole failure before ours says that the stand-in is used instead.
  await MongoBinary.getPath();
  const dbPath = path.join(options.dataDir, 'mongod');
  await mkdir(dbPath, { recursive: true });
  const server = await MongoMemoryServer.create({
    instance: { ip: HOST, port: options.port, dbPath, storageEngine: 'wiredTiger' },
  });
  options.logger.info(
    { uri: uriFor(options.port), dbPath },
    'embedded database: mongod (mongodb-memory-server)',
  );
  return {
    kind: 'mongod',
    uri: uriFor(options.port),
    // Keep the data: dbPath is ours, not a temporary directory.
    close: async () => void (await server.stop({ doCleanup: false })),
  };
}

async function answersOn(port: number): Promise<boolean> {
  const client = new MongoClient(uriFor(port), { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 });
  try {
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close();
  }
}
