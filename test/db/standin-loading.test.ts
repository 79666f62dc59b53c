/*
 * The stand-in is a development and offline database: a server given MONGODB_URI never loads it, and an
 * install without it (the production image) needs MONGODB_URI. The server runs as `npm start` does, with a
 * preload that records every module it resolves, or hides packages as an install without them would; the
 * stand-in's own process, started by the server, inherits the preload (NODE_OPTIONS).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { freePort } from '../support/free-port.ts';
import { startScript, waitFor, type RunningProcess } from '../support/process.ts';

const PRELOAD = fileURLToPath(new URL('../support/module-hooks.mjs', import.meta.url));

let database: TestDatabase;
let dir: string;
const running: RunningProcess[] = [];

beforeAll(async () => {
  database = await startTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'hsds-standin-loading-'));
});
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
});
afterAll(async () => {
  await database?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * Starts the server as `npm start` does, with the preload, on a port and data directory of its own and
 * without the tests' MONGODB_URI unless `env` gives one.
 */
async function startServer(name: string, env: Record<string, string>) {
  const port = await freePort();
  const server = startScript('src/main.ts', {
    NODE_OPTIONS: `--import=${PRELOAD}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    HSDS_SEED: 'false',
    HSDS_DATA_DIR: path.join(dir, name),
    HSDS_EMBEDDED_DB_PORT: String(await freePort()),
    MONGODB_URI: '',
    ...env,
  });
  running.push(server);
  return { server, port };
}

/** Starts the server, waits until it is ready, and gives the URLs of the modules it resolved. */
async function modulesOfReadyServer(name: string, env: Record<string, string>): Promise<string[]> {
  const log = path.join(dir, `${name}.log`);
  const { server, port } = await startServer(name, { RESOLVED_MODULES_FILE: log, ...env });
  await waitFor(
    async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok,
    30_000,
    `the server to be ready\n${server.output()}`,
  );
  return (await readFile(log, 'utf8')).split('\n').filter(Boolean);
}

const isStandin = (url: string) => url.includes('/packages/mongo-standin/');

describe('the stand-in package', () => {
  it('is not loaded by a server given MONGODB_URI', async () => {
    const modules = await modulesOfReadyServer('uri', {
      MONGODB_URI: database.uri,
      HSDS_DB_NAME: randomDatabaseName(),
    });
    expect(modules.some((url) => url.includes('/src/app.ts'))).toBe(true);
    expect(modules.filter(isStandin)).toEqual([]);
  });

  it('is loaded when the server starts the embedded database', async () => {
    const modules = await modulesOfReadyServer('embedded', { HSDS_EMBEDDED: 'standin' });
    expect(modules.filter(isStandin)).not.toEqual([]);
  });

  // An install without development dependencies (npm ci --omit=dev, the production image) has neither
  // embedded database: the server says, in one line, that it needs MONGODB_URI, whichever it was to start.
  it.each(['auto', 'mongod', 'standin'])(
    'is missing, with mongodb-memory-server, from a production install: HSDS_EMBEDDED=%s asks for MONGODB_URI',
    async (embedded) => {
      const { server } = await startServer(`production-${embedded}`, {
        MISSING_PACKAGES: 'mongo-standin,mongodb-memory-server',
        HSDS_EMBEDDED: embedded,
      });
      expect(await server.exited).toBe(1);
      expect(server.output().trim()).toBe(
        'MONGODB_URI is not set, and this installation has no embedded database (it was installed without development dependencies): set MONGODB_URI',
      );
    },
  );

  it('is a broken install, not a production one, when a package of its own is missing', async () => {
    const { server } = await startServer('broken', { MISSING_PACKAGES: 'mingo', HSDS_EMBEDDED: 'standin' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("Cannot find package 'mingo'");
    expect(server.output()).not.toContain('set MONGODB_URI');
  });
});
