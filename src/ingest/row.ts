import { createHash } from 'node:crypto';
import type { EntityType } from '../hsds/entities.ts';

/** One normalized record: an entity's own single-valued fields plus the foreign keys tying it to parents. */
export type Row = { _id: string; id: string; _position?: number } & Record<string, unknown>;

/** A row as stored: its `id` is its `_id`, kept once. */
export type StoredRow = { _id: string; _position?: number } & Record<string, unknown>;

export function storedRow(row: Row): StoredRow {
  const stored: Partial<Row> = { ...row };
  delete stored.id;
  return stored as StoredRow;
}

/** A stored row with its `id` back, second as it was given (composed documents keep the rows' field order). */
export const loadedRow = (stored: StoredRow): Row =>
  Object.assign({ _id: stored._id, id: stored._id }, stored);

/**
 * How a row arrives from the input. `replace`: the input gives the whole entity (a record, or an item of a
 * nested list), so fields it leaves out are removed, but links to parents it does not set are kept (other
 * lists made them). `table`: a row of the tabular form, which gives the entity and the links of its
 * table's `columns`: a foreign key cell left empty unlinks it, a foreign key column the table lacks keeps
 * the link. `merge`: the input only refers to the entity (a service's organization, a location inside a
 * service at location), so fields it gives are updated and the rest kept.
 */
export interface RowWrite {
  entity: EntityType;
  row: Row;
  mode: 'replace' | 'table' | 'merge';
  /** The table's columns, for a row of the tabular form. */
  columns?: readonly string[];
}

/**
 * The complete list of children of one parent under one foreign key, as the input gave it: children linked
 * before but missing now are detached.
 */
export interface ChildList {
  entity: EntityType;
  foreignKey: string;
  parentId: string;
  ids: string[];
}

/** Whether two rows hold the same content whatever their fields' order, so an import skips writing it. */
export const sameRow = (a: Row, b: Row): boolean => canonicalJson(a) === canonicalJson(b);

/**
 * A digest of a composed document, given as its JSON text (in parts, digested as their concatenation, which
 * is not made). Documents are composed from stored rows in a fixed order, so plain JSON text is stable for
 * equal content and much cheaper than sorting every key.
 */
export function documentHash(...json: string[]): string {
  const hash = createHash('sha1');
  for (const part of json) hash.update(part);
  return hash.digest('base64url');
}

/** JSON with object keys sorted, so equal content gives equal text whatever the key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
