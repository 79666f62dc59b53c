import { invalidParameter } from './problem.ts';

/**
 * A 400 naming the first of `names` given more than once in a query string (`?limit=1&limit=2`), worded as
 * every endpoint words it, rather than as a type error of the list the query string parser makes of it.
 */
export function refuseRepeated(
  query: Readonly<Record<string, string | string[] | undefined>>,
  names: readonly string[],
): void {
  const repeated = names.find((name) => Array.isArray(query[name]));
  if (repeated !== undefined) throw invalidParameter(repeated, 'must be given once');
}
