import type { Db } from 'mongodb';
import { documentCollection, TOMBSTONES } from './collections.ts';
import { isRootEntity, type EntityType, type RootEntity } from '../hsds/entities.ts';

/**
 * When a served record was deleted (a replace deleting what its source no longer has), kept so that
 * `GET /{resource}/{id}` answers 410 Gone rather than 404 for a while (`HSDS_TOMBSTONE_DAYS`): a client
 * holding the id learns that it is gone for good. A record loaded again is served, whatever its tombstone.
 */
interface Tombstone {
  /** `{collection}:{id}`. */
  _id: string;
  deleted_at: Date;
}

const tombstones = (db: Db) => db.collection<Tombstone>(TOMBSTONES);
const keyOf = (collection: string, id: string) => `${collection}:${id}`;
/** A day, in milliseconds: retentions are counted in days. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Records the deletion of the served records among these rows (their roots'), at `at`. */
export async function recordTombstones(
  db: Db,
  deletions: ReadonlyMap<EntityType, readonly string[]>,
  at: Date,
): Promise<void> {
  const operations = [...deletions].flatMap(([entity, ids]) =>
    isRootEntity(entity)
      ? ids.map((id) => ({
          replaceOne: {
            filter: { _id: keyOf(documentCollection[entity as RootEntity], id) },
            replacement: { deleted_at: at },
            upsert: true,
          },
        }))
      : [],
  );
  if (operations.length > 0) await tombstones(db).bulkWrite(operations, { ordered: false });
}

/** When the record at `collection`/`id` was deleted, if within the last `days` days. */
export async function deletedAt(
  db: Db,
  collection: string,
  id: string,
  days: number,
): Promise<Date | undefined> {
  if (days === 0) return undefined;
  const tombstone = await tombstones(db).findOne({ _id: keyOf(collection, id) });
  if (!tombstone || tombstone.deleted_at < retentionCutoff(days)) return undefined;
  return tombstone.deleted_at;
}

/** Drops the tombstones older than `days` days. */
export async function purgeTombstones(db: Db, days: number): Promise<void> {
  await tombstones(db).deleteMany({ deleted_at: { $lt: retentionCutoff(days) } });
}

/** The time before which deletions are forgotten, kept `days` days (HSDS_TOMBSTONE_DAYS). */
export const retentionCutoff = (days: number) => new Date(Date.now() - days * DAY_MS);
