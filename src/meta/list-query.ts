import type { ParsedUrlQuery } from 'node:querystring';
import { z } from 'zod';
import { queryInteger } from '../http/query-integer.ts';
import { parseQueryParameters } from '../management/list-parameters.ts';

/** Entries on a page of the meta list when the caller does not say. */
export const DEFAULT_PER_PAGE = 50;
/** Spec 8.1 caps the management protocol's pages at 100; the meta protocol's lists follow it. */
export const MAX_PER_PAGE = 100;

/** What `page` and `per_page` of the meta list accept, from the text of a query string, and their defaults. */
export const pagingParameters = {
  page: queryInteger(1, 1_000_000).default(1),
  per_page: queryInteger(1, MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
};

const paging = z.object(pagingParameters);

/** `page` and `per_page` from a query string, refused as the management lists' parameters are. */
export function parsePaging(query: ParsedUrlQuery): { page: number; perPage: number } {
  const { page, per_page } = parseQueryParameters(paging, query);
  return { page, perPage: per_page };
}
