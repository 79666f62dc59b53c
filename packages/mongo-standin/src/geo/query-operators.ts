import type { AnyObject, Options, QueryOperator } from 'mingo/types';
import { queryCandidates, valuesAtPath } from './field-values.ts';
import { compileGeoPredicate, type GeoOperator } from './geo-predicates.ts';

/**
 * The test of $geoWithin or $geoIntersects on a field, for the query engine's operator (below) and for
 * filters tested without it (query/filter.ts). The argument is validated once, when the test is made; a
 * document matches when any geometry at the path does (MongoDB's array traversal), and values that are
 * not geometries simply do not match.
 */
export function geoFieldTest(
  operator: GeoOperator,
  selector: string,
  argument: unknown,
): (doc: AnyObject) => boolean {
  const predicate = compileGeoPredicate(operator, argument);
  return (doc) => valuesAtPath(doc, selector).some((value) => queryCandidates(value).some(predicate));
}

/** The query engine's operator for $geoWithin or $geoIntersects (its signature: the options unused). */
const geoQueryOperator =
  (operator: GeoOperator) =>
  (selector: string, argument: unknown, _options: Options): ((doc: AnyObject) => boolean) =>
    geoFieldTest(operator, selector, argument);

/**
 * MongoDB's $geoWithin and $geoIntersects as mingo v7 query operators. Register them on a Context; the
 * Query/Aggregator from the default 'mingo' entry point still provide every built-in operator alongside:
 *
 *   const context = Context.init().addQueryOps(geoQueryOperators); // Context from 'mingo/core'
 *   new Query(filter, { context }).test(doc);
 */
export const geoQueryOperators: Record<GeoOperator, QueryOperator> = {
  $geoWithin: geoQueryOperator('$geoWithin'),
  $geoIntersects: geoQueryOperator('$geoIntersects'),
};
