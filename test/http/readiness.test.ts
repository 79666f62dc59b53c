import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { Database, READINESS_COLLECTION } from '../../src/db/database.ts';
import { createLogger } from '../../src/log.ts';
import { startStandin } from 'mongo-standin';
import { freePort } from '../support/free-port.ts';
import { waitFor } from '../support/process.ts';

// The stand-in is started by hand here, on a fixed port, because the test stops and restarts it.
describe.skipIf(Boolean(process.env.MONGODB_URI))('readiness while the database comes and goes', () => {
  it('answers 503 with Retry-After while it is down, locks no client out, and recovers by itself', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hsds-ready-'));
    const port = await freePort();
    let standin = await startStandin({ port, dataDir });
    const logger = createLogger('silent');
    const database = new Database({ uri: standin.uri, dbName: 'ready', timeoutMs: 500, logger });
    const server = createServer(buildApp({ config: loadConfig({}), database, logger }).callback());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const readyz = `http://127.0.0.1:${(server.address() as { port: number }).port}/readyz`;
    try {
      expect((await fetch(readyz)).status).toBe(200);

      await standin.close();
      const down = await fetch(readyz);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      expect(await down.json()).toEqual({ status: 'unavailable', database: 'down', prepared: true });
      // Streamed answers too: the query fails before anything is sent, so it is a problem, not a cut body.
      for (const list of ['/services?format=ndjson', '/services?minimal=true', '/services']) {
        const streamed = await fetch(new URL(list, readyz));
        expect(streamed.status, list).toBe(503);
        expect(streamed.headers.get('content-type'), list).toMatch(/^application\/problem\+json/);
        expect(streamed.headers.get('retry-after'), list).not.toBeNull();
      }
      // Credentials that cannot be checked are no failed attempt: more than the limit (10) of them do not
      // lock the client out once the database is back.
      const management = new URL('/management/users', readyz);
      const credentials = { headers: { 'x-appid': 'ana', 'x-appkey': 'not-checked-yet-1234' } };
      for (let attempt = 1; attempt <= 11; attempt += 1) {
        expect((await fetch(management, credentials)).status, `attempt ${attempt}`).toBe(503);
      }

      standin = await startStandin({ port, dataDir });
      await waitFor(async () => (await fetch(readyz)).status === 200, 15_000, 'readiness after restart');
      expect((await fetch(management, credentials)).status).toBe(403);
    } finally {
      server.close();
      await database.close();
      await standin.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('is 503, not writable, after a write was refused for lack of space, until a small write succeeds', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hsds-ready-'));
    const standin = await startStandin({ port: await freePort(), dataDir });
    const logger = createLogger('silent');
    const database = new Database({ uri: standin.uri, dbName: 'space', timeoutMs: 1000, logger });
    const server = createServer(buildApp({ config: loadConfig({}), database, logger }).callback());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const readyz = `http://127.0.0.1:${(server.address() as { port: number }).port}/readyz`;
    try {
      // The stand-in cannot run out of space on demand: readiness's write is refused for real by a unique
      // index that the document it would insert breaks (a second document without the field).
      const probes = database.db.collection<{ _id: string }>(READINESS_COLLECTION);
      await probes.insertOne({ _id: 'blocker' });
      await probes.createIndex({ blocked: 1 }, { unique: true, name: 'blocked_1' });
      // A ping alone while no write was refused: the readiness document is not written.
      expect((await fetch(readyz)).status).toBe(200);
      expect(await probes.countDocuments()).toBe(1);

      database.refusedForSpace(new Error('No space left on device'));
      const refused = await fetch(readyz);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({
        status: 'unavailable',
        database: 'not writable',
        prepared: true,
      });

      await probes.dropIndex('blocked_1');
      const freed = await fetch(readyz);
      expect(freed.status).toBe(200);
      expect(await freed.json()).toEqual({ status: 'ok', database: 'up', prepared: true });
      expect(await probes.findOne({ _id: 'probe' })).toMatchObject({ at: expect.any(Date) });
      // Writable again, readiness pings: its write, which would be refused again, is not tried.
      await probes.deleteOne({ _id: 'probe' });
      await probes.createIndex({ blocked: 1 }, { unique: true, name: 'blocked_1' });
      expect((await fetch(readyz)).status).toBe(200);
      expect(await probes.countDocuments()).toBe(1);
    } finally {
      server.close();
      await database.close();
      await standin.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('answers within its 2 s ping bound while no server can be selected, whatever HSDS_DB_TIMEOUT_MS', async () => {
    // A replica set none of whose members answers: the driver waits the whole server selection timeout.
    const uri = `mongodb://127.0.0.1:${await freePort()}/?replicaSet=rs0`;
    const logger = createLogger('silent');
    const database = new Database({ uri, dbName: 'ready', timeoutMs: 20_000, logger });
    const server = createServer(buildApp({ config: loadConfig({}), database, logger }).callback());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const readyz = `http://127.0.0.1:${(server.address() as { port: number }).port}/readyz`;
    try {
      const started = performance.now();
      const down = await fetch(readyz);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ database: 'down' });
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      server.close();
      await database.close();
    }
  }, 60_000);

  it('serves once a database that was down when it started comes up', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hsds-ready-'));
    const port = await freePort();
    const logger = createLogger('silent');
    const database = new Database({
      uri: `mongodb://127.0.0.1:${port}/?directConnection=true`,
      dbName: 'late',
      timeoutMs: 300,
      logger,
    });
    const server = createServer(buildApp({ config: loadConfig({}), database, logger }).callback());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    let standin: Awaited<ReturnType<typeof startStandin>> | undefined;
    try {
      expect((await fetch(`${url}/services`)).status).toBe(503);
      // Long enough for the driver's first connection to have failed for good.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await fetch(`${url}/readyz`)).status).toBe(503);
      standin = await startStandin({ port, dataDir });
      await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 15_000, 'readiness once up');
      expect((await fetch(`${url}/services`)).status).toBe(200);
    } finally {
      server.close();
      await database.close();
      await standin?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
