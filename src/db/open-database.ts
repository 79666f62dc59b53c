import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { Database } from './database.ts';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded.ts';

export interface OpenDatabase {
  database: Database;
  /** Closes the client, then the embedded database if this process runs it (started, or taken over). */
  close(): Promise<void>;
}

/** The configured database: MONGODB_URI, or else the embedded one (shared if already running). */
export async function openDatabase(config: Config, logger: Logger): Promise<OpenDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  if (config.mongodbUri === undefined) {
    embedded = await startEmbeddedDatabase({
      mode: config.embedded,
      port: config.embeddedDbPort,
      dataDir: config.dataDir,
      logger,
    });
  } else {
    logger.info('database: MONGODB_URI');
  }
  const database = new Database({
    uri: config.mongodbUri ?? embedded!.uri,
    dbName: config.dbName,
    timeoutMs: config.dbTimeoutMs,
    logger,
  });
  return {
    database,
    async close() {
      await database.close();
      await embedded?.close();
    },
  };
}
