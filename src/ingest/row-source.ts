import type { Db } from 'mongodb';
import { entityTypes, relations, type EntityType } from '../hsds/entities.ts';
import { rowCollection } from '../db/collections.ts';
import { loadedRow, type Row, type StoredRow } from './row.ts';

/**
 * The rows an import batch has just written, as written, and the child lists it gave in full
 * (`entity`, foreign key, parent id): after the batch's writes, the children of such a parent in the
 * database are exactly the batch's rows that point to it, so composing needs no query for them.
 */
export interface BatchRows {
  rows: ReadonlyMap<EntityType, ReadonlyMap<string, Row>>;
  completeLists: ReadonlySet<string>;
}

/** A relation by its child entity and the foreign key pointing to the parent. */
const relationKey = (entity: EntityType, foreignKey: string) => `${entity}\u0000${foreignKey}`;

export const childListKey = (entity: EntityType, foreignKey: string, parentId: string) =>
  `${relationKey(entity, foreignKey)}\u0000${parentId}`;

/**
 * Where composing reads rows from: the batch's own rows when they are known to be the database's, the
 * database for the rest (documents that embed what the batch changed, records it only referred to). Both
 * give the same rows, so a document composes alike whichever way each row came.
 */
export class RowSource {
  /** Rows of the batch by entity, foreign key and parent id, grouped on first use. */
  private readonly byParent = new Map<string, Map<string, Row[]>>();
  /**
   * Children read ahead, by entity and foreign key, for the batch's rows whose lists the batch did not
   * give: one query per relation for the whole batch rather than one per level of nesting it appears at.
   */
  private readonly readAhead = new Map<string, Map<string, Row[]>>();

  private constructor(
    private readonly db: Db,
    /** Entity types with any rows at all: relations to the others need no query. */
    readonly populated: ReadonlySet<EntityType>,
    private readonly batch: BatchRows,
  ) {}

  /** A source over the database, knowing the rows `batch` wrote (none when rebuilding left-over changes). */
  static async open(db: Db, batch: BatchRows = NO_BATCH): Promise<RowSource> {
    const found = await Promise.all(
      entityTypes.map((entity) =>
        db.collection(rowCollection(entity)).findOne({}, { projection: { _id: 1 } }),
      ),
    );
    const populated = new Set(entityTypes.filter((_entity, index) => found[index] !== null));
    const source = new RowSource(db, populated, batch);
    await source.readChildrenAhead();
    return source;
  }

  private async readChildrenAhead(): Promise<void> {
    const wanted = new Map<string, { entity: EntityType; foreignKey: string; parentIds: string[] }>();
    for (const [entity, rows] of this.batch.rows) {
      for (const relation of relations[entity]) {
        if (relation.kind !== 'many' || !this.populated.has(relation.entity)) continue;
        const key = relationKey(relation.entity, relation.foreignKey);
        if (!wanted.has(key))
          wanted.set(key, { entity: relation.entity, foreignKey: relation.foreignKey, parentIds: [] });
        const { parentIds } = wanted.get(key)!;
        for (const id of rows.keys()) {
          if (!this.batch.completeLists.has(childListKey(relation.entity, relation.foreignKey, id)))
            parentIds.push(id);
        }
      }
    }
    await Promise.all(
      [...wanted].map(async ([key, { entity, foreignKey, parentIds }]) => {
        if (parentIds.length === 0) return;
        const children = new Map<string, Row[]>(parentIds.map((id) => [id, []]));
        for (const row of await this.find(entity, { [foreignKey]: { $in: parentIds } }))
          children.get(row[foreignKey] as string)?.push(row);
        this.readAhead.set(key, children);
      }),
    );
  }

  /** The rows of `entity` with these ids, those the batch wrote taken from it. */
  async byIds(entity: EntityType, ids: string[]): Promise<Row[]> {
    const known = this.batch.rows.get(entity);
    const found: Row[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const row = known?.get(id);
      if (row) found.push(row);
      else missing.push(id);
    }
    if (missing.length > 0) found.push(...(await this.find(entity, { _id: { $in: missing } })));
    return found;
  }

  /** The rows of `entity` whose `foreignKey` is one of `parentIds`, unordered. */
  async childrenOf(entity: EntityType, foreignKey: string, parentIds: string[]): Promise<Row[]> {
    const found: Row[] = [];
    const unknown: string[] = [];
    const readAhead = this.readAhead.get(relationKey(entity, foreignKey));
    for (const parentId of parentIds) {
      const known = this.batch.completeLists.has(childListKey(entity, foreignKey, parentId))
        ? (this.batchChildren(entity, foreignKey).get(parentId) ?? [])
        : readAhead?.get(parentId);
      if (known) for (const row of known) found.push(row);
      else unknown.push(parentId);
    }
    if (unknown.length > 0) {
      for (const row of await this.find(entity, { [foreignKey]: { $in: unknown } })) found.push(row);
    }
    return found;
  }

  private batchChildren(entity: EntityType, foreignKey: string): Map<string, Row[]> {
    const key = relationKey(entity, foreignKey);
    let grouped = this.byParent.get(key);
    if (!grouped) {
      grouped = new Map();
      for (const row of this.batch.rows.get(entity)?.values() ?? []) {
        const parentId = row[foreignKey];
        if (typeof parentId !== 'string') continue;
        if (!grouped.has(parentId)) grouped.set(parentId, []);
        grouped.get(parentId)!.push(row);
      }
      this.byParent.set(key, grouped);
    }
    return grouped;
  }

  private find(entity: EntityType, filter: Record<string, unknown>): Promise<Row[]> {
    return findRows(this.db, entity, filter);
  }
}

/** The rows of `entity` matching `filter`, each with its `id` given back. */
export async function findRows(db: Db, entity: EntityType, filter: Record<string, unknown>): Promise<Row[]> {
  return (await db.collection<StoredRow>(rowCollection(entity)).find(filter).toArray()).map(loadedRow);
}

const NO_BATCH: BatchRows = { rows: new Map(), completeLists: new Set() };
