import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { Lazy, type Iterator } from 'mingo/lazy';
import { $facet as mingoFacet } from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';
import { cloneDocument, isPlainObject } from '../bson-values.ts';
import { readsOnly } from './read-only-pipeline.ts';

/**
 * `$facet`: each branch over the same input documents, copied only where a branch could change them or
 * pass them on beside another branch. mingo copies every document for every branch: a proximity search's
 * page and total (`$sort`, `$skip`, `$limit`, `$project`, and `$count`) copied each of its matches twice. A
 * specification other than an object of pipelines goes to mingo's `$facet`, as before.
 */
export function $facet(collection: Iterator, expr: unknown, options: Options): Iterator {
  if (!isPlainObject(expr) || !Object.values(expr).every(Array.isArray))
    return mingoFacet(collection, expr as Record<string, Document[]>, options);
  const branches = Object.entries(expr as Record<string, Document[]>);
  return collection.transform((docs: unknown[]) => {
    const result: Document = {};
    // The documents themselves go to the read-only branches that only count them, and to one other: two
    // branches passing the same objects on would share them in the output, where a later stage setting a
    // field inside one would set it in both. Each branch gets an array of its own.
    let passedOn = false;
    for (const [name, pipeline] of branches) {
      const counts = pipeline.length > 0 && '$count' in pipeline[pipeline.length - 1]!;
      const shared = readsOnly(pipeline) && (counts || !passedOn);
      if (shared && !counts) passedOn = true;
      result[name] = new Aggregator(pipeline, options).run(shared ? [...docs] : docs.map(cloneDocument));
    }
    return Lazy([result]);
  });
}
