/**
 * `rebuildAllDocuments` composes every nested document again from the rows: documents damaged or gone
 * come back as an import made them, documents that missed a change to their rows get it (as the import
 * that changed the rows would have given it), and the rest stay exactly as they were, `last_modified`
 * included.
 */
import type { Db, Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentCollection } from '../../src/db/collections.ts';
import { type RootEntity } from '../../src/hsds/entities.ts';
import { rowCollection } from '../../src/db/collections.ts';
import { ImportLeaseLost } from '../../src/ingest/import-lease.ts';
import { materialize } from '../../src/ingest/materialize.ts';
import { rebuildAllDocuments } from '../../src/ingest/rebuild-all.ts';
import { seedSampleData } from '../../src/ingest/seed.ts';
import { createLogger } from '../../src/log.ts';
import { indexedDatabases } from '../support/database.ts';
import { importLines, servedRecord, storedDirectory } from '../support/import.ts';

const databases = indexedDatabases();
beforeAll(() => databases.start());
afterAll(() => databases.close());

const LATER = () => '2031-02-03T04:05:06.789Z';
const RENAMED = 'Harbor Health Collaborative of Greater Boston';

async function seeded(): Promise<Db> {
  const db = await databases.fresh();
  await seedSampleData(db, createLogger('silent'));
  return db;
}

/** An organization of the sample, as its row gives it (its own fields, no lists). */
async function someOrganization(db: Db): Promise<Document> {
  const [row] = await db
    .collection(rowCollection('organization'))
    .find({}, { projection: { _position: 0, _sources: 0 } })
    .sort({ _id: 1 })
    .limit(1)
    .toArray();
  const { _id: id, ...fields } = row!;
  return { id, ...fields };
}

const allDocuments = (directory: Record<string, Document[]>) => Object.values(directory).flat();

/** When each of these documents last changed (`_changed`, in extended JSON), in order. */
const changeTimes = (directory: Record<string, Document[]>, ids: string[]) =>
  ids.map((id) => allDocuments(directory).find((document) => document.id === id)?._changed?.$date as string);

/** `directory` with the `_changed` of these documents taken from `source` (where the two differ by it). */
function withChangeTimesOf(
  source: Record<string, Document[]>,
  directory: Record<string, Document[]>,
  ids: string[],
) {
  const times = new Map(ids.map((id, index) => [id, changeTimes(source, ids)[index]]));
  return Object.fromEntries(
    Object.entries(directory).map(([name, documents]) => [
      name,
      documents.map((document) =>
        times.has(document.id) ? { ...document, _changed: { $date: times.get(document.id) } } : document,
      ),
    ]),
  );
}

describe('rebuilding every document from the rows', () => {
  let db: Db;
  let asImported: Record<string, Document[]>;

  beforeAll(async () => {
    db = await seeded();
    asImported = await storedDirectory(db);
  });

  it('leaves a sound directory exactly as it was, last_modified included', async () => {
    const report = await rebuildAllDocuments(db, { now: LATER });
    expect(await storedDirectory(db)).toEqual(asImported);
    const total = Object.values(asImported).reduce((sum, list) => sum + list.length, 0);
    expect(Object.values(report.documentsWritten).reduce((sum, count) => sum + count, 0)).toBe(total);
  });

  it('restores damaged and missing documents as the import made them', async () => {
    const services = db.collection(documentCollection.service);
    const [first, second] = asImported[documentCollection.service]!;
    await services.updateOne(
      { id: first!.id },
      { $set: { _search: [], _json: Buffer.from('{}'), name: 'Not this' }, $unset: { _geo: '' } },
    );
    await services.deleteOne({ id: second!.id });
    const [pairing] = asImported[documentCollection.service_at_location]!;
    await db.collection(documentCollection.service_at_location).deleteOne({ id: pairing!.id });

    await rebuildAllDocuments(db, { now: LATER });
    const rebuilt = await storedDirectory(db);
    // What was gone reappears now: the time its served form last changed is the rebuild's.
    const restored = [second!.id, pairing!.id];
    expect(changeTimes(rebuilt, restored)).toEqual([LATER(), LATER()]);
    expect(withChangeTimesOf(asImported, rebuilt, restored)).toEqual(asImported);
  });

  it('gives documents that missed a change to their rows what the import of that change gives', async () => {
    const organization = await someOrganization(db);
    const imported = await seeded();
    expect(
      (
        await importLines(imported, [{ ...organization, name: RENAMED }], {
          type: 'organization',
          now: LATER,
        })
      ).rejected,
    ).toBe(0);
    const expected = await storedDirectory(imported);
    // The same change to the row alone, as an import stopped before its rebuild (and lost its record of
    // it) or a race with another import would leave it.
    await db
      .collection(rowCollection('organization'))
      .updateOne({ _id: organization.id }, { $set: { name: RENAMED } });

    const before = await storedDirectory(db);
    await rebuildAllDocuments(db, { now: LATER });
    const rebuilt = await storedDirectory(db);
    // The two directories were seeded at different times: each document the change did not reach keeps
    // the time of its own seeding, each one it reached gets the change's, as the import gives it.
    const reached = allDocuments(expected)
      .filter((document) => document._changed.$date === LATER())
      .map((document) => document.id as string);
    expect(reached.length).toBeGreaterThan(1);
    expect(changeTimes(rebuilt, reached).every((time) => time === LATER())).toBe(true);
    const kept = allDocuments(before)
      .map((document) => document.id as string)
      .filter((id) => !reached.includes(id));
    expect(changeTimes(rebuilt, kept)).toEqual(changeTimes(before, kept));
    expect(withChangeTimesOf(expected, rebuilt, kept)).toEqual(expected);
    const embedding = rebuilt[documentCollection.service]!.filter(
      (service) => service.organization?.id === organization.id,
    );
    expect(embedding.length).toBeGreaterThan(0);
    for (const { id } of embedding) {
      const service = await servedRecord(db, documentCollection.service, id as string);
      expect(service?.organization.name).toBe(RENAMED);
      expect(service?.last_modified).toBe(LATER());
    }
  });

  it('changes nothing when run again', async () => {
    const before = await storedDirectory(db);
    await rebuildAllDocuments(db, { now: () => '2032-01-01T00:00:00.000Z' });
    expect(await storedDirectory(db)).toEqual(before);
  });
});

describe('documents whose row is gone', () => {
  it('are removed, the documents whose rows remain left as they were', async () => {
    const db = await databases.fresh();
    const organization = { id: 'a1000000-0000-4000-8000-000000000000', name: 'Harbor', description: 'Food.' };
    const services = ['a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002'].map(
      (id) => ({ id, name: `Pantry ${id.slice(-1)}`, status: 'active', organization }),
    );
    expect(await importLines(db, services)).toMatchObject({ inserted: 2, rejected: 0 });
    const before = await storedDirectory(db);
    // Deleted by hand (the app never deletes rows): nothing in the source of truth serves it any more.
    await db.collection(rowCollection('service')).deleteOne({ _id: services[0]!.id as never });

    await rebuildAllDocuments(db, { now: LATER });
    const after = await storedDirectory(db);
    expect(after[documentCollection.service]).toEqual(
      before[documentCollection.service]!.filter((document) => document.id !== services[0]!.id),
    );
    expect(after[documentCollection.organization]).toEqual(before[documentCollection.organization]);
  });
});

describe('rebuilding documents under a lease', () => {
  it('checks before each write of documents, so that a lost lease stops it before the next one', async () => {
    const db = await seeded();
    const pairings = db.collection(documentCollection.service_at_location);
    await pairings.updateMany({}, { $set: { _search: [] } });
    const ids = async (root: RootEntity) =>
      new Set(await db.collection<{ _id: string }>(rowCollection(root)).distinct('_id'));
    const changedRoots = new Map([
      ['service' as const, await ids('service')],
      ['service_at_location' as const, await ids('service_at_location')],
    ]);
    const changes = {
      touchedIds: new Set<string>(),
      changedRows: new Set<string>(),
      newRows: new Set<string>(),
      changedRoots,
      givenLastModified: new Set<string>(),
    };
    let checks = 0;
    const beforeWrite = async () => {
      checks += 1;
      // Lost after the services are written, before their services at location are.
      if (checks === 2) throw new ImportLeaseLost(60_000);
    };
    await expect(materialize(db, changes, { now: LATER, refresh: true, beforeWrite })).rejects.toThrow(
      ImportLeaseLost,
    );
    expect(checks).toBe(2);
    expect(await pairings.countDocuments({ _search: [] })).toBe(await pairings.countDocuments());
  });
});
