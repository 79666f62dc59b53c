/*
 * A database that hangs (its process stopped by SIGSTOP: its connections stay open and nothing answers)
 * must not hold requests: every endpoint that needs it answers 503 with Retry-After within
 * HSDS_DB_TIMEOUT_MS, and serves again once it resumes, with no restart of the server. The database runs in
 * its own process, so that it can be stopped while the server runs on.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/database.ts';
import { createLogger } from '../../src/log.ts';
import { waitFor, type RunningProcess } from '../support/process.ts';
import { asAdmin, startServerOnStandin } from '../support/server-on-standin.ts';

const TIMEOUT_MS = 1000;
/** The bound asserted: HSDS_DB_TIMEOUT_MS and a margin for a loaded machine (the promise is +1 s). */
const ANSWERED_WITHIN_MS = TIMEOUT_MS + 1500;

let dir: string;
let database: RunningProcess | undefined;
let server: RunningProcess | undefined;
let uri: string;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hsds-hung-'));
  ({ database, server, uri, url } = await startServerOnStandin(
    path.join(dir, 'db'),
    path.join(dir, 'server'),
    {
      HSDS_DB_NAME: 'hung',
      HSDS_DB_TIMEOUT_MS: String(TIMEOUT_MS),
    },
  ));
});

afterAll(async () => {
  for (const running of [server, database]) {
    if (!running) continue;
    // Resumed first, should a failed test have left it stopped.
    running.child.kill('SIGCONT');
    running.child.kill('SIGKILL');
    await running.exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Call {
  name: string;
  path: string;
  init?: RequestInit;
}

/** One call of each kind of endpoint that needs the database. */
const calls = (serviceId: string): Call[] => [
  { name: 'a record', path: `/services/${serviceId}` },
  { name: 'a list page', path: '/services?per_page=5' },
  { name: 'a stream', path: '/services?format=ndjson' },
  { name: 'a postcode and proximity search', path: '/service_at_locations?postcode=98118&proximity=5000' },
  { name: 'a management list', path: '/management/users', init: { headers: asAdmin } },
  { name: 'a meta list', path: '/meta', init: { headers: asAdmin } },
  {
    name: 'an import',
    path: '/import?wait=true&dry_run=true',
    init: {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify([{ id: '0f1e0000-0000-4000-8000-000000000001', name: 'Hung', status: 'active' }]),
    },
  },
];

describe('a hung database', () => {
  it('does not cut a cursor whose batches are further apart than the bound', async () => {
    // Each wait for the database is bounded, not the life of a cursor: a stream read slowly goes on.
    const bounded = new Database({
      uri,
      dbName: 'hung',
      timeoutMs: TIMEOUT_MS,
      logger: createLogger('silent'),
    });
    try {
      const collection = bounded.db.collection('slow_reader');
      await collection.insertMany([{ n: 1 }, { n: 2 }, { n: 3 }]);
      const cursor = collection.find({}, { batchSize: 1, projection: { _id: 0 } }).sort({ n: 1 });
      const read: unknown[] = [];
      for await (const document of cursor) {
        read.push(document);
        await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 200));
      }
      expect(read).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    } finally {
      await bounded.close();
    }
  });

  it('answers 503 with Retry-After on every endpoint within HSDS_DB_TIMEOUT_MS, and serves again once it resumes', async () => {
    const list = (await (await fetch(`${url}/services?per_page=1`)).json()) as { contents: { id: string }[] };
    const serviceId = list.contents[0]!.id;

    database!.child.kill('SIGSTOP');
    try {
      for (const call of calls(serviceId)) {
        const started = performance.now();
        const response = await fetch(`${url}${call.path}`, call.init);
        const elapsedMs = performance.now() - started;
        const body = await response.text();
        expect(response.status, `${call.name}: ${body}`).toBe(503);
        expect(response.headers.get('retry-after'), call.name).toMatch(/^\d+$/);
        expect(response.headers.get('content-type'), call.name).toMatch(/^application\/problem\+json/);
        expect(JSON.parse(body), call.name).toMatchObject({ status: 503, detail: expect.any(String) });
        expect(elapsedMs, call.name).toBeLessThan(ANSWERED_WITHIN_MS);
      }
      const readiness = await fetch(`${url}/readyz`);
      expect(readiness.status).toBe(503);
      expect(await readiness.json()).toMatchObject({ database: 'down' });
    } finally {
      database!.child.kill('SIGCONT');
    }

    await waitFor(
      async () => (await fetch(`${url}/readyz`)).status === 200,
      20_000,
      'readiness after SIGCONT',
    );
    for (const call of calls(serviceId)) {
      const response = await fetch(`${url}${call.path}`, call.init);
      expect(response.status, `${call.name}: ${await response.clone().text()}`).toBe(200);
      await response.arrayBuffer();
    }
    expect(server!.child.exitCode, 'the server was not restarted').toBeNull();
  }, 90_000);
});
