import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Storage } from '../../src/storage/storage.ts';

/**
 * A storage on a fresh data directory, opened before the file's tests and closed and removed after them;
 * the returned function gives it (unit tests that drive the engine without a server).
 */
export function fileStorage(prefix: string): () => Storage {
  let dataDir: string;
  let storage: Storage;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), prefix));
    storage = await Storage.open(dataDir);
  });
  afterAll(async () => {
    await storage.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return () => storage;
}
