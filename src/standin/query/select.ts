import type { Document } from 'bson';
import type { Collection } from '../engine/collection.ts';
import type { Database } from '../engine/database.ts';
import { badValue } from '../errors.ts';
import { assertNearIndex, orderByNearness, planNearQuery } from '../geo/index.ts';
import { isPlainObject } from '../bson-values.ts';
import { parseSort, sortDocuments } from './sort.ts';

export interface Selection {
  filter?: unknown;
  sort?: unknown;
  skip?: number;
  /** 0 or absent: no limit. */
  limit?: number;
}

/**
 * The documents of a collection a read or write selects, in result order: index-narrowed candidates,
 * the full filter, `$near` distance order, sort (or a walk of an index in sort order), then skip
 * and limit.
 */
export function selectDocuments(
  database: Database,
  collection: Collection | undefined,
  selection: Selection,
): Document[] {
  const filter = selection.filter ?? {};
  if (!isPlainObject(filter)) throw badValue('filter must be an object');
  const skip = selection.skip ?? 0;
  const limit = selection.limit ?? 0;
  if (skip < 0) throw badValue('skip value must be non-negative');
  const sort =
    selection.sort !== undefined && Object.keys(selection.sort as object).length > 0
      ? parseSort(selection.sort)
      : undefined;
  const near = planNearQuery(filter);
  const rest = near ? near.filter : filter;
  const matches = database.compileFilter(rest);
  if (!collection) return [];
  if (near) assertNearIndex(near, collection.indexSpecs);

  const plan = collection.candidates(rest);
  // A scan of the whole collection in sort order can walk an index on the sort key instead of sorting;
  // with no filter, every document matches, so the walk can start at the skip-th one.
  const skipInWalk = Object.keys(rest).length === 0 ? skip : 0;
  const ordered = sort && !near && plan.indexName === null ? collection.inIndexOrder(sort, skipInWalk) : null;
  const needsSort = sort !== undefined && ordered === null;
  const toSkip = ordered ? skip - skipInWalk : skip;
  // Without a reordering the scan can stop as soon as skip + limit documents matched.
  const stopAfter = !needsSort && !near && limit > 0 ? toSkip + limit : Infinity;
  let selected: Document[] = [];
  for (const doc of ordered ?? plan.docs) {
    if (!matches(doc)) continue;
    selected.push(doc);
    if (selected.length >= stopAfter) break;
  }
  if (near) selected = orderByNearness(near, selected);
  if (needsSort) selected = sortDocuments(selected, sort);
  return selected.slice(toSkip, limit > 0 ? toSkip + limit : undefined);
}
