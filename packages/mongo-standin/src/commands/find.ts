import { compileProjection } from '../query/projection.ts';
import { selectedDocuments } from '../query/select.ts';
import { fieldsNeeded } from '../storage/field-subset.ts';
import { integerOption, targetCollection, type DatabaseCommand } from './command.ts';

export const find: DatabaseCommand = {
  names: ['find'],
  scope: 'database',
  run({ body }, database, { cursors }) {
    const name = targetCollection(body);
    const rawLimit = integerOption(body, 'limit') ?? 0;
    const docs = selectedDocuments(database, database.collection(name), {
      filter: body.filter,
      sort: body.sort,
      skip: integerOption(body, 'skip'),
      limit: Math.abs(rawLimit),
      fields: fieldsNeeded(body.filter, body.sort, body.projection),
    });
    return cursors.open(`${database.name}.${name}`, docs, {
      batchSize: integerOption(body, 'batchSize'),
      // A negative limit is the legacy way of asking for a single batch.
      singleBatch: body.singleBatch === true || rawLimit < 0,
      project: compileProjection(body.projection, database.mingoOptions),
    });
  },
};
