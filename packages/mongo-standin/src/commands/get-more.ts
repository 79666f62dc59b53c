import { Long } from 'bson';
import { typeMismatch } from '../errors.ts';
import { integerOption, type ServerCommand } from './command.ts';

export const getMore: ServerCommand = {
  names: ['getMore'],
  scope: 'server',
  run({ body, databaseName }, { cursors }) {
    const id = body.getMore;
    if (!(id instanceof Long))
      throw typeMismatch(`Field 'getMore' must be of type long in: ${JSON.stringify(body)}`);
    if (typeof body.collection !== 'string') throw typeMismatch("Field 'collection' must be of type string");
    return cursors.getMore(
      id.toBigInt(),
      `${databaseName}.${body.collection}`,
      integerOption(body, 'batchSize') || undefined,
    );
  },
};
