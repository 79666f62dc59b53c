import type { Document } from 'bson';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { isPlainObject } from '../bson-values.ts';
import { badValue, toCommandError } from '../errors.ts';
import type { Projector } from '../cursors.ts';

/** A find-style projection (`{a: 1}`, `{a: 0}`, `$slice`, `$elemMatch`...) applied by mingo. */
export function compileProjection(projection: unknown, options: Partial<Options>): Projector | undefined {
  if (projection === undefined || projection === null) return undefined;
  if (!isPlainObject(projection)) throw badValue('projection must be an object');
  if (Object.keys(projection).length === 0) return undefined;
  const query = new Query({}, options);
  const project: Projector = (doc) => {
    try {
      return query.find([doc], projection).all()[0] as Document;
    } catch (error) {
      throw toCommandError(error);
    }
  };
  project({}); // reports an invalid projection before any batch is produced
  return project;
}
