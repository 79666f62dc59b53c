import * as z from 'zod';
import { page } from '../hsds/index.ts';
import type { MetaEntry as StoredMetaEntry } from '../meta/entry.ts';
import { MetaEntryUpdate as metaEntryUpdate, NewMetaEntry } from '../meta/entry-body.ts';

/** The body of POST /meta/. */
export const MetaEntryInput = NewMetaEntry.describe(
  'A new meta entry: `id` and `recorded_at` are assigned; `timestamp` defaults to today (UTC).',
);

/** The body of PUT /meta/{meta_id}/. */
export const MetaEntryUpdate = metaEntryUpdate.describe(
  'The fields given replace those stored, the others are kept. `id` and `recorded_at` may be sent back ' +
    'as they were read, not changed.',
);

/** A meta entry as responses show it (meta/entry.ts): what may be written, and what the server assigns. */
export const MetaEntry: z.ZodType<StoredMetaEntry> = NewMetaEntry.extend({
  id: z.string().describe('Unique identifier of the entry.'),
  recorded_at: z.iso
    .datetime()
    .describe('When the entry was created (our extension: `timestamp` is only the day).'),
}).describe(
  'A meta entry (spec 2.3): a recorded call to the API, or one a client wrote. Every field is a string; ' +
    'the parameters, headers and bodies are JSON texts with their secrets redacted.',
);

export const MetaEntryPage = page(MetaEntry).describe('One page of meta entries, newest first.');
