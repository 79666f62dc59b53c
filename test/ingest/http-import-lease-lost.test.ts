/**
 * `POST /import?wait=true` whose import loses the database's import lease midway (another process took it
 * over): the caller is told to send the data again, with a 503 and `Retry-After`, not a 500.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IMPORT_LEASE_COLLECTION } from '../../src/ingest/import-lease.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, type TestUser } from '../meta/support.ts';

/** Enough batches (of 250) that the import is still running when the first of them is served. */
const SERVICES = 2_000;

let app: TestApp;
let loader: TestUser;
beforeAll(async () => {
  app = await startTestApp();
  loader = await createUser(app, [{ path: '/import', verb: 'POST' }]);
});
afterAll(async () => app?.close());

const service = (n: number) => ({
  id: `1ea5e000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `Pantry ${n}`,
  status: 'active',
});

it('answers 503 with Retry-After when another import takes the database over midway', async () => {
  const db = app.database.db;
  const body = Array.from({ length: SERVICES }, (_, n) => JSON.stringify(service(n))).join('\n');
  const response = fetch(`${app.url}/import?wait=true`, {
    method: 'POST',
    headers: { ...loader.headers, 'content-type': 'application/x-ndjson' },
    body,
  });

  // As a process taking the lease over once it seemed expired would, once the first batch is served.
  for (let tries = 0; !(await db.collection('services').findOne({})); tries++) {
    expect(tries, 'the first batch to be imported').toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await db
    .collection<Record<string, unknown>>(IMPORT_LEASE_COLLECTION)
    .replaceOne(
      { _id: 'import' as never },
      { holder: 'another', pid: 1, pidSpace: 'another-pid-space', expiresAt: new Date(Date.now() + 60_000) },
    );

  const answer = await response;
  expect(answer.status).toBe(503);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.headers.get('retry-after')).toBe('30');
  expect(await answer.json()).toMatchObject({
    status: 503,
    detail: expect.stringMatching(/another import may have taken the database over.* run this import again/),
  });
  expect(await db.collection('services').countDocuments()).toBeLessThan(SERVICES);
});
