import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from 'mongodb';
import { ObjectId } from 'mongodb';
import { PENDING_COLLECTION } from '../db/collections.ts';
import { isGoneHere, PID_SPACE } from '../process-running.ts';
import type { EntityType, RootEntity } from '../hsds/entities.ts';
import { HEARTBEAT_MS, STALE_AFTER_MS } from './import-entries.ts';
import type { RowChanges } from './row-writer.ts';
import type { SourceDeletions } from './replace.ts';

/**
 * The process that recorded changes: `token` tells this run of it from an earlier one with the same pid;
 * `pidSpace` is where its pid means that process (see `PID_SPACE`), `host` is for people reading it.
 */
interface Owner {
  host: string;
  pidSpace: string;
  pid: number;
  token: string;
}

interface PendingChanges {
  _id: ObjectId;
  owner: Owner;
  heartbeatAt: Date;
  touchedIds: string[];
  changedRows: string[];
  newRows: string[];
  changedRoots: Partial<Record<RootEntity, string[]>>;
  givenLastModified: string[];
  /** Rows a replace deletes (replace.ts), before the rebuild: deleted again by an import finishing it. */
  deletions?: Partial<Record<EntityType, string[]>>;
  /** The source whose import recorded them (whose replace made the deletions). */
  source?: string;
}

const THIS_PROCESS: Owner = { host: hostname(), pidSpace: PID_SPACE, pid: process.pid, token: randomUUID() };

/** Pending records of this process's imports still running: never left, whatever their heartbeat says. */
const inProgress = new Set<string>();

/**
 * Row changes are recorded here before they are written (a replace's deletions with them) and removed
 * once every document they reach is rebuilt. A crash in between leaves the record behind, and the next import finishes the rebuild first:
 * rows alone (unchanged on a rerun) could not tell it what was left undone.
 */
export async function recordPending(
  db: Db,
  changes: RowChanges,
  _id = new ObjectId(),
  deletions?: SourceDeletions,
  source = deletions?.source,
): Promise<ObjectId> {
  await db.collection<PendingChanges>(PENDING_COLLECTION).insertOne({
    _id,
    owner: THIS_PROCESS,
    heartbeatAt: new Date(),
    touchedIds: [...changes.touchedIds],
    changedRows: [...changes.changedRows],
    newRows: [...changes.newRows],
    changedRoots: Object.fromEntries([...changes.changedRoots].map(([root, ids]) => [root, [...ids]])),
    givenLastModified: [...changes.givenLastModified],
    ...(deletions ? { deletions: Object.fromEntries(deletions.rows) } : {}),
    ...(source === undefined ? {} : { source }),
  });
  return _id;
}

export async function clearPending(db: Db, id: ObjectId): Promise<void> {
  await db.collection<PendingChanges>(PENDING_COLLECTION).deleteOne({ _id: id });
}

/**
 * The pending records of one running import: kept from other imports (of this process, or of another
 * whose heartbeat they see) until it clears them or stops. Those it leaves when it fails are then left
 * for the next import to finish.
 */
export class ImportPending {
  private readonly ids = new Set<string>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    /** The source the import loads for, named by what it records. */
    private readonly source?: string,
  ) {
    this.heartbeat = setInterval(() => {
      // A missed beat only matters if they all are: the threshold allows for several.
      this.beat().catch(() => {});
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async record(changes: RowChanges, deletions?: SourceDeletions): Promise<ObjectId> {
    const id = new ObjectId();
    // Claimed before it exists, so that no other import of this process can ever see it as left.
    this.ids.add(id.toHexString());
    inProgress.add(id.toHexString());
    return recordPending(this.db, changes, id, deletions, this.source);
  }

  async clear(id: ObjectId): Promise<void> {
    await clearPending(this.db, id);
    this.ids.delete(id.toHexString());
    inProgress.delete(id.toHexString());
  }

  /** Says that this import is still running, for imports in other processes. */
  async beat(): Promise<void> {
    if (this.ids.size === 0) return;
    await this.db
      .collection<PendingChanges>(PENDING_COLLECTION)
      .updateMany(
        { _id: { $in: [...this.ids].map((id) => new ObjectId(id)) } },
        { $set: { heartbeatAt: new Date() } },
      );
  }

  /** Ends the import: what it has not cleared is left to the next one. */
  release(): void {
    clearInterval(this.heartbeat);
    for (const id of this.ids) inProgress.delete(id);
    this.ids.clear();
  }
}

/**
 * Whether the import that recorded these changes is gone: one of this process no longer running, one of
 * an earlier process with this pid, one whose process no longer runs in this pid space, or one anywhere
 * (another machine or container) whose heartbeat stopped a minute ago.
 */
function isLeft({ _id, owner, heartbeatAt }: PendingChanges, now: number): boolean {
  if (inProgress.has(_id.toHexString())) return false;
  if (owner.token === THIS_PROCESS.token) return true;
  if (now - heartbeatAt.getTime() > STALE_AFTER_MS) return true;
  return isGoneHere(owner.pid, owner.pidSpace);
}

/** Whether any import left changes pending. */
export async function hasLeftPending(db: Db): Promise<boolean> {
  for await (const _ of leftPending(db)) return true;
  return false;
}

/** Changes left pending by imports that did not finish, oldest first. */
export async function* leftPending(
  db: Db,
): AsyncGenerator<{ id: ObjectId; changes: RowChanges; source?: string; deletions?: SourceDeletions }> {
  const now = Date.now();
  for await (const pending of db.collection<PendingChanges>(PENDING_COLLECTION).find().sort({ _id: 1 })) {
    if (!isLeft(pending, now)) continue;
    yield {
      id: pending._id,
      changes: {
        touchedIds: new Set(pending.touchedIds),
        changedRows: new Set(pending.changedRows),
        newRows: new Set(pending.newRows),
        changedRoots: new Map(
          Object.entries(pending.changedRoots).map(([root, ids]) => [root as RootEntity, new Set(ids)]),
        ),
        givenLastModified: new Set(pending.givenLastModified),
      },
      ...(pending.source === undefined ? {} : { source: pending.source }),
      ...(pending.deletions && pending.source !== undefined
        ? {
            deletions: {
              rows: new Map(Object.entries(pending.deletions) as [EntityType, string[]][]),
              source: pending.source,
            },
          }
        : {}),
    };
  }
}
