import { MongoClient, type Db } from 'mongodb';
import type { Logger } from 'pino';
import { retryUntilDone } from '../retry.ts';
import { collectionIndexes } from './collections.ts';

export interface DatabaseOptions {
  uri: string;
  dbName: string;
  /** How long an operation waits for a reachable server before failing (and the API answering 503). */
  timeoutMs: number;
  logger: Logger;
}

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

  constructor(options: DatabaseOptions) {
    this.client = new MongoClient(options.uri, {
      appName: 'hsds-api',
      serverSelectionTimeoutMS: options.timeoutMs,
      // Notice a database that has come back within a couple of seconds rather than the default ten.
      heartbeatFrequencyMS: 2000,
    });
    this.db = this.client.db(options.dbName);
    this.logger = options.logger;
    void retryUntilDone(() => this.client.connect(), {
      firstDelayMs: 250,
      maxDelayMs: MAX_CONNECT_DELAY_MS,
      stopped: () => this.closed,
      onFailure: (error, retryInMs) =>
        this.logger.debug({ err: error, retryInMs }, 'database not reached yet; retrying'),
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
   * True when the database answers a ping within `timeoutMs`. Timed here: this driver ignores `timeoutMS`,
   * and a database that is down would otherwise keep the answer waiting for the whole server selection
   * timeout (HSDS_DB_TIMEOUT_MS, up to two minutes). A late ping ends by itself.
   */
  async ping(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([
        this.db.command({ ping: 1 }).then(
          () => true,
          () => false,
        ),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client.close();
  }
}
