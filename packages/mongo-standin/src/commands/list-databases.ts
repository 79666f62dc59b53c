import type { Document } from 'bson';
import { isPlainObject } from '../bson-values.ts';
import type { ServerCommand } from './command.ts';
import { compileFilter } from '../query/filter.ts';

export const listDatabases: ServerCommand = {
  names: ['listDatabases'],
  scope: 'server',
  run({ body }, { engine }) {
    const entries: Document[] = engine
      .databaseNames()
      .filter((name) => !engine.database(name)!.isEmpty)
      .map((name) => ({ name, sizeOnDisk: 0, empty: false }));
    const filter = isPlainObject(body.filter) ? compileFilter(body.filter) : () => true;
    const selected = entries.filter(filter);
    if (body.nameOnly === true) return { databases: selected.map(({ name }) => ({ name })), ok: 1 };
    return { databases: selected, totalSize: 0, totalSizeMb: 0, ok: 1 };
  },
};
