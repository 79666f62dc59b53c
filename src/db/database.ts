import { MongoClient, type Db } from 'mongodb';
import type { Logger } from 'pino';
import { collectionIndexes } from './collections.ts';

export interface DatabaseOptions {
  uri: string;
  dbName: string;
  /** How long an operation waits for a reachable server before failing (and the API answering 503). */
  timeoutMs: number;
  logger: Logger;
}

/**
 * The one owner of the MongoClient, the collections and their indexes. The client connects lazily and
 * reconnects by itself, so the API can start (and keep running) while the database is down.
 */
export class Database {
  readonly client: MongoClient;
  readonly db: Db;
  private readonly logger: Logger;

  constructor(options: DatabaseOptions) {
    this.client = new MongoClient(options.uri, {
      appName: 'hsds-api',
      serverSelectionTimeoutMS: options.timeoutMs,
      // Notice a database that has come back within a couple of seconds rather than the default ten.
      heartbeatFrequencyMS: 2000,
    });
    this.db = this.client.db(options.dbName);
    this.logger = options.logger;
  }

  /** Creates every collection's indexes; MongoDB treats an identical existing index as a no-op. */
  async ensureIndexes(): Promise<void> {
    for (const [name, indexes] of Object.entries(collectionIndexes)) {
      if (indexes.length > 0) await this.db.collection(name).createIndexes(indexes);
    }
    this.logger.debug('indexes ensured');
  }

  /** True when the database answers a ping within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    try {
      await this.db.command({ ping: 1 }, { timeoutMS: timeoutMs });
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
