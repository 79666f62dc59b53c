import { isPlainObject } from '../bson-values.ts';
import { assertNoNearOperator } from '../geo/index.ts';
import { selectedDocuments } from '../query/select.ts';
import { countFields } from '../storage/field-subset.ts';
import { integerOption, targetCollection, type DatabaseCommand } from './command.ts';

export const count: DatabaseCommand = {
  names: ['count'],
  scope: 'database',
  run({ body }, database) {
    if (isPlainObject(body.query)) assertNoNearOperator(body.query, 'count');
    const collection = database.collection(targetCollection(body));
    const skip = integerOption(body, 'skip') ?? 0;
    const limit = Math.abs(integerOption(body, 'limit') ?? 0);
    // A count of everything is the collection's size (estimatedDocumentCount), read from storage.
    if (isEmptyFilter(body.query) && skip >= 0) {
      const all = Math.max(0, (collection?.size ?? 0) - skip);
      return { n: limit > 0 ? Math.min(limit, all) : all, ok: 1 };
    }
    const selected = selectedDocuments(database, collection, {
      filter: body.query,
      skip,
      limit,
      // Only what the filter reads.
      fields: countFields(body.query),
    });
    let n = 0;
    for (const _ of selected) n++;
    return { n, ok: 1 };
  },
};

const isEmptyFilter = (query: unknown) =>
  query === undefined || query === null || (isPlainObject(query) && Object.keys(query).length === 0);
