import { once } from 'node:events';
import { collectDefaultMetrics } from 'prom-client';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/open-database.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { Gazetteer } from './geo/gazetteer.ts';
import { closeGracefully } from './http/graceful-close.ts';
import { ensureAdministrator } from './management/admin-bootstrap.ts';
import { finishInterruptedImports, recoverInterruptedImports } from './ingest/import-recovery.ts';
import { seedSampleData } from './ingest/seed.ts';
import { DERIVATION, staleDerivation, staleDerivationMessage } from './db/derivation-mark.ts';
import { HttpMetrics } from './http/metrics.ts';
import { createHttpServer } from './http/server.ts';
import { createLogger } from './log.ts';
import { failureMessage } from './failure-message.ts';
import { keepMetaEntriesFor } from './meta/retention.ts';
import { retryUntilDone } from './retry.ts';
import { scheduleHarvests } from './harvest/harvest-schedule.ts';

async function main(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const { database, close: closeDatabase } = await openDatabase(config, logger);
  // Indexes (and the sample data) are set up in the background, retried until the database answers: the
  // API serves (503s where it needs the database) meanwhile, so an orchestrator's probes see a live process,
  // and /readyz says ready only once this is done.
  let prepared = false;
  let harvests: ReturnType<typeof scheduleHarvests> | undefined;
  let indexed = false;
  void retryUntilDone(
    async () => {
      await database.ensureIndexes().catch((error: unknown) => {
        // The database answered but refused (e.g. logins already duplicated): the operator fixes that
        // through the API, so writes are let through while the indexes are retried.
        if (!isDatabaseUnavailable(error)) indexed = true;
        throw error;
      });
      indexed = true;
      await finishInterruptedImports(database.db, logger);
      if (config.admin) await ensureAdministrator(database.db, config.admin, logger);
      if (config.seed) await seedSampleData(database.db, logger);
      // The last step that can fail, so said once; after the sample directory, which its import marks.
      const stale = await staleDerivation(database.db);
      if (stale !== undefined)
        logger.warn({ derivation: stale, current: DERIVATION }, staleDerivationMessage(stale));
      prepared = true;
      if (config.harvests.length > 0) {
        harvests = scheduleHarvests(database.db, config.harvests, { logger, config });
      }
    },
    {
      firstDelayMs: 500,
      maxDelayMs: 30_000,
      onFailure: (error, retryInMs) =>
        logger.warn({ err: error, retryInMs }, 'preparing the database failed; retrying'),
    },
  );

  const stopImportRecovery = await recoverInterruptedImports(database.db, config.dataDir, logger);

  const gazetteer = new Gazetteer();
  if (config.postcodesFile) {
    const count = await gazetteer.loadCsv(config.postcodesFile).catch((error: unknown) => {
      // The file is the operator's to fix: one line naming the setting, not a stack.
      throw new ConfigError(`HSDS_POSTCODES_FILE: ${(error as Error).message}`);
    });
    logger.info({ file: config.postcodesFile, count }, 'postcodes loaded');
  }
  const metrics = new HttpMetrics();
  const stopping = new AbortController();
  collectDefaultMetrics({ register: metrics.registry });
  const app = buildApp({
    config,
    database,
    logger,
    metrics,
    gazetteer,
    prepared: () => prepared,
    indexed: () => indexed,
    stopping: stopping.signal,
  });
  const server = createHttpServer(app, logger, { requestTimeoutMs: config.requestTimeoutMs });
  server.listen(config.port, config.host);
  await once(server, 'listening');
  logger.info({ url: `http://${config.host}:${config.port}/` }, 'HSDS API listening');
  const stopMetaRetention = keepMetaEntriesFor(database.db, config.metaRetentionDays, logger);

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    stopImportRecovery();
    stopMetaRetention();
    stopping.abort();
    await closeGracefully(server, config.shutdownTimeoutMs);
    // A harvest under way finishes, within the shutdown time: one cut off goes on at the next start.
    await Promise.race([
      harvests?.stop(),
      new Promise((resolve) => setTimeout(resolve, config.shutdownTimeoutMs).unref()),
    ]);
    // Accepted imports finish, within the same time again; one still running after that is cut off with
    // the database, and its entry is marked interrupted once a server runs again.
    const importsDone = await Promise.race([
      app.backgroundImportsDone().then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), config.shutdownTimeoutMs).unref()),
    ]);
    if (!importsDone) logger.warn('imports still running at shutdown were cut off; send them again');
    await app.metaEntriesWritten();
    await closeDatabase();
    logger.info('stopped');
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      shutdown(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'unclean shutdown');
          process.exit(1);
        },
      );
    });
  }
}

try {
  await main(loadConfig());
} catch (error) {
  console.error(failureMessage(error));
  process.exit(1);
}
