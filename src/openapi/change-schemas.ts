import * as z from 'zod';

/** One line of the change feed (src/db/change-feed.ts). */
export const ChangeLine = z
  .object({
    cursor: z
      .string()
      .describe('Where this change is in the feed: pass it as `after` to read the changes after it.'),
    resource: z
      .enum(['services', 'organizations', 'service_at_locations', 'taxonomies', 'taxonomy_terms'])
      .describe('The collection of the record, which is also its path.'),
    id: z.string().describe('The id of the record: `GET /{resource}/{id}` serves it.'),
    op: z
      .enum(['upsert', 'delete'])
      .describe(
        '`upsert`: the record is served, changed or new (fetch it); `delete`: it is no longer served.',
      ),
    changed_at: z.iso.datetime().describe('When the change was written (ISO 8601, UTC).'),
    source: z
      .string()
      .optional()
      .describe('The source whose import made the change; absent when a rebuild of the documents made it.'),
  })
  .describe('A change to a served record.');
