/**
 * `npm run db`: runs the embedded database alone (mongod when a binary can be had, else the stand-in) on
 * 127.0.0.1:HSDS_EMBEDDED_DB_PORT, for the import CLI, mongosh or a server started separately. The
 * stand-in runs in a process of its own here too, as under a server: one way of running it, which starts
 * it again if it stops, and this process only watches over it. If a server already runs the database, this
 * one shares it and runs it itself once that server stops.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { startEmbeddedDatabase } from '../src/db/embedded.ts';
import { failureMessage } from '../src/failure-message.ts';
import { createLogger } from '../src/log.ts';

const USAGE = 'usage: npm run db (settings from the environment: docs/configuration.md)';

try {
  const { values } = parseArgs({ options: { help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) {
    console.error(USAGE);
    process.exit(0);
  }
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}

try {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const embedded = await startEmbeddedDatabase({
    mode: config.embedded,
    port: config.embeddedDbPort,
    dataDir: config.dataDir,
    logger,
  });
  logger.info({ uri: embedded.uri, kind: embedded.kind }, 'embedded database ready');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void embedded.close().then(() => process.exit(0)));
  }
} catch (error) {
  console.error(failureMessage(error));
  process.exit(1);
}
