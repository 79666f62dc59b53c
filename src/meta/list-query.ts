import { DEFAULT_PER_PAGE } from '../http/paging.ts';
import { invalidParameter } from '../http/problem.ts';
import { queryInteger } from '../http/query-integer.ts';

/** Spec 8.1 caps the management protocol's pages at 100; the meta protocol's lists follow it. */
export const MAX_META_PER_PAGE = 100;

/** What `page` and `per_page` accept, from the text of a query string (their defaults are `parsePaging`'s). */
export const pagingParameters = {
  page: queryInteger(1, 1_000_000),
  per_page: queryInteger(1, MAX_META_PER_PAGE),
};

/** `page` and `per_page` from a query string, or a 400 naming the one at fault. */
export function parsePaging(query: Record<string, string | string[] | undefined>): {
  page: number;
  perPage: number;
} {
  const read = (name: keyof typeof pagingParameters, fallback: number) => {
    const value = query[name];
    if (value === undefined) return fallback;
    const parsed = pagingParameters[name].safeParse(value);
    if (!parsed.success) throw invalidParameter(name, parsed.error.issues[0]!.message);
    return parsed.data;
  };
  return { page: read('page', 1), perPage: read('per_page', DEFAULT_PER_PAGE) };
}
