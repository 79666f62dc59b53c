import {
  isKeptInside,
  keptInsideRelations,
  relations,
  rootExclusions,
  type EntityType,
  type Relation,
  type RootEntity,
} from '../hsds/entities.ts';
import type { Row } from './row.ts';
import { SOURCES } from '../db/source-records.ts';
import type { RowSource } from './row-source.ts';
import type { Json } from '../json.ts';

/** Fields of a row that are bookkeeping, not HSDS. */
const BOOKKEEPING = ['_id', '_position', SOURCES] as const;

/**
 * Builds the fully nested documents of some roots from the rows, a level at a time: what each row keeps
 * inside it, and one query per relation for the whole batch, never one per record (and none for rows the
 * batch itself wrote, nor for entity types with no rows).
 * Nesting stops where it would come back to an entity type already above (a service's organization lists
 * no services).
 */
export async function composeRoots(
  source: RowSource,
  root: RootEntity,
  ids: string[],
): Promise<Map<string, Json>> {
  const rows = await source.byIds(root, ids);
  const documents = await composeRows(source, root, rows, [root], new Set(rootExclusions[root]));
  return new Map(documents.map((document) => [document.id as string, document]));
}

async function composeRows(
  source: RowSource,
  entity: EntityType,
  rows: Row[],
  path: EntityType[],
  excluded: ReadonlySet<string> = new Set(),
): Promise<Json[]> {
  const documents = rows.map(withoutBookkeeping);
  if (rows.length === 0) return documents;
  const ids = rows.map((row) => row.id);
  for (const relation of relations[entity]) {
    if (excluded.has(relation.field) || path.includes(relation.entity)) {
      if (isKeptInside(relation)) for (const document of documents) delete document[relation.field];
      continue;
    }
    const below = [...path, relation.entity];
    if (relation.kind === 'many' && isKeptInside(relation)) {
      const lists = await ownedLists(source, entity, relation, rows);
      const composed = await composeRows(source, relation.entity, lists.flat(), below);
      let at = 0;
      documents.forEach((document, index) => {
        const list = composed.slice(at, (at += lists[index]!.length));
        // Put where relations go, in their order, wherever the row kept it: a row composes alike
        // whatever its fields' order (a list kept from the stored row comes after those given).
        delete document[relation.field];
        if (list.length > 0) document[relation.field] = list;
      });
      continue;
    }
    if (!source.populated.has(relation.entity)) continue;
    if (relation.kind === 'many') {
      const children = await source.childrenOf(relation.entity, relation.foreignKey, ids);
      children.sort(byPosition);
      const composed = await composeRows(source, relation.entity, children, below);
      const byParent = new Map<string, Json[]>();
      children.forEach((child, index) => {
        const parentId = child[relation.foreignKey] as string;
        if (!byParent.has(parentId)) byParent.set(parentId, []);
        byParent.get(parentId)!.push(composed[index]!);
      });
      for (const document of documents) {
        const list = byParent.get(document.id as string);
        if (list) document[relation.field] = list;
      }
    } else {
      const references = [
        ...new Set(rows.map((row) => row[relation.reference]).filter((id) => typeof id === 'string')),
      ];
      if (references.length === 0) continue;
      const referenced = await source.byIds(relation.entity, references);
      const composed = await composeRows(source, relation.entity, referenced, below);
      const byId = new Map(composed.map((document) => [document.id as string, document]));
      for (const document of documents) {
        const target = byId.get(document[relation.reference] as string);
        if (target) document[relation.field] = target;
      }
    }
  }
  return documents;
}

/**
 * Each parent's owned children under `relation`, in order: those kept inside it (given back their foreign
 * key to it, and the parent's type where the link is generic); for a parent that is a row (not itself kept
 * inside one), each in the place of a row of the tabular form with its id pointing to it, written after it
 * (keeping the lists the kept one has and it cannot give), then the other rows pointing to it.
 */
async function ownedLists(
  source: RowSource,
  parentEntity: EntityType,
  relation: Extract<Relation, { kind: 'many' }>,
  parents: Row[],
): Promise<Row[][]> {
  const { entity, foreignKey, kindKey, field } = relation;
  const rowChildren = new Map<string, Map<string, Row>>();
  // Kept items have no `_id`: no row points to them (decompose.ts).
  const rowParents = parents.filter((parent) => parent._id !== undefined);
  if (source.populated.has(entity) && rowParents.length > 0) {
    const found = await source.childrenOf(
      entity,
      foreignKey,
      rowParents.map((parent) => parent.id),
    );
    found.sort(byPosition);
    for (const child of found) {
      const parentId = child[foreignKey] as string;
      if (!rowChildren.has(parentId)) rowChildren.set(parentId, new Map());
      rowChildren.get(parentId)!.set(child.id, child);
    }
  }
  return parents.map((parent) => {
    const rows = new Map(parent._id === undefined ? undefined : rowChildren.get(parent.id));
    const kept = Array.isArray(parent[field]) ? (parent[field] as Json[]) : [];
    const list = kept.map((child): Row => {
      const row = rows.get(child.id as string);
      if (!row) {
        return {
          ...child,
          [foreignKey]: parent.id,
          ...(kindKey ? { [kindKey]: child[kindKey] ?? parentEntity } : {}),
        } as Row;
      }
      rows.delete(row.id);
      let withLists: Row | undefined;
      for (const { field: name } of keptInsideRelations(entity))
        if (child[name] !== undefined) (withLists ??= { ...row })[name] = child[name];
      return withLists ?? row;
    });
    return [...list, ...rows.values()];
  });
}

function withoutBookkeeping(row: Row): Json {
  const document: Json = { ...row };
  for (const field of BOOKKEEPING) delete document[field];
  return document;
}

const byPosition = (a: Row, b: Row) =>
  (a._position ?? Number.MAX_SAFE_INTEGER) - (b._position ?? Number.MAX_SAFE_INTEGER) ||
  a.id.localeCompare(b.id);
