import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { Lazy, type Iterator } from 'mingo/lazy';
import { $facet as mingoFacet } from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';
import { cloneDocument, isPlainObject } from '../bson-values.ts';
import { readsOnly } from './read-only-pipeline.ts';

/**
 * `$facet`: each branch over the same input documents, copied only for a branch whose stages could change
 * them. mingo copies every document for every branch: a proximity search's page and total (`$count`, and
 * `$sort`, `$skip`, `$limit`, `$project`) copied each of its matches twice. A specification other than an
 * object of pipelines goes to mingo's, which refuses it as before.
 */
export function $facet(collection: Iterator, expr: unknown, options: Options): Iterator {
  if (!isPlainObject(expr) || !Object.values(expr).every(Array.isArray))
    return mingoFacet(collection, expr as Record<string, Document[]>, options);
  const branches = Object.entries(expr as Record<string, Document[]>);
  return collection.transform((docs: unknown[]) => {
    const result: Document = {};
    for (const [name, pipeline] of branches) {
      // A branch's own array either way: a stage may reorder what it is given.
      const input = readsOnly(pipeline) ? [...docs] : docs.map(cloneDocument);
      result[name] = new Aggregator(pipeline, options).run(input);
    }
    return Lazy([result]);
  });
}
