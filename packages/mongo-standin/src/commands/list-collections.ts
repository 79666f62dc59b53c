import type { Document } from 'bson';
import { isPlainObject } from '../bson-values.ts';
import { ID_INDEX_SPEC } from '../engine/index-spec.ts';
import { integerOption, type DatabaseCommand } from './command.ts';

export const listCollections: DatabaseCommand = {
  names: ['listCollections'],
  scope: 'database',
  run({ body }, database, { cursors }) {
    const nameOnly = body.nameOnly === true;
    const entries: Document[] = database.collectionNames().map((name) => {
      const collection = database.collection(name)!;
      return {
        name,
        type: 'collection',
        options: collection.options,
        info: { readOnly: false },
        idIndex: ID_INDEX_SPEC,
      };
    });
    const filter = isPlainObject(body.filter) ? database.compileFilter(body.filter) : () => true;
    const selected = entries
      .filter(filter)
      .map((entry) => (nameOnly ? { name: entry.name, type: entry.type } : entry));
    return cursors.open(`${database.name}.$cmd.listCollections`, selected, {
      batchSize: isPlainObject(body.cursor) ? integerOption(body.cursor, 'batchSize') : undefined,
    });
  },
};
