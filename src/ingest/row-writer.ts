import type { AnyBulkWriteOperation, Db } from 'mongodb';
import type { Decomposition } from './decompose.ts';
import {
  entityKey,
  foreignKeysOf,
  isRootEntity,
  keptInsideRelations,
  referencesOf,
  relations,
  type EntityType,
  type RootEntity,
} from '../hsds/entities.ts';
import { rowCollection } from '../db/collections.ts';
import type { Json } from '../json.ts';
import { sameRow, storedRow, type Row, type RowWrite, type StoredRow } from './row.ts';
import { SOURCES } from '../db/source-records.ts';
import { bulkWriteWithRemedies, MAX_DOCUMENT_BYTES, replaceDuplicate, replacing } from './bulk-writes.ts';
import { bytesOverLimit } from './oversized-rows.ts';
import { childListKey, findRows, type BatchRows } from './row-source.ts';
import { isListedInDeps, parentsOf, withAncestors, type EntityRef } from './parent-chain.ts';

export interface RowChanges {
  /**
   * Ids of the entities whose row changed, and of all the ancestors those rows have and had in lists that
   * documents keep, of the types documents' `_deps` list: each document that shows a changed row lists one
   * of them (parent-chain.ts).
   */
  touchedIds: Set<string>;
  /** `entity:id` of every row that changed. */
  changedRows: Set<string>;
  /** Rows that did not exist before. */
  newRows: Set<string>;
  /** Root entities whose own row changed: their documents must be rebuilt even if none exists yet. */
  changedRoots: Map<RootEntity, Set<string>>;
  /**
   * Services the imported data gives a `last_modified` for (their record, an item nesting them, or a
   * reference to them that carries one): their documents show it.
   */
  givenLastModified: Set<string>;
}

/** Fields linking a row to parents; a full replacement of the row keeps the links other parents made. */
export const linkFields = new Map<EntityType, string[]>(
  (Object.keys(relations) as EntityType[]).map((entity) => [
    entity,
    [...foreignKeysOf(entity), ...kindKeysOf(entity)],
  ]),
);

function kindKeysOf(entity: EntityType): string[] {
  const keys = new Set<string>();
  for (const list of Object.values(relations)) {
    for (const relation of list)
      if (relation.kind === 'many' && relation.entity === entity && relation.kindKey)
        keys.add(relation.kindKey);
  }
  return [...keys];
}

/** What a batch changes in the rows, planned before anything is written. */
export interface RowPlan {
  writes: Map<EntityType, Row[]>;
  changes: RowChanges;
  /** Ids of the parents whose list lost a child: their records changed though none of their rows did. */
  shrunkParents: Set<string>;
  rows: BatchRows;
  /** Rows left as they were, being too large with what they kept. */
  warnings: string[];
}

/**
 * Works out the rows a batch of decomposed records changes and computes what they reach. Nothing is
 * written here: `applyRowChanges` writes, so the caller can record what is pending first.
 */
export async function planRowChanges(db: Db, batch: Decomposition[]): Promise<RowPlan> {
  const incoming = combineIncoming(batch.flatMap((decomposition) => decomposition.rows));
  const finals = new Map<EntityType, Map<string, Row>>();
  const existing = new Map<EntityType, Map<string, Row>>();

  // One query per entity type, all sent at once rather than one round trip after another.
  const entities = [...incoming];
  const stored = await Promise.all(
    entities.map(([entity, rows]) => loadRows(db, entity, { _id: { $in: [...rows.keys()] } })),
  );
  for (const [index, [entity, rows]] of entities.entries()) {
    const before = stored[index]!;
    existing.set(entity, before);
    const result = new Map<string, Row>();
    for (const [id, incomingRow] of rows) result.set(id, finalRow(entity, before.get(id), incomingRow));
    finals.set(entity, result);
  }
  const shrunkParents = await detachMissingChildren(db, batch, finals, existing);

  const writes = new Map<EntityType, Row[]>();
  const changes: RowChanges = {
    touchedIds: new Set(),
    changedRows: new Set(),
    newRows: new Set(),
    changedRoots: new Map(),
    givenLastModified: new Set(
      batch.flatMap(({ rows }) =>
        rows.flatMap(({ entity, row }) =>
          entity === 'service' && typeof row.last_modified === 'string' ? [row.id] : [],
        ),
      ),
    ),
  };
  const parents: EntityRef[] = [];
  const warnings: string[] = [];
  for (const [entity, rows] of finals) {
    for (const [id, row] of rows) {
      const before = existing.get(entity)?.get(id);
      if (before && sameRow(before, row)) continue;
      // A row another source now loads too: written, but nothing served changed.
      if (before && !sameSources(before, row) && sameRow(withoutSources(before), withoutSources(row))) {
        if (!writes.has(entity)) writes.set(entity, []);
        writes.get(entity)!.push(row);
        continue;
      }
      // A new row is its records' own content, which import.ts measured; one changed may have grown past
      // the limit with what it kept (lists a record left out) or merged: it is left as it was.
      const bytes = before ? bytesOverLimit(row) : undefined;
      if (before && bytes !== undefined) {
        warnings.push(
          `${entity} ${id}: with what it keeps from before, it would take ${bytes} bytes, over MongoDB's ` +
            `limit of ${MAX_DOCUMENT_BYTES}: left as it was`,
        );
        rows.set(id, before);
        continue;
      }
      if (!writes.has(entity)) writes.set(entity, []);
      writes.get(entity)!.push(row);
      changes.changedRows.add(entityKey(entity, id));
      if (!before) changes.newRows.add(entityKey(entity, id));
      if (isListedInDeps(entity)) changes.touchedIds.add(id);
      // The parents it has and had: what shows it now and what showed it before.
      parents.push(...parentsOf(entity, row), ...(before ? parentsOf(entity, before) : []));
      if (isRootEntity(entity)) {
        const root = entity as RootEntity;
        if (!changes.changedRoots.has(root)) changes.changedRoots.set(root, new Set());
        changes.changedRoots.get(root)!.add(id);
      }
    }
  }
  for (const id of await withAncestors(db, parents, finals)) changes.touchedIds.add(id);
  const completeLists = new Set(
    batch.flatMap(({ childLists }) =>
      childLists.map((list) => childListKey(list.entity, list.foreignKey, list.parentId)),
    ),
  );
  return { writes, changes, shrunkParents, rows: { rows: finals, completeLists }, warnings };
}

/**
 * Writes planned rows: one unordered bulk write per collection, rows that were new at planning inserted,
 * the others replaced whole by id. The collections of one rank (`writeRank`) are written at once, so that
 * the database has them all to do while the importer works on; a rank is written once the one before it
 * is, and a failure is thrown once none of its rank's writes is still under way.
 */
export async function applyRowChanges(
  db: Db,
  writes: Map<EntityType, Row[]>,
  newRows: ReadonlySet<string>,
): Promise<void> {
  const write = async (entity: EntityType, rows: Row[]) => {
    const operations: AnyBulkWriteOperation<StoredRow>[] = rows.map((row) =>
      newRows.has(entityKey(entity, row.id))
        ? { insertOne: { document: storedRow(row) } }
        : replacing('_id', storedRow(row)),
    );
    const collection = db.collection<StoredRow>(rowCollection(entity));
    await bulkWriteWithRemedies(collection, operations, replaceDuplicate<StoredRow>('_id'));
  };
  const sequence = rowWriteSequence(writes);
  for (const rank of new Set(sequence.map(([entity]) => writeRank(entity)))) {
    const outcomes = await Promise.allSettled(
      sequence.filter(([entity]) => writeRank(entity) === rank).map(([entity, rows]) => write(entity, rows)),
    );
    // The first failure, as a sequence of writes would have thrown it; the import runs again whole.
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/**
 * Rows are written children first and services last. Killed part-way, an import has then written a
 * service's row only with all the rows of its record, so the rerun still sees the service row as changed
 * by this import (which keeps the `last_modified` the publisher gave) whenever any part of it is new.
 */
const writeRank = (entity: EntityType) => (entity === 'service' ? 2 : isRootEntity(entity) ? 1 : 0);

/** The order `applyRowChanges` writes planned rows in, one rank of entity types after another. */
export const rowWriteSequence = (writes: Map<EntityType, Row[]>): [EntityType, Row[]][] =>
  [...writes].sort(([a], [b]) => writeRank(a) - writeRank(b));

/** A row as the batch gives it, after folding every copy of it in order, and how it applies to storage. */
interface IncomingRow {
  row: Row;
  mode: RowWrite['mode'];
  columns?: readonly string[];
}

/** Several records of a batch may carry the same entity (a shared organization): fold them in order. */
function combineIncoming(rows: RowWrite[]): Map<EntityType, Map<string, IncomingRow>> {
  const combined = new Map<EntityType, Map<string, IncomingRow>>();
  for (const incoming of rows) {
    const { entity, row, mode } = incoming;
    if (!combined.has(entity)) combined.set(entity, new Map());
    const byId = combined.get(entity)!;
    const previous = byId.get(row.id);
    if (mode === 'merge') {
      const merged = keepingOwnedLists(entity, previous?.row, { ...previous?.row, ...row });
      byId.set(row.id, { ...previous, row: merged, mode: previous?.mode ?? 'merge' });
    } else {
      const kept = keeping(keptBy(entity, incoming), previous?.row, { ...row });
      byId.set(row.id, {
        row: keepingOwnedLists(entity, previous?.row, kept),
        mode,
        columns: incoming.columns,
      });
    }
  }
  return combined;
}

function finalRow(entity: EntityType, stored: Row | undefined, incoming: IncomingRow): Row {
  const { row, mode } = incoming;
  if (!stored) return row;
  const given = mode === 'merge' ? { ...stored, ...row } : keeping(keptBy(entity, incoming), stored, row);
  given[SOURCES] = unitedSources(stored, row);
  if (given[SOURCES] === undefined) delete given[SOURCES];
  return keepingOwnedLists(entity, stored, given);
}

/** The sources a row was loaded by, before and now (source-name.ts), in order; undefined for none. */
function unitedSources(stored: Row, row: Row): string[] | undefined {
  const before = (stored[SOURCES] as string[] | undefined) ?? [];
  const now = (row[SOURCES] as string[] | undefined) ?? [];
  if (now.every((source) => before.includes(source))) return before.length > 0 ? before : undefined;
  return [...new Set([...before, ...now])].sort();
}

/** Whether two rows name the same sources (in any order). */
function sameSources(a: Row, b: Row): boolean {
  const first = (a[SOURCES] as string[] | undefined) ?? [];
  const second = new Set((b[SOURCES] as string[] | undefined) ?? []);
  return first.length === second.size && first.every((source) => second.has(source));
}

function withoutSources(row: Row): Row {
  const { [SOURCES]: _sources, ...rest } = row;
  return rest as Row;
}

/** Each entity's parent links and references: what a tabular row keeps when its table has no column for one. */
const linksAndReferences = new Map<EntityType, string[]>(
  [...linkFields].map(([entity, links]) => [entity, [...new Set([...links, ...referencesOf(entity)])]]),
);

/**
 * What a replacement keeps from the row before it: its list position, the sources that loaded it, and the
 * links it does not set itself: for a nested item, every parent link (other lists made them); for a tabular
 * row, the parent links and the references to entities it shows (a service's `program_id`) that its table
 * has no column for (an empty cell is a link removed).
 */
function keptBy(entity: EntityType, { mode, columns }: Pick<IncomingRow, 'mode' | 'columns'>): string[] {
  const kept =
    mode === 'table' && columns
      ? linksAndReferences.get(entity)!.filter((field) => !columns.includes(field))
      : linkFields.get(entity)!;
  return [...kept, '_position', SOURCES];
}

/**
 * `into` (a row, or an owned entity kept inside one) with the lists of owned entities that `from`, its
 * version before, kept and it leaves out, and each item it gives again (by id) likewise: a list left out
 * is kept, at any depth. Items are copied, not changed.
 */
function keepingOwnedLists<T extends Json>(entity: EntityType, from: Json | undefined, into: T): T {
  if (!from) return into;
  for (const relation of keptInsideRelations(entity)) {
    const { field } = relation;
    const before = from[field];
    const given = into[field];
    if (given === undefined) {
      if (before !== undefined) (into as Json)[field] = before;
      continue;
    }
    if (!Array.isArray(given) || !Array.isArray(before)) continue;
    const beforeById = new Map((before as Json[]).map((item) => [item.id, item]));
    (into as Json)[field] = (given as Json[]).map((item) =>
      beforeById.has(item.id)
        ? keepingOwnedLists(relation.entity, beforeById.get(item.id), { ...item })
        : item,
    );
  }
  return into;
}

function keeping(fields: string[], from: Row | undefined, into: Row): Row {
  if (!from) return into;
  for (const field of fields) {
    if (into[field] === undefined && from[field] !== undefined) into[field] = from[field];
  }
  return into;
}

/**
 * Where in the batch each row's links were last set: `entity:id` → link field → index of the record.
 * Records apply in order, as if each came in a batch of its own.
 */
function linksSetAt(batch: Decomposition[]): Map<string, Map<string, number>> {
  const setAt = new Map<string, Map<string, number>>();
  batch.forEach(({ rows }, index) => {
    for (const { entity, row } of rows) {
      for (const field of linkFields.get(entity) ?? []) {
        if (typeof row[field] !== 'string') continue;
        const key = entityKey(entity, row.id);
        if (!setAt.has(key)) setAt.set(key, new Map());
        setAt.get(key)!.set(field, index);
      }
    }
  });
  return setAt;
}

/** The children a parent's list keeps, and the index of the record in the batch that gave the list. */
interface KeptList {
  ids: Set<string>;
  at: number;
}

/**
 * A nested list given in full replaces the children linked before: a child missing from it loses its link
 * to that parent (it may still belong to others), unless a record after the list's in the batch links it.
 */
async function detachMissingChildren(
  db: Db,
  batch: Decomposition[],
  finals: Map<EntityType, Map<string, Row>>,
  existing: Map<EntityType, Map<string, Row>>,
): Promise<Set<string>> {
  const shrunk = new Set<string>();
  const setAt = linksSetAt(batch);
  const byEntityAndKey = new Map<
    string,
    { entity: EntityType; foreignKey: string; kept: Map<string, KeptList> }
  >();
  batch.forEach(({ childLists }, at) => {
    for (const list of childLists) {
      const groupKey = `${list.entity}\u0000${list.foreignKey}`;
      if (!byEntityAndKey.has(groupKey))
        byEntityAndKey.set(groupKey, { entity: list.entity, foreignKey: list.foreignKey, kept: new Map() });
      byEntityAndKey.get(groupKey)!.kept.set(list.parentId, { ids: new Set(list.ids), at });
    }
  });
  const groups = [...byEntityAndKey.values()];
  const linkedRows = await Promise.all(
    groups.map(({ entity, foreignKey, kept }) =>
      loadRows(db, entity, { [foreignKey]: { $in: [...kept.keys()] } }),
    ),
  );
  for (const [index, { entity, foreignKey, kept }] of groups.entries()) {
    const linked = linkedRows[index]!;
    if (!finals.has(entity)) finals.set(entity, new Map());
    if (!existing.has(entity)) existing.set(entity, new Map());
    // The batch's own rows too: a record given twice in one batch has the children its last copy lists,
    // as it would with its copies in separate batches.
    const candidates = new Set(linked.keys());
    for (const [id, row] of finals.get(entity)!) if (kept.has(row[foreignKey] as string)) candidates.add(id);
    for (const id of candidates) {
      const stored = linked.get(id);
      if (stored && !existing.get(entity)!.has(id)) existing.get(entity)!.set(id, stored);
      const row = finals.get(entity)!.get(id) ?? { ...stored! };
      const parentId = row[foreignKey] as string;
      const list = kept.get(parentId);
      const linkedAt = setAt.get(entityKey(entity, id))?.get(foreignKey) ?? -1;
      if (list && !list.ids.has(id) && linkedAt <= list.at) {
        delete row[foreignKey];
        finals.get(entity)!.set(id, row);
        // The parent's record changed only if the stored row was in its list.
        if (stored?.[foreignKey] === parentId) shrunk.add(parentId);
      }
    }
  }
  return shrunk;
}

async function loadRows(
  db: Db,
  entity: EntityType,
  filter: Record<string, unknown>,
): Promise<Map<string, Row>> {
  return new Map((await findRows(db, entity, filter)).map((row) => [row._id, row]));
}
