import type { Document } from 'bson';
import type { CandidatePlan, Collection } from '../engine/collection.ts';
import type { Fields } from '../storage/field-subset.ts';
import type { Database } from '../engine/database.ts';
import { badValue } from '../errors.ts';
import { assertNearIndex, nearRegion, orderByNearness, planNearQuery } from '../geo/index.ts';
import { isPlainObject } from '../bson-values.ts';
import { parseSort, sortDocuments } from './sort.ts';

export interface Selection {
  filter?: unknown;
  sort?: unknown;
  skip?: number;
  /** 0 or absent: no limit. */
  limit?: number;
  /** The top-level fields to read of each document (a read that projects), or null for whole documents. */
  fields?: Fields;
}

/** How a selection is read: what narrows it, in which order, and where the scan may stop. */
interface SelectionPlan {
  near: ReturnType<typeof planNearQuery>;
  matches: (doc: Document) => boolean;
  /** Index-narrowed candidates, or the whole collection. */
  candidates: CandidatePlan;
  /** The index walked in sort order instead of sorting, when the candidates are the whole collection. */
  sortIndex: string | null;
  sort: ReturnType<typeof parseSort> | undefined;
  skip: number;
  limit: number;
  /** The first `skip` documents the index walk leaves out before any is read. */
  skipInWalk: number;
  /**
   * The sort index walked over the index-narrowed candidates, in order, instead of reading them all and
   * sorting: when they are many (reading each costs more than stepping over a key).
   */
  walkAmong: string | null;
  fields: Fields;
}

/**
 * Candidates an index narrowed a sorted read to are read in the sort index's order when they are at least
 * this many and a hundredth of the collection: stepping over a key costs about a hundredth of reading a
 * document, and walking in order reads only the documents up to the limit, and none of those an exact
 * index lets it skip.
 */
const WALK_AMONG_MIN = 32;
const WALK_AMONG_SHARE = 100;

/** The plan of a selection, its parts checked whether or not the collection exists (as MongoDB does). */
function planSelection(
  database: Database,
  collection: Collection | undefined,
  selection: Selection,
): SelectionPlan | null {
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
  if (!collection) return null;
  if (near) assertNearIndex(near, collection.indexSpecs);
  // A near query reads its geometry too: whole documents.
  const fields = near ? null : (selection.fields ?? null);
  // A near query's index gives the documents within its maximum distance.
  const reach = near ? { path: near.path, region: nearRegion(near.center, near.maxDistance) } : undefined;
  const candidates = collection.candidates(rest, fields, reach);
  // A scan of the whole collection in sort order can walk an index on the sort key instead of sorting;
  // with no filter, every document matches, so the walk can start at the skip-th one.
  const sortIndex = sort && !near && candidates.indexName === null ? collection.sortIndexName(sort) : null;
  const skipInWalk = sortIndex !== null && Object.keys(rest).length === 0 ? skip : 0;
  const many = (ids: ReadonlySet<number>) =>
    ids.size >= WALK_AMONG_MIN && ids.size * WALK_AMONG_SHARE >= collection.size;
  const walkAmong =
    sort && !near && candidates.ids && many(candidates.ids) ? collection.sortIndexName(sort) : null;
  return { near, matches, candidates, sortIndex, sort, skip, limit, skipInWalk, walkAmong, fields };
}

/**
 * The documents of a collection a read or write selects, in result order: index-narrowed candidates,
 * the full filter, `$near` distance order, sort (or a walk of an index in sort order), then skip
 * and limit. Read as they are asked for, unless an order must be computed over all of them first.
 */
export function* selectedDocuments(
  database: Database,
  collection: Collection | undefined,
  selection: Selection,
): Generator<Document> {
  const plan = planSelection(database, collection, selection);
  if (!collection || !plan) return;
  const { near, matches, candidates, sortIndex, sort, skip, limit, skipInWalk, fields } = plan;
  if (plan.walkAmong !== null && sort && candidates.ids) {
    yield* inSortIndexOrder(collection, plan, sort, candidates.ids);
    return;
  }
  const ordered = sortIndex !== null && sort ? collection.inIndexOrder(sort, skipInWalk, fields) : null;
  const needsSort = sort !== undefined && ordered === null;
  const toSkip = skip - skipInWalk;
  if (near || needsSort) {
    let selected: Document[] = [];
    for (const doc of candidates.docs) if (matches(doc)) selected.push(doc);
    if (near) selected = orderByNearness(near, selected);
    if (needsSort && sort) selected = sortDocuments(selected, sort);
    yield* selected.slice(toSkip, limit > 0 ? toSkip + limit : undefined);
    return;
  }
  let skipped = 0;
  let given = 0;
  for (const doc of ordered ?? candidates.docs) {
    if (!matches(doc)) continue;
    if (skipped < toSkip) {
      skipped++;
      continue;
    }
    yield doc;
    // Stop reading as soon as the limit is reached: the walk need not go on.
    if (limit > 0 && ++given >= limit) return;
  }
}

/** The candidates in sort order, read as they come: those an exact index gives are skipped unread. */
function* inSortIndexOrder(
  collection: Collection,
  { matches, candidates, skip, limit, fields }: SelectionPlan,
  sort: Record<string, 1 | -1>,
  ids: ReadonlySet<number>,
): Generator<Document> {
  let skipped = 0;
  let given = 0;
  for (const id of collection.idsInSortOrder(sort, ids)) {
    if (candidates.exact && skipped < skip) {
      skipped++;
      continue;
    }
    const doc = collection.readRecord(id, fields);
    if (!doc || !matches(doc)) continue;
    if (skipped < skip) {
      skipped++;
      continue;
    }
    yield doc;
    if (limit > 0 && ++given >= limit) return;
  }
}

/** The selected documents, all read (writes select their targets before changing any). */
export function selectDocuments(
  database: Database,
  collection: Collection | undefined,
  selection: Selection,
): Document[] {
  return [...selectedDocuments(database, collection, selection)];
}

/**
 * The plan `selectDocuments` follows, in the shape of MongoDB's explain `winningPlan` (the stages the
 * stand-in has: COLLSCAN, IXSCAN under FETCH, GEO_NEAR_2DSPHERE, SORT, SKIP, LIMIT).
 */
export function winningPlan(database: Database, collection: Collection | undefined, selection: Selection) {
  const planned = planSelection(database, collection, selection);
  if (!planned) return { stage: 'EOF' };
  const { near, candidates, sortIndex, sort, skip, limit, walkAmong } = planned;
  const indexName = candidates.indexName ?? sortIndex;
  const indexScan = (name: string) => ({ stage: 'IXSCAN', indexName: name });
  let plan: Document;
  if (walkAmong !== null && candidates.indexName !== null) {
    // Candidates walked in the sort index's order: an intersection of the two indexes, as MongoDB names it.
    const inputStages = [indexScan(candidates.indexName), indexScan(walkAmong)];
    plan = { stage: 'FETCH', inputStage: { stage: 'AND_HASH', inputStages } };
  } else if (near) {
    plan = {
      stage: 'GEO_NEAR_2DSPHERE',
      keyPattern: { [near.path]: '2dsphere' },
      // The stand-in measures the distances of the candidates another index narrowed the filter to.
      ...(candidates.indexName !== null ? { inputStage: indexScan(candidates.indexName) } : {}),
    };
  } else {
    plan = indexName !== null ? { stage: 'FETCH', inputStage: indexScan(indexName) } : { stage: 'COLLSCAN' };
  }
  if (sort && sortIndex === null && walkAmong === null)
    plan = { stage: 'SORT', sortPattern: sort, inputStage: plan };
  if (skip > 0) plan = { stage: 'SKIP', skipAmount: skip, inputStage: plan };
  if (limit > 0) plan = { stage: 'LIMIT', limitAmount: limit, inputStage: plan };
  return plan;
}
