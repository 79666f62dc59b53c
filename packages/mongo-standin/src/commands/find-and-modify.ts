import type { Document } from 'bson';
import { isPlainObject } from '../bson-values.ts';
import { failedToParse } from '../errors.ts';
import { compileProjection } from '../query/projection.ts';
import { selectDocuments } from '../query/select.ts';
import { targetCollection, type DatabaseCommand } from './command.ts';
import { runUpdate } from './update.ts';

export const findAndModify: DatabaseCommand = {
  names: ['findAndModify', 'findandmodify'],
  scope: 'database',
  writes: true,
  run({ body }, database) {
    const filter = body.query ?? {};
    if (!isPlainObject(filter)) throw failedToParse("'query' must be an object");
    const remove = body.remove === true;
    const hasUpdate = body.update !== undefined;
    if (remove && hasUpdate) throw failedToParse('Cannot specify both an update and remove=true');
    if (!remove && !hasUpdate) throw failedToParse('Either an update or remove=true must be specified');
    if (remove && body.new === true)
      throw failedToParse(
        "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
      );
    if (remove && body.upsert === true)
      throw failedToParse('Cannot specify both upsert=true and remove=true');
    const project = compileProjection(body.fields, database.mingoOptions) ?? ((doc: Document) => doc);
    const name = targetCollection(body);

    if (remove) {
      const collection = database.collection(name);
      const [doc] = selectDocuments(database, collection, { filter, sort: body.sort, limit: 1 });
      if (!doc || !collection) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
      collection.remove(doc);
      return { lastErrorObject: { n: 1 }, value: project(doc), ok: 1 };
    }

    const collection = database.ensureCollection(name);
    const outcome = runUpdate(database, collection, {
      q: filter,
      u: body.update,
      upsert: body.upsert === true,
      sort: body.sort,
      arrayFilters: body.arrayFilters,
    });
    const value = body.new === true ? outcome.after : outcome.before;
    const upserted = outcome.upsertedId !== undefined;
    return {
      lastErrorObject: {
        n: outcome.matched + (upserted ? 1 : 0),
        updatedExisting: outcome.matched > 0,
        ...(upserted ? { upserted: outcome.upsertedId } : {}),
      },
      value: value ? project(value) : null,
      ok: 1,
    };
  },
};
