import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentCollection } from '../../src/db/collections.ts';
import { seedSampleData } from '../../src/ingest/seed.ts';
import { createLogger } from '../../src/log.ts';
import { importLines } from '../support/import.ts';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';

let database: TestDatabase;
beforeEach(async () => {
  database = await startTestDatabase();
});
afterEach(async () => database?.close());

const count = (collection: string) => database.db.collection(collection).countDocuments();

describe('the sample directory', () => {
  it('is loaded into a database without directory data', async () => {
    await seedSampleData(database.db, createLogger('silent'));
    expect(await count(documentCollection.service)).toBe(72);
    expect(await count(documentCollection.organization)).toBeGreaterThanOrEqual(20);
  });

  for (const [what, record, type] of [
    [
      'an organization',
      { id: '0f4c9a52-6b7e-4f2a-9d1c-3e5a7b9c1d2e', name: 'Harbor Food Bank', description: 'Food.' },
      'organization',
    ],
    [
      'a taxonomy',
      { id: '1a5d0b63-7c8f-4a3b-8e2d-4f6b8c0d2e3f', name: 'Our categories', description: 'Ours.' },
      'taxonomy',
    ],
  ] as const) {
    it(`is not loaded into a database holding only ${what}`, async () => {
      expect((await importLines(database.db, [record], { type })).rejected).toBe(0);
      await seedSampleData(database.db, createLogger('silent'));
      expect(await count(documentCollection.service)).toBe(0);
      expect(await count(documentCollection[type])).toBe(1);
    });
  }
});
