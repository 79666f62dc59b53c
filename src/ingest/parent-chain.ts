import type { Db } from 'mongodb';
import {
  entityKey,
  entityTypes,
  relations,
  rootEntities,
  rootExclusions,
  sharedEntities,
  type EntityType,
} from '../hsds/entities.ts';
import { rowCollection } from '../db/collections.ts';
import { isJsonObject, type Json } from '../json.ts';
import type { Row } from './row.ts';

/**
 * What a change to a row reaches. A stored document lists in `_deps` only its root and the entities it
 * refers to (`dependencyIds`), not every entity nested in it: a change to a nested row reaches it through
 * the row's parents, their parents and so on (`withAncestors`), one of which is in that list. A service
 * with its phones, their languages, its schedules and its locations' addresses lists a handful of ids
 * instead of dozens, and so does every index entry and write that keeps them.
 */

/**
 * Whether a change to an entity of this type is looked for in documents' `_deps` (`dependencyIds`): the
 * shared ones, roots and what records refer to. The ids of phones, schedules and the like are in no list.
 */
export const isListedInDeps = (entity: EntityType): boolean => sharedEntities.has(entity);

/** An entity by type and id: a parent a row's foreign key points to. */
export interface EntityRef {
  entity: EntityType;
  id: string;
}

/**
 * A foreign key a row may carry toward parents that documents show it under, and the parent types it
 * points to (a generic link, such as an attribute's `link_id`, says which in its kind key).
 */
interface ParentKey {
  foreignKey: string;
  parents: EntityType[];
  kindKey?: string;
}

/**
 * The lists no document keeps (an organization's services, joined when read): a service's change does not
 * reach its organization's documents, or an import of a provider's services would rebuild them all once per
 * batch, quadratic in their number.
 */
const unkept = new Set(
  rootEntities.flatMap((root) =>
    relations[root].flatMap((relation) =>
      relation.kind === 'many' && rootExclusions[root].includes(relation.field)
        ? [entityKey(relation.entity, relation.foreignKey)]
        : [],
    ),
  ),
);

const parentKeys = new Map<EntityType, ParentKey[]>(
  entityTypes.map((entity) => {
    const byKey = new Map<string, ParentKey>();
    for (const parent of entityTypes) {
      for (const relation of relations[parent]) {
        if (relation.kind !== 'many' || relation.entity !== entity) continue;
        if (unkept.has(entityKey(entity, relation.foreignKey))) continue;
        const key = byKey.get(relation.foreignKey) ?? {
          foreignKey: relation.foreignKey,
          parents: [],
          ...(relation.kindKey ? { kindKey: relation.kindKey } : {}),
        };
        key.parents.push(parent);
        byKey.set(relation.foreignKey, key);
      }
    }
    return [entity, [...byKey.values()]];
  }),
);

/** The foreign keys of `entity` that lead to parents whose documents show it. */
export const parentReachingFields = (entity: EntityType): string[] =>
  (parentKeys.get(entity) ?? []).map((key) => key.foreignKey);

/** The parents a row points to (where documents show it), by its foreign keys. */
export function parentsOf(entity: EntityType, row: Record<string, unknown>): EntityRef[] {
  const found: EntityRef[] = [];
  for (const { foreignKey, parents, kindKey } of parentKeys.get(entity) ?? []) {
    const id = row[foreignKey];
    if (typeof id !== 'string') continue;
    const kind = kindKey === undefined ? undefined : row[kindKey];
    // A generic link names its parent's type; one naming no type of ours may point to any of them.
    const named = parents.find((parent) => parent === kind);
    for (const parent of named ? [named] : parents) found.push({ entity: parent, id });
  }
  return found;
}

/**
 * The ids of `start` and of all their ancestors that documents' `_deps` can list, through the rows as they
 * will be after the batch: the batch's own (`rows`), else the database's, read a generation at a time.
 */
export async function withAncestors(
  db: Db,
  start: EntityRef[],
  rows: ReadonlyMap<EntityType, ReadonlyMap<string, Row>>,
): Promise<Set<string>> {
  const ids = new Set<string>();
  const seen = new Set<string>();
  let generation = start;
  while (generation.length > 0) {
    const next: EntityRef[] = [];
    const unread = new Map<EntityType, string[]>();
    for (const ref of generation) {
      const key = entityKey(ref.entity, ref.id);
      if (seen.has(key)) continue;
      seen.add(key);
      if (isListedInDeps(ref.entity)) ids.add(ref.id);
      if (parentKeys.get(ref.entity)!.length === 0) continue;
      const row = rows.get(ref.entity)?.get(ref.id);
      if (row) next.push(...parentsOf(ref.entity, row));
      else if (unread.has(ref.entity)) unread.get(ref.entity)!.push(ref.id);
      else unread.set(ref.entity, [ref.id]);
    }
    const read = await Promise.all(
      [...unread].map(async ([entity, wanted]) => {
        const projection = Object.fromEntries(
          parentKeys
            .get(entity)!
            .flatMap(({ foreignKey, kindKey }) => [[foreignKey, 1], ...(kindKey ? [[kindKey, 1]] : [])]),
        );
        const found = await db
          .collection<Row>(rowCollection(entity))
          .find({ _id: { $in: wanted } }, { projection })
          .toArray();
        return found.flatMap((row) => parentsOf(entity, row));
      }),
    );
    generation = [...next, ...read.flat()];
  }
  return ids;
}

/**
 * What a document depends on: its root, and every entity it refers to, found or not (an entity loaded
 * later, an organization imported after its services, must reach the documents waiting for it). What is
 * nested through lists reaches it through those, by `withAncestors`.
 */
export function dependencyIds(root: EntityType, document: Json): string[] {
  const ids = new Set<string>();
  if (typeof document.id === 'string') ids.add(document.id);
  const visit = (entity: EntityType, record: Json): void => {
    for (const relation of relations[entity]) {
      const nested = record[relation.field];
      if (relation.kind === 'one') {
        const reference = record[relation.reference];
        if (typeof reference === 'string') ids.add(reference);
        if (isJsonObject(nested)) {
          if (typeof nested.id === 'string') ids.add(nested.id);
          visit(relation.entity, nested);
        }
      } else if (Array.isArray(nested)) {
        for (const child of nested) if (isJsonObject(child)) visit(relation.entity, child);
      }
    }
  };
  visit(root, document);
  return [...ids];
}
