import type { DatabaseCommand } from './command.ts';

export const dropDatabase: DatabaseCommand = {
  names: ['dropDatabase'],
  scope: 'database',
  writes: true,
  run(_request, database, { cursors }) {
    cursors.killReading(`${database.name}.`);
    database.dropAll();
    return { dropped: database.name, ok: 1 };
  },
};
