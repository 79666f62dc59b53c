import { Lazy, type Iterator } from 'mingo/lazy';
import { locationError } from '../errors.ts';

/**
 * `$count` as MongoDB runs it: one `{<field>: n}` document, or no document at all when the input is
 * empty (mingo outputs `{<field>: 0}`).
 */
export function $count(collection: Iterator, field: unknown): Iterator {
  if (typeof field !== 'string' || field === '')
    throw locationError(40156, 'the count field must be a non-empty string');
  if (field.startsWith('$')) throw locationError(40158, 'the count field cannot be a $-prefixed path');
  if (field.includes('.')) throw locationError(40160, "the count field cannot contain '.'");
  return collection.transform((docs: unknown[]) => Lazy(docs.length === 0 ? [] : [{ [field]: docs.length }]));
}
