import { selectDocuments } from '../query/select.ts';
import { integerOption, targetCollection, type DatabaseCommand } from './command.ts';

export const count: DatabaseCommand = {
  names: ['count'],
  scope: 'database',
  run({ body }, database) {
    const docs = selectDocuments(database, database.collection(targetCollection(body)), {
      filter: body.query,
      skip: integerOption(body, 'skip'),
      limit: Math.abs(integerOption(body, 'limit') ?? 0),
    });
    return { n: docs.length, ok: 1 };
  },
};
