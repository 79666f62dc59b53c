/**
 * An import loading new records checks each batch's records while the database still writes the documents
 * of the batch before last (import.ts, `flush`); a reload of records given before checks only those it
 * must apply. Either way it reports and stores what the same records loaded in one batch give.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serviceNdjsonChunks } from '../../scripts/generator/ndjson-chunks.ts';
import { ValidationPool } from '../../src/ingest/validation-pool.ts';
import { indexedDatabases } from '../support/database.ts';
import { importLines, storedDirectory } from '../support/import.ts';

const databases = indexedDatabases();
beforeAll(() => databases.start());
afterAll(() => databases.close());
afterEach(() => vi.restoreAllMocks());

const NOW = () => '2030-01-02T03:04:05.678Z';

/** Generated services with records that fail validation in the first batch of 8 and in later ones. */
function input(): string[] {
  const lines = [...serviceNdjsonChunks(40, 3)].join('').trim().split('\n');
  lines.splice(2, 0, '{"id": "not a uuid", "name": "Broken"}');
  lines.splice(21, 0, '{"id": ');
  lines.splice(30, 1, lines[30]!.replace('"status":"', '"status":"closing-'));
  return lines;
}

/** How many records the imports from now on check, in all. */
function recordsChecked(): { count: number } {
  const checked = { count: 0 };
  const check = ValidationPool.prototype.check;
  vi.spyOn(ValidationPool.prototype, 'check').mockImplementation(function (this: ValidationPool, ...args) {
    checked.count += args[0].length;
    return check.apply(this, args);
  });
  return checked;
}

describe('an import of many batches', () => {
  it('checks each record once, and reports and stores what one batch does', async () => {
    const lines = input();
    const inOneBatch = await databases.fresh();
    const inBatches = await databases.fresh();
    const expected = await importLines(inOneBatch, lines, { batchSize: 1000, now: NOW });
    const checked = recordsChecked();
    const report = await importLines(inBatches, lines, { batchSize: 8, now: NOW });
    expect(checked.count).toBe(lines.length);

    expect([expected.inserted, expected.rejected]).toEqual([39, 3]);
    const { durationMs: _took, ...rest } = report;
    const { durationMs: _tookToo, ...expectedRest } = expected;
    expect(rest).toEqual(expectedRest);
    expect(await storedDirectory(inBatches)).toEqual(await storedDirectory(inOneBatch));

    // Given again, the records stored are counted unchanged without being checked; the rejected ones are
    // checked again, and rejected again.
    checked.count = 0;
    const again = await importLines(inBatches, lines, { batchSize: 8, now: NOW });
    expect([again.inserted, again.updated, again.unchanged, again.rejected]).toEqual([0, 0, 39, 3]);
    expect(checked.count).toBe(3);
  });
});
