import { Lazy, type Iterator } from 'mingo/lazy';
import { resolve } from 'mingo/util';
import type { Document } from 'bson';
import { badValue } from '../errors.ts';
import { compareValues } from '../compare.ts';
import { pathValues } from './path-values.ts';
import { refuseProtoPath } from './proto-paths.ts';

export type SortSpec = Record<string, 1 | -1>;

/** Validates a sort document the way MongoDB does (values must be 1 or -1). */
export function parseSort(spec: unknown): SortSpec {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
    throw badValue('sort must be an object');
  const out: SortSpec = {};
  for (const [path, direction] of Object.entries(spec as Document)) {
    refuseProtoPath(path);
    const n = Number(direction);
    if (n !== 1 && n !== -1)
      throw badValue(`$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
    out[path] = n;
  }
  if (Object.keys(out).length === 0) throw badValue('$sort stage must have at least one sort key');
  return out;
}

const EMPTY_ARRAY_KEY = Symbol('empty array');

/**
 * The value a document sorts by on one path: for arrays MongoDB uses the smallest element when
 * ascending and the largest when descending; a missing field sorts as null, an empty array before it.
 */
function sortKey(doc: Document, path: string, direction: 1 | -1): unknown {
  const values = pathValues(doc, path);
  if (values.length === 0) return Array.isArray(resolve(doc, path)) ? EMPTY_ARRAY_KEY : null;
  let best: unknown = values[0];
  for (const v of values) if (compareValues(v, best) * direction < 0) best = v;
  return best;
}

function compareKeys(a: unknown, b: unknown): number {
  if (a === EMPTY_ARRAY_KEY || b === EMPTY_ARRAY_KEY) return a === b ? 0 : a === EMPTY_ARRAY_KEY ? -1 : 1;
  return compareValues(a, b);
}

/** Stable sort of documents by a MongoDB sort specification. */
export function sortDocuments<T extends Document>(docs: T[], spec: SortSpec): T[] {
  const paths = Object.entries(spec);
  const keyed = docs.map((doc, position) => ({
    doc,
    position,
    keys: paths.map(([path, direction]) => sortKey(doc, path, direction)),
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < paths.length; i++) {
      const order = compareKeys(a.keys[i], b.keys[i]) * paths[i]![1];
      if (order !== 0) return order;
    }
    return a.position - b.position;
  });
  return keyed.map((k) => k.doc);
}

/** `$sort` aggregation stage using MongoDB's ordering. */
export function $sort(collection: Iterator, spec: unknown): Iterator {
  const sortSpec = parseSort(spec);
  return collection.transform((docs: unknown[]) => Lazy(sortDocuments(docs as Document[], sortSpec)));
}
