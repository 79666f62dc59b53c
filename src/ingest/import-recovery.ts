import { rm } from 'node:fs/promises';
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import { MetaEntries } from '../meta/entries.ts';
import { ImportEntries, STALE_AFTER_MS } from './import-entries.ts';
import { spoolDirectory } from './request-body.ts';

/**
 * Start-up clean-up after a crash: the spooled bodies of imports that will never run are removed (no
 * import of this process has started yet), and imports whose meta entries are Waiting with a stopped
 * heartbeat are completed as interrupted, now and every minute, so entries of a process that died (this
 * one before its restart, or another instance) do not stay Waiting. Resolves once the spooled bodies are
 * gone, so that the server, listening after that, cannot have an upload's new spool file removed; gives a
 * function that stops the sweeps.
 */
export async function recoverInterruptedImports(
  db: Db,
  dataDir: string,
  logger: Logger,
): Promise<() => void> {
  const imports = new ImportEntries(new MetaEntries(db), logger);
  const sweep = async () => {
    try {
      const count = await imports.markInterrupted();
      if (count > 0) logger.warn({ count }, 'interrupted imports marked Complete');
    } catch (error) {
      logger.warn({ err: error }, 'could not look for interrupted imports; will retry');
    }
  };
  await rm(spoolDirectory(dataDir), { recursive: true, force: true }).catch((error: unknown) =>
    logger.warn({ err: error }, 'could not remove spooled import bodies'),
  );
  void sweep();
  const timer = setInterval(() => void sweep(), STALE_AFTER_MS);
  timer.unref();
  return () => clearInterval(timer);
}
