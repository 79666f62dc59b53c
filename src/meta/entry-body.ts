import { z } from 'zod';
import { isCalendarDay } from '../calendar-day.ts';
import { META_STATUSES } from './entry.ts';

const text = z.string({ error: 'must be a string' });

/** The spec's `yyyy-mm-dd`, and a day that exists (not 2026-02-30). */
const day = text
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date as yyyy-mm-dd', abort: true })
  .refine(isCalendarDay, 'is not a real date');

/** What a caller may write: every field of spec 2.3 but `id`, each optional. */
const writableFields = {
  timestamp: day.optional(),
  appid: text.optional(),
  system: text.optional(),
  path: text.optional(),
  verb: text.optional(),
  request_parameters: text.optional(),
  request_headers: text.optional(),
  request_body: text.optional(),
  response_body: text.optional(),
  status: z.enum(META_STATUSES, { error: `must be one of ${META_STATUSES.join(', ')}` }).optional(),
};

/** `POST /meta/`: `id` and `recorded_at` are ours to give, so a body naming them is refused. */
export const NewMetaEntry = z.strictObject(writableFields);

/**
 * `PUT /meta/{id}/`: the fields given replace those stored, the rest are kept. `id` and `recorded_at` may
 * be sent back as they were fetched (the route checks they are unchanged), not changed.
 */
export const MetaEntryUpdate = z.strictObject({
  ...writableFields,
  id: text.optional(),
  recorded_at: text.optional(),
});
