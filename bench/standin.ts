import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Database } from '../src/db/database.ts';
import { forkChild } from './child-process.ts';
import type { MemoryPeaks } from './memory-peaks.ts';

/** The database every bench works in; a kept data directory is found again under this name. */
const BENCH_DB_NAME = 'bench';

export interface StandinProcess {
  uri: string;
  /** The directory it stores its data in (one LMDB file, `data.mdb`, and its lock file). */
  dataDir: string;
  /** The stand-in process's CPU time so far. */
  cpuUsage(): Promise<NodeJS.CpuUsage>;
  /** Closes the stand-in, removes its data unless kept, and gives the stand-in process's memory peaks. */
  stop(): Promise<MemoryPeaks>;
}

/**
 * Starts a stand-in in a process of its own (bench/standin-process.ts), over `keptDataDir` if given
 * (created if missing, and left in place), otherwise over a fresh temporary directory removed on stopping.
 */
export async function startStandinProcess(keptDataDir?: string): Promise<StandinProcess> {
  const dataDir = keptDataDir ?? (await mkdtemp(join(tmpdir(), 'bench-standin-')));
  const removeTemporary = () => (keptDataDir ? undefined : rm(dataDir, { recursive: true, force: true }));
  try {
    if (keptDataDir) await mkdir(keptDataDir, { recursive: true });
    const child = await forkChild(new URL('./standin-process.ts', import.meta.url), [dataDir]);
    return {
      uri: child.address,
      dataDir,
      cpuUsage: () => child.cpuUsage(),
      async stop() {
        try {
          return await child.stop();
        } finally {
          await removeTemporary();
        }
      },
    };
  } catch (error) {
    await removeTemporary();
    throw error;
  }
}

/** A client of the bench database, logging nothing; generous timeouts, as the stand-in may be busy. */
export const benchDatabase = (uri: string) =>
  new Database({ uri, dbName: BENCH_DB_NAME, timeoutMs: 30_000, logger: pino({ level: 'silent' }) });
