import * as z from 'zod';

/** The paging facts every list response carries (spec part 2, list header). */
export const PageHeader = z.looseObject({
  total_items: z.int().describe('Number of items in the whole result set.').optional(),
  total_pages: z.int().describe('Number of pages in the whole result set.').optional(),
  page_number: z.int().describe('Number of this page.').optional(),
  size: z.int().describe('Number of items on this page.').optional(),
  first_page: z.boolean().describe('Whether this is the first page.').optional(),
  last_page: z.boolean().describe('Whether this is the last page.').optional(),
  // The only header field the spec marks as required.
  empty: z
    .boolean()
    .describe(
      'Whether the result set is empty: true when nothing matches (total_items 0), whatever the page.',
    ),
});

/** A list response: the page header plus `contents`, the items of this page. */
export const page = <Item extends z.ZodType>(item: Item) =>
  PageHeader.extend({ contents: z.array(item).describe('The items on this page.') }).describe(
    'One page of a list.',
  );
