import { z } from 'zod';
import { holdsControls } from '../control-characters.ts';

/** A string field, whose messages say whether it was missing or of another type. */
export const stringField = () =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

/**
 * A record's id: also a path segment, so plain characters only, and not `.` or `..`, which clients and
 * browsers resolve away before sending the path.
 */
export const recordId = stringField()
  .regex(/^[\w.:-]{1,128}$/, 'must be 1 to 128 letters, digits or . _ : -')
  .refine((id) => id !== '.' && id !== '..', "must not be '.' or '..'");

/**
 * A human-readable name, on one line and as it reads: what lists and the user CLI print, where a line
 * break or an escape could forge lines or drive the operator's terminal.
 */
export const displayName = stringField()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .refine((name) => !holdsControls(name), 'must not hold control characters or text direction overrides');
