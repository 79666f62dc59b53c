import { randomUUID } from 'node:crypto';
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SerialQueue } from '../serial-queue.ts';

/** The lock file of a data directory: the pid of the process that has it open. */
const LOCK_FILE = 'standin.lock';

/** A data directory held by another live process: two writers would each replay and append the journal. */
export class DataDirInUse extends Error {
  override name = 'DataDirInUse';
  /** Tells callers that hold no reference to this class (the app loads the package only on demand). */
  readonly code = 'ERR_DATA_DIR_IN_USE';
}

/** Whether a process with this pid runs on this machine, as any user (EPERM: it runs, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The directories this process holds: a lock naming this pid and not listed is from an earlier process. */
const heldHere = new Set<string>();

const holderOf = async (file: string): Promise<number | undefined> => {
  const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
};

/** Whether the lock's holder still has the directory open: a live process, this one only if it took it. */
const holds = (pid: number | undefined, dataDir: string) =>
  pid !== undefined && (pid === process.pid ? heldHere.has(dataDir) : isRunning(pid));

/**
 * Takes the data directory for this process, as mongod's `mongod.lock` does: refuses, naming the holder,
 * while another running process (or this one, through another engine) holds it; takes over the lock of
 * a process that is gone (killed, or an earlier run that had this pid, as in a container). The lock file
 * appears whole (written aside, then linked into place), so a racer never reads it empty. Gives the
 * function that releases it.
 */
export function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  // One spelling of a directory (`x`, `./x`, its absolute path), and one attempt at a time in this
  // process: a racer here could otherwise judge the lock another just linked stale, in the moment before
  // that one records it in `heldHere`.
  return lockAttempts.run(() => takeLock(resolve(dataDir)));
}

/** The lock attempts of this process (all at start-up), one after the other. */
const lockAttempts = new SerialQueue();

async function takeLock(dataDir: string): Promise<() => Promise<void>> {
  const file = join(dataDir, LOCK_FILE);
  const mine = `${file}.${process.pid}.${randomUUID()}`;
  await writeFile(mine, `${process.pid}\n`);
  try {
    for (;;) {
      try {
        await link(mine, file);
        heldHere.add(dataDir);
        return async () => {
          heldHere.delete(dataDir);
          if ((await holderOf(file)) === process.pid) await rm(file, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await holderOf(file);
      if (holds(holder, dataDir)) {
        throw new DataDirInUse(
          `the data directory ${dataDir} is in use by process ${holder}: one database server per ` +
            `directory (if that process is not a stand-in, remove ${file})`,
        );
      }
      // A stale lock: moved aside, then checked to be the one judged stale, as a racer may have replaced it.
      const aside = `${file}.stale.${randomUUID()}`;
      await rename(file, aside).catch(() => {});
      const moved = await holderOf(aside);
      if (moved !== undefined && moved !== holder && holds(moved, dataDir)) await rename(aside, file);
      await rm(aside, { force: true });
    }
  } finally {
    await rm(mine, { force: true });
  }
}
