import type { Db } from 'mongodb';
import { ObjectId } from 'mongodb';
import { PENDING_COLLECTION } from '../db/collections.ts';
import type { RootEntity } from './entities.ts';
import type { RowChanges } from './row-writer.ts';

interface PendingChanges {
  _id: ObjectId;
  touchedIds: string[];
  changedRows: string[];
  newRows: string[];
  changedRoots: Partial<Record<RootEntity, string[]>>;
}

/**
 * Row changes are recorded here before they are written and removed once every document they reach is
 * rebuilt. A crash in between leaves the record behind, and the next import finishes the rebuild first:
 * rows alone (unchanged on a rerun) could not tell it what was left undone.
 */
export async function recordPending(db: Db, changes: RowChanges): Promise<ObjectId> {
  const _id = new ObjectId();
  await db.collection<PendingChanges>(PENDING_COLLECTION).insertOne({
    _id,
    touchedIds: [...changes.touchedIds],
    changedRows: [...changes.changedRows],
    newRows: [...changes.newRows],
    changedRoots: Object.fromEntries([...changes.changedRoots].map(([root, ids]) => [root, [...ids]])),
  });
  return _id;
}

export async function clearPending(db: Db, id: ObjectId): Promise<void> {
  await db.collection<PendingChanges>(PENDING_COLLECTION).deleteOne({ _id: id });
}

/** Changes left pending by an import that did not finish, oldest first. */
export async function* leftPending(db: Db): AsyncGenerator<{ id: ObjectId; changes: RowChanges }> {
  for await (const pending of db.collection<PendingChanges>(PENDING_COLLECTION).find().sort({ _id: 1 })) {
    yield {
      id: pending._id,
      changes: {
        touchedIds: new Set(pending.touchedIds),
        changedRows: new Set(pending.changedRows),
        newRows: new Set(pending.newRows),
        changedRoots: new Map(
          Object.entries(pending.changedRoots).map(([root, ids]) => [root as RootEntity, new Set(ids)]),
        ),
      },
    };
  }
}
