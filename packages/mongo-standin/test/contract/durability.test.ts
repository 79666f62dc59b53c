/**
 * Durability contract (stand-in only): every acknowledged write survives the server being killed
 * (SIGKILL) or stopped gracefully (SIGTERM) and restarted on the same data directory, and indexes
 * survive too (the unique index still rejects duplicates).
 *
 * The stand-in runs as a child process through its CLI:
 *   node --import tsx src/main.ts --port <port> --dbpath <dir>
 * which prints `standin listening on <uri>` once it accepts connections.
 *
 * Writes use { w: 1, j: true }: that is the write concern under which MongoDB itself promises that an
 * acknowledged write survives a crash (with plain w: 1 the journal is only flushed periodically).
 *
 * Against an external server (MONGODB_URI) these tests are skipped: a test cannot kill and
 * restart a server it did not start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient, type Db, type Document } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { usingExternalMongo } from '../support/database.ts';
import { idsOf, serverError } from './shared.ts';

const external = usingExternalMongo();
const SKIP_REASON = 'skipped: MONGODB_URI points at an external server, which a test cannot kill and restart';
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const READY_TIMEOUT_MS = 20_000;
const EXIT_TIMEOUT_MS = 10_000;

interface RunningStandin {
  child: ChildProcess;
  uri: string;
  output: () => string;
}

const children = new Set<ChildProcess>();
const dirs: string[] = [];

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('could not get a free port');
  return address.port;
}

async function freshDbPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hsds-durability-'));
  dirs.push(dir);
  return dir;
}

/** Starts the stand-in CLI and waits (bounded) for its readiness line. */
async function startStandinProcess(dbpath: string): Promise<RunningStandin> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts', '--port', String(port), '--dbpath', dbpath],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (output += chunk));
  const uri = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `stand-in did not print "standin listening on <uri>" within ${READY_TIMEOUT_MS} ms:\n${output}`,
        ),
      );
    }, READY_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      const match = /standin listening on (\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`stand-in exited (code ${code}, signal ${signal}) before it was ready:\n${output}`));
    });
  });
  return { child, uri, output: () => output };
}

/** Sends a signal and waits (bounded) for the process to exit. */
async function stopStandin(
  standin: RunningStandin,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const { child } = standin;
  if (child.exitCode !== null || child.signalCode !== null)
    return { code: child.exitCode, signal: child.signalCode };
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`stand-in did not exit within ${EXIT_TIMEOUT_MS} ms of ${signal}:\n${standin.output()}`),
      );
    }, EXIT_TIMEOUT_MS);
  });
  try {
    const [code, exitSignal] = await Promise.race([exited, timeout]);
    return { code, signal: exitSignal };
  } finally {
    clearTimeout(timer);
  }
}

async function connect(uri: string): Promise<{ client: MongoClient; db: Db }> {
  const client = await new MongoClient(uri, {
    writeConcern: { w: 1, journal: true },
    serverSelectionTimeoutMS: 5_000,
  }).connect();
  return { client, db: client.db('durability') };
}

/** A workload of acknowledged writes of every kind, then the exact state it must leave. */
async function writeWorkload(db: Db): Promise<void> {
  const people = db.collection('people');
  await people.createIndex({ email: 1 }, { unique: true });
  await people.insertOne({ _id: 1, email: 'a@example.org', n: 1 } as never);
  await people.insertMany([
    { _id: 2, email: 'b@example.org', n: 2 },
    { _id: 3, email: 'c@example.org', n: 3 },
    { _id: 4, email: 'd@example.org', n: 4, tags: ['x'] },
  ] as never[]);
  await people.updateOne({ _id: 1 as never }, { $set: { n: 10, 'profile.city': 'Chicago' } });
  await people.updateMany({ n: { $gte: 3 } }, { $inc: { n: 100 } });
  await people.updateOne({ _id: 4 as never }, { $push: { tags: 'y' } as Document, $unset: { email: '' } });
  await people.replaceOne({ _id: 3 as never }, { email: 'c2@example.org', replaced: true });
  await people.deleteOne({ _id: 2 as never });
  await people.updateOne({ _id: 5 as never }, { $set: { email: 'e@example.org' } }, { upsert: true });

  const log = db.collection('log');
  for (let i = 0; i < 50; i++)
    await log.insertOne({ _id: i, at: new Date(Date.UTC(2024, 0, 1, 0, 0, i)) } as never);
  await log.deleteMany({ _id: { $gte: 40 } as never });

  const gone = db.collection('gone');
  await gone.insertOne({ a: 1 });
  await gone.drop();

  await db.collection('places').createIndex({ location: '2dsphere' });
  await db
    .collection('places')
    .insertOne({ _id: 'p', location: { type: 'Point', coordinates: [-87.6, 41.9] } } as never);
}

async function expectWorkloadState(db: Db): Promise<void> {
  const people = db.collection('people');
  expect(await people.find({}).sort({ _id: 1 }).toArray()).toEqual([
    { _id: 1, email: 'a@example.org', n: 110, profile: { city: 'Chicago' } },
    { _id: 3, email: 'c2@example.org', replaced: true },
    { _id: 4, n: 104, tags: ['x', 'y'] },
    { _id: 5, email: 'e@example.org' },
  ]);
  const log = db.collection('log');
  expect(await log.countDocuments()).toBe(40);
  expect((await log.findOne({ _id: 39 as never }))?.at).toEqual(new Date(Date.UTC(2024, 0, 1, 0, 0, 39)));
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  expect(names).not.toContain('gone');
  expect(names).toEqual(expect.arrayContaining(['people', 'log', 'places']));

  // indexes survive and still work
  const indexes = await people.indexes();
  const email = indexes.find((i) => i.name === 'email_1');
  expect(email?.key).toEqual({ email: 1 });
  expect(email?.unique).toBe(true);
  const dup = await serverError(people.insertOne({ email: 'a@example.org' }));
  expect(dup.code).toBe(11000);
  const geoIndex = (await db.collection('places').indexes()).find((i) => i.name === 'location_2dsphere');
  expect(geoIndex?.key).toEqual({ location: '2dsphere' });
  const near = await db
    .collection('places')
    .find({ location: { $nearSphere: { $geometry: { type: 'Point', coordinates: [-87.6, 41.9] } } } })
    .toArray();
  expect(idsOf(near)).toEqual(['p']);
}

describe(external ? `durability (${SKIP_REASON})` : 'durability', () => {
  it.skipIf(external)(
    'acknowledged writes and indexes survive SIGKILL and restart on the same dbpath, twice',
    async () => {
      const dbpath = await freshDbPath();

      const first = await startStandinProcess(dbpath);
      const a = await connect(first.uri);
      await writeWorkload(a.db);
      const killed = await stopStandin(first, 'SIGKILL');
      expect(killed.signal).toBe('SIGKILL');
      await a.client.close();

      const second = await startStandinProcess(dbpath);
      const b = await connect(second.uri);
      try {
        await expectWorkloadState(b.db);
        // writes made after recovery are durable as well
        await b.db.collection('people').insertOne({ _id: 6, email: 'f@example.org' } as never);
        await b.db.collection('people').deleteOne({ _id: 5 as never });
      } finally {
        await stopStandin(second, 'SIGKILL');
        await b.client.close();
      }

      const third = await startStandinProcess(dbpath);
      const c = await connect(third.uri);
      try {
        expect(idsOf(await c.db.collection('people').find({}).sort({ _id: 1 }).toArray())).toEqual([
          1, 3, 4, 6,
        ]);
        const dup = await serverError(c.db.collection('people').insertOne({ email: 'f@example.org' }));
        expect(dup.code).toBe(11000);
      } finally {
        await c.client.close();
        await stopStandin(third, 'SIGKILL');
      }
    },
    90_000,
  );

  it.skipIf(external)(
    'every write acknowledged before a SIGKILL amid concurrent writers survives, and nothing half-written appears',
    async () => {
      const dbpath = await freshDbPath();
      const first = await startStandinProcess(dbpath);
      const a = await connect(first.uri);
      const stream = a.db.collection<{ _id: string; writer: number; n: number; body: string }>('stream');
      await stream.createIndex({ writer: 1, n: 1 }, { unique: true });
      const acknowledged = new Set<string>();
      let killed = false;
      // Four writers insert batches until the server dies under them.
      const writers = [0, 1, 2, 3].map(async (writer) => {
        for (let n = 0; !killed; n += 10) {
          const batch = Array.from({ length: 10 }, (_, i) => ({
            _id: `${writer}-${n + i}`,
            writer,
            n: n + i,
            body: 'y'.repeat(2_000),
          }));
          try {
            await stream.insertMany(batch);
            for (const doc of batch) acknowledged.add(doc._id);
          } catch {
            return;
          }
        }
      });
      while (acknowledged.size < 400) await new Promise((resolve) => setTimeout(resolve, 10));
      killed = true;
      await stopStandin(first, 'SIGKILL');
      await Promise.all(writers);
      await a.client.close();

      const second = await startStandinProcess(dbpath);
      const b = await connect(second.uri);
      try {
        const stored = await b.db
          .collection('stream')
          .find({}, { projection: { body: 1 } })
          .toArray();
        const ids = new Set(stored.map((doc) => String(doc._id)));
        for (const id of acknowledged) expect(ids.has(id), id).toBe(true);
        // Batches are whole documents: none was stored cut short.
        for (const doc of stored) expect((doc.body as string).length).toBe(2_000);
        // The index agrees with the documents.
        expect(await b.db.collection('stream').countDocuments({ writer: 0 })).toBe(
          stored.filter((doc) => String(doc._id).startsWith('0-')).length,
        );
      } finally {
        await b.client.close();
        await stopStandin(second, 'SIGKILL');
      }
    },
    90_000,
  );

  it.skipIf(external)(
    'SIGTERM shuts down cleanly (exit code 0) and a restart finds every write and index',
    async () => {
      const dbpath = await freshDbPath();

      const first = await startStandinProcess(dbpath);
      const a = await connect(first.uri);
      await writeWorkload(a.db);
      await a.client.close();
      const stopped = await stopStandin(first, 'SIGTERM');
      expect(stopped).toEqual({ code: 0, signal: null });

      const second = await startStandinProcess(dbpath);
      const b = await connect(second.uri);
      try {
        await expectWorkloadState(b.db);
      } finally {
        await b.client.close();
        await stopStandin(second, 'SIGTERM');
      }
    },
    60_000,
  );

  it.skipIf(external)(
    'a restart on an empty dbpath starts with no data',
    async () => {
      const standin = await startStandinProcess(await freshDbPath());
      const { client, db } = await connect(standin.uri);
      try {
        expect(await db.listCollections().toArray()).toEqual([]);
      } finally {
        await client.close();
        await stopStandin(standin, 'SIGKILL');
      }
    },
    30_000,
  );
});
