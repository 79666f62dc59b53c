import { CommandError } from '../errors.ts';

/**
 * A geometry MongoDB's GeoParser rejects. The reason is MongoDB's wording; each caller wraps it the way
 * the server does in its context (BadValue in a query, Location16755 on insert, no match when stored).
 */
export class InvalidGeometry extends Error {
  override readonly name = 'InvalidGeometry';
}

/** The query planner's error when no index can answer a near query. */
export const unableToPlanNear = () =>
  new CommandError(
    291,
    'NoQueryExecutionPlans',
    'error processing query: planner returned error :: caused by :: unable to find index for $geoNear query',
  );
