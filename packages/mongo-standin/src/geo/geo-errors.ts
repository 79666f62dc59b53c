import { CommandError } from '../errors.ts';

/** The query planner's error when no index can answer a near query. */
export const unableToPlanNear = () =>
  new CommandError(
    291,
    'NoQueryExecutionPlans',
    'error processing query: planner returned error :: caused by :: unable to find index for $geoNear query',
  );
