/*
 * The embedded stand-in runs in a process of its own, the server's child: started and stopped with the
 * server, started again when it dies, gone when the server is killed outright. The server runs as
 * `npm start` does (src/main.ts in a process of its own), without the tests' MONGODB_URI.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { BSON, MongoClient } from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withEmbeddedClient } from '../support/database.ts';
import { freePort } from '../support/free-port.ts';
import { importLines } from '../support/import.ts';
import { startScript, waitFor, type RunningProcess } from '../support/process.ts';
import { randomService } from '../support/random-service.ts';

let dir: string;
const running: RunningProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hsds-embedded-process-'));
});
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

interface Server {
  url: string;
  dbPort: number;
  dataDir: string;
  process: RunningProcess;
}

/** `npm start` with the embedded stand-in on a port and data directory of its own, once it listens. */
async function startServer(name: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const dbPort = await freePort();
  const dataDir = path.join(dir, name);
  const process = startScript('src/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    MONGODB_URI: '',
    HSDS_EMBEDDED: 'standin',
    HSDS_EMBEDDED_DB_PORT: String(dbPort),
    HSDS_DATA_DIR: dataDir,
    HSDS_SEED: 'false',
    ...env,
  });
  running.push(process);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/`)).ok, 30_000, `GET / on ${url}\n${process.output()}`);
  return { url, dbPort, dataDir, process };
}

/** The server's log lines (JSON) with this message. */
const logLines = (server: RunningProcess, msg: string): Record<string, unknown>[] =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);

/** The pids of the stand-in processes the server started, in order. */
const standinPids = (server: RunningProcess): number[] =>
  logLines(server, 'embedded database: MongoDB stand-in').map((line) => line.pid as number);

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
      .on('connect', () => {
        socket.destroy();
        resolve(true);
      })
      .on('error', () => resolve(false));
  });

describe.skipIf(Boolean(process.env.MONGODB_URI))('the embedded stand-in, a process of its own', () => {
  it('runs beside the server, logs through it, and stops with it', async () => {
    const server = await startServer('beside');
    const [pid] = standinPids(server.process);
    expect(pid).toBeDefined();
    expect(pid).not.toBe(server.process.child.pid);
    expect(isRunning(pid!)).toBe(true);

    server.process.child.kill('SIGTERM');
    expect(await server.process.exited).toBe(0);
    expect(isRunning(pid!)).toBe(false);
    expect(await accepts(server.dbPort)).toBe(false);
    // Its own log line, in the server's log, marked as its.
    expect(logLines(server.process, 'shutting down')).toContainEqual(
      expect.objectContaining({ component: 'standin', pid, reason: 'SIGTERM' }),
    );
  });

  it('is started again when it dies, on the same port and data; requests meanwhile answer 503 with Retry-After', async () => {
    const server = await startServer('restarted', {
      // Requests in the gap give up within 0.4 s, well before the stand-in is back (0.25 s, then its
      // start): the test sees them.
      HSDS_DB_TIMEOUT_MS: '400',
      HSDS_DB_NAME: 'restarted',
      // Each request reads the database (none is sent as kept), however soon the stand-in is back.
      HSDS_RESPONSE_CACHE_MB: '0',
    });
    await waitFor(async () => (await fetch(`${server.url}/readyz`)).ok, 60_000, 'the database prepared');
    // Loaded from here with the driver's own patience: the server's is too short for a loaded machine.
    const loader = await new MongoClient(
      `mongodb://127.0.0.1:${server.dbPort}/?directConnection=true`,
    ).connect();
    try {
      const report = await importLines(loader.db('restarted'), [randomService('Restarted')]);
      expect(report.inserted).toBe(1);
    } finally {
      await loader.close();
    }
    const list = (await (await fetch(`${server.url}/services?per_page=1`)).json()) as {
      contents: { id: string }[];
    };
    const record = `${server.url}/services/${list.contents[0]!.id}`;
    const before: unknown = await (await fetch(record)).json();
    const [first] = standinPids(server.process);

    process.kill(first!, 'SIGKILL');
    const answers: { status: number | 'none within 5 s'; retryAfter: string | null }[] = [];
    let after: unknown;
    await waitFor(
      async () => {
        // A request left waiting is a failure of its own (the 503 is due within HSDS_DB_TIMEOUT_MS).
        const response = await fetch(record, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
        if (!response) {
          answers.push({ status: 'none within 5 s', retryAfter: null });
          return false;
        }
        answers.push({ status: response.status, retryAfter: response.headers.get('retry-after') });
        if (response.status !== 200) return false;
        after = await response.json();
        return answers.length > 1;
      },
      60_000,
      `the record again\n${server.process.output()}`,
    );

    expect(answers.map(({ status }) => status)).toContain(503);
    for (const answer of answers.slice(0, -1)) expect(answer).toEqual({ status: 503, retryAfter: '5' });
    expect(after).toEqual(before);
    expect(server.process.child.exitCode).toBeNull();
    expect(logLines(server.process, 'the embedded database stopped; starting it again')).toEqual([
      expect.objectContaining({ level: 40, pid: first, signal: 'SIGKILL' }),
    ]);
    const [, second] = standinPids(server.process);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(logLines(server.process, 'embedded database: MongoDB stand-in')[1]).toMatchObject({
      uri: `mongodb://127.0.0.1:${server.dbPort}/?directConnection=true`,
      dbPath: path.join(server.dataDir, 'standin'),
    });
  }, 120_000);

  it('stays with the stand-in and its data once a mongod binary can be had, restarted or started again', async () => {
    // A "mongod" that is a stand-in on a directory of its own: what a binary found later would serve.
    const binary = path.join(dir, 'later-bin', 'mongod');
    const fakeMongod = [
      '#!/bin/sh',
      'if [ "$1" = "--version" ]; then echo "db version v8.0.4"; exit 0; fi',
      'while [ $# -gt 0 ]; do case "$1" in --port) P=$2; shift;; --dbpath) D=$2; shift;; esac; shift; done',
      `(sleep 3; echo '{"s":"I","c":"NETWORK","id":23016,"msg":"Waiting for connections","attr":{"port":'$P'}}') &`,
      `exec "${process.execPath}" --import tsx "${path.resolve('packages/mongo-standin/src/main.ts')}" --port "$P" --dbpath "$D/empty"`,
    ].join('\n');
    const env = { HSDS_EMBEDDED: 'auto', MONGOMS_SYSTEM_BINARY: binary };
    const server = await startServer('later-mongod', env);
    const marker = (dbPort: number) =>
      withEmbeddedClient(dbPort, (client) =>
        client
          .db('kept')
          .collection('marks')
          .findOne({ _id: 'mark' as never }),
      );
    await withEmbeddedClient(server.dbPort, (client) =>
      client
        .db('kept')
        .collection('marks')
        .insertOne({ _id: 'mark' as never }),
    );
    await mkdir(path.dirname(binary), { recursive: true });
    await writeFile(binary, `${fakeMongod}\n`, { mode: 0o755 });
    // A mongod directory too, so that only the restart's own choice keeps the stand-in.
    await mkdir(path.join(server.dataDir, 'mongod'), { recursive: true });
    await writeFile(path.join(server.dataDir, 'mongod', 'leftover'), '');

    process.kill(standinPids(server.process)[0]!, 'SIGKILL');
    await waitFor(
      async () => (await marker(server.dbPort)) !== null,
      60_000,
      `the stand-in again, with its data\n${server.process.output()}`,
    );
    expect(standinPids(server.process)).toHaveLength(2);

    // Started again on the same data directory, its stand-in data and no mongod's: the stand-in still.
    server.process.child.kill('SIGTERM');
    await server.process.exited;
    await rm(path.join(server.dataDir, 'mongod'), { recursive: true });
    const again = await startServer('later-mongod', env);
    expect(await marker(again.dbPort)).toEqual({ _id: 'mark' });
    expect(
      logLines(again.process, 'the data directory holds the stand-in’s data: auto keeps the stand-in'),
    ).toHaveLength(1);
    expect(again.process.output()).not.toMatch(/embedded database: mongod/);
  }, 120_000);

  it('stops when the server is killed outright, letting go of its port and data directory', async () => {
    const server = await startServer('orphaned');
    const [pid] = standinPids(server.process);
    server.process.child.kill('SIGKILL');
    await server.process.exited;
    await waitFor(async () => !(await accepts(server.dbPort)), 5_000, 'the port to be free');
    // Until its new parent reaps it, an exited process still answers kill(pid, 0).
    await waitFor(async () => !isRunning(pid!), 10_000, `the stand-in (pid ${pid}) to exit`);
    // Its lock is gone: it closed its data directory before exiting (it stops listening first), and
    // nothing holds it.
    expect(existsSync(path.join(server.dataDir, 'standin', 'standin.lock'))).toBe(false);
  });

  it('waits for the stand-in to upgrade its storage format, saying so in its log', async () => {
    const first = await startServer('upgraded');
    first.process.child.kill('SIGTERM');
    expect(await first.process.exited).toBe(0);
    // As an earlier release left it: the catalog says format 5 (its tables hold no documents to copy).
    const env = open({ path: path.join(first.dataDir, 'standin'), maxDbs: 10_000 });
    const catalog = env.openDB({ name: 'catalog', encoding: 'binary' });
    const meta = BSON.deserialize(catalog.getBinary('\u0000meta')!);
    catalog.putSync('\u0000meta', Buffer.from(BSON.serialize({ ...meta, format: 5 })));
    await env.close();

    const second = await startServer('upgraded');
    expect(
      logLines(second.process, 'embedded database: upgrading its storage format before it starts'),
    ).toEqual([
      expect.objectContaining({ upgrade: expect.stringMatching(/ from format 5 to 6: copying \d+ MiB$/) }),
    ]);
    expect(logLines(second.process, 'upgrading the storage format: copying tables')).toEqual([
      expect.objectContaining({ component: 'standin', from: 5, to: 6 }),
    ]);
    expect((await fetch(`${second.url}/services`)).status).toBe(200);
  });

  it('refuses a data directory another server runs, in one line naming the process that holds it', async () => {
    const owner = await startServer('shared-dir');
    const [pid] = standinPids(owner.process);
    const second = startScript('src/main.ts', {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      MONGODB_URI: '',
      HSDS_EMBEDDED: 'standin',
      HSDS_EMBEDDED_DB_PORT: String(await freePort()),
      HSDS_DATA_DIR: owner.dataDir,
    });
    running.push(second);
    expect(await second.exited).toBe(1);
    const lastLine = second.output().trim().split('\n').at(-1);
    expect(lastLine).toBe(
      `the data directory ${path.join(owner.dataDir, 'standin')} is in use by process ${pid}: one database ` +
        `server per directory (if that process is not a stand-in, remove ${path.join(owner.dataDir, 'standin', 'standin.lock')})`,
    );
    // That line is the server's report of the stand-in's failure: not also the stand-in's own fatal line
    // (a server sharing a stand-in started meanwhile would have logged a fatal error for no failure).
    expect(logLines(second, 'could not start')).toEqual([]);
  });
});
