import type { Db } from 'mongodb';
import { entityTypes, rowCollection, type EntityType } from './entities.ts';
import type { Row } from './row.ts';

/**
 * The rows an import batch has just written, as written, and the child lists it gave in full
 * (`entity`, foreign key, parent id): after the batch's writes, the children of such a parent in the
 * database are exactly the batch's rows that point to it, so composing needs no query for them.
 */
export interface BatchRows {
  rows: ReadonlyMap<EntityType, ReadonlyMap<string, Row>>;
  completeLists: ReadonlySet<string>;
}

export const childListKey = (entity: EntityType, foreignKey: string, parentId: string) =>
  `${entity}\u0000${foreignKey}\u0000${parentId}`;

/**
 * Where composing reads rows from: the batch's own rows when they are known to be the database's, the
 * database for the rest (documents that embed what the batch changed, records it only referred to). Both
 * give the same rows, so a document composes alike whichever way each row came.
 */
export class RowSource {
  /** Rows of the batch by entity, foreign key and parent id, grouped on first use. */
  private readonly byParent = new Map<string, Map<string, Row[]>>();

  private constructor(
    private readonly db: Db,
    /** Entity types with any rows at all: relations to the others need no query. */
    readonly populated: ReadonlySet<EntityType>,
    private readonly batch: BatchRows,
  ) {}

  /** A source over the database, knowing the rows `batch` wrote (none when rebuilding left-over changes). */
  static async open(db: Db, batch: BatchRows = NO_BATCH): Promise<RowSource> {
    const populated = new Set<EntityType>();
    for (const entity of entityTypes) {
      if (await db.collection(rowCollection(entity)).findOne({}, { projection: { _id: 1 } }))
        populated.add(entity);
    }
    return new RowSource(db, populated, batch);
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
    for (const parentId of parentIds) {
      if (this.batch.completeLists.has(childListKey(entity, foreignKey, parentId))) {
        for (const row of this.batchChildren(entity, foreignKey).get(parentId) ?? []) found.push(row);
      } else unknown.push(parentId);
    }
    if (unknown.length > 0) {
      for (const row of await this.find(entity, { [foreignKey]: { $in: unknown } })) found.push(row);
    }
    return found;
  }

  private batchChildren(entity: EntityType, foreignKey: string): Map<string, Row[]> {
    const key = `${entity}\u0000${foreignKey}`;
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
    return this.db.collection<Row>(rowCollection(entity)).find(filter).toArray();
  }
}

const NO_BATCH: BatchRows = { rows: new Map(), completeLists: new Set() };
