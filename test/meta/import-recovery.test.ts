import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverInterruptedImports } from '../../src/ingest/import-recovery.ts';
import { PID_SPACE, pidSpaceName } from '../../src/process-running.ts';
import { HEARTBEAT_MS, ImportEntries, INTERRUPTED, STALE_AFTER_MS } from '../../src/ingest/import-entries.ts';
import { ImportLeaseLost } from '../../src/ingest/import-lease.ts';
import { createLogger } from '../../src/log.ts';
import { MetaEntries } from '../../src/meta/entries.ts';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';

let testDatabase: TestDatabase;
let entries: MetaEntries;
let imports: ImportEntries;
beforeAll(async () => {
  testDatabase = await startTestDatabase();
  entries = new MetaEntries(testDatabase.db);
  imports = new ImportEntries(entries, createLogger('silent'));
});
afterAll(async () => testDatabase?.close());

const call = { recorded_at: new Date().toISOString(), path: '/import', verb: 'POST' };

describe('imports left Waiting', () => {
  it('completes, as interrupted, only imports whose heartbeat stopped', async () => {
    const running = await imports.open(call);
    const dead = await imports.open(call);
    const clientsOwn = await entries.create({ ...call, status: 'Waiting' });
    // Seen from a minute past the threshold, `dead` has missed its beats; `running` is one beat old.
    const later = new Date(Date.now() + STALE_AFTER_MS + HEARTBEAT_MS);
    await entries.update(running.id, { _heartbeat_at: new Date(later.getTime() - HEARTBEAT_MS) });
    expect(await imports.markInterrupted(later)).toBe(1);
    expect(await entries.find(dead.id)).toMatchObject({
      status: 'Complete',
      response_body: JSON.stringify(INTERRUPTED),
    });
    expect(await entries.find(running.id)).toMatchObject({ status: 'Waiting' });
    expect(await entries.find(clientsOwn.id)).toMatchObject({ status: 'Waiting' });
  });

  it('completes a failed import with a failure report, never leaving it Waiting', async () => {
    const entry = await imports.open(call);
    await imports.complete(entry.id, async () => {
      throw new Error('boom');
    });
    const done = await entries.find(entry.id);
    expect(done?.status).toBe('Complete');
    expect(JSON.parse(done!.response_body!)).toEqual({
      failed: true,
      error: expect.stringContaining('failed unexpectedly'),
    });
    expect(done!.response_body).not.toContain('boom');
  });

  it('completes an import that lost its lease with what happened and what to do', async () => {
    const entry = await imports.open(call);
    const lost = new ImportLeaseLost(60_000);
    await imports.complete(entry.id, async () => {
      throw lost;
    });
    const done = await entries.find(entry.id);
    expect(JSON.parse(done!.response_body!)).toEqual({ failed: true, error: lost.message });
    expect(lost.message).toMatch(/run this import again/);
  });
});

describe('spooled import bodies at start-up', () => {
  it('are removed unless a running process is receiving them (another server on the data directory)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hsds-spool-'));
    const spool = join(dataDir, 'import-spool');
    await mkdir(spool);
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      const here = pidSpaceName(PID_SPACE);
      const names = [
        `${gone.pid}@${here}@a.ndjson`,
        `${alive.pid}@${here}@b.ndjson`,
        `${process.pid}@${here}@c.ndjson`,
        'd.ndjson',
        // Another container on the data volume (another pid space), as pid 1 like this one may be: kept
        // while recent.
        `1@other-container@g.ndjson`,
        `${process.pid}@other-container@h.ndjson`,
        `1@long-gone-container@i.ndjson`,
      ];
      for (const name of names) await writeFile(join(spool, name), '{}\n');
      const dayAndMore = new Date(Date.now() - 25 * 60 * 60 * 1000);
      await utimes(join(spool, '1@long-gone-container@i.ndjson'), dayAndMore, dayAndMore);
      const stop = await recoverInterruptedImports(testDatabase.db, dataDir, createLogger('silent'));
      stop();
      // This process's own are from before a restart that reused its pid: it has accepted no upload yet.
      expect((await readdir(spool)).sort()).toEqual(
        [
          `${alive.pid}@${here}@b.ndjson`,
          '1@other-container@g.ndjson',
          `${process.pid}@other-container@h.ndjson`,
        ].sort(),
      );
    } finally {
      alive.kill();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
