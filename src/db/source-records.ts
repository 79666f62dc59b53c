import type { Db } from 'mongodb';
import { entityTypes, type EntityType } from '../hsds/entities.ts';
import { rowCollection } from './collections.ts';

/**
 * The field of a row naming the sources that loaded it as a record of their own, not only nested in or
 * referred to by another: the root row of each record an import reads gets its source, and keeps the
 * others' (src/ingest/source-name.ts).
 */
export const SOURCES = '_sources';

/** What the last load that finished for a source did. */
export interface SourceLoad {
  started_at: string;
  finished_at: string;
  /** `replace`: a full refresh, deleting what the source no longer had (`deleted` rows). */
  mode: 'merge' | 'replace';
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  deleted: number;
}

/** A source imports have loaded for: since when, and its last load (times in ISO 8601, UTC). */
export interface StoredSource {
  _id: string;
  name: string;
  first_started_at: string;
  last_started_at: string;
  last_load?: SourceLoad;
}

/** How many records a source loaded, by entity type (none left out): one indexed count per row collection. */
export async function sourceRecordCounts(db: Db, source: string): Promise<Map<EntityType, number>> {
  const counts = await Promise.all(
    entityTypes.map((entity) => db.collection(rowCollection(entity)).countDocuments({ [SOURCES]: source })),
  );
  return new Map(entityTypes.map((entity, at) => [entity, counts[at]!]));
}
