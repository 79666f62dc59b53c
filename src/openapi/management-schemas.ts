import * as z from 'zod';
import { page } from '../hsds/index.ts';
import { accessEntryInput } from '../management/access-entry-input.ts';
import { newUserInput, REDACTED_CODE, userChangesInput, userCode } from '../management/user-input.ts';
import type { UserView } from '../management/users.ts';
import type { StoredAccessEntry } from '../db/protocol-records.ts';
import type { SourceView } from '../management/sources.ts';
import { entityTypes } from '../hsds/entities.ts';

/** The body of POST /users/. */
export const UserInput = newUserInput.describe(
  'A new user; the id is generated when left out. The code is stored only as a salted hash.',
);

/**
 * The body of PUT /users/{user_id}/. The route drops the redacted code before validating it, which the
 * schema it validates with cannot say: written out here, so a user read back is a valid body.
 */
export const UserUpdate = userChangesInput
  .extend({ code: z.union([z.literal(REDACTED_CODE), userCode]).optional() })
  .describe(
    `Every field of the user; \`id\`, if given, must be the id in the path. Without \`code\`, or with the ` +
      `redacted '${REDACTED_CODE}' a user is read with, the code is kept.`,
  );

/** A user as responses show it (management/users.ts). */
export const User: z.ZodType<UserView> = newUserInput
  .extend({
    id: newUserInput.shape.id.unwrap(),
    code: z.literal(REDACTED_CODE).describe('Always redacted: the code is never sent back.'),
  })
  .describe('A user of the management and meta protocols.');

export const UserPage = page(User).describe('One page of users.');

/** The body of POST /services/ and PUT /services/{service_id}/. */
export const AccessEntryInput = accessEntryInput.describe(
  "A grant of a path (exact, a prefix ending in '*', or '*' for every path) and an HTTP verb (any case, " +
    "or '*') to a user; the id is generated when left out, and on PUT must be the id in the path.",
);

/** An access entry as responses show it: its verb upper-case. */
export const AccessEntry: z.ZodType<StoredAccessEntry> = accessEntryInput
  .extend({ id: accessEntryInput.shape.id.unwrap() })
  .describe('An access entry (the management protocol’s "service"): a grant of a path and verb to a user.');

export const AccessEntryPage = page(AccessEntry).describe('One page of access entries.');

const time = (what: string) => z.iso.datetime().describe(what);
const count = z.int().min(0);

/** A source as `GET /sources/` shows it (management/sources.ts). Beyond the specification. */
export const Source: z.ZodType<SourceView> = z
  .object({
    name: z
      .string()
      .describe('The name imports give (`--source`, `source=`); `default` when they give none.'),
    first_started_at: time('When the first load for this source started.'),
    last_started_at: time('When the last load for this source started.'),
    last_load: z
      .object({
        started_at: time('When it started.'),
        finished_at: time('When it finished.'),
        mode: z.enum(['merge', 'replace']).describe('`replace`: a full refresh of the source.'),
        inserted: count,
        updated: count,
        unchanged: count,
        rejected: count,
        deleted: count.describe('Records a replace deleted.'),
      })
      .nullable()
      .describe('What the last load that finished did; null while none has (one under way, or stopped).'),
    records: z
      .partialRecord(z.enum(entityTypes), count)
      .describe(
        'The records this source loaded as records of their own (an input line, array item or table row; ' +
          'not what they nest), by entity type; a record several sources loaded counts for each.',
      ),
  })
  .describe('A source of directory data: a publisher or feed, as imports name it.');

export const SourcePage = page(Source).describe('One page of sources.');
