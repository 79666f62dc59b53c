/**
 * An import killed while it writes a batch's rows leaves some of them written and its changes pending.
 * Whatever part was written, running the same import again must give exactly the directory an
 * uninterrupted import gives, `last_modified` included. Each case here stops the row writes after a
 * different number of entity types, the way a kill would, and reruns the import.
 */
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import { documentCollection } from '../../src/db/collections.ts';
import { decompose } from '../../src/ingest/decompose.ts';
import { rootEntities } from '../../src/hsds/entities.ts';
import { recordPending } from '../../src/ingest/pending.ts';
import { applyRowChanges, planRowChanges, rowWriteSequence } from '../../src/ingest/row-writer.ts';
import { validateRecord } from '../../src/ingest/validate.ts';
import { indexedDatabases } from '../support/database.ts';
import { importLines } from '../support/import.ts';
import type { Json } from '../../src/json.ts';

const databases = indexedDatabases();
beforeAll(() => databases.start());
afterAll(() => databases.close());
const freshDb = () => databases.fresh();

const NOW = () => '2030-01-01T00:00:00.000Z';

const first = [...serviceNdjsonChunks(24, 11)]
  .join('')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Json);
/** A second load: every service changed, half of them with a new `last_modified` from the publisher. */
const second = first.map((service, index) => ({
  ...service,
  description: `${service.description as string} Now also on Saturdays.`,
  phones: [
    ...((service.phones ?? []) as Json[]).slice(1),
    { id: `9e0c5b1e-0000-4000-8000-${String(index).padStart(12, '0')}`, number: '555-0100' },
  ],
  ...(index % 2 === 0 ? { last_modified: '2029-06-01T12:00:00.000Z' } : {}),
}));

/** Every served document's content hash, and services' `last_modified`. */
async function directory(db: Db): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  for (const root of rootEntities) {
    const documents = await db
      .collection(documentCollection[root])
      .find({}, { projection: { _id: 0, id: 1, _hash: 1, last_modified: 1 } })
      .toArray();
    result[root] = Object.fromEntries(documents.map((document) => [document.id, document]));
  }
  return result;
}

/** Plans the second load's rows as one batch, records them pending and writes the first `types` entity types. */
async function writeRowsPartly(db: Db, types: number): Promise<number> {
  const decompositions = second.map((value, line) => {
    const validated = validateRecord({ source: { file: 'second.ndjson', line }, value });
    if (!validated.ok || !('record' in validated)) throw new Error('generated record rejected');
    return decompose(validated.type, validated.record);
  });
  const { writes, changes } = await planRowChanges(db, decompositions);
  await recordPending(db, changes);
  const sequence = rowWriteSequence(writes);
  await applyRowChanges(db, new Map(sequence.slice(0, types)), changes.newRows);
  return sequence.length;
}

describe('an import killed while writing rows, run again', () => {
  let clean: Record<string, unknown>;
  let entityTypes = 0;

  beforeAll(async () => {
    const db = await freshDb();
    await importLines(db, first, { now: NOW });
    await importLines(db, second, { now: NOW });
    clean = await directory(db);
    entityTypes = await writeRowsPartly(await freshDb(), 0);
  });

  it.each([
    ['the first entity type', () => 1],
    ['half the entity types', () => Math.round(entityTypes / 2)],
    ['all but the last entity type', () => entityTypes - 1],
  ])('gives the uninterrupted result, with the rows of %s written', async (_label, typesWritten) => {
    const db = await freshDb();
    await importLines(db, first, { now: NOW });
    await writeRowsPartly(db, typesWritten());
    const rerun = await importLines(db, second, { now: NOW });
    expect(rerun.rejected).toBe(0);
    expect(await directory(db)).toEqual(clean);
    expect(await db.collection('import.pending').countDocuments()).toBe(0);
  });
});
