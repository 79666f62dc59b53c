import type { Document } from 'bson';
import { queryCandidates, valuesAtPath } from '../geo/field-values.ts';
import { queryCells, shapeCells, type Area } from '../geo/cells.ts';
import { CollectionIndex, type KeyEntry } from './collection-index.ts';
import type { IndexSpec } from './index-spec.ts';

/** Whether an index is a 2dsphere index on one field: the kind that keeps cells (GeoIndex). */
export const isGeoIndexSpec = (spec: IndexSpec): boolean => {
  const kinds = Object.values(spec.key);
  return kinds.length === 1 && kinds[0] === '2dsphere';
};

/** A cell's key: its digits, then a 0 byte, which sorts before every digit (a cell before its children). */
const cellKey = (cell: string): Buffer => Buffer.from(`${cell}\0`, 'latin1');
/** The first name after every cell below `cell`: its digits run from '0' to '3'. */
const afterDescendants = (cell: string): Buffer => Buffer.from(`${cell}4`, 'latin1');

/**
 * A 2dsphere index on one field, kept as cells (see geo/cells.ts): each geometry at the field is entered
 * under the few cells covering it, so that a geo query reads the documents in and around its region's
 * cells instead of the whole collection. It narrows only: every candidate is then tested by the query.
 */
export class GeoIndex extends CollectionIndex {
  protected override keyEntries(doc: Document): KeyEntry[] {
    if (this.partialFilter && !this.partialFilter(doc)) return [];
    const cells = new Set<string>();
    // Every geometry a query could test at the path: each element of an array, and the array itself.
    for (const geometry of valuesAtPath(doc, this.fields[0]!).flatMap(queryCandidates)) {
      // MongoDB neither indexes nor matches big polygons (strict winding) and out-of-range legacy pairs.
      if (geometry.shape === undefined || geometry.strictWinding) continue;
      for (const cell of shapeCells(geometry.shape)) cells.add(cell);
    }
    return [...cells].map((cell) => ({ key: cellKey(cell), truncated: false, values: [cell] }));
  }

  /** Record ids of every document with a geometry whose cells meet the region's: a superset of its matches. */
  idsWithin(region: Area): Set<number> {
    const ids = new Set<number>();
    const ancestors = new Set<string>();
    for (const cell of queryCells(region)) {
      for (const id of this.idsBetween(Buffer.from(cell, 'latin1'), afterDescendants(cell))) ids.add(id);
      for (let length = 0; length < cell.length; length++) ancestors.add(cell.slice(0, length));
    }
    for (const ancestor of ancestors) for (const id of this.idsUnder(cellKey(ancestor))) ids.add(id);
    return ids;
  }

  override get isComplete(): boolean {
    return false;
  }

  override get isUnique(): boolean {
    return false;
  }

  override holdsAll(): boolean {
    return false;
  }

  override servesSort(): boolean {
    return false;
  }

  protected override noteArrays(): boolean {
    return false;
  }
}
