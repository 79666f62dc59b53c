import { STANDIN_VERSION } from './build-info.ts';
import type { ServerCommand } from './command.ts';
import { readFileSync } from 'node:fs';
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
      mem: memory(),
      metrics: { commands: commandMetrics.toDocument(), cursor: { open: { total: cursors.openCount } } },
      ok: 1,
    };
  },
};

const MIB = 1024 * 1024;

/**
 * Memory in MiB as mongod reports it: `resident` is the process's resident set (documents are not held
 * in it; the storage file's pages the kernel maps in count while they stay resident), `virtual` its
 * address space, which includes the storage file's whole mapping.
 */
function memory() {
  const { rss } = process.memoryUsage();
  const status = readFileSyncOrEmpty('/proc/self/status');
  const virtualKb = Number(/^VmSize:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return {
    bits: 64,
    resident: Math.round(rss / MIB),
    virtual: Math.round(virtualKb / 1024),
    supported: true,
  };
}

function readFileSyncOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
