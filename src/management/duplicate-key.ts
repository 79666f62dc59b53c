import { isDuplicateKey } from '../db/duplicate-key.ts';
import { HttpProblem } from '../http/problem.ts';

/**
 * Turns a write's collision with a unique index (MongoDB's E11000) into a 409 naming the field; rethrows
 * any other error. Uniqueness is left to the indexes so that concurrent writes cannot both succeed.
 */
export const rethrowAsConflict =
  (record: string) =>
  (error: unknown): never => {
    if (!isDuplicateKey(error)) throw error;
    const keyPattern: unknown = error.keyPattern;
    const field = keyPattern && typeof keyPattern === 'object' ? Object.keys(keyPattern)[0] : undefined;
    if (field === undefined) throw new HttpProblem(409, `The ${record} conflicts with an existing one.`);
    throw new HttpProblem(409, `A ${record} with this ${field} already exists.`, {
      errors: [{ field, message: 'is already taken' }],
    });
  };
