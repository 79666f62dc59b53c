/*
 * Sources (issue #20): every import loads for a source, and the row of each record it reads (not what the
 * record nests or refers to) names every source that loaded it. Nothing served shows them, and a record
 * another source gives again unchanged changes nothing served.
 */
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowCollection, SOURCE_LOADS } from '../../src/db/collections.ts';
import { directoryGeneration } from '../../src/db/directory-generation.ts';
import { importRecords } from '../../src/ingest/import.ts';
import type { InputRecord } from '../../src/ingest/input-record.ts';
import { importLines, servedRecord } from '../support/import.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await startTestDatabase();
});
afterAll(async () => testDatabase?.close());

const freshDb = () => testDatabase.client.db(randomDatabaseName());

const SERVICE = '5a0c0000-0000-4000-8000-000000000001';
const ORGANIZATION = '5a0c0000-0000-4000-8000-000000000002';
const LOCATION = '5a0c0000-0000-4000-8000-000000000003';
const PAIRING = '5a0c0000-0000-4000-8000-000000000004';
const OTHER_SERVICE = '5a0c0000-0000-4000-8000-000000000005';

const service = {
  id: SERVICE,
  name: 'Pantry',
  status: 'active',
  organization: { id: ORGANIZATION, name: 'Harbor Food Bank', description: 'Groceries for families.' },
  service_at_locations: [
    { id: PAIRING, location: { id: LOCATION, location_type: 'physical', name: 'Hall' } },
  ],
};
const organization = { id: ORGANIZATION, name: 'Harbor Food Bank', description: 'Groceries for families.' };

const sourcesOf = async (db: Db, entity: Parameters<typeof rowCollection>[0], id: string) =>
  (await db.collection(rowCollection(entity)).findOne({ _id: id as never }))?._sources;

describe('sources', () => {
  it('name the rows of the records an import reads and the served records they nest whole, not what they refer to', async () => {
    const db = freshDb();
    const report = await importLines(db, [service], { source: 'county-feed' });
    expect(report).toMatchObject({ source: 'county-feed', inserted: 1, rejected: 0 });
    expect(await sourcesOf(db, 'service', SERVICE)).toEqual(['county-feed']);
    // Given whole inside it, a served record of its own: the source loaded it too.
    expect(await sourcesOf(db, 'service_at_location', PAIRING)).toEqual(['county-feed']);
    // Referred to, given in part: no source loaded them as records of their own.
    expect(await sourcesOf(db, 'organization', ORGANIZATION)).toBeUndefined();
    expect(await sourcesOf(db, 'location', LOCATION)).toBeUndefined();

    await importLines(db, [organization], { type: 'organization' });
    expect(await sourcesOf(db, 'organization', ORGANIZATION)).toEqual(['default']);
  });

  it('are never served', async () => {
    const db = freshDb();
    await importLines(db, [service], { source: 'county-feed' });
    const record = await servedRecord(db, 'services', SERVICE);
    expect(record).toMatchObject({ id: SERVICE, name: 'Pantry' });
    expect(JSON.stringify(record)).not.toContain('county-feed');
    expect(JSON.stringify(await servedRecord(db, 'service_at_locations', PAIRING))).not.toContain('_sources');
  });

  it('gather on a record every source gives: unchanged for the report and for what is served', async () => {
    const db = freshDb();
    await importLines(db, [service], { source: 'county-feed' });
    const stored = await db.collection('services').findOne({ id: SERVICE });
    const generation = await directoryGeneration(db);

    // The same line from another source: not skipped as unchanged (its fingerprint is the source's), but
    // its row learns of the source and nothing else is written.
    expect(await importLines(db, [service], { source: 'state-211' })).toMatchObject({
      unchanged: 1,
      updated: 0,
      documentsWritten: {},
    });
    expect(await sourcesOf(db, 'service', SERVICE)).toEqual(['county-feed', 'state-211']);
    expect(await db.collection('services').findOne({ id: SERVICE })).toMatchObject({
      _hash: stored!._hash,
      _json: stored!._json,
      last_modified: stored!.last_modified,
    });
    expect(await directoryGeneration(db)).toBe(generation);

    // Either source again, unchanged; a change by one keeps the other.
    expect(await importLines(db, [service], { source: 'county-feed' })).toMatchObject({ unchanged: 1 });
    expect(await importLines(db, [service], { source: 'state-211' })).toMatchObject({ unchanged: 1 });
    expect(
      await importLines(db, [{ ...service, name: 'Evening Pantry' }], { source: 'state-211' }),
    ).toMatchObject({ updated: 1 });
    expect(await sourcesOf(db, 'service', SERVICE)).toEqual(['county-feed', 'state-211']);
    expect(await servedRecord(db, 'services', SERVICE)).toMatchObject({ name: 'Evening Pantry' });
  });

  it('name the rows of the tabular form as well', async () => {
    const db = freshDb();
    const rows: InputRecord[] = [
      {
        source: { file: 'services.csv', row: 1 },
        entity: 'service',
        value: { id: OTHER_SERVICE, name: 'Meals', status: 'active' },
        columns: ['id', 'name', 'status'],
      },
    ];
    async function* records() {
      yield* rows;
    }
    expect(await importRecords(db, records(), { source: 'csv-package' })).toMatchObject({ inserted: 1 });
    expect(await sourcesOf(db, 'service', OTHER_SERVICE)).toEqual(['csv-package']);
  });

  it('keep the start and the outcome of each source’s last load; a dry run records nothing', async () => {
    const db = freshDb();
    const times = ['2026-11-20T10:00:00.000Z', '2026-11-20T10:00:05.000Z'];
    let tick = 0;
    const now = () => times[Math.min(tick++, times.length - 1)]!;
    await importLines(db, [service, { ...service, id: OTHER_SERVICE, status: 'closing' }], {
      source: 'county-feed',
      now,
    });
    const loads = db.collection(SOURCE_LOADS);
    expect(await loads.findOne({ _id: 'county-feed' as never }, { projection: { _id: 0 } })).toEqual({
      name: 'county-feed',
      first_started_at: times[0],
      last_started_at: times[0],
      last_load: {
        started_at: times[0],
        finished_at: times[1],
        mode: 'merge',
        inserted: 1,
        updated: 0,
        unchanged: 0,
        rejected: 1,
        deleted: 0,
      },
    });
    await importLines(db, [service], { source: 'other', dryRun: true });
    expect(await loads.countDocuments()).toBe(1);
  });
});
