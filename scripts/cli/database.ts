import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { createLogger } from '../../src/log.ts';

/**
 * Runs a command's work on the configured database (MONGODB_URI, or else the embedded one), its indexes
 * made, and closes it whatever happens. Logs only warnings unless LOG_LEVEL asks for more detail: a
 * command's own output is what its user reads. The work gets that logger, and the configuration.
 */
export async function withDatabase<T>(
  work: (db: Db, logger: Logger, config: Config) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const { database, close } = await openDatabase(config, logger);
  try {
    await database.ensureIndexes();
    return await work(database.db, logger, config);
  } finally {
    await close();
  }
}
