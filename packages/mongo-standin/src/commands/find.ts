import { compileProjection } from '../query/projection.ts';
import { selectedDocuments } from '../query/select.ts';
import { findFields } from '../storage/field-subset.ts';
import { replyOf } from '../engine/collection.ts';
import { integerOption, targetCollection, type DatabaseCommand } from './command.ts';

export const find: DatabaseCommand = {
  names: ['find'],
  scope: 'database',
  run({ body }, database, { cursors }) {
    const name = targetCollection(body);
    const rawLimit = integerOption(body, 'limit') ?? 0;
    const project = compileProjection(body.projection, database.mingoOptions);
    const docs = selectedDocuments(database, database.collection(name), {
      filter: body.filter,
      sort: body.sort,
      skip: integerOption(body, 'skip'),
      limit: Math.abs(rawLimit),
      fields: findFields(body.filter, body.sort, body.projection),
    });
    return cursors.open(`${database.name}.${name}`, docs, {
      batchSize: integerOption(body, 'batchSize'),
      // A negative limit is the legacy way of asking for a single batch.
      singleBatch: body.singleBatch === true || rawLimit < 0,
      // A plain inclusion of top-level fields is cut from the stored bytes as each document is read.
      project: project && ((doc) => replyOf(doc) ?? project(doc)),
    });
  },
};
