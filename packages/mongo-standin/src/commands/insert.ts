import type { Document } from 'bson';
import { isPlainObject } from '../bson-values.ts';
import { rememberIdFirstEncoding } from '../document-encoding.ts';
import { badValue, typeMismatch } from '../errors.ts';
import { withId } from '../query/apply-update.ts';
import { targetCollection, type DatabaseCommand } from './command.ts';
import { WriteErrors } from './write-errors.ts';

export const insert: DatabaseCommand = {
  names: ['insert'],
  scope: 'database',
  writes: true,
  run({ body }, database) {
    const documents = body.documents;
    if (!Array.isArray(documents)) throw typeMismatch("Field 'documents' must be of type array");
    const collection = database.ensureCollection(targetCollection(body));
    const errors = new WriteErrors(body.ordered !== false);
    let n = 0;
    for (const [index, raw] of (documents as unknown[]).entries()) {
      const done = errors.attempt(index, () => {
        if (!isPlainObject(raw)) throw typeMismatch('document to insert must be an object');
        const doc: Document = withId(raw);
        rememberIdFirstEncoding(doc, raw);
        if (Array.isArray(doc._id)) throw badValue("can't use an array for _id");
        collection.insert(doc);
        n++;
      });
      if (!done) break;
    }
    return { n, ...errors.reply(), ok: 1 };
  },
};
