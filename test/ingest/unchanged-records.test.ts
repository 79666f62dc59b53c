/**
 * Service records given again exactly as before are skipped without reading their rows
 * (src/ingest/unchanged-records.ts), and never when that would give another directory than applying them:
 * each case below imports the same data into a second database with the skipping defeated (its
 * documents' fingerprints removed first), and the two directories must be equal, row for row.
 */
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { entityTypes } from '../../src/hsds/entities.ts';
import { rowCollection } from '../../src/db/collections.ts';
import { importRecords } from '../../src/ingest/import.ts';
import { readTabularPackage } from '../../src/ingest/sources/tabular.ts';
import { jsonRecords } from '../../src/ingest/sources/json-file.ts';
import { openIndexedDatabase, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { importLines, servedHashes, servedRecord } from '../support/import.ts';
import { CONTACT, LOC, ORG, PHONE_A, SAL, SAL2, SVC, SVC2 } from '../support/record-ids.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let testDatabase: TestDatabase;
let skipping: Database;
let applying: Database;
let monitored: MongoClient;
let commands: { name: string; collection: unknown }[] = [];

beforeAll(async () => {
  testDatabase = await startTestDatabase();
  monitored = await new MongoClient(testDatabase.uri, { monitorCommands: true }).connect();
  monitored.on('commandStarted', (event) =>
    commands.push({ name: event.commandName, collection: event.command[event.commandName] }),
  );
});
afterAll(async () => {
  await monitored?.close();
  await skipping?.close();
  await applying?.close();
  await testDatabase?.close();
});
beforeEach(async () => {
  await skipping?.close();
  await applying?.close();
  skipping = await openIndexedDatabase(testDatabase);
  applying = await openIndexedDatabase(testDatabase);
});

const location = (name = 'Central Library') => ({ id: LOC, location_type: 'physical', name });
const service = (overrides: object = {}) => ({
  id: SVC,
  name: 'Weekly Pantry',
  status: 'active',
  organization_id: ORG,
  phones: [{ id: PHONE_A, number: '206-555-0100' }],
  service_at_locations: [{ id: SAL, location: location() }],
  ...overrides,
});
const other = (locationName?: string) =>
  service({
    id: SVC2,
    name: 'Evening Pantry',
    phones: [],
    service_at_locations: [{ id: SAL2, location: location(locationName) }],
  });
const organization = {
  id: ORG,
  name: 'Harbor Food Bank',
  description: 'Groceries.',
  website: 'https://harbor.example.org',
};

/** Every row and every served document: equal for equal directories. */
async function directory(db: Db) {
  const rows: Record<string, unknown[]> = {};
  for (const entity of entityTypes) {
    rows[entity] = await db.collection(rowCollection(entity)).find({}).sort({ _id: 1 }).toArray();
  }
  return { rows, documents: await servedHashes(db) };
}

type Step = object[] | ((db: Db) => Promise<unknown>);

/** Imports each step into both databases, the second one never skipping; the directories stay equal. */
async function importBoth(steps: Step[], batchSize?: number): Promise<void> {
  for (const step of steps) {
    await applying.db.collection('services').updateMany({}, { $unset: { _input: '' } });
    for (const db of [skipping.db, applying.db]) {
      if (typeof step === 'function') await step(db);
      else await importLines(db, step, { now: () => '2026-01-01T00:00:00.000Z', batchSize });
    }
  }
  expect(await directory(skipping.db)).toEqual(await directory(applying.db));
}

describe('service records given again unchanged', () => {
  it('are counted unchanged without reading their rows or validating them again', async () => {
    const records = [organization, service(), other()];
    await importLines(skipping.db, records);
    const onMonitored = monitored.db(skipping.db.databaseName);
    commands = [];
    const report = await importLines(onMonitored, records);
    expect(report).toMatchObject({ inserted: 0, updated: 0, unchanged: 3, rejected: 0 });
    expect(report.documentsWritten).toEqual({});
    // The organization record is not a service: its rows are read. The services' are not.
    const read = commands.filter(({ name }) => name === 'find').map(({ collection }) => collection);
    expect(read).toContain('services');
    expect(read).not.toContain(rowCollection('service'));
    expect(read).not.toContain(rowCollection('phone'));
    // Nothing written but the import's own bookkeeping (its lease).
    const writes = commands.filter(({ name }) => ['insert', 'update', 'delete'].includes(name));
    expect(writes.filter(({ collection }) => !String(collection).startsWith('import.'))).toEqual([]);
  });

  it('apply again once anything they show changed since: another record, a table, a later version', async () => {
    // Another service renames the location they share; given again, the first service names it back.
    await importBoth([[service(), other()], [other('Library Annex')], [service()]]);
    expect((await servedRecord(skipping.db, 'services', SVC2))?.service_at_locations).toMatchObject([
      { location: { name: 'Central Library' } },
    ]);
    // The same in one import: the later record's copy of the location is what the first one shows.
    await importBoth([[service(), other('Library Annex')], [service()]]);
    expect((await servedRecord(skipping.db, 'services', SVC))?.service_at_locations).toMatchObject([
      { location: { name: 'Central Library' } },
    ]);
    // A later version, then the earlier one again.
    await importBoth([[service({ name: 'Pantry' })], [service()]]);
    expect(await servedRecord(skipping.db, 'services', SVC)).toMatchObject({ name: 'Weekly Pantry' });
  });

  it('apply again, in their place, when a record before them in the same import changes what they show', async () => {
    await importBoth([[service(), other()]]);
    // In one batch, and in batches of one (the earlier batch's documents possibly not rebuilt yet).
    for (const batchSize of [250, 1]) {
      await importBoth([[other('Library Annex'), service()]], batchSize);
      expect(
        (await servedRecord(skipping.db, 'service_at_locations', SAL2))?.location,
        `batch size ${batchSize}`,
      ).toMatchObject({ name: 'Central Library' });
    }
    // Two versions of one record in one import: the last one given holds.
    await importBoth([[service({ name: 'Pantry' }), service()]]);
    expect(await servedRecord(skipping.db, 'services', SVC)).toMatchObject({ name: 'Weekly Pantry' });
  });

  it('apply again after a table changed one of their rows', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsds-unchanged-'));
    try {
      await writeFile(
        join(dir, 'datapackage.json'),
        JSON.stringify({
          name: 'phones',
          resources: [
            {
              name: 'phones',
              path: 'phones.csv',
              schema: {
                fields: [
                  { name: 'id', type: 'string' },
                  { name: 'service_id', type: 'string' },
                  { name: 'number', type: 'string' },
                ],
              },
            },
          ],
        }),
      );
      await writeFile(join(dir, 'phones.csv'), `id,service_id,number\n${PHONE_A},${SVC},206-555-0199\n`);
      const table = (db: Db) => importRecords(db, readTabularPackage(dir));
      await importBoth([[service()], table, [service()]]);
      expect((await servedRecord(skipping.db, 'services', SVC))?.phones).toMatchObject([
        { number: '206-555-0100' },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('give what applying them gives when a table named an item they keep inside them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsds-unchanged-'));
    try {
      const fields = ['id', 'contact_id', 'number'].map((name) => ({ name, type: 'string' }));
      await writeFile(
        join(dir, 'datapackage.json'),
        JSON.stringify({
          name: 'phones',
          resources: [{ name: 'phones', path: 'phones.csv', schema: { fields } }],
        }),
      );
      // A phone row naming the contact the service keeps inside its row: stored, shown under no record.
      const phone = '12121212-1212-4212-8212-121212121212';
      await writeFile(join(dir, 'phones.csv'), `id,contact_id,number\n${phone},${CONTACT},206-555-0199\n`);
      const contact = { id: CONTACT, name: 'Ana', phones: [{ id: PHONE_A, number: '206-555-0100' }] };
      const withContact = service({ contacts: [contact] });
      const table = (db: Db) => importRecords(db, readTabularPackage(dir));
      await importBoth([[withContact], table, [withContact]]);
      expect((await servedRecord(skipping.db, 'services', SVC))?.contacts).toEqual([
        { ...contact, service_id: SVC, phones: [{ ...contact.phones[0], contact_id: CONTACT }] },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('are recognised once a first import gave them, or once given again after an interrupted one', async () => {
    await importLines(skipping.db, [service()]);
    await skipping.db.collection('services').updateMany({}, { $unset: { _input: '' } });
    // Applied (nothing changes) and fingerprinted, then skipped.
    expect(await importLines(skipping.db, [service()])).toMatchObject({ unchanged: 1 });
    const onMonitored = monitored.db(skipping.db.databaseName);
    commands = [];
    expect(await importLines(onMonitored, [service()])).toMatchObject({ unchanged: 1 });
    expect(commands.map(({ collection }) => collection)).not.toContain(rowCollection('service'));
  });

  it('are recognised in a JSON document too, and with the type forced as it was', async () => {
    const fromJson = (db: Db, type?: 'service') =>
      importRecords(db, jsonRecords([service({ name: 'Pantry' })], 'in.json'), { type });
    expect(await fromJson(skipping.db, 'service')).toMatchObject({ updated: 0, inserted: 1 });
    const onMonitored = monitored.db(skipping.db.databaseName);
    commands = [];
    expect(await fromJson(onMonitored, 'service')).toMatchObject({ unchanged: 1 });
    expect(commands.map(({ collection }) => collection)).not.toContain(rowCollection('service'));
    // Without the type forced, the same record is another input: applied (changing nothing), then known.
    commands = [];
    expect(await fromJson(onMonitored)).toMatchObject({ unchanged: 1 });
    expect(commands.map(({ collection }) => collection)).toContain(rowCollection('service'));
  });
});
