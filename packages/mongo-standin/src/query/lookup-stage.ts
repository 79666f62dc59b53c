import type { Document } from 'bson';
import { Lazy, type Iterator } from 'mingo/lazy';
import { $lookup as mingoLookup } from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';
import { isPlainObject } from '../bson-values.ts';
import { indexKey } from '../engine/index-key.ts';
import { failedToParse } from '../errors.ts';
import { pathValues } from './path-values.ts';

type LookupSpec = Parameters<typeof mingoLookup>[1];

/**
 * `$lookup` with `localField`/`foreignField` joined the way MongoDB does: a foreign document matches
 * when one of its `foreignField` values (array elements included; missing counts as null) equals one
 * of the local values (an array `localField` offers each element), by BSON equality, in the foreign
 * collection's order. A `pipeline` then runs over the matches only. The other forms are mingo's.
 */
export function $lookup(collection: Iterator, spec: unknown, options: Options): Iterator {
  if (!isPlainObject(spec)) throw failedToParse('the $lookup specification must be an Object');
  const { localField, foreignField, from, ...rest } = spec;
  if (localField === undefined && foreignField === undefined)
    return mingoLookup(collection, spec as LookupSpec, options);
  if (typeof localField !== 'string' || typeof foreignField !== 'string' || typeof from !== 'string')
    throw failedToParse("$lookup requires 'from', 'localField' and 'foreignField' to be strings");
  if (typeof rest.as !== 'string') throw failedToParse("$lookup requires an 'as' field");
  const foreign = options.collectionResolver?.(from) ?? [];
  const byKey = new Map<string, number[]>();
  foreign.forEach((doc, position) => {
    for (const key of joinKeys(doc as Document, foreignField)) {
      const positions = byKey.get(key);
      if (positions) positions.push(position);
      else byKey.set(key, [position]);
    }
  });
  const as = rest.as;
  return collection.map((doc) => {
    const positions = new Set<number>();
    for (const key of joinKeys(doc as Document, localField))
      for (const position of byKey.get(key) ?? []) positions.add(position);
    const matches = [...positions].sort((a, b) => a - b).map((position) => foreign[position]!);
    if (!rest.pipeline) return { ...(doc as Document), [as]: matches };
    return mingoLookup(Lazy([doc]), { ...rest, from: matches } as LookupSpec, options).collect()[0];
  });
}

/** The index keys a document offers on a join path: its values, or null when there are none. */
function joinKeys(doc: Document, path: string): Set<string> {
  const values = pathValues(doc, path);
  return new Set(values.length === 0 ? [indexKey(null)] : values.map(indexKey));
}
