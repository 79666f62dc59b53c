import type { Db } from 'mongodb';
import { chunked } from '../async-iterables.ts';
import { documentCollection, rowCollection } from '../db/collections.ts';
import {
  entityKey,
  entityTypes,
  isKeptInside,
  isRootEntity,
  relations,
  rootEntities,
  sharedEntities,
  type EntityType,
} from '../hsds/entities.ts';
import { parentsOf } from './parent-chain.ts';
import { SOURCES } from '../db/source-records.ts';
import type { SeenRecords } from './seen-records.ts';

/**
 * What a replacing load of a source deletes once its records are loaded (issue #20): the source's records
 * it did not contain, and what only they kept.
 *
 * - A record of the source that the load did not contain (its row names the source, and no record of the
 *   load had it as its root) is the source's no more: if another source loads it too, it stays, the source's
 *   name taken off it (`released`). Otherwise a service, a service at location or an owned entity of the
 *   tabular form is deleted; an organization, location, program, taxonomy, taxonomy term or unit only once
 *   nothing refers to it any more (below), else it stays, no source's.
 * - What a deleted record lists as its own goes with it: a service's services at location that no source
 *   loaded as records of their own.
 * - An organization, location, program, taxonomy, taxonomy term or unit that a deleted record referred to
 *   or listed, and that no source loaded as a record of its own, is deleted once nothing refers to it: no
 *   served document that stays lists it in `_deps` (a service its organization, program, locations and
 *   taxonomy terms; a service at location its location), and no parent that stays shows it in a list (an
 *   organization its locations and programs). This is repeated for what those referred to, until nothing
 *   more goes.
 *
 * Another source's records are never deleted, and nothing is written here.
 */
export interface ReplacePlan {
  /** How many of the source's records the load did not contain. */
  missing: number;
  /** Rows to delete, by entity type: the source's own first, then what only they kept. */
  deletions: Map<EntityType, string[]>;
  /** Rows the source no longer loads and that stay: its name is taken off them. */
  released: Map<EntityType, string[]>;
}

/** Shared entities that stay while anything refers to them, whoever loaded them. */
const keptWhileReferred = (entity: EntityType): boolean =>
  sharedEntities.has(entity) && entity !== 'service' && entity !== 'service_at_location';

/** Lists of shared entities a row of each type owns: their rows go with it unless a source loaded them. */
const ownedLists = new Map(
  entityTypes.map((entity) => [
    entity,
    relations[entity].flatMap((relation) =>
      relation.kind === 'many' && !isKeptInside(relation) && relation.entity !== 'service' ? [relation] : [],
    ),
  ]),
);

const CHUNK = 1_000;
/** Candidates whose references are looked up at once. */
const LOOKUPS_AT_ONCE = 32;

/**
 * `unread`: the types whose list the input did not give (a feed's optional endpoint it does not serve):
 * none of the source's own records of those types (loaded from such a list before) is missing. What only
 * records nested (an organization a feed without `/organizations` showed in its services) still goes with
 * the records that showed it.
 */
export async function planReplace(
  db: Db,
  source: string,
  seen: SeenRecords,
  unread: ReadonlySet<EntityType> = new Set(),
): Promise<ReplacePlan> {
  const plan: ReplacePlan = { missing: 0, deletions: new Map(), released: new Map() };
  const deleted = new Set<string>();
  const remove = (entity: EntityType, id: string) => {
    deleted.add(entityKey(entity, id));
    add(plan.deletions, entity, id);
  };
  /** Shared rows that go once nothing refers to them, and whether the source's name is on them. */
  const candidates = new Map<string, { entity: EntityType; id: string; ours: boolean }>();

  for (const entity of entityTypes) {
    if (unread.has(entity)) continue;
    const rows = db
      .collection<{ _id: string; _sources: string[] }>(rowCollection(entity))
      .find({ [SOURCES]: source }, { projection: { [SOURCES]: 1 } });
    for await (const chunk of chunked(rows, CHUNK)) {
      const contained = await seen.has(chunk.map(({ _id }) => entityKey(entity, _id)));
      for (const { _id: id, _sources: sources } of chunk) {
        if (contained.has(entityKey(entity, id))) continue;
        plan.missing += 1;
        if (sources.length > 1) add(plan.released, entity, id);
        else if (keptWhileReferred(entity)) candidates.set(entityKey(entity, id), { entity, id, ours: true });
        else remove(entity, id);
      }
    }
  }

  // Each round: what the rows deleted last round own or refer to joins the candidates, then every candidate
  // nothing refers to any more goes, until a round deletes nothing.
  let frontier = [...plan.deletions].flatMap(([entity, ids]) => ids.map((id) => ({ entity, id })));
  for (;;) {
    for (const found of await ownedAndReferred(db, frontier)) {
      const key = entityKey(found.entity, found.id);
      if (deleted.has(key) || candidates.has(key)) continue;
      if (!keptWhileReferred(found.entity)) remove(found.entity, found.id);
      else candidates.set(key, { ...found, ours: false });
    }
    const goes: { entity: EntityType; id: string }[] = [];
    const undecided = [...candidates.values()];
    for (let start = 0; start < undecided.length; start += LOOKUPS_AT_ONCE) {
      const batch = undecided.slice(start, start + LOOKUPS_AT_ONCE);
      const referred = await Promise.all(batch.map((candidate) => isReferred(db, candidate, deleted)));
      batch.forEach((candidate, at) => {
        if (referred[at]) return;
        candidates.delete(entityKey(candidate.entity, candidate.id));
        remove(candidate.entity, candidate.id);
        goes.push(candidate);
      });
    }
    if (goes.length === 0) break;
    frontier = goes;
  }
  // What stays though the source no longer loads it: its name comes off.
  for (const { entity, id, ours } of candidates.values()) if (ours) add(plan.released, entity, id);
  return plan;
}

/**
 * What rows being deleted list as their own (services at location of a service, locations and programs of
 * an organization) and what they refer to (by their documents' `_deps`, or their rows' references), among
 * the rows no source loaded as records of their own.
 */
async function ownedAndReferred(
  db: Db,
  rows: { entity: EntityType; id: string }[],
): Promise<{ entity: EntityType; id: string }[]> {
  const found: { entity: EntityType; id: string }[] = [];
  const referred = new Set<string>();
  for (const [entity, ids] of byEntity(rows)) {
    for (let start = 0; start < ids.length; start += CHUNK) {
      const chunk = ids.slice(start, start + CHUNK);
      for (const relation of ownedLists.get(entity) ?? []) {
        const children = await db
          .collection<{ _id: string }>(rowCollection(relation.entity))
          .find(
            { [relation.foreignKey]: { $in: chunk }, [SOURCES]: { $exists: false } },
            { projection: { _id: 1 } },
          )
          .toArray();
        for (const { _id } of children) found.push({ entity: relation.entity, id: _id });
      }
      if (isRootEntity(entity)) {
        const documents = db
          .collection<{ id: string; _deps?: string[] }>(documentCollection[entity])
          .find({ id: { $in: chunk } }, { projection: { _id: 0, id: 1, _deps: 1 } });
        for await (const { id, _deps: deps = [] } of documents)
          for (const dependency of deps) if (dependency !== id) referred.add(dependency);
      }
      const stored = await db
        .collection<Record<string, unknown>>(rowCollection(entity))
        .find({ _id: { $in: chunk } } as never)
        .toArray();
      for (const row of stored) {
        for (const relation of relations[entity]) {
          const reference = relation.kind === 'one' ? row[relation.reference] : undefined;
          if (typeof reference === 'string') referred.add(reference);
        }
      }
    }
  }
  // The ids referred to, by the type of row each is.
  const wanted = [...referred];
  for (const entity of entityTypes.filter(keptWhileReferred)) {
    for (let start = 0; start < wanted.length; start += CHUNK) {
      const rows = await db
        .collection<{ _id: string }>(rowCollection(entity))
        .find(
          { _id: { $in: wanted.slice(start, start + CHUNK) }, [SOURCES]: { $exists: false } },
          { projection: { _id: 1 } },
        )
        .toArray();
      for (const { _id } of rows) found.push({ entity, id: _id });
    }
  }
  return found;
}

/**
 * Whether anything that stays refers to this row (loaded by no other source: candidates never are): a
 * served document listing it in `_deps` (its own excepted), or a parent showing it in a list.
 */
async function isReferred(
  db: Db,
  { entity, id }: { entity: EntityType; id: string },
  deleted: ReadonlySet<string>,
): Promise<boolean> {
  for (const root of rootEntities) {
    const documents = db
      .collection<{ id: string }>(documentCollection[root])
      .find({ _deps: id }, { projection: { _id: 0, id: 1 } });
    for await (const document of documents) {
      const self = root === entity && document.id === id;
      if (!self && !deleted.has(entityKey(root, document.id))) {
        await documents.close();
        return true;
      }
    }
  }
  const row = await db
    .collection<Record<string, unknown>>(rowCollection(entity))
    .findOne({ _id: id } as never);
  if (!row) return false;
  for (const parent of parentsOf(entity, row)) {
    if (deleted.has(entityKey(parent.entity, parent.id))) continue;
    const exists = await db
      .collection(rowCollection(parent.entity))
      .countDocuments({ _id: parent.id } as never, { limit: 1 });
    if (exists > 0) return true;
  }
  return false;
}

function add(map: Map<EntityType, string[]>, entity: EntityType, id: string): void {
  const ids = map.get(entity);
  if (ids) ids.push(id);
  else map.set(entity, [id]);
}

function byEntity(rows: { entity: EntityType; id: string }[]): Map<EntityType, string[]> {
  const grouped = new Map<EntityType, string[]>();
  for (const { entity, id } of rows) add(grouped, entity, id);
  return grouped;
}
