import type { Document } from 'bson';
import { Long } from 'bson';
import type { Iterator } from 'mingo/lazy';
import { $unwind as mingoUnwind } from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';
import { isPlainObject } from '../bson-values.ts';

/** `$unwind` whose `includeArrayIndex` field is a long, as on MongoDB (mingo gives a JS number, an int). */
export function $unwind(collection: Iterator, spec: unknown, options: Options): Iterator {
  const unwound = mingoUnwind(collection, spec as Parameters<typeof mingoUnwind>[1], options);
  const indexField = isPlainObject(spec) ? spec.includeArrayIndex : undefined;
  if (typeof indexField !== 'string') return unwound;
  return unwound.map((doc) => {
    const index = (doc as Document)[indexField];
    return typeof index === 'number' ? { ...(doc as Document), [indexField]: Long.fromNumber(index) } : doc;
  });
}
