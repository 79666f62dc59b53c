import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_LEASE_TIMINGS,
  IMPORT_LEASE_COLLECTION,
  acquireImportLease,
} from '../../src/ingest/import-lease.ts';
import { PID_SPACE } from '../../src/process-running.ts';
import { finishInterruptedImports } from '../../src/ingest/import-recovery.ts';
import { createLogger } from '../../src/log.ts';
import { importLines } from '../support/import.ts';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';

let database: TestDatabase;
let alive: ChildProcess;
beforeAll(async () => {
  database = await startTestDatabase();
  alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)']);
});
afterAll(async () => {
  alive?.kill();
  await database?.close();
});
afterEach(async () => {
  await database.db.collection(IMPORT_LEASE_COLLECTION).deleteMany({});
});

const leases = () => database.db.collection<Record<string, unknown>>(IMPORT_LEASE_COLLECTION);
/** The lease as another process left it. */
const heldBy = (pid: number, pidSpace: string, expiresInMs: number) =>
  leases().insertOne({
    _id: 'import' as never,
    holder: 'another',
    pid,
    pidSpace,
    expiresAt: new Date(Date.now() + expiresInMs),
  });
const settlesWithin = async (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

const SERVICE = { id: '7a2b0000-0000-4000-8000-000000000001', name: 'Leased Pantry', status: 'active' };

describe('the import lease: one import at a time per database, across processes', () => {
  it('makes an import wait while another live process holds it, and run once it is given back', async () => {
    await heldBy(alive.pid!, PID_SPACE, DEFAULT_LEASE_TIMINGS.leaseMs);
    const running = importLines(database.db, [SERVICE]);
    expect(await settlesWithin(running, 1_000)).toBe(false);
    expect(await database.db.collection('services').countDocuments()).toBe(0);
    await leases().deleteOne({ holder: 'another' });
    expect(await running).toMatchObject({ inserted: 1 });
    // Given back when done.
    expect(await leases().countDocuments()).toBe(0);
  });

  it('waits for a holder in another pid space (another host or container) until its lease expires', async () => {
    await heldBy(1, 'another-pid-space', 1_500);
    const started = Date.now();
    const lease = await acquireImportLease(database.db);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    await lease.release();
  });

  it('takes at once a lease whose holder in this pid space is gone, or was this pid in an earlier run', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    for (const pid of [gone.pid!, process.pid]) {
      await heldBy(pid, PID_SPACE, DEFAULT_LEASE_TIMINGS.leaseMs);
      const lease = await acquireImportLease(database.db);
      expect(await leases().findOne({})).toMatchObject({ pid: process.pid, pidSpace: PID_SPACE });
      await lease.release();
    }
  });

  it("is not waited for by start-up's finishing of interrupted imports when none left anything", async () => {
    await heldBy(alive.pid!, PID_SPACE, DEFAULT_LEASE_TIMINGS.leaseMs);
    const finishing = finishInterruptedImports(database.db, createLogger('silent'));
    expect(await settlesWithin(finishing, 1_000)).toBe(true);
  });

  it('is not needed by a dry run', async () => {
    await heldBy(alive.pid!, PID_SPACE, DEFAULT_LEASE_TIMINGS.leaseMs);
    const another = { ...SERVICE, id: '7a2b0000-0000-4000-8000-000000000002' };
    expect(await importLines(database.db, [another], { dryRun: true })).toMatchObject({ inserted: 1 });
  });
});
