import type { Db } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { openIndexedDatabase, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { importRecords } from '../../src/ingest/import.ts';
import type { InputRecord } from '../../src/ingest/input-record.ts';
import { decompose } from '../../src/ingest/decompose.ts';
import { rowCollection } from '../../src/db/collections.ts';
import type { EntityType } from '../../src/hsds/entities.ts';
import { finishInterruptedImports } from '../../src/ingest/import-recovery.ts';
import { rebuildAllDocuments } from '../../src/ingest/rebuild-all.ts';
import { recordPending } from '../../src/ingest/pending.ts';
import { createLogger } from '../../src/log.ts';
import { applyRowChanges, planRowChanges } from '../../src/ingest/row-writer.ts';
import { validateRecord } from '../../src/ingest/validate.ts';
import { importLines, served, servedRecord } from '../support/import.ts';
import { CONTACT, LOC, ORG, PHONE_A, PHONE_B, SAL, SVC, SVC2, SVC3 } from '../support/record-ids.ts';

let testDatabase: TestDatabase;
let db: Db;
let database: Database;

beforeAll(async () => {
  testDatabase = await startTestDatabase();
});
afterAll(async () => {
  await database?.close();
  await testDatabase?.close();
});
beforeEach(async () => {
  // A fresh database per test: each test states the data it needs.
  await database?.close();
  database = await openIndexedDatabase(testDatabase);
  db = database.db;
});

const location = (overrides: object = {}) => ({
  id: LOC,
  location_type: 'physical',
  name: 'Central Library',
  latitude: 47.6067,
  longitude: -122.3325,
  ...overrides,
});
const organization = (overrides: object = {}) => ({
  id: ORG,
  name: 'Harbor Food Bank',
  description: 'Groceries for families.',
  locations: [location()],
  ...overrides,
});
const service = (overrides: object = {}) => ({
  id: SVC,
  name: 'Weekly Pantry',
  status: 'active',
  description: 'Free groceries every week.',
  organization: { id: ORG, name: 'Harbor Food Bank', description: 'Groceries for families.' },
  phones: [
    { id: PHONE_A, number: '206-555-0100' },
    { id: PHONE_B, number: '206-555-0101' },
  ],
  service_at_locations: [{ id: SAL, location: { id: LOC, location_type: 'physical' } }],
  ...overrides,
});

const clock = (iso: string) => () => iso;
const DAY1 = '2026-01-01T00:00:00.000Z';
const DAY2 = '2026-02-01T00:00:00.000Z';
const DAY3 = '2026-03-01T00:00:00.000Z';
const findService = (id = SVC) => servedRecord(db, 'services', id);
const findSal = () => servedRecord(db, 'service_at_locations', SAL);
const rows = (entity: EntityType) => db.collection(rowCollection(entity));

describe('importing records', () => {
  it('stores the nested documents the API serves', async () => {
    const report = await importLines(db, [organization(), service()], {
      now: clock('2026-01-01T00:00:00.000Z'),
    });
    expect(report).toMatchObject({ inserted: 2, updated: 0, unchanged: 0, rejected: 0 });

    const stored = served(await findService());
    expect(stored).toMatchObject({
      id: SVC,
      name: 'Weekly Pantry',
      last_modified: '2026-01-01T00:00:00.000Z',
      organization: { id: ORG, name: 'Harbor Food Bank', locations: [{ id: LOC, name: 'Central Library' }] },
      phones: [{ id: PHONE_A }, { id: PHONE_B }],
      service_at_locations: [{ id: SAL, location: { id: LOC, name: 'Central Library', latitude: 47.6067 } }],
    });
    // A service at location nests the full service, without its other locations.
    const sal = served(await findSal());
    expect(sal).toMatchObject({
      id: SAL,
      location: { id: LOC },
      service: { id: SVC, organization: { id: ORG } },
    });
    expect((sal?.service as Record<string, unknown>).service_at_locations).toBeUndefined();
    // An organization document lists no services (joined at read time).
    expect(served(await db.collection('organizations').findOne({ id: ORG }))).not.toHaveProperty('services');
  });

  it('serves a service at location whose service is not stored as its own part, without the service', async () => {
    await importLines(db, [organization(), service()]);
    expect(await findSal()).toMatchObject({ id: SAL, location: { id: LOC }, service: { id: SVC } });
    // As when its service is left out for its size: its own part is stored whole, the service spliced in.
    await db.collection('services').deleteOne({ id: SVC });
    const sal = await findSal();
    expect(sal).toMatchObject({ id: SAL, service_id: SVC, location: { id: LOC, name: 'Central Library' } });
    expect(sal).not.toHaveProperty('service');
  });

  it('keeps extension fields', async () => {
    await importLines(db, [
      service({ x_eligibility_code: 'A7', phones: [{ id: PHONE_A, number: '1', x_tty: true }] }),
    ]);
    expect(await findService()).toMatchObject({ x_eligibility_code: 'A7', phones: [{ x_tty: true }] });
  });

  it('rejects bad records with where and why, and loads the good ones beside them', async () => {
    const report = await importLines(db, [
      service(),
      service({ id: SVC2, status: 'open' }),
      '{"id": "broken',
      service({ id: 'not-a-uuid' }),
      { id: SVC2, status: 'active' },
      [1, 2],
      { hello: 'world' },
    ]);
    expect(report.inserted).toBe(1);
    expect(report.rejected).toBe(6);
    expect(report.rejections).toEqual([
      {
        at: 'input.ndjson:2',
        path: '$.status',
        message: expect.stringMatching(
          /^service: Invalid option: expected one of "active"\|"inactive"\|"defunct"\|"temporarily closed"/,
        ),
      },
      { at: 'input.ndjson:3', message: expect.stringMatching(/^not valid JSON: /) },
      { at: 'input.ndjson:4', path: '$.id', message: expect.stringMatching(/^service: Invalid UUID/) },
      {
        at: 'input.ndjson:5',
        path: '$.name',
        message: expect.stringMatching(/^service: Invalid input: expected string/),
      },
      { at: 'input.ndjson:6', message: 'a record must be a JSON object' },
      { at: 'input.ndjson:7', message: expect.stringMatching(/^cannot tell the record type/) },
    ]);
    expect(await findService()).not.toBeNull();
    expect(await db.collection('services').countDocuments()).toBe(1);
  });

  it('rejects field names the database keeps or cannot store, and goes on loading and updating the rest', async () => {
    const reserved = (message: RegExp) => expect.stringMatching(message);
    const report = await importLines(db, [
      service({ $note: 'x' }),
      service({ id: SVC2, _id: 'shared', phones: [{ id: PHONE_A, number: '1', x_ext: { 'a\u0000b': 1 } }] }),
      service({ id: SVC2, name: 'Evening Pantry', x_tags: [{ _position: 'first', 'a.b': 'dots are fine' }] }),
    ]);
    expect(report).toMatchObject({ inserted: 0, rejected: 3 });
    expect(report.rejections).toEqual([
      { at: 'input.ndjson:1', path: '$.$note', message: reserved(/^field name "\$note" is reserved/) },
      { at: 'input.ndjson:2', path: '$.phones[0].x_ext["a\\u0000b"]', message: reserved(/NUL character/) },
      { at: 'input.ndjson:2', path: '$._id', message: reserved(/^field name "_id" is reserved/) },
      { at: 'input.ndjson:3', path: '$.x_tags[0]._position', message: reserved(/"_position" is reserved/) },
    ]);
    // Rejected records wrote nothing: the good ones around them load, and later updates of them too.
    expect(await importLines(db, [service(), service({ id: SVC2, x_tags: [{ 'a.b': 1 }] })])).toMatchObject({
      inserted: 2,
      rejected: 0,
    });
    expect(await importLines(db, [service({ name: 'Renamed' })])).toMatchObject({ updated: 1 });
    expect(await findService()).toMatchObject({ name: 'Renamed' });
  });

  it('rejects a record nested deeper than any HSDS record, loading the good ones beside it', async () => {
    // As text: too deep for JSON.stringify's own recursion.
    const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const withExtension = (record: object, extension: string) =>
      `${JSON.stringify(record).slice(0, -1)},"x_ext":${extension}}`;
    const report = await importLines(db, [
      '['.repeat(20_000) + ']'.repeat(20_000),
      withExtension(service(), nested(20_000)),
      withExtension(service({ id: SVC2 }), nested(60)),
    ]);
    expect(report).toMatchObject({ inserted: 1, rejected: 2 });
    const tooDeep = 'a record must not be nested more than 64 levels deep (objects and arrays)';
    expect(report.rejections).toEqual([
      { at: 'input.ndjson:1', message: tooDeep },
      { at: 'input.ndjson:2', message: tooDeep },
    ]);
    expect(await db.collection('services').countDocuments({ id: SVC2 })).toBe(1);
  });

  it('rejects a number too large to keep, which would be served as null', async () => {
    const report = await importLines(db, [
      `${JSON.stringify(service()).slice(0, -1)},"x_big":1e400}`,
      `${JSON.stringify(service({ id: SVC2 })).slice(0, -1)},"x_big":1e300}`,
    ]);
    expect(report).toMatchObject({ inserted: 1, rejected: 1 });
    expect(report.rejections).toEqual([
      { at: 'input.ndjson:1', message: 'a number in the record is too large to keep (beyond ±1.8e308)' },
    ]);
  });

  it('rejects a text with an unpaired surrogate escape, in a value or a name, which is no Unicode text', async () => {
    const report = await importLines(db, [
      `${JSON.stringify(service()).slice(0, -1)},"name":"lone \\ud800 surrogate"}`,
      `${JSON.stringify(service()).slice(0, -1)},"x_\\udc00":1}`,
      `${JSON.stringify(service({ id: SVC2 })).slice(0, -1)},"x_pair":"\\ud83d\\ude00"}`,
    ]);
    expect(report).toMatchObject({ inserted: 1, rejected: 2 });
    const message =
      'a text in the record holds an unpaired surrogate (a \\uD800-\\uDFFF escape not in a pair): it is not Unicode text';
    expect(report.rejections).toEqual([
      { at: 'input.ndjson:1', message },
      { at: 'input.ndjson:2', message },
    ]);
  });

  it('treats null as an absent field', async () => {
    const report = await importLines(db, [
      service({ alternate_name: null, phones: [{ id: PHONE_A, number: '1', extension: null }] }),
    ]);
    expect(report.rejected).toBe(0);
    expect(await findService()).not.toHaveProperty('alternate_name');
  });

  it('takes the record type from --type when the shape does not tell', async () => {
    const taxonomy = { id: ORG, name: 'Categories', description: 'Our categories' };
    expect((await importLines(db, [taxonomy])).rejected).toBe(1);
    expect((await importLines(db, [taxonomy], { type: 'taxonomy' })).inserted).toBe(1);
    expect(served(await db.collection('taxonomies').findOne({ id: ORG }))).toEqual(taxonomy);
  });

  it('validates and reports without writing in a dry run', async () => {
    const report = await importLines(db, [service(), service({ id: SVC2, status: 'bad' })], { dryRun: true });
    expect(report).toMatchObject({ dryRun: true, inserted: 1, rejected: 1 });
    expect(await db.collection('services').countDocuments()).toBe(0);
    expect(await db.collection('records.service').countDocuments()).toBe(0);
  });
});

describe('idempotency and last_modified', () => {
  it('changes nothing when the same data is imported again, last_modified included', async () => {
    await importLines(db, [organization(), service()], { now: clock('2026-01-01T00:00:00.000Z') });
    const before = await findService();
    const again = await importLines(db, [organization(), service()], {
      now: clock('2026-02-02T00:00:00.000Z'),
    });
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 2, documentsWritten: {} });
    expect(await findService()).toEqual(before);
  });

  it('keeps a given last_modified', async () => {
    await importLines(db, [service({ last_modified: '2025-05-05T10:00:00.000Z' })], {
      now: clock('2026-01-01T00:00:00.000Z'),
    });
    expect((await findService())?.last_modified).toBe('2025-05-05T10:00:00.000Z');
  });

  it('serves a newly given last_modified, even when nothing else changed', async () => {
    await importLines(db, [service({ last_modified: '2025-05-05T10:00:00.000Z' })]);
    const report = await importLines(db, [service({ last_modified: '2025-06-06T10:00:00.000Z' })]);
    expect(report).toMatchObject({ updated: 1, documentsWritten: { services: 1, service_at_locations: 1 } });
    expect(await findService()).toMatchObject({ last_modified: '2025-06-06T10:00:00.000Z' });
    expect(await findSal()).toMatchObject({ service: { last_modified: '2025-06-06T10:00:00.000Z' } });
  });

  it('keeps the given last_modified of a record whose nested entity alone changed', async () => {
    const given = service({ last_modified: '2025-05-05T10:00:00.000Z' });
    await importLines(db, [given], { now: clock('2026-01-01T00:00:00.000Z') });
    // A change arriving through the organization alone moves it to the time of that change...
    await importLines(db, [organization({ name: 'Harbor Food Bank Inc.' })], {
      now: clock('2026-02-02T00:00:00.000Z'),
    });
    expect(await findService()).toMatchObject({ last_modified: '2026-02-02T00:00:00.000Z' });
    // ...and the publisher's record, given again with its own last_modified, sets it back to that.
    const report = await importLines(db, [given], { now: clock('2026-03-03T00:00:00.000Z') });
    expect(report).toMatchObject({ updated: 1 });
    expect(await findService()).toMatchObject({
      last_modified: '2025-05-05T10:00:00.000Z',
      organization: { name: 'Harbor Food Bank' },
    });
  });

  it('moves a given last_modified when a record merely referring to the service changes it', async () => {
    await importLines(db, [service({ last_modified: '2025-05-05T10:00:00.000Z' })]);
    // A second place for the service, from a service at location that names the service without a date.
    const SAL2 = '44444444-4444-4444-8444-444444444445';
    const report = await importLines(
      db,
      [
        {
          id: SAL2,
          service_id: SVC,
          service: { id: SVC, name: 'Weekly Pantry', status: 'active' },
          location: location(),
        },
      ],
      { now: clock('2026-02-02T00:00:00.000Z') },
    );
    expect(report).toMatchObject({ inserted: 1, rejected: 0 });
    const stored = await findService();
    expect(stored?.service_at_locations.map((item: { id: string }) => item.id)).toEqual([SAL, SAL2]);
    expect(stored).toMatchObject({ last_modified: '2026-02-02T00:00:00.000Z' });
  });

  it('finishes at start-up what an import killed between rows and documents left undone', async () => {
    const record = service({ id: SVC2, name: 'Evening Pantry', service_at_locations: [] });
    const validated = validateRecord({ source: { file: 'killed.ndjson' }, value: record });
    if (!validated.ok || !('type' in validated)) throw new Error('the record is valid');
    const plan = await planRowChanges(db, [decompose(validated.type, validated.record)]);
    await recordPending(db, plan.changes);
    await applyRowChanges(db, plan.writes, plan.changes.newRows);
    expect(await findService(SVC2)).toBeNull();

    await finishInterruptedImports(db, createLogger('silent'));
    expect(await findService(SVC2)).toMatchObject({ name: 'Evening Pantry', organization: { id: ORG } });
    expect(await db.collection('organizations').findOne({ id: ORG })).not.toBeNull();
    expect(await db.collection('import.pending').countDocuments()).toBe(0);
  });

  it('gives a rerun after a crash between rows and documents the last_modified an uninterrupted import gives', async () => {
    const given = service({ last_modified: '2025-05-05T10:00:00.000Z' });
    await importLines(db, [given], { now: clock('2026-01-01T00:00:00.000Z') });
    await importLines(db, [organization({ name: 'Harbor Food Bank Inc.' })], {
      now: clock('2026-02-02T00:00:00.000Z'),
    });
    // The import of `given` again, killed once its rows are written and before its documents are rebuilt.
    const validated = validateRecord({ source: { file: 'again.ndjson' }, value: given });
    if (!validated.ok || !('type' in validated)) throw new Error('the record is valid');
    const plan = await planRowChanges(db, [decompose(validated.type, validated.record)]);
    await recordPending(db, plan.changes);
    await applyRowChanges(db, plan.writes, plan.changes.newRows);

    await importLines(db, [given], { now: clock('2026-03-03T00:00:00.000Z') });
    expect(await findService()).toMatchObject({
      last_modified: '2025-05-05T10:00:00.000Z',
      organization: { name: 'Harbor Food Bank' },
    });
    expect(await findSal()).toMatchObject({ service: { last_modified: '2025-05-05T10:00:00.000Z' } });
  });

  it('moves last_modified only when the record really changes', async () => {
    await importLines(db, [service()], { now: clock('2026-01-01T00:00:00.000Z') });
    await importLines(db, [service({ description: 'Free groceries every Tuesday.' })], {
      now: clock('2026-03-03T00:00:00.000Z'),
    });
    expect(await findService()).toMatchObject({
      last_modified: '2026-03-03T00:00:00.000Z',
      description: 'Free groceries every Tuesday.',
    });
    // The service at location shows the same service, with the same last_modified.
    expect(await findSal()).toMatchObject({ service: { last_modified: '2026-03-03T00:00:00.000Z' } });
  });
});

describe('changes reach every document that embeds them', () => {
  it('an organization change reaches its services and their services at location', async () => {
    await importLines(db, [organization(), service()]);
    const report = await importLines(db, [organization({ name: 'Harbor Community Food Bank' })], {
      now: clock('2026-04-04T00:00:00.000Z'),
    });
    expect(report).toMatchObject({ updated: 1 });
    expect(await findService()).toMatchObject({
      organization: { name: 'Harbor Community Food Bank' },
      last_modified: '2026-04-04T00:00:00.000Z',
    });
    expect(await findSal()).toMatchObject({
      service: { organization: { name: 'Harbor Community Food Bank' } },
    });
    expect(await db.collection('organizations').findOne({ id: ORG })).toMatchObject({
      name: 'Harbor Community Food Bank',
    });
  });

  it("an organization's last_modified, a field like any other there, reaches its services alone changed", async () => {
    await importLines(db, [organization({ last_modified: '2026-01-01T00:00:00.000Z' }), service()]);
    await importLines(db, [organization({ last_modified: '2026-02-02T00:00:00.000Z' })]);
    expect(await db.collection('organizations').findOne({ id: ORG })).toMatchObject({
      last_modified: '2026-02-02T00:00:00.000Z',
    });
    expect(await findService()).toMatchObject({
      organization: { last_modified: '2026-02-02T00:00:00.000Z' },
    });
    expect(await findSal()).toMatchObject({
      service: { organization: { last_modified: '2026-02-02T00:00:00.000Z' } },
    });
    // And once more unchanged: nothing written.
    expect(
      await importLines(db, [organization({ last_modified: '2026-02-02T00:00:00.000Z' })]),
    ).toMatchObject({ unchanged: 1, documentsWritten: {} });
  });

  it("a change to a service reaches its documents, not its organization's and so not its siblings'", async () => {
    const other = {
      id: '88888888-8888-4888-8888-888888888888',
      name: 'Harbor Legal Aid',
      description: 'Advice.',
    };
    await importLines(db, [
      organization(),
      service(),
      service({ id: SVC2, name: 'Evening Pantry', service_at_locations: [] }),
      other,
    ]);
    const planned = async (record: object) => {
      const validated = validateRecord({ source: { file: 'change.ndjson' }, value: record });
      if (!validated.ok || !('type' in validated)) throw new Error('the record is valid');
      return (await planRowChanges(db, [decompose(validated.type, validated.record)])).changes;
    };
    // An organization's documents list no services: touching it would rebuild every document embedding it,
    // the service's siblings among them (an import of a large provider's services, quadratic).
    const renamed = await planned(service({ name: 'Weekly Pantry (Tuesdays)' }));
    expect(renamed.touchedIds.has(SVC)).toBe(true);
    expect(renamed.touchedIds.has(ORG)).toBe(false);
    expect(renamed.changedRoots.get('service')).toEqual(new Set([SVC]));
    const moved = await planned(service({ organization: other }));
    expect(moved.touchedIds.has(ORG)).toBe(false); // the organization it left

    // Moved all the same: the service's own document, its service at location and both organizations' lists.
    await importLines(db, [service({ organization: other })]);
    expect(await findService()).toMatchObject({ organization: { id: other.id, name: 'Harbor Legal Aid' } });
    expect(await findSal()).toMatchObject({ service: { organization: { id: other.id } } });
    expect(await findService(SVC2)).toMatchObject({ organization: { id: ORG } });
  });

  it('a location change reaches the services at location and services that embed it', async () => {
    await importLines(db, [organization(), service()]);
    await importLines(db, [organization({ locations: [location({ name: 'Central Library (4th Ave)' })] })]);
    expect(await findSal()).toMatchObject({ location: { name: 'Central Library (4th Ave)' } });
    expect(await findService()).toMatchObject({
      service_at_locations: [{ location: { name: 'Central Library (4th Ave)' } }],
      organization: { locations: [{ name: 'Central Library (4th Ave)' }] },
    });
  });

  it('a nested list given in full replaces the one before; a list left out is kept', async () => {
    await importLines(db, [service()]);
    await importLines(db, [service({ phones: [{ id: PHONE_B, number: '206-555-0101' }] })]);
    expect((await findService())?.phones).toEqual([{ id: PHONE_B, number: '206-555-0101', service_id: SVC }]);
    const { phones: _left, ...withoutPhones } = service();
    await importLines(db, [withoutPhones]);
    expect((await findService())?.phones).toHaveLength(1);
    await importLines(db, [service({ phones: [] })]);
    expect(await findService()).not.toHaveProperty('phones');
  });

  it('composes a row alike from the batch and the database, and keeps a list left out inside a kept item', async () => {
    const contact = (extra: object = {}) => ({ id: CONTACT, name: 'Ana', ...extra });
    const phone = { id: '12121212-1212-4212-8212-121212121212', number: '206-555-0199' };
    const withoutPhones = (contacts: object[]) => {
      const { phones: _phones, ...record } = service({ contacts });
      return record;
    };
    await importLines(db, [service({ contacts: [contact({ phones: [phone] })] })], { now: clock(DAY1) });
    // The service's row unchanged (its phones left out, kept), rebuilt for its organization's change.
    await importLines(
      db,
      [withoutPhones([contact({ phones: [phone] })]), organization({ name: 'Renamed' })],
      {
        now: clock(DAY2),
      },
    );
    // Rebuilt from the stored row, where the kept list sits elsewhere: the same record, unchanged.
    const imported = await findService();
    expect(imported).toMatchObject({ organization: { name: 'Renamed' }, last_modified: DAY2 });
    const before = await db.collection('services').findOne({ id: SVC });
    await rebuildAllDocuments(db, { now: clock(DAY3) });
    const rebuilt = await db.collection('services').findOne({ id: SVC });
    expect(JSON.stringify(await findService())).toBe(JSON.stringify(imported));
    expect(rebuilt?._hash).toBe(before?._hash);
    expect(rebuilt?.last_modified).toBe(DAY2);

    // The contact given again without its phones keeps them.
    await importLines(db, [withoutPhones([contact({ name: 'Ana B' })])], { now: clock(DAY3) });
    expect((await findService())?.contacts).toEqual([
      { id: CONTACT, name: 'Ana B', service_id: SVC, phones: [{ ...phone, contact_id: CONTACT }] },
    ]);
  });

  it('a child left out of its list is no longer shown there; one still listed elsewhere stays there', async () => {
    // PHONE_B is listed by the service and by the service's location.
    const sharedPhone = { id: PHONE_B, number: '206-555-0101' };
    const withSharedPhone = (servicePhones: object[]) =>
      service({
        phones: servicePhones,
        service_at_locations: [{ id: SAL, location: location({ phones: [sharedPhone] }) }],
      });
    await importLines(db, [withSharedPhone([{ id: PHONE_A, number: '206-555-0100' }, sharedPhone])]);

    const report = await importLines(db, [withSharedPhone([])]);
    expect(report).toMatchObject({ updated: 1, unchanged: 0 });
    const stored = await findService();
    expect(stored).not.toHaveProperty('phones');
    expect(stored?.service_at_locations[0].location.phones).toEqual([{ ...sharedPhone, location_id: LOC }]);
    // Phones are kept inside the rows of the records nesting them, each its own copy, and have no rows.
    expect(await rows('service').findOne({ _id: SVC as never })).toMatchObject({ phones: [] });
    expect(await rows('location').findOne({ _id: LOC as never })).toMatchObject({
      phones: [{ id: PHONE_B, number: '206-555-0101' }],
    });
    expect(await rows('phone').countDocuments()).toBe(0);
    // Nothing left to change: the same data again is unchanged.
    expect(await importLines(db, [withSharedPhone([])])).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it('a record given twice in one batch has the children its last copy lists', async () => {
    const twice = [service({ phones: [{ id: PHONE_A, number: '206-555-0100' }] }), service({ phones: [] })];
    // One service inserted: the second copy counts for nothing more (it was counted inserted twice).
    expect(await importLines(db, twice)).toMatchObject({ inserted: 1, updated: 0, unchanged: 1 });
    expect(await findService()).not.toHaveProperty('phones');
    expect(await rows('service').findOne({ _id: SVC as never })).toMatchObject({ phones: [] });
    // As when the copies come in separate batches; and the same data again changes nothing.
    const separately = await openIndexedDatabase(testDatabase);
    try {
      await importLines(separately.db, twice, { batchSize: 1 });
      const again = await servedRecord(separately.db, 'services', SVC);
      expect(again).toMatchObject({ id: SVC });
      expect(again).not.toHaveProperty('phones');
    } finally {
      await separately.close();
    }
    expect(await importLines(db, twice)).toMatchObject({ inserted: 0, updated: 0, unchanged: 2 });
  });

  it('a record linking a child after a list that leaves it out keeps it linked, whatever the batches', async () => {
    // The organization lists SVC only; SVC2, given after it, names that organization as its own.
    const records = [
      organization({ services: [service({ service_at_locations: [] })] }),
      service({ id: SVC2, phones: [], service_at_locations: [] }),
      // SVC lists no service at location; the record after it places SAL at SVC again.
      service({ service_at_locations: [] }),
      { id: SAL, service_id: SVC, location: location() },
    ];
    for (const batchSize of [250, 1]) {
      const separate = await openIndexedDatabase(testDatabase);
      try {
        await importLines(separate.db, records, { batchSize });
        const service = (id: string) => servedRecord(separate.db, 'services', id);
        expect((await service(SVC2))?.organization, `batch size ${batchSize}`).toMatchObject({ id: ORG });
        expect((await service(SVC))?.service_at_locations).toEqual([expect.objectContaining({ id: SAL })]);
        expect(await separate.db.collection('service_at_locations').findOne({ id: SAL })).not.toBeNull();
      } finally {
        await separate.close();
      }
    }
  });

  it('a service at location its service no longer lists is not served; its row and location are kept', async () => {
    await importLines(db, [service()]);
    expect(await findSal()).not.toBeNull();
    const report = await importLines(db, [service({ service_at_locations: [] })]);
    expect(report).toMatchObject({ updated: 1 });
    expect(await findSal()).toBeNull();
    expect(await findService()).not.toHaveProperty('service_at_locations');
    expect(
      await db.collection('records.service_at_location').findOne({ _id: SAL as never }),
    ).not.toHaveProperty('service_id');
    expect(await db.collection('records.location').findOne({ _id: LOC as never })).not.toBeNull();
    // Listed again, it is served again.
    await importLines(db, [service()]);
    expect(await findSal()).toMatchObject({ service: { id: SVC } });
  });

  it('a referenced entity given in part is updated, not replaced', async () => {
    await importLines(db, [organization({ email: 'info@harbor.example.org' })]);
    await importLines(db, [
      service({ organization: { id: ORG, name: 'Harbor Food Bank', description: 'New words.' } }),
    ]);
    expect(await db.collection('organizations').findOne({ id: ORG })).toMatchObject({
      email: 'info@harbor.example.org',
      description: 'New words.',
      locations: [{ id: LOC }],
    });
  });

  it('an entity loaded after the records that refer to it reaches them', async () => {
    // A service that names its organization only by id, before the organization itself is loaded.
    const { organization: _nested, ...alone } = service();
    await importLines(db, [{ ...alone, organization_id: ORG }]);
    expect(await findService()).not.toHaveProperty('organization');
    expect((await findSal())?.service).not.toHaveProperty('organization');

    // Alone too: nothing else it carries (its locations) is in the service.
    const { locations: _locations, ...organizationAlone } = organization();
    expect(await importLines(db, [organizationAlone], { type: 'organization' })).toMatchObject({
      inserted: 1,
    });
    expect(await findService()).toMatchObject({ organization: { id: ORG, name: 'Harbor Food Bank' } });
    expect(await findSal()).toMatchObject({ service: { organization: { id: ORG } } });
  });
});

describe('data unusable for one feature', () => {
  it('stores a location with out-of-range coordinates as given and leaves it out of proximity search', async () => {
    const report = await importLines(db, [
      service({ service_at_locations: [{ id: SAL, location: location({ latitude: 95, longitude: 200 }) }] }),
    ]);
    expect(report.rejected).toBe(0);
    expect(report.warnings).toContainEqual(
      expect.stringMatching(new RegExp(`location ${LOC}: coordinates out of range.*proximity`)),
    );
    const sal = await findSal();
    expect(sal).toMatchObject({ location: { latitude: 95, longitude: 200 } });
    expect(sal?._geo?.point).toBeUndefined();
  });

  it('stores a service area whose extent is not valid GeoJSON and leaves it out of postcode search', async () => {
    const areas = [
      {
        id: PHONE_A,
        name: 'Broken',
        extent: '{"type":"Polygon","coordinates":[[[0,0],[1,1]]]}',
        extent_type: 'geojson',
      },
      { id: PHONE_B, name: 'ZIPs', extent: '98101, 98104', extent_type: 'text' },
    ];
    const report = await importLines(db, [service({ phones: [], service_areas: areas })]);
    expect(report.rejected).toBe(0);
    expect(report.warnings).toContainEqual(
      expect.stringMatching(/service area 55555555.*not a valid polygon.*postcode search/),
    );
    expect((await findService())?.service_areas).toEqual(areas.map((area) => ({ ...area, service_id: SVC })));
    const stored = await db.collection('services').findOne({ id: SVC });
    expect(stored?._geo).toEqual({ postcodes: ['98101', '98104'], covered: true });
  });
});

describe('documents the database cannot take', () => {
  // 9.6 MB: a row takes it, but the service document holds it twice (as served JSON and as list item),
  // past MongoDB's 16 MiB.
  const hugeDescription = 'Free groceries. '.repeat(600_000);

  it('leaves out a nested document over the size limit, with a warning, and loads the others', async () => {
    await importLines(db, [service()]);
    const report = await importLines(db, [
      service({ description: hugeDescription }),
      service({ id: SVC2, service_at_locations: [] }),
    ]);
    expect(report).toMatchObject({ rejected: 0, updated: 1, inserted: 1 });
    expect(report.warnings).toContainEqual(
      expect.stringMatching(new RegExp(`^service ${SVC}: its nested document is too large .* not served`)),
    );
    // The version stored before no longer says what the rows say: it is removed, not served stale.
    expect(await findService()).toBeNull();
    expect(await findService(SVC2)).not.toBeNull();
    const row = await db.collection('records.service').findOne({ _id: SVC as never });
    expect(row?.description).toBe(hugeDescription);
    expect(await db.collection('import.pending').countDocuments()).toBe(0);

    // Made smaller, it is stored again.
    await importLines(db, [service({ description: 'Groceries.' })]);
    expect(await findService()).toMatchObject({ description: 'Groceries.' });
  });

  it('rejects a record whose own row is over the size limit, loading the others and keeping its stored version', async () => {
    await importLines(db, [service()]);
    // 17 MiB: the service's row, which keeps everything the record owns, cannot be stored.
    const report = await importLines(db, [
      service({ description: 'x'.repeat(17 * 1024 * 1024) }),
      service({ id: SVC2, service_at_locations: [] }),
    ]);
    expect(report).toMatchObject({ rejected: 1, inserted: 1 });
    expect(report.rejections).toEqual([
      {
        at: 'input.ndjson:1',
        message: expect.stringMatching(
          /^the record is too large to store: its service .* over MongoDB's limit/,
        ),
      },
    ]);
    expect(await findService()).toMatchObject({ name: service().name });
    expect((await findService())?.description).not.toHaveLength(17 * 1024 * 1024);
    expect(await findService(SVC2)).not.toBeNull();
  });

  it('leaves a row as it was when what it keeps would take it past the size limit, loading the others', async () => {
    const big = 'x'.repeat(9 * 1024 * 1024);
    const base = { id: SVC, name: 'Weekly Pantry', status: 'active' };
    await importLines(db, [{ ...base, phones: [{ id: PHONE_A, number: '206-555-0100', description: big }] }]);
    // Its phones left out are kept: with the new schedule, the row would pass 16 MiB.
    const report = await importLines(db, [
      { ...base, name: 'Pantry', schedules: [{ id: PHONE_B, description: big }] },
      service({ id: SVC2, service_at_locations: [] }),
    ]);
    expect(report).toMatchObject({ inserted: 1, rejected: 0 });
    expect(report.warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(`^service ${SVC}: with what it keeps from before, .* left as it was$`),
      ),
    );
    const stored = await findService();
    expect(stored).toMatchObject({ name: 'Weekly Pantry', phones: [{ id: PHONE_A }] });
    expect(stored).not.toHaveProperty('schedules');
    expect(await findService(SVC2)).not.toBeNull();
  });

  it('writes a batch early once its records reach 8 MiB of text, holding large records a few at a time', async () => {
    const large = (id: string) =>
      service({ id, description: 'x'.repeat(5 * 1024 * 1024), service_at_locations: [] });
    const progress: number[] = [];
    const report = await importLines(
      db,
      [large(SVC), large(SVC2), service({ id: SVC3, service_at_locations: [] })],
      {
        onProgress: (read) => progress.push(read),
      },
    );
    expect(report).toMatchObject({ inserted: 3, rejected: 0 });
    // The first two reach 10 MiB: written then; the third with the end of the input.
    expect(progress).toEqual([2, 3]);
  });

  it('goes on importing when changes left pending by an earlier import cannot be applied', async () => {
    await importLines(db, [
      service(),
      service({ id: SVC2, organization: undefined, service_at_locations: [] }),
    ]);
    // A rebuild the database refuses every time: two services of one organization under a unique index.
    await db
      .collection('services')
      .createIndex({ 'organization.id': 1, service: 1 }, { unique: true, name: 'one_per_organization' });
    await db
      .collection('records.service')
      .updateOne({ _id: SVC2 as never }, { $set: { organization_id: ORG } });
    await recordPending(db, {
      touchedIds: new Set([SVC2]),
      changedRows: new Set([`service:${SVC2}`]),
      newRows: new Set(),
      changedRoots: new Map([['service', new Set([SVC2])]]),
      givenLastModified: new Set(),
    });

    const ORG2 = '88888888-8888-4888-8888-888888888888';
    for (const attempt of [1, 2]) {
      const report = await importLines(db, [organization({ id: ORG2, name: `Attempt ${attempt}` })]);
      expect(report).toMatchObject({ inserted: attempt === 1 ? 1 : 0, rejected: 0 });
      expect(report.warnings).toContainEqual(
        expect.stringMatching(/^changes left pending by an import that did not finish .* tried again/),
      );
      expect(await db.collection('organizations').findOne({ id: ORG2 })).toMatchObject({
        name: `Attempt ${attempt}`,
      });
    }
    expect(await db.collection('import.pending').countDocuments()).toBe(1);

    // Once the database takes it, the next import applies it and clears it.
    await db.collection('services').dropIndex('one_per_organization');
    const report = await importLines(db, [organization({ id: ORG2, name: 'Attempt 3' })]);
    expect(report.warnings).toEqual([]);
    expect(await findService(SVC2)).toMatchObject({ name: 'Weekly Pantry' });
    expect(await db.collection('import.pending').countDocuments()).toBe(0);
  });
});

describe('imports of one process', () => {
  it('run one at a time: an import reads its records only once the one before it has finished', async () => {
    let releaseFirst = () => {};
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let secondStarted = false;
    async function* first(): AsyncGenerator<InputRecord> {
      yield { source: { file: 'first', line: 1 }, value: service() };
      await firstHeld;
    }
    async function* second(): AsyncGenerator<InputRecord> {
      secondStarted = true;
      yield { source: { file: 'second', line: 1 }, value: service({ id: SVC2, service_at_locations: [] }) };
    }
    const firstImport = importRecords(db, first());
    const secondImport = importRecords(db, second());
    // The first import has read its record and waits on its source; the second has not begun.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondStarted).toBe(false);
    releaseFirst();
    expect(await firstImport).toMatchObject({ inserted: 1 });
    expect(await secondImport).toMatchObject({ inserted: 1 });
    expect(secondStarted).toBe(true);
  });
});
