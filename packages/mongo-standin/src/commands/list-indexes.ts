import { namespaceNotFound } from '../errors.ts';
import { integerOption, targetCollection, type DatabaseCommand } from './command.ts';

export const listIndexes: DatabaseCommand = {
  names: ['listIndexes'],
  scope: 'database',
  run({ body }, database, { cursors }) {
    const name = targetCollection(body);
    const collection = database.collection(name);
    if (!collection) throw namespaceNotFound(`ns does not exist: ${database.name}.${name}`);
    return cursors.open(`${database.name}.${name}`, collection.indexSpecs, {
      batchSize: body.cursor ? integerOption(body.cursor, 'batchSize') : undefined,
    });
  },
};
