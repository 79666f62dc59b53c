/*
 * A full refresh of a source (issue #20, `replace`): once the records are loaded, what the source had loaded
 * and the input did not contain is deleted, with its services at location and what no record refers to
 * any more; another source's records are never touched; a rejected record, or too much missing unforced,
 * deletes nothing; a dry run says what it would delete; a replace stopped part-way is finished.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { importRecords } from '../../src/ingest/import.ts';
import type { InputRecord } from '../../src/ingest/input-record.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowCollection } from '../../src/db/collections.ts';
import { recordPending } from '../../src/ingest/pending.ts';
import { planReplace } from '../../src/ingest/replace-plan.ts';
import { deleteRows, deletionChanges } from '../../src/ingest/replace.ts';
import { SeenRecords } from '../../src/ingest/seen-records.ts';
import { readTabularPackage } from '../../src/ingest/sources/tabular.ts';
import { importLines, servedRecord, storedDirectory } from '../support/import.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await startTestDatabase();
});
afterAll(async () => testDatabase?.close());

const freshDb = () => testDatabase.client.db(randomDatabaseName());
const NOW = () => '2026-11-26T12:00:00.000Z';

const id = (n: number) => `7e9a0000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const O1 = id(101);
const O2 = id(102);
const L1 = id(201);
const L2 = id(202);
const T1 = id(301);
const T2 = id(302);
const TAXONOMY = id(401);

const organization = (orgId: string) => ({
  id: orgId,
  name: `Organization ${orgId.slice(-3)}`,
  description: 'Help for families.',
});
const term = (termId: string) => ({
  id: termId,
  code: `T-${termId.slice(-3)}`,
  name: `Term ${termId.slice(-3)}`,
  description: 'A category.',
  taxonomy_detail: { id: TAXONOMY, name: 'Categories', description: 'Test categories.' },
});

/** A service of organization `orgId`, offered at location `locationId`, classified by term `termId`. */
const service = (n: number, orgId: string, locationId: string, termId: string) => ({
  id: id(n),
  name: `Service ${n}`,
  status: 'active',
  organization: organization(orgId),
  attributes: [{ id: id(n + 500), taxonomy_term: term(termId) }],
  service_at_locations: [
    {
      id: id(n + 600),
      location: { id: locationId, location_type: 'physical', name: `Place ${locationId.slice(-3)}` },
    },
  ],
});

const S1 = service(1, O1, L1, T1);
const S2 = service(2, O1, L2, T1);
const S3 = service(3, O2, L2, T2);
const S4 = service(4, O1, L1, T1);
const pairingOf = (record: typeof S1) => record.service_at_locations[0]!.id;

async function loaded(records: object[], source = 'county', db = freshDb()): Promise<Db> {
  expect(await importLines(db, records, { source, now: NOW })).toMatchObject({ rejected: 0 });
  return db;
}

const replace = (db: Db, records: object[], options: { force?: boolean; dryRun?: boolean } = {}) =>
  importLines(db, records, {
    source: 'county',
    now: NOW,
    dryRun: options.dryRun,
    replace: { force: options.force },
  });

const exists = async (db: Db, collection: string, recordId: string) =>
  (await servedRecord(db, collection, recordId)) !== null;
const rowExists = async (db: Db, entity: Parameters<typeof rowCollection>[0], rowId: string) =>
  (await db.collection(rowCollection(entity)).countDocuments({ _id: rowId as never })) > 0;

describe('a replace', () => {
  it('deletes the services the input lacks, their services at location, and what only they referred to', async () => {
    const db = await loaded([S1, S2, S3]);
    const report = await replace(db, [S1, S2]);
    expect(report).toMatchObject({ unchanged: 2, rejected: 0 });
    expect(report.replace).toEqual({
      had: 6,
      missing: 2,
      deleted: { service: 1, service_at_location: 1, organization: 1, taxonomy_term: 1 },
      released: 0,
    });
    // Gone, rows and served documents: the service, its service at location, its organization and its
    // term, which nothing else refers to.
    expect(await exists(db, 'services', S3.id)).toBe(false);
    expect(await exists(db, 'service_at_locations', pairingOf(S3))).toBe(false);
    expect(await exists(db, 'organizations', O2)).toBe(false);
    expect(await exists(db, 'taxonomy_terms', T2)).toBe(false);
    for (const [entity, rowId] of [
      ['service', S3.id],
      ['service_at_location', pairingOf(S3)],
      ['organization', O2],
      ['taxonomy_term', T2],
    ] as const)
      expect(await rowExists(db, entity, rowId), `${entity} ${rowId}`).toBe(false);
    // Kept: what the services that stay refer to (L2 is S2's location too; the taxonomy, T1's).
    expect(await rowExists(db, 'location', L2)).toBe(true);
    expect(await exists(db, 'taxonomies', TAXONOMY)).toBe(true);
    expect(await servedRecord(db, 'service_at_locations', pairingOf(S2))).toMatchObject({
      location: { id: L2 },
    });
    expect(await servedRecord(db, 'services', S2.id)).toMatchObject({ name: 'Service 2' });

    // The same replace again deletes nothing more.
    expect((await replace(db, [S1, S2])).replace).toEqual({ had: 4, missing: 0, deleted: {}, released: 0 });
  });

  it('deletes what was referred to only by what it deletes, a level after another', async () => {
    const db = await loaded([S1, S3]);
    expect((await replace(db, [S1])).replace).toMatchObject({
      deleted: { service: 1, service_at_location: 1, organization: 1, taxonomy_term: 1, location: 1 },
    });
    expect(await rowExists(db, 'location', L2)).toBe(false);
    expect(await rowExists(db, 'location', L1)).toBe(true);
  });

  it('never touches another source’s records, nor what they refer to', async () => {
    const db = await loaded([S1, S2, S3]);
    await loaded([S4], 'state', db);
    const before = await servedRecord(db, 'services', S4.id);
    const report = await replace(db, [], { force: true });
    expect(report.replace).toMatchObject({ had: 6, missing: 6, released: 0 });
    for (const record of [S1, S2, S3]) expect(await exists(db, 'services', record.id)).toBe(false);
    // S4's organization, location and term stay; L2 and O2, T2 go.
    expect(await servedRecord(db, 'services', S4.id)).toEqual(before);
    expect(await exists(db, 'organizations', O1)).toBe(true);
    expect(await rowExists(db, 'location', L1)).toBe(true);
    expect(await exists(db, 'taxonomy_terms', T1)).toBe(true);
    expect(await rowExists(db, 'location', L2)).toBe(false);
    expect(await exists(db, 'organizations', O2)).toBe(false);
  });

  it('keeps a record another source loads too, taking the source’s name off it', async () => {
    const db = await loaded([S1, S2, S3]);
    await loaded([S3], 'state', db);
    const report = await replace(db, [S1, S2]);
    // S3 and its service at location, which state loads whole too.
    expect(report.replace).toEqual({ had: 6, missing: 2, deleted: {}, released: 2 });
    expect(await exists(db, 'services', S3.id)).toBe(true);
    expect(
      (await db.collection(rowCollection('service')).findOne({ _id: S3.id as never }))?._sources,
    ).toEqual(['state']);
  });

  it('keeps an organization the source loaded that records still refer to, as no source’s', async () => {
    const db = await loaded([S1]);
    await importLines(db, [organization(O1)], { source: 'county', type: 'organization', now: NOW });
    expect((await replace(db, [S1])).replace).toEqual({ had: 3, missing: 1, deleted: {}, released: 1 });
    expect(await exists(db, 'organizations', O1)).toBe(true);
    expect((await db.collection(rowCollection('organization')).findOne({ _id: O1 as never }))?._sources).toBe(
      undefined,
    );
  });

  it('deletes nothing after a rejected record, and says why', async () => {
    const db = await loaded([S1, S2, S3]);
    const report = await replace(db, [S1, { ...S2, status: 'sometimes' }]);
    expect(report.rejected).toBe(1);
    expect(report.replace).toMatchObject({
      missing: 4,
      refused: expect.stringContaining('1 record(s) of the input were rejected'),
    });
    for (const record of [S1, S2, S3]) expect(await exists(db, 'services', record.id)).toBe(true);
  });

  it('stops before deleting more than half of the source’s records, unless forced', async () => {
    const db = await loaded([S1, S2, S3]);
    const refused = await replace(db, [S1]);
    expect(refused.replace).toEqual({
      had: 6,
      missing: 4,
      deleted: {},
      wouldDelete: { service: 2, service_at_location: 2, organization: 1, location: 1, taxonomy_term: 1 },
      released: 0,
      refused: expect.stringContaining('lacks 4 of the 6 records source county had, more than 50%'),
    });
    expect(await exists(db, 'services', S3.id)).toBe(true);
    expect((await replace(db, [S1], { force: true })).replace).toEqual({
      had: 6,
      missing: 4,
      deleted: refused.replace!.wouldDelete,
      released: 0,
    });
    expect(await exists(db, 'services', S2.id)).toBe(false);
  });

  it('says in a dry run what it would delete, deleting nothing', async () => {
    const db = await loaded([S1, S2, S3]);
    const before = await storedDirectory(db);
    const report = await replace(db, [S1, S2], { dryRun: true });
    expect(report.replace).toEqual({
      had: 6,
      missing: 2,
      deleted: { service: 1, service_at_location: 1, organization: 1, taxonomy_term: 1 },
      released: 0,
    });
    expect(await storedDirectory(db)).toEqual(before);
    // Its record of what the input held is gone with it.
    const collections = await db.listCollections({}, { nameOnly: true }).toArray();
    expect(collections.map(({ name }) => name).filter((name) => name.startsWith('import.seen'))).toEqual([]);
  });

  it('stopped part-way, is finished by the next import, and run again gives what it gives uninterrupted', async () => {
    const uninterrupted = await loaded([S1, S2, S3]);
    await replace(uninterrupted, [S1]);
    await replace(uninterrupted, [S1], { force: true });

    const stopped = await loaded([S1, S2, S3]);
    // As a replace leaves it when stopped after deleting the services' rows, before the rest and the rebuild.
    const seen = await SeenRecords.start(stopped);
    await seen.add([{ entity: 'service', id: S1.id }]);
    const plan = await planReplace(stopped, 'county', seen);
    await seen.drop();
    const changes = await deletionChanges(stopped, plan.deletions);
    await recordPending(stopped, changes, undefined, { rows: plan.deletions, source: 'county' });
    await deleteRows(
      stopped,
      { rows: new Map([['service', plan.deletions.get('service')!]]), source: 'county' },
      new Date(NOW()),
    );
    expect(await exists(stopped, 'services', S2.id)).toBe(true); // its document is still there

    // The next import, of anything, finishes it.
    await loaded([S4], 'state', stopped);
    await loaded([S4], 'state', uninterrupted);
    expect(await exists(stopped, 'services', S2.id)).toBe(false);
    expect(await exists(stopped, 'organizations', O2)).toBe(false);
    // Run again, the replace finds nothing more to delete; the directories are the same.
    expect((await replace(stopped, [S1], { force: true })).replace).toMatchObject({ deleted: {} });
    expect(await storedDirectory(stopped)).toEqual(await storedDirectory(uninterrupted));
  });
});

describe('a replace, with what records nest and what the load adds', () => {
  const alone = ({ organization: _organization, ...rest }: typeof S1) => rest;
  const feed = (...services: (typeof S1)[]) => ({ ...organization(O1), services: services.map(alone) });

  it('follows an organization feed: a service the organization no longer lists goes', async () => {
    const db = freshDb();
    await importLines(db, [feed(S1, S2)], { source: 'county', type: 'organization', now: NOW });
    const report = await importLines(db, [feed(S1)], {
      source: 'county',
      type: 'organization',
      now: NOW,
      replace: {},
    });
    expect(report.replace).toMatchObject({
      had: 5,
      missing: 2,
      deleted: { service: 1, service_at_location: 1 },
    });
    expect(await exists(db, 'services', S2.id)).toBe(false);
    expect(await exists(db, 'services', S1.id)).toBe(true);
    expect(await exists(db, 'organizations', O1)).toBe(true);
  });

  it('keeps the services at location of services given again unchanged', async () => {
    const db = await loaded([S1, S2]);
    const report = await replace(db, [S1, S2]);
    expect(report.unchanged).toBe(2);
    expect(report.replace).toEqual({ had: 4, missing: 0, deleted: {}, released: 0 });
    expect(await exists(db, 'service_at_locations', pairingOf(S1))).toBe(true);
  });

  it('deletes a service at location given as a record of its own that the input left out, its service given', async () => {
    const { service_at_locations: pairings, ...bare } = S1;
    const pairing = (n: number) => ({
      id: id(700 + n),
      service_id: S1.id,
      location: { id: L2, location_type: 'physical', name: `Room ${n}` },
    });
    const db = await loaded([bare, pairing(1), pairing(2)]);
    expect(pairings).toHaveLength(1);
    expect(await exists(db, 'service_at_locations', id(702))).toBe(true);
    const report = await replace(db, [bare, pairing(1)]);
    expect(report.replace).toMatchObject({ missing: 1, deleted: { service_at_location: 1 } });
    expect(await exists(db, 'service_at_locations', id(702))).toBe(false);
    expect(await exists(db, 'service_at_locations', id(701))).toBe(true);
    expect((await servedRecord(db, 'services', S1.id))?.service_at_locations).toEqual([
      expect.objectContaining({ id: id(701) }),
    ]);
  });

  it('deletes such a service at location though its service is given again unchanged, and skipped', async () => {
    // A service listing none, its pairing a record of its own: given again alone, the service is recognised
    // unchanged and skipped, and contains only what it gives.
    const { service_at_locations: _pairings, ...bare } = S1;
    const own = { id: id(703), service_id: S1.id, location: { id: L2, location_type: 'physical' } };
    const db = await loaded([bare, own]);
    expect(await exists(db, 'service_at_locations', own.id)).toBe(true);
    const report = await replace(db, [bare], { force: true });
    expect(report.unchanged).toBe(1);
    expect(report.replace).toMatchObject({ missing: 1, deleted: { service_at_location: 1 } });
    expect(await exists(db, 'service_at_locations', own.id)).toBe(false);
    expect(await exists(db, 'services', S1.id)).toBe(true);
  });

  it('measures what is missing against what the source had before the load, not what it added', async () => {
    const db = await loaded([S1, S2, S3]);
    const added = [5, 6, 7, 8, 9].map((n) => service(n, O1, L1, T1));
    const report = await replace(db, [S1, ...added]);
    expect(report.inserted).toBe(5);
    expect(report.replace).toMatchObject({
      had: 6,
      missing: 4,
      refused: expect.stringContaining('more than 50%'),
    });
    expect(await exists(db, 'services', S3.id)).toBe(true);
  });

  it('lets a source load again a record it was released from', async () => {
    const db = await loaded([S1, S2, S3]);
    await loaded([S3], 'state', db);
    await replace(db, [S1, S2]);
    await replace(db, [S1, S2, S3]);
    expect(
      (await db.collection(rowCollection('service')).findOne({ _id: S3.id as never }))?._sources,
    ).toEqual(['county', 'state']);
  });

  it("deletes what the input left out when all it did not read is HSDS's table of table descriptions", async () => {
    const db = await loaded([S1, S2, S3]);
    const dir = await mkdtemp(join(tmpdir(), 'replace-package-'));
    const table = (name: string, path: string, fields: string[]) => ({
      name,
      path,
      schema: { fields: fields.map((field) => ({ name: field, type: 'string' })) },
    });
    await writeFile(
      join(dir, 'datapackage.json'),
      JSON.stringify({
        resources: [
          table('service', 'services.csv', ['id', 'name', 'status']),
          table('meta_table_description', 'meta_table_descriptions.csv', ['id', 'name']),
        ],
      }),
    );
    await writeFile(join(dir, 'services.csv'), `id,name,status\n${S1.id},${S1.name},active\n`);
    await writeFile(join(dir, 'meta_table_descriptions.csv'), 'id,name\n1,services\n');
    try {
      const report = await importRecords(db, readTabularPackage(dir), {
        source: 'county',
        replace: { force: true },
        now: NOW,
      });
      expect(report.warnings).toContainEqual(expect.stringMatching(/describes the package's tables/));
      expect(report.replace?.refused).toBeUndefined();
      expect(await exists(db, 'services', S2.id)).toBe(false);
      expect(await exists(db, 'services', S1.id)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('deletes nothing when part of the input was left unread', async () => {
    const db = await loaded([S1, S2, S3]);
    async function* input(): AsyncGenerator<InputRecord> {
      yield {
        source: { file: 'package/datapackage.json' },
        notice: 'table sites.csv is no HSDS table: not read',
      };
      yield { source: { file: 'services.json', index: 0 }, value: S1 };
    }
    const report = await importRecords(db, input(), { source: 'county', replace: { force: true }, now: NOW });
    expect(report.replace).toMatchObject({ refused: expect.stringContaining('left unread') });
    expect(await exists(db, 'services', S2.id)).toBe(true);
  });
});
