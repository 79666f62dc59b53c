import { mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import type { Logger } from 'pino';
import { ConfigError } from '../config.ts';

export type EmbeddedKind = 'mongod' | 'standin';

export interface EmbeddedDatabaseOptions {
  mode: 'auto' | EmbeddedKind;
  port: number;
  dataDir: string;
  logger: Logger;
  /** The database's own directory, when not the kind's under `dataDir` (taken over: the owner's). */
  dbPath?: string;
}

export interface EmbeddedDatabase {
  /**
   * Which server answers; `shared` when another process of ours already ran it on the port when we
   * started (we start it ourselves if that process goes away).
   */
  kind: EmbeddedKind | 'shared';
  uri: string;
  close(): Promise<void>;
}

/** How often a process sharing the embedded database checks that it still answers. */
const SHARED_CHECK_INTERVAL_MS = 2_000;
/** Longest wait between attempts at taking over a database that cannot be started here. */
const MAX_TAKEOVER_DELAY_MS = 60_000;

const HOST = '127.0.0.1';

const uriFor = (port: number) => `mongodb://${HOST}:${port}/?directConnection=true`;

/**
 * Starts the database used when no MONGODB_URI is given: a real mongod from mongodb-memory-server when a
 * binary can be had, else the offline stand-in. It listens on a fixed loopback port so the import CLI and
 * mongosh can share it; if something of ours already answers there, we use it instead of starting another.
 */
export async function startEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const { logger, port } = options;
  const running = await runningOn(port);
  if (running) {
    logger.info(
      { uri: uriFor(port), dbPath: running.dbPath },
      'embedded database already running; sharing it',
    );
    // Taken over as what it is, on its data: the owner's directory, whatever ours is.
    return shareEmbeddedDatabase({ ...options, mode: running.kind, dbPath: running.dbPath });
  }
  return await startOwnDatabase(options);
}

/**
 * The embedded database another process runs, taken over when it stops answering (that process exited:
 * e.g. the import CLI that started it while this server joined): we start it ourselves on the same port
 * and data directory, and the driver reconnects. Of several processes sharing it, one wins the data
 * directory's lock and the port; the others keep sharing, now with the winner.
 */
function shareEmbeddedDatabase(options: EmbeddedDatabaseOptions): EmbeddedDatabase {
  const { logger, port } = options;
  let own: EmbeddedDatabase | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const checkIn = (delayMs: number) => {
    if (!closed) timer = setTimeout(() => void check(delayMs), delayMs).unref();
  };
  const check = async (delayMs: number) => {
    // A connection is all it takes to see the owner is still there: no client, no commands.
    if (await listensOn(port)) return checkIn(SHARED_CHECK_INTERVAL_MS);
    try {
      own = await startOwnDatabase(options);
    } catch (error) {
      // Another sharer took it over, or it cannot be started here (no mongod): try again less often.
      const retryInMs = Math.min(delayMs * 2, MAX_TAKEOVER_DELAY_MS);
      logger.info(
        { reason: (error as Error).message, retryInMs },
        'the shared embedded database went away; not taken over',
      );
      return checkIn(retryInMs);
    }
    // Closed while starting it: it is ours to stop.
    if (closed) await own.close();
    else logger.warn({ uri: own.uri }, 'the shared embedded database went away; running it here now');
  };
  checkIn(SHARED_CHECK_INTERVAL_MS);
  return {
    kind: 'shared',
    uri: uriFor(port),
    async close() {
      closed = true;
      clearTimeout(timer);
      await own?.close();
    },
  };
}

/** Whether something accepts connections on the loopback port. */
function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port, timeout: 500 });
    const answer = (listening: boolean) => {
      socket.destroy();
      resolve(listening);
    };
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });
}

/** The embedded database, started here: mongod when a binary can be had (or is required), else the stand-in. */
async function startOwnDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const { logger, port } = options;
  if (options.mode !== 'standin') {
    try {
      return await startMongod(options);
    } catch (error) {
      if (options.mode === 'mongod') throw error;
      // Without mongodb-memory-server there is no mongod to miss: the stand-in answers, or says it is not here.
      if (!(error instanceof NoEmbeddedDatabase))
        logger.warn(
          { reason: (error as Error).message.replace(/\s*\n\s*/g, ' ') },
          'no mongod binary available; using the stand-in',
        );
    }
  }
  const dbPath = options.dbPath ?? path.join(options.dataDir, 'standin');
  const { startStandin } = await importEmbedded('mongo-standin', () => import('mongo-standin'));
  const server = await startStandin({
    host: HOST,
    port,
    dataDir: dbPath,
    logger: logger.child({ component: 'standin' }),
  });
  logger.info({ uri: server.uri, dbPath }, 'embedded database: MongoDB stand-in');
  return { kind: 'standin', uri: server.uri, close: () => server.close() };
}

/**
 * An install without development dependencies (the production image) has neither embedded database: the
 * stand-in nor mongodb-memory-server. Without them, MONGODB_URI is required.
 */
class NoEmbeddedDatabase extends ConfigError {
  constructor() {
    super(
      'MONGODB_URI is not set, and this installation has no embedded database (it was installed without development dependencies): set MONGODB_URI',
    );
  }
}

/**
 * An embedded database's package, loaded only when that database starts (a server given MONGODB_URI never
 * loads either); NoEmbeddedDatabase when it is not installed.
 */
async function importEmbedded<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes(`'${name}'`)) throw new NoEmbeddedDatabase();
    throw error;
  }
}

async function startMongod(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  // Loaded only when wanted: the package reads its configuration when first imported.
  process.env.MONGOMS_MAX_RETRIES ??= '1';
  const { MongoBinary, MongoMemoryServer } = await importEmbedded(
    'mongodb-memory-server',
    () => import('mongodb-memory-server'),
  );
  // The binary first (found, or downloaded): when there is none, the server's own start-up would print
  // its whole failure before ours says that the stand-in is used instead.
  await MongoBinary.getPath();
  const dbPath = options.dbPath ?? path.join(options.dataDir, 'mongod');
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

/**
 * Which kind of database answers on the port, if one does (the stand-in says so in buildInfo), and where
 * its data is, if it says (getCmdLineOpts).
 */
async function runningOn(port: number): Promise<{ kind: EmbeddedKind; dbPath?: string } | undefined> {
  const client = new MongoClient(uriFor(port), { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 });
  try {
    const admin = client.db('admin');
    const info = await admin.command({ buildInfo: 1 });
    const options = await admin.command({ getCmdLineOpts: 1 }).catch(() => undefined);
    const dbPath: unknown = options?.parsed?.storage?.dbPath;
    return {
      kind: info.standin === true ? 'standin' : 'mongod',
      ...(typeof dbPath === 'string' ? { dbPath } : {}),
    };
  } catch {
    return undefined;
  } finally {
    await client.close();
  }
}
