import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import { MetaEntries } from '../meta/entries.ts';
import { importRecords } from './import.ts';
import { hasLeftPending } from './pending.ts';
import { ImportEntries, STALE_AFTER_MS } from './import-entries.ts';
import { isGoneHere, PID_SPACE, pidSpaceName } from '../process-running.ts';
import { spoolDirectory, spoolingProcess } from './request-body.ts';

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
  await removeLeftSpoolFiles(spoolDirectory(dataDir)).catch((error: unknown) =>
    logger.warn({ err: error }, 'could not remove spooled import bodies'),
  );
  void sweep();
  const timer = setInterval(() => void sweep(), STALE_AFTER_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Finishes the document rebuilds that imports killed part-way left pending (any import does that first;
 * at start-up it is done at once, so that the directory is whole again without waiting for one).
 */
export async function finishInterruptedImports(db: Db, logger: Logger): Promise<void> {
  // Only when there is something to finish: the import would wait for the database's import lease, and
  // with it the server's readiness for whatever import another process is running.
  if (!(await hasLeftPending(db))) return;
  const report = await importRecords(db, (async function* () {})());
  const written = Object.values(report.documentsWritten).reduce((sum, count) => sum + count, 0);
  if (written > 0) {
    logger.warn(
      { documentsWritten: report.documentsWritten },
      'finished the rebuilds of interrupted imports',
    );
  }
  if (report.warnings.length > 0)
    logger.warn({ warnings: report.warnings }, 'interrupted imports left warnings');
}

/**
 * Removes the spooled bodies no running process is receiving or importing: in this pid space, those of
 * processes gone, and this process's own from before a restart that reused its pid (it has accepted no
 * upload yet); of other pid spaces (containers sharing the data volume), whose processes cannot be seen
 * from here, those untouched for a day. Another server sharing the data directory keeps its uploads.
 */
async function removeLeftSpoolFiles(directory: string): Promise<void> {
  const files = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const here = pidSpaceName(PID_SPACE);
  for (const file of files) {
    const path = join(directory, file);
    const spooler = spoolingProcess(file);
    const left =
      spooler === undefined ||
      (spooler.spaceName === here
        ? isGoneHere(spooler.pid, PID_SPACE)
        : await untouchedFor(path, OTHER_SPACES_FILES_KEPT_MS));
    if (left) await rm(path, { recursive: true, force: true });
  }
}

/** Whether the file has not changed for `ms`; one gone meanwhile (another host removed it) has not. */
async function untouchedFor(path: string, ms: number): Promise<boolean> {
  const stats = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return stats !== undefined && Date.now() - stats.mtimeMs > ms;
}

/** How long a spooled body of another pid space is kept untouched: longer than any upload and its import. */
const OTHER_SPACES_FILES_KEPT_MS = 24 * 60 * 60 * 1000;
