import { z } from 'zod';
import { displayName, recordId, stringField } from './field-schemas.ts';

/**
 * What responses show in place of a user's code: the field stays, so the shape is the spec's, but the code
 * (stored only as a hash) is never sent back. A PUT carrying this value keeps the code, so a client can
 * send back a user it read.
 */
export const REDACTED_CODE = '********';

/** `auth` is not an id a user can have: `/users/auth/` is the auth endpoint. */
const userId = recordId.refine((id) => id !== 'auth', "must not be 'auth'");

/**
 * Visible ASCII: a login names its user in the meta protocol's entries, so none may pass for another
 * (`аdmin` with a Cyrillic а, or `admin` with a zero-width space, both looked like `admin`); `x-appid` is
 * read as Latin-1 anyway. No colon: HTTP Basic credentials end the login at the first one.
 */
export const LOGIN_PATTERN = /^[!-9;-~]{1,128}$/;
export const LOGIN_RULE = 'must be 1 to 128 ASCII letters, digits or punctuation, without spaces or colons';
const login = stringField().regex(LOGIN_PATTERN, LOGIN_RULE);

const EMAIL_RULE = 'must be an email address (at most 254 characters), or empty for none';

/**
 * An email address, or empty for none (the administrator made at start-up has none), so that a user read
 * back can be sent back as it is.
 */
const email = z
  .union([z.email(EMAIL_RULE).max(254, EMAIL_RULE), z.literal('')], {
    error: (issue) =>
      issue.input === undefined
        ? 'is required'
        : typeof issue.input === 'string'
          ? EMAIL_RULE
          : 'must be a string',
  })
  .describe('An email address, or empty for none.');

/** A bound keeps a request from making us hash megabytes. */
export const userCode = stringField()
  .min(12, 'must be at least 12 characters')
  .max(256, 'must be at most 256 characters');

/** The body of POST `/users/`: every field of the spec's User; the id is generated when omitted. */
export const newUserInput = z.strictObject({
  id: userId.optional(),
  login,
  name: displayName,
  email,
  code: userCode,
});

/** The body of PUT `/users/{user_id}/`: the same fields; without `code` (or with the redacted value) the code is kept. */
export const userChangesInput = z.strictObject({
  id: userId.optional(),
  login,
  name: displayName,
  email,
  code: z.preprocess((code) => (code === REDACTED_CODE ? undefined : code), userCode.optional()),
});

export type NewUser = z.output<typeof newUserInput>;
export type UserChanges = z.output<typeof userChangesInput>;
