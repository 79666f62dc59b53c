/**
 * A rebuild writes each chunk of documents while it composes the next: what it composes later must not
 * depend on a write still under way. Services at location are composed from their services, read back
 * from the database when the rebuild does not hold them (a service it removed, say): those reads wait for
 * the services' writes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { documentCollection, rowCollection } from '../../src/db/collections.ts';
import { materialize } from '../../src/ingest/materialize.ts';
import type { RowChanges } from '../../src/ingest/row-writer.ts';
import { openIndexedDatabase, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { importLines } from '../support/import.ts';
import { LOC, ORG, SAL, SVC } from '../support/record-ids.ts';

let testDatabase: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDatabase = await startTestDatabase();
  database = await openIndexedDatabase(testDatabase);
});
afterAll(async () => {
  await database?.close();
  await testDatabase?.close();
});

it('composes services at location after the removal of their service has landed, however slow its write', async () => {
  const { db } = database;
  const service = {
    id: SVC,
    name: 'Weekly Pantry',
    status: 'active',
    organization: { id: ORG, name: 'Harbor Food Bank', description: 'Groceries.' },
    service_at_locations: [{ id: SAL, location: { id: LOC, location_type: 'physical', name: 'Library' } }],
  };
  expect((await importLines(db, [service])).rejected).toBe(0);
  // The service's row removed (as a repair finds it): rebuilding removes its document, and its service at
  // location no longer shows it.
  await db.collection(rowCollection('service')).deleteOne({ _id: SVC as never });
  const changes: RowChanges = {
    touchedIds: new Set(),
    changedRows: new Set(),
    newRows: new Set(),
    changedRoots: new Map([['service', new Set([SVC])]]),
    givenLastModified: new Set(),
  };
  // Each write starts late, as a slow database's would land late.
  const slowWrites = () => new Promise<void>((resolve) => setTimeout(resolve, 300));
  await materialize(db, changes, { now: () => '2026-02-01T00:00:00.000Z', beforeWrite: slowWrites });

  expect(await db.collection(documentCollection.service).countDocuments({ id: SVC })).toBe(0);
  const pairing = await db.collection(documentCollection.service_at_location).findOne({ id: SAL });
  expect(pairing?.service).toBeUndefined();
});
