/*
 * The import report counts a record whose served record the import changed as updated, even when its own
 * record changed nothing (issue #20): a row of the tabular form relinked to it, in the same load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecords } from '../../src/ingest/import.ts';
import type { InputRecord } from '../../src/ingest/input-record.ts';
import { servedRecord } from '../support/import.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await startTestDatabase();
});
afterAll(async () => testDatabase?.close());

const PANTRY = '3c0e0000-0000-4000-8000-000000000001';
const SHELTER = '3c0e0000-0000-4000-8000-000000000002';
const ATTRIBUTE = '3c0e0000-0000-4000-8000-000000000003';

const table = (
  entity: 'service' | 'attribute',
  value: Record<string, unknown>,
  row: number,
): InputRecord => ({
  source: { file: `${entity}s.csv`, row },
  entity,
  value,
  columns: Object.keys(value),
});

async function* rows(linkedTo: string): AsyncGenerator<InputRecord> {
  yield table('service', { id: PANTRY, name: 'Pantry', status: 'active' }, 1);
  yield table('service', { id: SHELTER, name: 'Shelter', status: 'active' }, 2);
  yield table(
    'attribute',
    { id: ATTRIBUTE, link_id: linkedTo, link_entity: 'service', value: 'wheelchair' },
    1,
  );
}

describe('the import report', () => {
  it('counts a service whose served record changed as updated, though its own row did not', async () => {
    const db = testDatabase.client.db(randomDatabaseName());
    expect(await importRecords(db, rows(PANTRY))).toMatchObject({ inserted: 3 });
    expect(await servedRecord(db, 'services', PANTRY)).toMatchObject({ attributes: [{ id: ATTRIBUTE }] });

    // The attribute moves to the shelter: both services' served records change.
    const report = await importRecords(db, rows(SHELTER));
    expect(report.byType).toEqual({
      service: { inserted: 0, updated: 2, unchanged: 0, rejected: 0 },
      attribute: { inserted: 0, updated: 1, unchanged: 0, rejected: 0 },
    });
    expect([report.updated, report.unchanged]).toEqual([3, 0]);
    expect(await servedRecord(db, 'services', SHELTER)).toMatchObject({ attributes: [{ id: ATTRIBUTE }] });

    // The same again: nothing changes.
    expect(await importRecords(db, rows(SHELTER))).toMatchObject({ updated: 0, unchanged: 3 });
  });
});
