import type { Db } from 'mongodb';
import { documentCollection, rowCollection } from '../db/collections.ts';
import { SOURCES } from '../db/source-records.ts';
import { recordTombstones } from '../db/tombstones.ts';
import { entityKey, isRootEntity, type EntityType, type RootEntity } from '../hsds/entities.ts';
import { isListedInDeps, parentsOf, withAncestors, type EntityRef } from './parent-chain.ts';
import type { ReplacePlan } from './replace-plan.ts';
import { findRows } from './row-source.ts';
import type { RowChanges } from './row-writer.ts';

/** A replace stops, unforced, when the input lacks more than this share of the source's records. */
export const DEFAULT_MAX_MISSING_SHARE = 0.5;

/** Rows to delete, by entity type. */
export type RowDeletions = Map<EntityType, string[]>;

/** A replace's deletions, with the source replaced: rows another source has loaded since are kept. */
export interface SourceDeletions {
  rows: RowDeletions;
  source: string;
}

/** What a replace did (or, in a dry run, would do), as the import report tells it. */
export interface ReplaceOutcome {
  /** How many records the source had before (rows naming it). */
  had: number;
  /** Of those, how many the input did not contain. */
  missing: number;
  /**
   * Rows deleted, by entity type: the source's, and what only they kept. In a dry run, those it would
   * delete; none when refused.
   */
  deleted: Record<string, number>;
  /** When refused, what it would have deleted: what `force` deletes, when the rule it broke allows it. */
  wouldDelete?: Record<string, number>;
  /** Records the source no longer loads that stay (another source loads them, or records refer to them). */
  released: number;
  /** Why nothing was deleted, when a safety rule stopped it. */
  refused?: string;
}

/**
 * Rows a pending record of a replace holds at most: a replace deleting more records them in several, each
 * well under MongoDB's 16 MiB document limit with its changes.
 */
const ROWS_PER_RECORD = 20_000;

export function outcomeOf(plan: ReplacePlan, had: number): ReplaceOutcome {
  return {
    had,
    missing: plan.missing,
    deleted: Object.fromEntries([...plan.deletions].map(([entity, ids]) => [entity, ids.length])),
    released: [...plan.released.values()].reduce((sum, ids) => sum + ids.length, 0),
  };
}

/** The plan's deletions in parts of at most ROWS_PER_RECORD rows, in the plan's order. */
export function deletionParts(deletions: RowDeletions): RowDeletions[] {
  const parts: RowDeletions[] = [];
  let part: RowDeletions = new Map();
  let size = 0;
  for (const [entity, ids] of deletions) {
    for (let start = 0; start < ids.length;) {
      const taken = ids.slice(start, start + ROWS_PER_RECORD - size);
      part.set(entity, [...(part.get(entity) ?? []), ...taken]);
      size += taken.length;
      start += taken.length;
      if (size === ROWS_PER_RECORD) {
        parts.push(part);
        part = new Map();
        size = 0;
      }
    }
  }
  if (size > 0) parts.push(part);
  return parts;
}

/**
 * What deleting these rows changes, for the rebuild that follows: the documents of the deleted roots (a
 * document whose row is gone is removed), and the documents that show a deleted row (through the ids
 * their `_deps` list: the row's, or its ancestors'). Read before the rows are deleted.
 */
export async function deletionChanges(db: Db, deletions: RowDeletions): Promise<RowChanges> {
  const changes: RowChanges = {
    touchedIds: new Set(),
    changedRows: new Set(),
    newRows: new Set(),
    changedRoots: new Map(),
    givenLastModified: new Set(),
  };
  const parents: EntityRef[] = [];
  for (const [entity, ids] of deletions) {
    for (const row of await findRows(db, entity, { _id: { $in: ids } }))
      parents.push(...parentsOf(entity, row));
    for (const id of ids) {
      changes.changedRows.add(entityKey(entity, id));
      if (isListedInDeps(entity)) changes.touchedIds.add(id);
      if (isRootEntity(entity)) {
        const root = entity as RootEntity;
        if (!changes.changedRoots.has(root)) changes.changedRoots.set(root, new Set());
        changes.changedRoots.get(root)!.add(id);
      }
    }
  }
  for (const id of await withAncestors(db, parents, new Map())) changes.touchedIds.add(id);
  return changes;
}

/**
 * Deletes rows, recording first when the served records among them were deleted (tombstones.ts). Rows
 * already gone are passed over, so that an import finishing a stopped one may repeat it; so are rows that
 * another source has loaded since the plan (an import finishing this one late).
 */
export async function deleteRows(db: Db, { rows, source }: SourceDeletions, at: Date): Promise<void> {
  await recordTombstones(db, rows, at);
  for (const [entity, ids] of rows) {
    await db
      .collection<{ _id: string; _sources?: string[] }>(rowCollection(entity))
      .deleteMany({ _id: { $in: ids }, $or: [{ [SOURCES]: { $exists: false } }, { [SOURCES]: [source] }] });
  }
}

/**
 * Takes the source's name off rows it no longer loads; a row then loaded by none keeps no list. A released
 * service's document forgets the record that last composed it (unchanged-records.ts), so that the source
 * giving that record again applies it, and its row names the source again.
 */
export async function releaseRows(db: Db, released: RowDeletions, source: string): Promise<void> {
  const services = released.get('service') ?? [];
  if (services.length > 0)
    await db
      .collection(documentCollection.service)
      .updateMany({ id: { $in: services } }, { $unset: { _input: '' } });
  for (const [entity, ids] of released) {
    const rows = db.collection<{ _id: string; _sources?: string[] }>(rowCollection(entity));
    await rows.updateMany({ _id: { $in: ids } }, { $pull: { [SOURCES]: source } });
    await rows.updateMany({ _id: { $in: ids }, [SOURCES]: { $size: 0 } }, { $unset: { [SOURCES]: '' } });
  }
}
