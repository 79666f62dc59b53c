/*
 * When the database goes away (killed, restarted, failed over), its end of every connection closes. An
 * operation sent on a pooled connection in the moment after Node has destroyed that socket and before its
 * 'close' event must fail as a network error (the API's 503), not wait forever holding the connection: the
 * MongoDB driver (7.9) did, and `patches/mongodb+*.patch` mends it. The moment is reached exactly: the
 * database's side of the connections is ended through a proxy, then the operation is sent a few turns of
 * the event loop later (two turns was the hang). The patch also makes a write that waited for its socket to
 * drain, when the socket fails, a network error rather than the socket's raw EPIPE or ECONNRESET.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Database } from '../../src/db/database.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import { createLogger } from '../../src/log.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { waitFor } from '../support/process.ts';

/** Long enough for a loaded machine, far shorter than forever: what settles within it did not hang. */
const SETTLED_WITHIN_MS = 10_000;

let server: TestDatabase;
let proxy: Server;
/** The database's side of each connection made through the proxy, as the client sees it. */
const databaseSides: Socket[] = [];

beforeAll(async () => {
  server = await startTestDatabase();
  const target = new URL(server.uri.replace(/^mongodb:/, 'http:'));
  proxy = createServer((side) => {
    const upstream = connect(Number(target.port), target.hostname);
    side.pipe(upstream).pipe(side);
    side.on('error', () => undefined);
    upstream.on('error', () => undefined);
    databaseSides.push(side);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const side of databaseSides) side.destroy();
  await new Promise((resolve) => proxy.close(resolve));
  await server.close();
});

const turnsOfTheEventLoop = async (count: number) => {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/** The outcome of a read sent `turns` turns of the event loop after the database closed its connections. */
async function readAfterClosing(turns: number): Promise<unknown> {
  const { port } = proxy.address() as { port: number };
  const database = new Database({
    // Without the driver's one retry, a read sent on the closed connection shows as such (a retry on a
    // new connection may be answered or not, as the database comes back in time or not).
    uri: `mongodb://127.0.0.1:${port}/?directConnection=true&retryReads=false`,
    dbName: randomDatabaseName(),
    timeoutMs: 1000,
    logger: createLogger('silent'),
  });
  const documents = database.db.collection('documents');
  const served = async () =>
    await documents.findOne({}).then(
      () => true,
      () => false,
    );
  try {
    await waitFor(served, SETTLED_WITHIN_MS, 'the database through the proxy');
    for (const side of databaseSides.splice(0)) side.end();
    await turnsOfTheEventLoop(turns);
    const outcome = await Promise.race([
      documents.findOne({}).then(
        () => 'answered',
        (error: unknown) => (isDatabaseUnavailable(error) ? 'unavailable' : error),
      ),
      new Promise((resolve) => setTimeout(resolve, SETTLED_WITHIN_MS, 'still waiting')),
    ]);
    // And the pool serves again, over new connections.
    await waitFor(served, SETTLED_WITHIN_MS, 'the database again');
    return outcome;
  } finally {
    await database.close();
  }
}

it('fails a read sent on a connection the database has closed, or answers it on a new one, never waits', async () => {
  const outcomes: unknown[] = [];
  for (const turns of [0, 1, 2, 3, 4]) outcomes.push(await readAfterClosing(turns));
  for (const outcome of outcomes) expect(['answered', 'unavailable']).toContain(outcome);
  // The closed connection was reached (the reads of the first turns are sent on it), not only new ones.
  expect(outcomes).toContain('unavailable');
});

it('fails a write the database stops reading and then resets as a network error (503), not a raw EPIPE', async () => {
  const { port } = proxy.address() as { port: number };
  const database = new Database({
    uri: `mongodb://127.0.0.1:${port}/?directConnection=true&retryWrites=false`,
    dbName: randomDatabaseName(),
    timeoutMs: 5000,
    logger: createLogger('silent'),
  });
  const documents = database.db.collection('documents');
  try {
    await waitFor(
      async () => documents.findOne({}).then(() => true),
      SETTLED_WITHIN_MS,
      'the database through the proxy',
    );
    // The database stops reading: a write larger than the sockets' buffers waits for them to drain.
    const sides = databaseSides.splice(0);
    for (const side of sides) {
      side.unpipe();
      side.pause();
    }
    const write = documents.insertOne({ text: 'x'.repeat(12_000_000) }).then(
      () => 'written',
      (error: unknown) => (isDatabaseUnavailable(error) ? 'unavailable' : error),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const side of sides) side.resetAndDestroy();
    expect(await write).toBe('unavailable');
  } finally {
    await database.close();
  }
});
