import { z } from 'zod';
import { displayName, recordId, stringField } from './field-schemas.ts';

const GRANTABLE_VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', '*'] as const;

/** An exact path, or a prefix ending in `*` (`*` alone: every path); see `src/auth/grants.ts`. */
const grantPath = stringField()
  .max(500, 'must be at most 500 characters')
  .regex(/^(\*|\/[^*\s]*\*?)$/, "must start with '/' (or be '*'), with '*' only at the end, for a prefix");

const verb = stringField()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(GRANTABLE_VERBS, `must be one of ${GRANTABLE_VERBS.join(', ')}`));

/** The body of POST `/services/` and PUT `/services/{service_id}/`; the id is generated when omitted. */
export const accessEntryInput = z.strictObject({
  id: recordId.optional(),
  user_id: recordId,
  name: displayName.optional(),
  path: grantPath,
  verb,
});

export type AccessEntryInput = z.output<typeof accessEntryInput>;
