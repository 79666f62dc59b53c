/**
 * `POST /import` on a server told to validate in worker threads (HSDS_IMPORT_WORKERS): the workers start in
 * the server's process, and the import loads and rejects as any other.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { call, createUser, type TestUser } from '../meta/support.ts';
import { poolsOfImports } from '../support/validation-pools.ts';

let app: TestApp;
let loader: TestUser;
beforeAll(async () => {
  app = await startTestApp({ HSDS_IMPORT_WORKERS: '2' });
  loader = await createUser(app, [{ path: '/import', verb: 'POST' }]);
});
afterAll(() => app?.close());
afterEach(() => vi.restoreAllMocks());

const service = (at: number) => ({
  id: randomUUID(),
  name: `Pantry ${at}`,
  status: 'active',
  organization: { id: randomUUID(), name: `Food Bank ${at}`, description: 'Groceries for families.' },
});

describe('POST /import with HSDS_IMPORT_WORKERS', () => {
  it('loads more than a batch of records, rejecting a bad one with its line', async () => {
    // Over one batch of 500, so that workers start (on this machine only because the setting says so).
    const pools = poolsOfImports();
    const services = Array.from({ length: 620 }, (_, at) => service(at));
    const lines = services.map((record) => JSON.stringify(record));
    lines.splice(550, 0, JSON.stringify({ ...service(620), status: 'sometimes' }));
    const response = await fetch(`${app.url}/import?wait=true`, {
      method: 'POST',
      headers: { ...loader.headers, 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });
    expect(response.status).toBe(200);
    expect(pools.map((pool) => [pool.size, pool.threaded])).toEqual([[2, true]]);
    const report = (await response.json()) as { inserted: number; rejected: number; rejections: object[] };
    expect([report.inserted, report.rejected]).toEqual([620, 1]);
    expect(report.rejections).toEqual([
      expect.objectContaining({ at: expect.stringMatching(/:551$/), path: '$.status' }),
    ]);
    const last = await call(app, 'GET', `/services/${services.at(-1)!.id}`);
    expect(last.status).toBe(200);
  });
});
