import type { Document } from 'bson';
import type { Collection } from '../engine/collection.ts';
import type { Database } from '../engine/database.ts';
import { CommandError, badValue } from '../errors.ts';
import { planNearQuery } from '../geo/index.ts';
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
 * the full filter, `$near` distance order, sort, then skip and limit.
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
  if (near && !collection.findIndex((spec) => ['2dsphere', '2d'].includes(String(spec.key[near.path]))))
    throw new CommandError(
      291,
      'NoQueryExecutionPlans',
      'error processing query: planner returned error :: caused by :: unable to find index for $geoNear query',
    );

  const candidates = collection.candidates(rest).docs;
  // Without an ordering the scan can stop as soon as skip + limit documents matched.
  const stopAfter = !sort && !near && limit > 0 ? skip + limit : Infinity;
  let selected: Document[] = [];
  for (const doc of candidates) {
    if (!matches(doc)) continue;
    selected.push(doc);
    if (selected.length >= stopAfter) break;
  }
  if (near) {
    const withDistance = selected
      .map((doc) => ({ doc, distance: near.distanceOf(doc) }))
      .filter(
        (entry): entry is { doc: Document; distance: number } =>
          entry.distance !== null &&
          (near.minDistance === undefined || entry.distance >= near.minDistance) &&
          (near.maxDistance === undefined || entry.distance <= near.maxDistance),
      );
    withDistance.sort((a, b) => a.distance - b.distance);
    selected = withDistance.map((entry) => entry.doc);
  }
  if (sort) selected = sortDocuments(selected, sort);
  return selected.slice(skip, limit > 0 ? skip + limit : undefined);
}
