import { compareValues } from '../compare.ts';
import { typeMismatch } from '../errors.ts';
import { pathValues } from '../query/path-values.ts';
import { selectDocuments } from '../query/select.ts';
import { targetCollection, type DatabaseCommand } from './command.ts';

export const distinct: DatabaseCommand = {
  names: ['distinct'],
  scope: 'database',
  run({ body }, database) {
    if (typeof body.key !== 'string') throw typeMismatch("Field 'key' must be of type string");
    const docs = selectDocuments(database, database.collection(targetCollection(body)), {
      filter: body.query,
    });
    const values = docs.flatMap((doc) => pathValues(doc, body.key)).sort(compareValues);
    return { values: values.filter((v, i) => i === 0 || compareValues(values[i - 1], v) !== 0), ok: 1 };
  },
};
