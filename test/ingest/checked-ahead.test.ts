/**
 * An import loading new records checks each batch's records while the database still writes the documents
 * of the batch before last (import.ts, `flush`), before it asks which of them are unchanged; a reload of
 * records given before asks first, and checks only those it must apply. Either way it reports and stores
 * what the same records loaded in one batch give.
 */
import { Collection } from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ValidationPool } from '../../src/ingest/validation-pool.ts';
import { indexedDatabases } from '../support/database.ts';
import { importLines, linesWithRejections, storedDirectory } from '../support/import.ts';

const databases = indexedDatabases();
beforeAll(() => databases.start());
afterAll(() => databases.close());
afterEach(() => vi.restoreAllMocks());

const NOW = () => '2030-01-02T03:04:05.678Z';

/** Generated services with records that fail validation in the first batch of 8 and in later ones. */
const input = () => linesWithRejections(40, 3, [2, 21, 30]);

/**
 * How many records the imports from now on check, in all, and in what order they check batches and ask the
 * database which of a batch's records are unchanged (`check` for a check of records, `ask` for a question).
 */
function recordsChecked(): { count: number; order: ('check' | 'ask')[] } {
  const checked = { count: 0, order: [] as ('check' | 'ask')[] };
  const check = ValidationPool.prototype.check;
  vi.spyOn(ValidationPool.prototype, 'check').mockImplementation(function (this: ValidationPool, ...args) {
    checked.count += args[0].length;
    if (args[0].length > 0) checked.order.push('check');
    return check.apply(this, args);
  });
  const find = Collection.prototype.find;
  vi.spyOn(Collection.prototype, 'find').mockImplementation(function (this: Collection, ...args) {
    if (args[0] && '_input.fingerprint' in args[0]) checked.order.push('ask');
    return find.apply(this, args as Parameters<typeof find>) as never;
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
    // The first batch is checked once the database has answered; each later one before it is asked.
    expect(checked.order.join(' ')).toBe(['ask check', ...Array(5).fill('check ask')].join(' '));

    expect([expected.inserted, expected.rejected]).toEqual([39, 3]);
    const { durationMs: _took, ...rest } = report;
    const { durationMs: _tookToo, ...expectedRest } = expected;
    expect(rest).toEqual(expectedRest);
    expect(await storedDirectory(inBatches)).toEqual(await storedDirectory(inOneBatch));

    // Given again, the records stored are counted unchanged without being checked; the rejected ones are
    // checked again, and rejected again.
    checked.count = 0;
    checked.order = [];
    const again = await importLines(inBatches, lines, { batchSize: 8, now: NOW });
    expect([again.inserted, again.updated, again.unchanged, again.rejected]).toEqual([0, 0, 39, 3]);
    expect(checked.count).toBe(3);
    expect(checked.order.join(' ')).toBe('ask check ask ask check ask check ask ask');
  });
});
