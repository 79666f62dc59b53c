import { STANDIN_VERSION } from './build-info.ts';
import type { ServerCommand } from './command.ts';
import { hostname } from 'node:os';

export const serverStatus: ServerCommand = {
  names: ['serverStatus'],
  scope: 'server',
  run(_request, { startedAt, cursors, commandMetrics }) {
    const uptimeMillis = Date.now() - startedAt;
    return {
      host: hostname(),
      version: STANDIN_VERSION,
      process: 'mongod',
      pid: process.pid,
      uptime: Math.floor(uptimeMillis / 1000),
      uptimeMillis,
      localTime: new Date(),
      metrics: { commands: commandMetrics.toDocument(), cursor: { open: { total: cursors.openCount } } },
      ok: 1,
    };
  },
};
