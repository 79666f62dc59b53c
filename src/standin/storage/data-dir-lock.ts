import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isRunning } from '../../process-running.ts';

/** The lock file of a data directory: the pid of the process that has it open. */
const LOCK_FILE = 'standin.lock';

/** A data directory held by another live process: two writers would each replay and append the journal. */
export class DataDirInUse extends Error {
  override name = 'DataDirInUse';
}

/**
 * Takes the data directory for this process, as mongod's `mongod.lock` does: refuses, naming the holder,
 * when another running process (or this one, through another engine) holds it; takes over the lock of a
 * process that is gone (killed, say). Gives the function that releases it.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(holder) && holder > 0 && isRunning(holder)) {
      throw new DataDirInUse(
        `the data directory ${dataDir} is in use by process ${holder}: one database server per directory ` +
          `(if that process is not a stand-in, remove ${file})`,
      );
    }
    // Left by a process that is gone: taken over (a second process racing for it fails on the retry).
    await rm(file, { force: true });
  }
}
