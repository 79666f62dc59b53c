import { MongoClient, MongoServerError, type Db } from 'mongodb';
import type { Logger } from 'pino';
import { retryUntilDone } from '../retry.ts';
import { collectionIndexes } from './collections.ts';
import { noteConnectAttempt } from './unavailable.ts';

export interface DatabaseOptions {
  uri: string;
  dbName: string;
  /**
   * The bound on one operation: past it, an operation fails (and the API answers 503) rather than wait on
   * a database that is unreachable, hung or too slow (see the constructor).
   */
  timeoutMs: number;
  logger: Logger;
}

/** Free space on the database's file system below which, after a refusal, it is still not writable. */
const WRITABLE_FREE_BYTES = 16 * 1024 * 1024;

/** What readiness finds: the database answers (and takes writes), refuses writes, or does not answer. */
export type DatabaseState = 'up' | 'not writable' | 'down';

/** The one-document collection readiness writes to, to learn whether a full disk has been freed. */
export const READINESS_COLLECTION = 'health.readiness';

/** Longest wait between two attempts at a first connection. */
const MAX_CONNECT_DELAY_MS = 5_000;

/**
 * The one owner of the MongoClient, the collections and their indexes. The API can start (and keep
 * running) while the database is down: once connected, the driver reconnects by itself; before that,
 * connecting is retried here, since a client whose first connection failed stays closed for good
 * (every later operation fails with MongoTopologyClosedError).
 */
export class Database {
  readonly client: MongoClient;
  readonly db: Db;
  private readonly logger: Logger;
  private closed = false;
  /** Whether a write was refused for lack of disk space, until readiness's write succeeds again. */
  private outOfSpace = false;

  constructor(options: DatabaseOptions) {
    // Every wait of an operation is bounded here, once for every call site. This driver has no deadline
    // per operation (its `timeoutMS`, CSOT, is a documented no-op: `resolveOptions` drops it and
    // `TimeoutContext.create` never makes a CSOT context), so each of its waits gets its own bound: finding
    // the server, checking a connection out of the pool, connecting, and each reply (a cursor's every
    // batch is one: a stream read for minutes is not cut while the database answers). Each gets half of
    // `timeoutMs` because the driver retries a read or a write once after a network error, the retry's
    // waits bounded the same way: a hung database fails the operation within `timeoutMs`, not twice that.
    const waitMs = Math.ceil(options.timeoutMs / 2);
    this.client = new MongoClient(options.uri, {
      appName: 'hsds-api',
      serverSelectionTimeoutMS: waitMs,
      waitQueueTimeoutMS: waitMs,
      connectTimeoutMS: waitMs,
      socketTimeoutMS: waitMs,
      // Notice a database that has come back within a couple of seconds rather than the default ten.
      heartbeatFrequencyMS: 2000,
    });
    this.db = this.client.db(options.dbName);
    this.logger = options.logger;
    let warned = false;
    const connect = async () => {
      try {
        await this.client.connect();
        noteConnectAttempt(undefined);
      } catch (error) {
        noteConnectAttempt(error as Error);
        throw error;
      }
    };
    void retryUntilDone(connect, {
      firstDelayMs: 250,
      maxDelayMs: MAX_CONNECT_DELAY_MS,
      stopped: () => this.closed,
      // Why, once at warn (a wrong host, a refused port: what an operator fixes), then at debug.
      onFailure: (error, retryInMs) => {
        const level = warned ? 'debug' : 'warn';
        this.logger[level](
          { reason: (error as Error).message, retryInMs },
          'database not reached yet; retrying',
        );
        warned = true;
      },
    });
  }

  /** Creates every collection's indexes; MongoDB treats an identical existing index as a no-op. */
  async ensureIndexes(): Promise<void> {
    for (const [name, indexes] of Object.entries(collectionIndexes)) {
      if (indexes.length > 0) await this.db.collection(name).createIndexes(indexes);
    }
    this.logger.debug('indexes ensured');
  }

  /**
   * Told of a write the database refused for lack of disk space (by the error handler): until a write
   * succeeds again, readiness says the database is not writable.
   */
  refusedForSpace(error: Error): void {
    if (!this.outOfSpace) {
      this.logger.error(
        { reason: error.message },
        'the database is out of disk space: writes are refused (503) until space is freed',
      );
    }
    this.outOfSpace = true;
  }

  /**
   * The database's state for readiness, each check within `timeoutMs` (a bound of its own, shorter than an
   * operation's: a probe must answer quickly whatever HSDS_DB_TIMEOUT_MS). A ping, or, after a write was
   * refused for lack of space, one small write: a ping would succeed on a full disk, and only a write that
   * succeeds tells that space was freed. Aborted through the driver's `signal`: a late check ends at once.
   */
  async state(timeoutMs: number): Promise<DatabaseState> {
    if (this.outOfSpace) return this.probeWritable(timeoutMs);
    try {
      await this.db.command({ ping: 1 }, { signal: AbortSignal.timeout(timeoutMs) });
      return 'up';
    } catch {
      return 'down';
    }
  }

  /**
   * Whether writes are taken again: the database's file system has room (dbStats `fsTotalSize` less
   * `fsUsedSize`, where the server gives them: a small write may still fit in space the database already
   * holds while a real one does not), and the one readiness document can be written (the time changes it,
   * so that MongoDB writes it each time). A refusal is an answer: not writable; no answer is down.
   */
  private async probeWritable(timeoutMs: number): Promise<DatabaseState> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const stats = await this.db.command({ dbStats: 1 }, { signal });
      const free = Number(stats.fsTotalSize) - Number(stats.fsUsedSize);
      if (free < WRITABLE_FREE_BYTES) return 'not writable';
      // The command form, for its `signal`; its reply carries write errors instead of throwing them.
      const reply = await this.db.command(
        {
          update: READINESS_COLLECTION,
          updates: [{ q: { _id: 'probe' }, u: { $set: { at: new Date() } }, upsert: true }],
        },
        { signal },
      );
      if (reply.writeErrors !== undefined || reply.writeConcernError !== undefined) return 'not writable';
    } catch (error) {
      return error instanceof MongoServerError ? 'not writable' : 'down';
    }
    if (this.outOfSpace) {
      this.outOfSpace = false;
      this.logger.info('the database takes writes again: disk space was freed');
    }
    return 'up';
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client.close();
  }
}
