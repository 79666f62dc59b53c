import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '../db/duplicate-key.ts';
import { isGoneHere, PID_SPACE } from '../process-running.ts';

/** Where the lease is kept: one document, whose holder runs the database's one import. */
export const IMPORT_LEASE_COLLECTION = 'import.lease';
const LEASE_ID = 'import';

export interface LeaseTimings {
  /** How long a lease lasts unrenewed: a holder that died frees the database after this. */
  leaseMs: number;
  /** How often a holder renews its lease, well within `leaseMs`. */
  renewMs: number;
}

export const DEFAULT_LEASE_TIMINGS: LeaseTimings = { leaseMs: 60_000, renewMs: 15_000 };
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

/** What an import that may no longer hold the lease throws before writing anything more. */
export class ImportLeaseLost extends Error {
  constructor(leaseMs: number) {
    super(
      `The import stopped: its lease on the database, which lasts ${leaseMs / 1000} s unless renewed, was not ` +
        'renewed in time (the import stalled or the database was out of reach), so another import may have ' +
        'taken the database over. What this import wrote is kept, and the next import finishes it: run this ' +
        'import again.',
    );
    this.name = 'ImportLeaseLost';
  }
}

/** The lease of a running import. */
export interface ImportLease {
  /**
   * Renews the lease before the import writes: throws ImportLeaseLost if this holder may no longer hold it,
   * and then for good.
   */
  confirm(): Promise<void>;
  /** Gives the lease back, unless another holder has it now. */
  release(): Promise<void>;
}

/**
 * One import at a time per database, whatever process runs it (servers sharing a MongoDB, the CLI beside
 * a server): each composes documents from the rows it wrote, so two at once could leave documents built
 * from rows another had already replaced, which no later import of the same data would rebuild. The
 * lease is a document with an expiry the holder renews; a holder that dies frees it once it expires.
 * Resolves once the lease is held.
 */
export async function acquireImportLease(
  db: Db,
  timings: LeaseTimings = DEFAULT_LEASE_TIMINGS,
): Promise<ImportLease> {
  const leases = db.collection<Lease>(IMPORT_LEASE_COLLECTION);
  const holder = randomUUID();
  const lease = (expiresAt: number): Lease => ({
    _id: LEASE_ID,
    holder,
    expiresAt: new Date(expiresAt),
    pid: process.pid,
    pidSpace: PID_SPACE,
  });
  for (;;) {
    const expiresAt = Date.now() + timings.leaseMs;
    try {
      await leases.insertOne(lease(expiresAt));
      return new HeldLease(leases, holder, expiresAt, timings);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const current = await leases.findOne({ _id: LEASE_ID });
    if (current && isStale(current)) {
      const takenUntil = Date.now() + timings.leaseMs;
      // Taken over only as it was read, not renewed since: of two processes taking over, one wins, and a
      // holder whose renewal got through keeps it.
      const taken = await leases.findOneAndReplace(
        { _id: LEASE_ID, holder: current.holder, expiresAt: current.expiresAt },
        lease(takenUntil),
      );
      if (taken) return new HeldLease(leases, holder, takenUntil, timings);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/**
 * Runs `work` holding the import lease (waiting for it), and gives the lease back after. One not given back
 * (the database went away) expires by itself.
 */
export async function withImportLease<T>(
  db: Db,
  work: (lease: ImportLease) => Promise<T>,
  timings: LeaseTimings = DEFAULT_LEASE_TIMINGS,
): Promise<T> {
  const lease = await acquireImportLease(db, timings);
  try {
    return await work(lease);
  } finally {
    await lease.release().catch(() => {});
  }
}

/**
 * A lease this process took. It is lost once a renewal finds another holder (or none), and also once the
 * expiry it last wrote draws near, whatever renewals say later: until then no other process can take it
 * over, after that one may have, unseen (renewals kept failing, or this process stalled).
 */
class HeldLease implements ImportLease {
  private lost = false;
  private readonly renewal: NodeJS.Timeout;

  constructor(
    private readonly leases: Collection<Lease>,
    private readonly holder: string,
    /** The expiry this holder last wrote, in ms since the epoch. */
    private expiresAt: number,
    private readonly timings: LeaseTimings,
  ) {
    // Renewed between confirmations too, for stretches without writes (a slow upload).
    this.renewal = setInterval(() => {
      // One that fails matters only if they all do until the lease nears its expiry, which stillHeld sees.
      if (this.stillHeld()) this.renew().catch(() => {});
      else clearInterval(this.renewal);
    }, timings.renewMs).unref();
  }

  async confirm(): Promise<void> {
    if (this.stillHeld()) await this.renew();
    // Checked again after the renewal: an answer that came late extends the lease only from when it was sent.
    if (!this.stillHeld()) throw new ImportLeaseLost(this.timings.leaseMs);
  }

  async release(): Promise<void> {
    clearInterval(this.renewal);
    await this.leases.deleteOne({ _id: LEASE_ID, holder: this.holder });
  }

  private async renew(): Promise<void> {
    // From before it is sent: the database may apply it at once and answer much later.
    const expiresAt = Date.now() + this.timings.leaseMs;
    const { matchedCount } = await this.leases.updateOne(
      { _id: LEASE_ID, holder: this.holder },
      { $set: { expiresAt: new Date(expiresAt) } },
    );
    if (matchedCount === 0) this.lost = true;
    else this.expiresAt = Math.max(this.expiresAt, expiresAt);
  }

  /**
   * Whether the lease is certainly still this holder's. It counts as lost a quarter of the lease before the
   * expiry it last wrote, for clocks of other hosts running ahead of this one's.
   */
  private stillHeld(): boolean {
    if (Date.now() >= this.expiresAt - this.timings.leaseMs / 4) this.lost = true;
    return !this.lost;
  }
}

/**
 * A lease whose holder cannot be importing: expired (it died or hung elsewhere), or held by a process of
 * this pid space that is gone; this process waits for its own imports before taking the lease, so a lease
 * naming its pid is from an earlier run.
 */
const isStale = (lease: Lease): boolean =>
  lease.expiresAt.getTime() < Date.now() || isGoneHere(lease.pid, lease.pidSpace);
