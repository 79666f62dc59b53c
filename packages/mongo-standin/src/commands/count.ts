import { isPlainObject } from '../bson-values.ts';
import { assertNoNearOperator } from '../geo/index.ts';
import { selectedDocuments } from '../query/select.ts';
import { integerOption, targetCollection, type DatabaseCommand } from './command.ts';

export const count: DatabaseCommand = {
  names: ['count'],
  scope: 'database',
  run({ body }, database) {
    if (isPlainObject(body.query)) assertNoNearOperator(body.query, 'count');
    const selected = selectedDocuments(database, database.collection(targetCollection(body)), {
      filter: body.query,
      skip: integerOption(body, 'skip'),
      limit: Math.abs(integerOption(body, 'limit') ?? 0),
    });
    let n = 0;
    for (const _ of selected) n++;
    return { n, ok: 1 };
  },
};
