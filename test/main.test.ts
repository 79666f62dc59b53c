import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MongoClient } from 'mongodb';
import { hashSecret } from '../src/auth/secret.ts';
import { DERIVATION_MARK } from '../src/db/collections.ts';
import { staleDerivationMessage } from '../src/db/derivation-mark.ts';
import { ACCESS_ENTRIES, USERS } from '../src/db/protocol-records.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.ts';
import { withEmbeddedClient } from './support/database.ts';
import { startProcess, startScript, waitFor, type RunningProcess } from './support/process.ts';

// `npm start` end to end: the real entry point, its embedded database, signals and restarts.
let dataDir: string;
const running: RunningProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'hsds-main-'));
});
afterEach(async () => {
  for (const process of running.splice(0)) {
    process.child.kill('SIGKILL');
    await process.exited;
  }
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

async function startServer(env: Record<string, string>): Promise<{ url: string; process: RunningProcess }> {
  const port = await freePort();
  const process = startScript('src/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    HSDS_EMBEDDED: 'standin',
    HSDS_DATA_DIR: dataDir,
    HSDS_SEED: 'false',
    ...env,
  });
  running.push(process);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/`)).ok, 20_000, `GET / on ${url}\n${process.output()}`);
  return { url, process };
}

/** `npm run db` on a free port, once it answers: a database that outlives the servers under test. */
async function startDatabaseProcess(): Promise<{ dbPort: string; process: RunningProcess }> {
  const dbPort = String(await freePort());
  const process = startScript('scripts/db.ts', {
    HSDS_EMBEDDED: 'standin',
    HSDS_EMBEDDED_DB_PORT: dbPort,
    HSDS_DATA_DIR: dataDir,
  });
  running.push(process);
  await waitFor(
    async () => withEmbeddedClient(Number(dbPort), async () => true),
    20_000,
    `npm run db on ${dbPort}\n${process.output()}`,
  );
  return { dbPort, process };
}

describe('the server process', () => {
  it('falls back to the stand-in with one log line when no mongod can be had', async () => {
    const server = await startServer({
      HSDS_EMBEDDED: 'auto',
      HSDS_EMBEDDED_DB_PORT: String(await freePort()),
      // A version no cache holds, from an address that cannot answer: no binary, on any machine.
      MONGOMS_VERSION: '7.0.99',
      MONGOMS_DOWNLOAD_MIRROR: 'https://127.0.0.1:9',
    });
    const output = server.process.output();
    expect(output).toMatch(
      /"reason":"Download failed for url .+ ECONNREFUSED .+","msg":"no mongod binary available; using the stand-in"/,
    );
    expect(output).toMatch(/MongoDB stand-in/);
    // Not the memory server's own report of its failure, stack trace and all.
    expect(output).not.toMatch(/Starting the MongoMemoryServer Instance failed|\n\s+at /);
  });

  it('keeps every acknowledged write across a kill and a restart', async () => {
    const dbPort = String(await freePort());
    const first = await startServer({ HSDS_EMBEDDED_DB_PORT: dbPort });
    expect(first.process.output()).toMatch(/MongoDB stand-in/);
    await withEmbeddedClient(Number(dbPort), (client) =>
      client
        .db('hsds')
        .collection('durability')
        .insertOne({ _id: 'kept' as never, n: 1 }),
    );
    first.process.child.kill('SIGKILL');
    await first.process.exited;

    const second = await startServer({ HSDS_EMBEDDED_DB_PORT: dbPort });
    const found = await withEmbeddedClient(Number(dbPort), (client) =>
      client
        .db('hsds')
        .collection('durability')
        .findOne({ _id: 'kept' as never }),
    );
    expect(found).toEqual({ _id: 'kept', n: 1 });
    await waitFor(async () => (await fetch(`${second.url}/readyz`)).status === 200, 15_000, 'readiness');
  });

  it('loads the sample directory into an empty embedded database', async () => {
    const dbPort = String(await freePort());
    const server = await startServer({
      HSDS_EMBEDDED_DB_PORT: dbPort,
      HSDS_SEED: 'true',
      HSDS_DB_NAME: 'seeded',
    });
    // Not ready while the sample directory loads: the first time it says ready, all of it is there.
    await waitFor(
      async () => {
        const readiness = await fetch(`${server.url}/readyz`);
        if (readiness.status === 200) return true;
        expect(await readiness.json()).toMatchObject({ status: 'unavailable', prepared: false });
        return false;
      },
      30_000,
      'readiness',
    );
    await withEmbeddedClient(Number(dbPort), async (client) => {
      const count = (name: string) => client.db('seeded').collection(name).countDocuments();
      expect(await count('taxonomy_terms')).toBe(49);
      expect(await count('services')).toBe(72);
      expect(await count('service_at_locations')).toBe(101);
    });
  });

  it('says at start-up when the stored documents were derived by an earlier release', async () => {
    const dbPort = String(await freePort());
    const env = { HSDS_EMBEDDED_DB_PORT: dbPort, HSDS_SEED: 'true', HSDS_DB_NAME: 'derived' };
    const warning = staleDerivationMessage(null);
    const first = await startServer(env);
    await waitFor(async () => (await fetch(`${first.url}/readyz`)).ok, 30_000, 'the sample directory');
    expect(first.process.output()).not.toContain(warning);
    // As a release before the mark left its documents.
    await withEmbeddedClient(Number(dbPort), (client) =>
      client.db('derived').collection(DERIVATION_MARK).deleteMany({}),
    );
    first.process.child.kill('SIGTERM');
    await first.process.exited;

    const second = await startServer(env);
    await waitFor(async () => (await fetch(`${second.url}/readyz`)).ok, 30_000, 'readiness');
    expect(second.process.output()).toContain(warning);
  });

  it('shares an embedded database another process already runs', async () => {
    const dbPort = String(await freePort());
    await startServer({ HSDS_EMBEDDED_DB_PORT: dbPort });
    const second = await startServer({ HSDS_EMBEDDED_DB_PORT: dbPort });
    expect(second.process.output()).toMatch(/already running; sharing it/);
    await waitFor(async () => (await fetch(`${second.url}/readyz`)).status === 200, 15_000, 'readiness');
  });

  it('serves from the database `npm run db` runs', async () => {
    const { dbPort } = await startDatabaseProcess();
    const server = await startServer({ HSDS_EMBEDDED_DB_PORT: dbPort });
    expect(server.process.output()).toMatch(/already running; sharing it/);
    await waitFor(async () => (await fetch(`${server.url}/readyz`)).status === 200, 15_000, 'readiness');
  });

  it('`npm run db` says its usage for --help (0) and refuses an option it does not take (2)', async () => {
    const help = startScript('scripts/db.ts', {}, ['--help']);
    expect(await help.exited).toBe(0);
    expect(help.output()).toContain('usage: npm run db');
    const bogus = startScript('scripts/db.ts', {}, ['--bogus']);
    expect(await bogus.exited).toBe(2);
    expect(bogus.output()).toContain("Unknown option '--bogus'");
  });

  it('runs the embedded database itself when the process it shared it with goes away', async () => {
    const { dbPort, process: owner } = await startDatabaseProcess();
    // Started elsewhere, with a data directory of its own: the owner's is the one taken over.
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'hsds-main-other-'));
    const server = await startServer({
      HSDS_EMBEDDED_DB_PORT: dbPort,
      HSDS_DB_NAME: 'takeover',
      HSDS_DATA_DIR: elsewhere,
    });
    await withEmbeddedClient(Number(dbPort), (client) =>
      client.db('takeover').collection('kept').insertOne({ id: 'written-before' }),
    );
    // Killed outright, as when the CLI that started the database is interrupted: its lock is left behind.
    owner.child.kill('SIGKILL');
    await owner.exited;
    await waitFor(
      async () => /running it here now/.test(server.process.output()),
      15_000,
      `the take-over\n${server.process.output()}`,
    );
    await waitFor(async () => (await fetch(`${server.url}/readyz`)).status === 200, 15_000, 'readiness');
    const kept = await withEmbeddedClient(Number(dbPort), (client) =>
      client
        .db('takeover')
        .collection('kept')
        .findOne({}, { projection: { _id: 0 } }),
    );
    expect(kept).toEqual({ id: 'written-before' });
    // And stops it with itself.
    server.process.child.kill('SIGTERM');
    expect(await server.process.exited).toBe(0);
    const refused = await new Promise((resolve) =>
      connect(Number(dbPort), '127.0.0.1')
        .on('connect', function (this: Socket) {
          this.destroy();
          resolve(false);
        })
        .on('error', () => resolve(true)),
    );
    expect(refused, 'nothing listens on the database port any more').toBe(true);
    expect(await readdir(elsewhere)).toEqual([]);
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('lets an accepted (202) import run to its end on SIGTERM before closing the database', async () => {
    const { dbPort } = await startDatabaseProcess();
    const admin = { HSDS_ADMIN_LOGIN: 'admin', HSDS_ADMIN_CODE: 'admin-code-0123456789' };
    const server = await startServer({ HSDS_EMBEDDED_DB_PORT: dbPort, HSDS_DB_NAME: 'draining', ...admin });
    await waitFor(async () => (await fetch(`${server.url}/readyz`)).status === 200, 15_000, 'readiness');
    // Enough services that the import is still running when the signal comes (about a second).
    const lines = Array.from({ length: 300 }, (_, index) =>
      JSON.stringify({
        id: `5e1f0000-0000-4000-8000-${String(index).padStart(12, '0')}`,
        name: `Service ${index}`,
        status: 'active',
      }),
    );
    const accepted = await fetch(`${server.url}/import`, {
      method: 'POST',
      headers: {
        'x-appid': admin.HSDS_ADMIN_LOGIN,
        'x-appkey': admin.HSDS_ADMIN_CODE,
        'content-type': 'application/x-ndjson',
      },
      body: lines.join('\n'),
    });
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };
    server.process.child.kill('SIGTERM');
    expect(await server.process.exited).toBe(0);
    const [entry, services] = await withEmbeddedClient(Number(dbPort), (client) =>
      Promise.all([
        client.db('draining').collection('meta.entries').findOne({ id }),
        client.db('draining').collection('services').countDocuments(),
      ]),
    );
    expect(entry).toMatchObject({ status: 'Complete' });
    expect(JSON.parse(entry!.response_body as string)).toMatchObject({ inserted: 300, rejected: 0 });
    expect(services).toBe(300);
  });

  it('lets writes through when an index cannot be made, so that the data can be mended through the API', async () => {
    const { dbPort } = await startDatabaseProcess();
    const code = 'keeper-code-0123456789';
    // Logins duplicated before the unique index existed: the index cannot be made until one goes.
    await withEmbeddedClient(Number(dbPort), async (client) => {
      const db = client.db('mending');
      const user = (id: string) => ({ id, login: 'twin', name: 'Twin', email: '', code_hash: 'x' });
      await db
        .collection(USERS)
        .insertMany([
          user('twin-1'),
          user('twin-2'),
          { id: 'keeper', login: 'keeper', name: 'Keeper', email: '', code_hash: await hashSecret(code) },
        ]);
      await db.collection(ACCESS_ENTRIES).insertOne({ id: 'all', user_id: 'keeper', path: '*', verb: '*' });
    });
    const server = await startServer({ HSDS_EMBEDDED_DB_PORT: dbPort, HSDS_DB_NAME: 'mending' });
    const remove = () =>
      fetch(`${server.url}/management/users/twin-2`, {
        method: 'DELETE',
        headers: { 'x-appid': 'keeper', 'x-appkey': code },
      });
    await waitFor(async () => (await remove()).status === 200, 15_000, 'the DELETE');
    await waitFor(
      async () => (await fetch(`${server.url}/readyz`)).status === 200,
      40_000,
      'the index, retried',
    );
    // Its waits' own bounds, not the default timeout: on a loaded machine the retry comes late.
  }, 60_000);

  it('removes meta entries older than HSDS_META_RETENTION_DAYS once started', async () => {
    const dbPort = String(await freePort());
    await startServer({ HSDS_EMBEDDED_DB_PORT: dbPort, HSDS_DB_NAME: 'retention' });
    const entries = (client: MongoClient) => client.db('retention').collection('meta.entries');
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
    await withEmbeddedClient(Number(dbPort), (client) =>
      entries(client).insertMany([
        { id: 'old', recorded_at: daysAgo(91) },
        { id: 'recent', recorded_at: daysAgo(89) },
      ]),
    );
    // Joins the first server's database, and sweeps it as it starts.
    await startServer({
      HSDS_EMBEDDED_DB_PORT: dbPort,
      HSDS_DB_NAME: 'retention',
      HSDS_META_RETENTION_DAYS: '90',
    });
    await waitFor(
      async () =>
        withEmbeddedClient(Number(dbPort), async (client) => (await entries(client).countDocuments()) === 1),
      10_000,
      'the sweep',
    );
    const left = await withEmbeddedClient(Number(dbPort), (client) => entries(client).find().toArray());
    expect(left.map((entry) => entry.id)).toEqual(['recent']);
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const { process } = await startServer({ HSDS_EMBEDDED_DB_PORT: String(await freePort()) });
    process.child.kill('SIGTERM');
    expect(await process.exited).toBe(0);
    expect(process.output()).toMatch(/"msg":"stopped"/);
  });

  it('shuts down cleanly on SIGTERM sent to `npm start`, as a process manager sends it, leaving no process', async () => {
    const port = await freePort();
    const npm = startProcess('npm', ['start'], {
      PORT: String(port),
      HOST: '127.0.0.1',
      HSDS_EMBEDDED: 'standin',
      HSDS_EMBEDDED_DB_PORT: String(await freePort()),
      HSDS_DATA_DIR: dataDir,
      HSDS_SEED: 'false',
    });
    running.push(npm);
    const url = `http://127.0.0.1:${port}/`;
    await waitFor(async () => (await fetch(url)).ok, 30_000, `npm start on ${url}\n${npm.output()}`);
    npm.child.kill('SIGTERM');
    await npm.exited;
    expect(npm.output()).toMatch(/"msg":"stopped"/);
    // Nothing of it answers any more: the server was not left running without its npm.
    await expect(fetch(url)).rejects.toThrow();
  });

  it('refuses to start on bad configuration, naming the variable', async () => {
    const process = startScript('src/main.ts', { PORT: 'eighty' });
    running.push(process);
    expect(await process.exited).toBe(1);
    expect(process.output().trim()).toMatch(/^Invalid configuration: PORT: /);
  });

  it('refuses to start on a postcode file it cannot read, in one line naming the setting', async () => {
    const file = path.join(dataDir, 'postcodes.csv');
    await writeFile(file, 'code,lat\nAB1 2CD,57.1\n');
    const process = startScript('src/main.ts', {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      HSDS_EMBEDDED: 'standin',
      HSDS_EMBEDDED_DB_PORT: String(await freePort()),
      HSDS_DATA_DIR: dataDir,
      HSDS_POSTCODES_FILE: file,
    });
    running.push(process);
    expect(await process.exited).toBe(1);
    const lastLine = process.output().trim().split('\n').at(-1);
    expect(lastLine).toMatch(/^HSDS_POSTCODES_FILE: .*postcodes\.csv: the header must name postcode/);
  });

  it('refuses a stand-in data directory of the earlier journal format, in one line saying what to do', async () => {
    const earlier = await mkdtemp(path.join(tmpdir(), 'hsds-earlier-'));
    await mkdir(path.join(earlier, 'standin'));
    await writeFile(path.join(earlier, 'standin', 'hsds.journal'), Buffer.alloc(16));
    const process = startScript('src/main.ts', {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      HSDS_EMBEDDED: 'standin',
      HSDS_EMBEDDED_DB_PORT: String(await freePort()),
      HSDS_DATA_DIR: earlier,
    });
    running.push(process);
    expect(await process.exited).toBe(1);
    const lastLine = process.output().trim().split('\n').at(-1);
    expect(lastLine).toMatch(
      /earlier format \(hsds\.journal\).*move the directory away.*import your data again$/,
    );
    await rm(earlier, { recursive: true, force: true });
  });
});
