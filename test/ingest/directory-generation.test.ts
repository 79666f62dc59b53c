/*
 * What moves the directory's generation (src/db/directory-generation.ts), which every server follows to
 * drop the answers it keeps: an import that writes documents, finishing what an import left pending (even
 * when its documents were already written), and a rebuild of every document; never an unchanged re-import.
 */
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directoryGeneration } from '../../src/db/directory-generation.ts';
import { rebuildAllDocuments } from '../../src/ingest/rebuild-all.ts';
import { recordPending } from '../../src/ingest/pending.ts';
import { importLines } from '../support/import.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';

let testDatabase: TestDatabase;
let db: Db;
beforeAll(async () => {
  testDatabase = await startTestDatabase();
  db = testDatabase.client.db(randomDatabaseName());
});
afterAll(async () => testDatabase?.close());

const SERVICE_ID = '1ea5e000-0000-4000-8000-000000000001';
const service = {
  id: SERVICE_ID,
  name: 'Pantry',
  status: 'active',
  organization: {
    id: '1ea5e000-0000-4000-8000-000000000002',
    name: 'Harbor Food Bank',
    description: 'Groceries for families.',
  },
};

describe('the directory generation', () => {
  it('moves with an import that writes documents, not with an unchanged re-import', async () => {
    expect(await directoryGeneration(db)).toBe(0);
    expect(await importLines(db, [service])).toMatchObject({ inserted: 1, rejected: 0 });
    const imported = await directoryGeneration(db);
    expect(imported).toBeGreaterThan(0);

    expect(await importLines(db, [service])).toMatchObject({ unchanged: 1 });
    expect(await directoryGeneration(db)).toBe(imported);

    await importLines(db, [{ ...service, name: 'Evening Pantry' }]);
    expect(await directoryGeneration(db)).toBeGreaterThan(imported);
  });

  it('moves when an import finishes changes left pending, though their documents were already written', async () => {
    // As left by an import stopped after writing the documents and before marking them.
    await recordPending(db, {
      touchedIds: new Set(),
      changedRows: new Set(),
      newRows: new Set(),
      changedRoots: new Map([['service', new Set([SERVICE_ID])]]),
      givenLastModified: new Set(),
    });
    const before = await directoryGeneration(db);
    expect(await importLines(db, [{ ...service, name: 'Evening Pantry' }])).toMatchObject({ unchanged: 1 });
    expect(await directoryGeneration(db)).toBeGreaterThan(before);
    expect(await db.collection('import.pending').countDocuments()).toBe(0);
  });

  it('moves with a rebuild of every document', async () => {
    const before = await directoryGeneration(db);
    await rebuildAllDocuments(db);
    expect(await directoryGeneration(db)).toBeGreaterThan(before);
  });
});
