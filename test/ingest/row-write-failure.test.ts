/**
 * A batch's rows are written one rank of tables after another (rows of owned and shared entities, then the
 * other roots, then services), the tables of a rank at once. When one table of a rank fails, the import
 * stops there: the other tables of that rank are written (their writes were under way), no later rank is,
 * the batch's changes stay pending, and running the import again gives what an uninterrupted one gives.
 * The failure is injected with a unique index on the organizations' names that the batch breaks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_COLLECTION, rowCollection } from '../../src/db/collections.ts';
import { importRecords, type ImportOptions } from '../../src/ingest/import.ts';
import type { InputRecord } from '../../src/ingest/input-record.ts';
import { indexedDatabases } from '../support/database.ts';
import { storedDirectory } from '../support/import.ts';

const databases = indexedDatabases();
beforeAll(() => databases.start());
afterAll(() => databases.close());

const OPTIONS: ImportOptions = { now: () => '2030-01-01T00:00:00.000Z' };

/** Two services of two organizations named alike, each at a location of its own. */
const SERVICES = [1, 2].map((n) => ({
  id: `7a5e0000-0000-4000-8000-00000000000${n}`,
  name: `Pantry ${n}`,
  status: 'active',
  organization: {
    id: `7a5e0000-0000-4000-8000-00000000010${n}`,
    name: 'Harbor Food Bank',
    description: 'Food.',
  },
  service_at_locations: [
    {
      id: `7a5e0000-0000-4000-8000-00000000020${n}`,
      location: {
        id: `7a5e0000-0000-4000-8000-00000000030${n}`,
        location_type: 'physical',
        name: `Site ${n}`,
      },
    },
  ],
}));

async function* records() {
  for (const [index, value] of SERVICES.entries())
    yield { source: { file: 'services.ndjson', line: index + 1 }, value } satisfies InputRecord;
}

describe('an import whose write of one table of rows fails', () => {
  it('stops before the later ranks, keeps its changes pending, and a rerun finishes it', async () => {
    const uninterruptedDb = await databases.fresh();
    expect(await importRecords(uninterruptedDb, records(), OPTIONS)).toMatchObject({ inserted: 2 });
    const uninterrupted = await storedDirectory(uninterruptedDb);

    const db = await databases.fresh();
    const organizations = db.collection(rowCollection('organization'));
    await organizations.createIndex({ name: 1 }, { unique: true, name: 'unique_name' });

    await expect(importRecords(db, records(), OPTIONS)).rejects.toThrow(/duplicate key/);
    const ids = async (entity: Parameters<typeof rowCollection>[0]) =>
      (await db.collection(rowCollection(entity)).find().toArray()).map((row) => row._id).sort();
    // The rank before, and the other table of the failing rank, were written; services, the rank after, not.
    expect(await ids('location')).toEqual(
      SERVICES.map((service) => service.service_at_locations[0]!.location.id),
    );
    expect(await ids('service_at_location')).toEqual(
      SERVICES.map((service) => service.service_at_locations[0]!.id),
    );
    expect(await ids('organization')).toHaveLength(1);
    expect(await ids('service')).toEqual([]);
    expect(await db.collection('services').countDocuments()).toBe(0);
    expect(await db.collection(PENDING_COLLECTION).countDocuments()).toBe(1);

    await organizations.dropIndex('unique_name');
    await importRecords(db, records(), OPTIONS);
    expect(await storedDirectory(db)).toEqual(uninterrupted);
    expect(await db.collection(PENDING_COLLECTION).countDocuments()).toBe(0);
  });
});
