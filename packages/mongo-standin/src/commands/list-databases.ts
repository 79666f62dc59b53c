import type { Document } from 'bson';
import { isPlainObject } from '../bson-values.ts';
import type { Database } from '../engine/database.ts';
import type { ServerCommand } from './command.ts';
import { compileFilter } from '../query/filter.ts';

export const listDatabases: ServerCommand = {
  names: ['listDatabases'],
  scope: 'server',
  run({ body }, { engine }) {
    const entries: Document[] = engine
      .databaseNames()
      .filter((name) => !engine.database(name)!.isEmpty)
      .map((name) => ({ name, sizeOnDisk: sizeOnDisk(engine.database(name)!), empty: false }));
    const filter = isPlainObject(body.filter) ? compileFilter(body.filter) : () => true;
    const selected = entries.filter(filter);
    if (body.nameOnly === true) return { databases: selected.map(({ name }) => ({ name })), ok: 1 };
    const totalSize = selected.reduce((sum, entry) => sum + (entry.sizeOnDisk as number), 0);
    return { databases: selected, totalSize, totalSizeMb: Math.floor(totalSize / (1024 * 1024)), ok: 1 };
  },
};

const sizeOnDisk = (database: Database): number =>
  database.collectionNames().reduce((sum, name) => sum + database.collection(name)!.totalSize, 0);
