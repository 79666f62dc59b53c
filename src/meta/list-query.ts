import { invalidParameter } from '../http/problem.ts';
import { queryInteger } from '../http/query-integer.ts';

/** Entries on a page of the meta list when the caller does not say. */
export const DEFAULT_PER_PAGE = 50;
/** Spec 8.1 caps the management protocol's pages at 100; the meta protocol's lists follow it. */
export const MAX_PER_PAGE = 100;

/** What `page` and `per_page` of the meta list accept, from the text of a query string, and their defaults. */
export const pagingParameters = {
  page: queryInteger(1, 1_000_000).default(1),
  per_page: queryInteger(1, MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
};

/** `page` and `per_page` from a query string, or a 400 naming the one at fault. */
export function parsePaging(query: Record<string, string | string[] | undefined>): {
  page: number;
  perPage: number;
} {
  const read = (name: keyof typeof pagingParameters) => {
    const parsed = pagingParameters[name].safeParse(query[name]);
    if (!parsed.success) throw invalidParameter(name, parsed.error.issues[0]!.message);
    return parsed.data;
  };
  return { page: read('page'), perPage: read('per_page') };
}
