import type { ServerCommand } from './command.ts';
import { MAX_BSON_OBJECT_SIZE } from '../limits.ts';

export const STANDIN_VERSION = '8.0.0';

/** Reports the MongoDB version whose behaviour the stand-in follows; `standin: true` tells it apart. */
export const buildInfo: ServerCommand = {
  names: ['buildInfo', 'buildinfo'],
  scope: 'server',
  run: () => ({
    version: STANDIN_VERSION,
    versionArray: STANDIN_VERSION.split('.').map(Number).concat(0),
    gitVersion: 'standin',
    bits: 64,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    storageEngines: ['standin'],
    standin: true,
    ok: 1,
  }),
};
