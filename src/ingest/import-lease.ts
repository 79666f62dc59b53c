import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import { isDuplicateKey } from '../db/duplicate-key.ts';
import { isGoneHere, PID_SPACE } from '../process-running.ts';

/** Where the lease is kept: one document, whose holder runs the database's one import. */
export const IMPORT_LEASE_COLLECTION = 'import.lease';
const LEASE_ID = 'import';

/** How long a lease lasts unrenewed: a holder that died frees the database after this. */
export const LEASE_MS = 60_000;
/** How often a holder renews its lease, well within LEASE_MS. */
const RENEW_MS = 15_000;
/** How often a process waiting for the lease tries again. */
const RETRY_MS = 250;

interface Lease {
  _id: string;
  holder: string;
  expiresAt: Date;
  /** The holding process and its pid space, so that one in the same space can tell at once it is gone. */
  pid: number;
  pidSpace: string;
}

/**
 * One import at a time per database, whatever process runs it (servers sharing a MongoDB, the CLI beside
 * a server): each composes documents from the rows it wrote, so two at once could leave documents built
 * from rows another had already replaced, which no later import of the same data would rebuild. The
 * lease is a document with an expiry the holder renews; a holder that dies frees it once it expires.
 * Resolves, once the lease is held, with the function that gives it back.
 */
export async function acquireImportLease(db: Db): Promise<() => Promise<void>> {
  const leases = db.collection<Lease>(IMPORT_LEASE_COLLECTION);
  const holder = randomUUID();
  const lease = (): Lease => ({
    _id: LEASE_ID,
    holder,
    expiresAt: new Date(Date.now() + LEASE_MS),
    pid: process.pid,
    pidSpace: PID_SPACE,
  });
  for (;;) {
    try {
      await leases.insertOne(lease());
      break;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const current = await leases.findOne({ _id: LEASE_ID });
    if (current && isStale(current)) {
      // Taken over only as it was read: of two processes taking over, one wins.
      const taken = await leases.findOneAndReplace({ _id: LEASE_ID, holder: current.holder }, lease());
      if (taken) break;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  const renewal = setInterval(() => {
    void leases
      .updateOne({ _id: LEASE_ID, holder }, { $set: { expiresAt: lease().expiresAt } })
      .catch(() => {});
  }, RENEW_MS).unref();
  return async () => {
    clearInterval(renewal);
    await leases.deleteOne({ _id: LEASE_ID, holder });
  };
}

/**
 * A lease whose holder cannot be importing: expired (it died or hung elsewhere), or held by a process of
 * this pid space that is gone; this process waits for its own imports before taking the lease, so a lease
 * naming its pid is from an earlier run.
 */
const isStale = (lease: Lease): boolean =>
  lease.expiresAt.getTime() < Date.now() || isGoneHere(lease.pid, lease.pidSpace);
