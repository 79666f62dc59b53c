/*
 * The stored documents' derivation mark: an import into a directory without documents marks it as derived
 * by this release; documents stored by an earlier release, unmarked or marked lower, or restored without
 * the mark, are stale until a rebuild marks them.
 */
import type { Db } from 'mongodb';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { DERIVATION_MARK } from '../../src/db/collections.ts';
import { DERIVATION, staleDerivation } from '../../src/db/derivation-mark.ts';
import { rebuildAllDocuments } from '../../src/ingest/rebuild-all.ts';
import { indexedDatabases } from '../support/database.ts';
import { importLines } from '../support/import.ts';
import { randomService } from '../support/random-service.ts';

const databases = indexedDatabases();
let db: Db;

beforeAll(() => databases.start());
afterAll(() => databases.close());
beforeEach(async () => {
  db = await databases.fresh();
});

const mark = () => db.collection(DERIVATION_MARK).findOne({}, { projection: { _id: 0, derivation: 1 } });

it('finds a directory without documents current, marking nothing: documents restored into it unmarked are stale', async () => {
  expect(await staleDerivation(db)).toBeUndefined();
  expect(await mark()).toBeNull();
  // As a restore of an unmarked dump leaves them.
  await db.collection('organizations').insertOne({ id: 'restored', name: 'Restored' });
  expect(await staleDerivation(db)).toBeNull();
});

it('marks what an import into an empty directory stores, and leaves documents of an earlier release stale', async () => {
  await importLines(db, [randomService('First')]);
  expect(await mark()).toEqual({ derivation: DERIVATION });
  expect(await staleDerivation(db)).toBeUndefined();

  // As an earlier release left them: unmarked, or marked lower. Importing more changes nothing of that.
  await db.collection(DERIVATION_MARK).deleteMany({});
  expect(await staleDerivation(db)).toBeNull();
  await db
    .collection<{ _id: string; derivation: number }>(DERIVATION_MARK)
    .insertOne({ _id: 'documents', derivation: DERIVATION - 1 });
  await importLines(db, [randomService('Second')]);
  expect(await staleDerivation(db)).toBe(DERIVATION - 1);

  await rebuildAllDocuments(db);
  expect(await staleDerivation(db)).toBeUndefined();
  expect(await mark()).toEqual({ derivation: DERIVATION });
});
