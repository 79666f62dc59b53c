/**
 * An import that may no longer hold the database's import lease (another process took it over, or it went
 * unrenewed so long that one could have) must stop before writing anything more: two imports at once leave
 * documents built from rows the other replaced. What it wrote stays pending, and running it again gives the
 * directory an uninterrupted import gives.
 */
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_COLLECTION } from '../../src/db/collections.ts';
import { rowCollection } from '../../src/db/collections.ts';
import { importRecords, type ImportOptions } from '../../src/ingest/import.ts';
import {
  acquireImportLease,
  IMPORT_LEASE_COLLECTION,
  ImportLeaseLost,
} from '../../src/ingest/import-lease.ts';
import type { InputRecord } from '../../src/ingest/input-record.ts';
import { indexedDatabases } from '../support/database.ts';
import { storedDirectory } from '../support/import.ts';
import { waitFor } from '../support/process.ts';

const databases = indexedDatabases();
let uninterrupted: Awaited<ReturnType<typeof storedDirectory>>;
beforeAll(async () => {
  await databases.start();
  const db = await databases.fresh();
  expect(await importRecords(db, records(), OPTIONS)).toMatchObject({ inserted: 3, rejected: 0 });
  uninterrupted = await storedDirectory(db);
});
afterAll(() => databases.close());

const ORG = '5e1a0000-0000-4000-8000-000000000000';
const SERVICES = [1, 2, 3].map((n) => ({
  id: `5e1a0000-0000-4000-8000-00000000000${n}`,
  name: `Pantry ${n}`,
  status: 'active',
  organization: { id: ORG, name: 'Harbor Food Bank', description: 'Groceries for families.' },
}));
/** A batch per service: the import writes them one after another. */
const OPTIONS: ImportOptions = { batchSize: 1, now: () => '2030-01-01T00:00:00.000Z' };

/** The services as an import source; `beforeService(n)` runs once the batches of the n before are written. */
async function* records(beforeService: (n: number) => Promise<void> | void = () => {}) {
  for (const [index, value] of SERVICES.entries()) {
    if (index > 0) await beforeService(index);
    yield { source: { file: 'services.ndjson', line: index + 1 }, value } satisfies InputRecord;
  }
}

/** The ids of a collection's documents or rows (whose `id` is their `_id`). */
const ids = async (db: Db, collection: string) =>
  (await db.collection(collection).find().toArray())
    .map((document) => (document.id ?? document._id) as string)
    .sort();
const pendingCount = (db: Db) => db.collection(PENDING_COLLECTION).countDocuments();

describe('an import whose lease is lost', () => {
  it('stops at its next batch once another holder has taken the lease over', async () => {
    const db = await databases.fresh();
    const leases = db.collection<Record<string, unknown>>(IMPORT_LEASE_COLLECTION);
    let firstWritten = () => {};
    const firstBatchWritten = new Promise<void>((resolve) => (firstWritten = resolve));
    let tookOver = () => {};
    const takenOver = new Promise<void>((resolve) => (tookOver = resolve));
    const running = importRecords(
      db,
      records(async () => {
        firstWritten();
        await takenOver;
      }),
      OPTIONS,
    );

    await firstBatchWritten;
    // Its documents rebuilt too, so that what is stored before the take-over is known.
    await waitFor(async () => (await pendingCount(db)) === 0, 5_000, 'the first batch to be rebuilt');
    // As a process taking the lease over once it seemed expired would.
    const another = {
      holder: 'another',
      pid: 1,
      pidSpace: 'another-pid-space',
      expiresAt: new Date(Date.now() + 60_000),
    };
    await leases.replaceOne({ _id: 'import' as never }, another);
    tookOver();

    await expect(running).rejects.toThrow(ImportLeaseLost);
    await expect(running).rejects.toThrow(
      /another import may have taken the database over.* run this import again/,
    );
    // The second batch wrote nothing, not even its pending record.
    expect(await ids(db, 'services')).toEqual([SERVICES[0]!.id]);
    expect(await ids(db, rowCollection('service'))).toEqual([SERVICES[0]!.id]);
    expect(await pendingCount(db)).toBe(0);
    // Not given back: it is the other holder's.
    expect(await leases.findOne({})).toMatchObject(another);

    await leases.deleteOne({ holder: 'another' });
    await importRecords(db, records(), OPTIONS);
    expect(await storedDirectory(db)).toEqual(uninterrupted);
  });

  it('stops once it went unrenewed so long that another could have taken it, though none did', async () => {
    const db = await databases.fresh();
    // Renewed often: the slow source's wait is far from a quarter of the lease without a renewal, and only
    // a machine stalling this process for 3 s (never seen) could make the slow source look stalled too.
    const leaseTimings = { leaseMs: 4_000, renewMs: 100 };
    const running = importRecords(
      db,
      records(async (n) => {
        // A slow source is fine: the lease is renewed meanwhile.
        if (n === 1) await new Promise((resolve) => setTimeout(resolve, leaseTimings.leaseMs + 500));
        // A stalled process is not: nothing renews the lease meanwhile, and the renewal the rebuild of the
        // batch just written has sent is answered only after the stall, too late to count.
        if (n === 2) for (const until = Date.now() + leaseTimings.leaseMs; Date.now() < until;);
      }),
      { ...OPTIONS, leaseTimings },
    );

    await expect(running).rejects.toThrow(ImportLeaseLost);
    // The second batch's rows are written, its documents are not rebuilt: its changes stay pending.
    expect(await ids(db, 'services')).toEqual([SERVICES[0]!.id]);
    expect(await ids(db, rowCollection('service'))).toEqual([SERVICES[0]!.id, SERVICES[1]!.id]);
    expect(await pendingCount(db)).toBe(1);

    await importRecords(db, records(), OPTIONS);
    expect(await storedDirectory(db)).toEqual(uninterrupted);
    expect(await pendingCount(db)).toBe(0);
  });

  it('counts a renewal answered after the expiry it wrote as too late, whatever it says', async () => {
    const db = await databases.fresh();
    // No periodic renewal during the test: only the one confirming.
    const leaseTimings = { leaseMs: 400, renewMs: 60_000 };
    const lease = await acquireImportLease(db, leaseTimings);
    const confirmed = lease.confirm();
    // Sent, then the process stalls past the expiry it extends the lease to, which another could take.
    for (const until = Date.now() + leaseTimings.leaseMs; Date.now() < until;);
    await expect(confirmed).rejects.toThrow(ImportLeaseLost);
    await lease.release();
  });
});
