/*
 * Deleted records (issue #20): a record a replace deleted answers `GET /{resource}/{id}` with 410 Gone,
 * saying when, for HSDS_TOMBSTONE_DAYS (then 404), as the OpenAPI document describes; lists never show
 * it; loaded again, it is served again.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOMBSTONES } from '../../src/db/collections.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { importLines } from '../support/import.ts';
import { randomService } from '../support/random-service.ts';
import { defaultDocument } from '../openapi/default-document.ts';
import { documentValidator } from '../openapi/document-validator.ts';
import { responseSchemaPath } from '../openapi/response-schema.ts';

const document = defaultDocument('http://localhost');
const validate = documentValidator(document);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const service = (name: string) => ({
  ...randomService(name),
  service_at_locations: [{ id: randomUUID(), location: { id: randomUUID(), location_type: 'virtual' } }],
});

const NOW = '2026-11-26T12:00:00.000Z';
const load = (records: object[], replace = false) =>
  importLines(app.database.db, records, {
    source: 'county',
    now: () => NOW,
    ...(replace ? { replace: { force: true } } : {}),
  });

async function get(path: string) {
  const response = await fetch(`${app.url}${path}`);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('a deleted record', () => {
  const kept = service('Pantry');
  const dropped = service('Shelter');
  beforeAll(async () => {
    await load([kept, dropped]);
    expect((await load([kept], true)).replace).toMatchObject({
      deleted: { service: 1, service_at_location: 1, organization: 1 },
    });
  });

  it('answers 410 with when it was deleted, as documented, for each resource it was', async () => {
    for (const [resource, id] of [
      ['services', dropped.id],
      ['service_at_locations', dropped.service_at_locations[0]!.id],
      ['organizations', dropped.organization.id],
    ] as const) {
      const answer = await get(`/${resource}/${id}`);
      expect(answer.status, resource).toBe(410);
      expect(answer.type).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({
        status: 410,
        detail: `The ${resource.slice(0, -1).replace(/_/g, ' ')} with id '${id}' was deleted on ${NOW}.`,
        deleted_at: NOW,
      });
      const at = responseSchemaPath(document, `/${resource}/{id}`, 'get', 410, 'application/problem+json');
      expect(validate(at, answer.body).errors).toEqual([]);
    }
    // Never deleted: 404.
    expect((await get(`/services/${randomUUID()}`)).status).toBe(404);
    // Lists do not show it.
    const list = await get('/services?per_page=50');
    expect((list.body.contents as { id: string }[]).map(({ id }) => id)).toEqual([kept.id]);
  });

  it('answers 404 once its tombstone is older than HSDS_TOMBSTONE_DAYS', async () => {
    const other = service('Legal Aid');
    await load([kept, other]);
    await load([kept], true);
    expect((await get(`/services/${other.id}`)).status).toBe(410);
    await app.database.db
      .collection(TOMBSTONES)
      .updateOne(
        { _id: `services:${other.id}` as never },
        { $set: { deleted_at: new Date(Date.now() - 31 * 86_400_000) } },
      );
    expect((await get(`/services/${other.id}`)).status).toBe(404);
    // The next replace drops it.
    const tombstones = app.database.db.collection(TOMBSTONES);
    expect(await tombstones.countDocuments({ _id: `services:${other.id}` as never })).toBe(1);
    await importLines(app.database.db, [kept], {
      source: 'county',
      replace: { force: true, tombstoneDays: 30 },
    });
    expect(await tombstones.countDocuments({ _id: `services:${other.id}` as never })).toBe(0);
    expect(await tombstones.countDocuments({ _id: `services:${dropped.id}` as never })).toBe(1);
  });

  it('is served again once loaded again', async () => {
    await load([kept, dropped]);
    expect((await get(`/services/${dropped.id}`)).status).toBe(200);
    await load([kept], true);
    expect((await get(`/services/${dropped.id}`)).status).toBe(410);
  });

  it('answers 404 on a server keeping no tombstones (HSDS_TOMBSTONE_DAYS=0)', async () => {
    const none = await startTestApp({ HSDS_TOMBSTONE_DAYS: '0' }, { sharing: app.testDatabase });
    try {
      const response = await fetch(`${none.url}/services/${dropped.id}`);
      expect(response.status).toBe(404);
    } finally {
      await none.close();
    }
  });
});
