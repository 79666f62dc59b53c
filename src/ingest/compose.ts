import type { Db } from 'mongodb';
import {
  entityTypes,
  relations,
  rootExclusions,
  rowCollection,
  type EntityType,
  type RootEntity,
} from './entities.ts';
import type { Row } from './row.ts';

type Json = Record<string, unknown>;

/** Fields of a row that are bookkeeping, not HSDS. */
const BOOKKEEPING = ['_id', '_hash', '_position'] as const;

/**
 * Builds the fully nested documents of some roots from the normalized rows, a level at a time: one query
 * per relation for the whole batch, never one per record. Nesting stops where it would come back to an
 * entity type already above (a service's organization lists no services).
 */
export async function composeRoots(
  db: Db,
  root: RootEntity,
  ids: string[],
  populated: ReadonlySet<EntityType>,
): Promise<Map<string, Json>> {
  const rows = await findRows(db, root, { _id: { $in: ids } });
  const documents = await composeRows({ db, populated }, root, rows, [root], new Set(rootExclusions[root]));
  return new Map(documents.map((document) => [document.id as string, document]));
}

/** The database, and the entity types that have any rows at all: the others need no query. */
interface Source {
  db: Db;
  populated: ReadonlySet<EntityType>;
}

/** Entity types with at least one row; relations to the others are skipped without a query. */
export async function populatedEntities(db: Db): Promise<Set<EntityType>> {
  const populated = new Set<EntityType>();
  for (const entity of entityTypes) {
    if (await db.collection(rowCollection(entity)).findOne({}, { projection: { _id: 1 } }))
      populated.add(entity);
  }
  return populated;
}

async function composeRows(
  source: Source,
  entity: EntityType,
  rows: Row[],
  path: EntityType[],
  excluded: ReadonlySet<string> = new Set(),
): Promise<Json[]> {
  const documents = rows.map(withoutBookkeeping);
  if (rows.length === 0) return documents;
  const ids = rows.map((row) => row.id);
  for (const relation of relations[entity]) {
    if (
      excluded.has(relation.field) ||
      path.includes(relation.entity) ||
      !source.populated.has(relation.entity)
    ) {
      continue;
    }
    const below = [...path, relation.entity];
    if (relation.kind === 'many') {
      const children = await findRows(source.db, relation.entity, { [relation.foreignKey]: { $in: ids } });
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
      const referenced = await findRows(source.db, relation.entity, { _id: { $in: references } });
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

function withoutBookkeeping(row: Row): Json {
  const document: Json = { ...row };
  for (const field of BOOKKEEPING) delete document[field];
  return document;
}

const byPosition = (a: Row, b: Row) =>
  (a._position ?? Number.MAX_SAFE_INTEGER) - (b._position ?? Number.MAX_SAFE_INTEGER) ||
  a.id.localeCompare(b.id);

async function findRows(db: Db, entity: EntityType, filter: Json): Promise<Row[]> {
  return db.collection<Row>(rowCollection(entity)).find(filter).toArray();
}
