/** Items on a page when the caller does not say. */
export const DEFAULT_PER_PAGE = 50;
/** The largest page we serve; larger requests are refused (stream with format=ndjson instead). */
export const MAX_PER_PAGE = 1000;

export interface PageHeader {
  total_items: number;
  total_pages: number;
  page_number: number;
  size: number;
  first_page: boolean;
  last_page: boolean;
  empty: boolean;
}

/**
 * The list header of spec part 2. Pages count from 1; a page past the end is an empty page with a true
 * header. `empty` is true when the result set is empty (spec part 2): nothing matched, whatever the page;
 * a page past the end of some results has `size` 0 and `empty` false.
 */
export function pageHeader(
  totalItems: number,
  pageNumber: number,
  perPage: number,
  size: number,
): PageHeader {
  const totalPages = Math.ceil(totalItems / perPage);
  return {
    total_items: totalItems,
    total_pages: totalPages,
    page_number: pageNumber,
    size,
    first_page: pageNumber === 1,
    last_page: pageNumber >= totalPages,
    empty: totalItems === 0,
  };
}
