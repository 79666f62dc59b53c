import { resolve } from 'node:path';
import type { ServerCommand } from './command.ts';

/**
 * What mongod answers on the admin database about how it was started; of that, the stand-in has its data
 * directory, which a process sharing it needs to run it again on the same data (src/db/embedded.ts).
 */
export const getCmdLineOpts: ServerCommand = {
  names: ['getCmdLineOpts'],
  scope: 'server',
  run(_request, { engine }) {
    const dbPath = resolve(engine.dataDir);
    return { argv: ['standin', '--dbpath', dbPath], parsed: { storage: { dbPath } }, ok: 1 };
  },
};
