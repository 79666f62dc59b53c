import type { DatabaseCommand } from './command.ts';

export const dropDatabase: DatabaseCommand = {
  names: ['dropDatabase'],
  scope: 'database',
  async run(_request, database, { engine }) {
    await engine.dropDatabase(database.name);
    return { dropped: database.name, ok: 1 };
  },
};
