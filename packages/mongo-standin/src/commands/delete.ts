import { isPlainObject } from '../bson-values.ts';
import { failedToParse, typeMismatch } from '../errors.ts';
import { selectDocuments } from '../query/select.ts';
import { targetCollection, type DatabaseCommand } from './command.ts';
import { WriteErrors } from './write-errors.ts';

export const deleteCommand: DatabaseCommand = {
  names: ['delete'],
  scope: 'database',
  writes: true,
  run({ body }, database) {
    const statements = body.deletes;
    if (!Array.isArray(statements)) throw typeMismatch("Field 'deletes' must be of type array");
    const collection = database.collection(targetCollection(body));
    const errors = new WriteErrors(body.ordered !== false);
    let n = 0;
    for (const [index, statement] of (statements as unknown[]).entries()) {
      const done = errors.attempt(index, () => {
        if (!isPlainObject(statement) || !isPlainObject(statement.q))
          throw typeMismatch('delete statement must be an object with a q filter');
        const limit = Number(statement.limit ?? 0);
        if (limit !== 0 && limit !== 1)
          throw failedToParse(`The limit field in delete objects must be 0 or 1. Got ${limit}`);
        if (!collection) return;
        for (const doc of selectDocuments(database, collection, { filter: statement.q, limit })) {
          collection.remove(doc);
          n++;
        }
      });
      if (!done) break;
    }
    return { n, ...errors.reply(), ok: 1 };
  },
};
