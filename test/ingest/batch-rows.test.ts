/**
 * An import composes the documents of its own records from the rows it has just written, held in memory,
 * and reads the database only for the rest. Whichever way each row comes, the documents must be those the
 * database's rows compose: rebuilding every document from the database alone afterwards changes nothing.
 */
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import type { Database } from '../../src/db/database.ts';
import { documentCollection } from '../../src/db/collections.ts';
import { rootEntities, type RootEntity } from '../../src/hsds/entities.ts';
import { materialize } from '../../src/ingest/materialize.ts';
import type { RowChanges } from '../../src/ingest/row-writer.ts';
import { openIndexedDatabase, startTestDatabase, type TestDatabase } from '../support/database.ts';
import { importLines, servedRecord } from '../support/import.ts';
import type { Json } from '../../src/json.ts';

let testDatabase: TestDatabase;
let database: Database;
let db: Db;

beforeAll(async () => {
  testDatabase = await startTestDatabase();
  database = await openIndexedDatabase(testDatabase);
  db = database.db;
});
afterAll(async () => {
  await database?.close();
  await testDatabase?.close();
});

const generated = (count: number, seed: number): Json[] =>
  [...serviceNdjsonChunks(count, seed)]
    .join('')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Json);

/** Every stored document, by collection and id. */
async function storedDocuments(): Promise<Map<string, Json>> {
  const all = new Map<string, Json>();
  for (const root of rootEntities) {
    for (const document of await db.collection(documentCollection[root]).find().toArray())
      all.set(`${root}:${document.id as string}`, document);
  }
  return all;
}

/** Rebuilds every document from the database's rows alone, as after a crash: what it wrote, by root. */
async function rebuildAllFromDatabase(): Promise<Map<RootEntity, number>> {
  const changedRoots = new Map<RootEntity, Set<string>>();
  for (const root of rootEntities) {
    const ids = await db.collection(documentCollection[root]).distinct('id');
    changedRoots.set(root, new Set(ids as string[]));
  }
  const changes: RowChanges = {
    touchedIds: new Set(),
    changedRows: new Set(),
    newRows: new Set(),
    changedRoots,
    givenLastModified: new Set(),
  };
  return (await materialize(db, changes, { now: () => '2030-01-01T00:00:00.000Z' })).written;
}

describe("documents composed from a batch's own rows", () => {
  it('are the documents the database composes, for new records and for changes across batches', async () => {
    // Small batches, so that records share organizations and taxonomy terms with earlier batches.
    const first = generated(80, 7);
    expect((await importLines(db, first, { batchSize: 25 })).rejected).toBe(0);
    const afterFirst = await storedDocuments();
    expect([...(await rebuildAllFromDatabase()).values()].every((count) => count === 0)).toBe(true);
    expect(await storedDocuments()).toEqual(afterFirst);

    // Changes: lists emptied and shortened, a record given twice in one batch with different lists, and a
    // phone moved from one service to another within a batch.
    const [a, b, c] = first as [Json, Json, Json];
    const phonesOf = (service: Json) => (service.phones ?? []) as Json[];
    const moved = phonesOf(a)[0];
    expect(moved).toBeDefined();
    const changed = [
      { ...a, phones: phonesOf(a).slice(1), schedules: [] },
      { ...b, phones: [...phonesOf(b), moved], languages: [] },
      { ...c, name: `${c.name as string} (first)`, phones: phonesOf(c).slice(0, 1) },
      { ...c, name: `${c.name as string} (second)`, phones: phonesOf(c) },
      ...first.slice(3, 10).map((service) => ({ ...service, description: 'Changed.' })),
    ];
    const report = await importLines(db, changed, { batchSize: 25 });
    expect(report.rejected).toBe(0);
    expect(report.updated).toBeGreaterThan(0);
    const afterChanges = await storedDocuments();
    const written = await rebuildAllFromDatabase();
    expect([...written.values()].every((count) => count === 0)).toBe(true);
    expect(await storedDocuments()).toEqual(afterChanges);
    const movedTo = (await servedRecord(db, documentCollection.service, b.id as string))!;
    expect((movedTo.phones as Json[]).map((phone) => phone.id)).toContain(moved!.id);
  });
});
