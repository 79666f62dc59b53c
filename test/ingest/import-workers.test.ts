/**
 * Records validated in worker threads (validation-pool.ts) load exactly as those validated in the import's
 * own thread: the same report, rejections in their places, and the same stored directory.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { indexedDatabases } from '../support/database.ts';
import { importLines, linesWithRejections, storedDirectory } from '../support/import.ts';
import { poolsOfImports } from '../support/validation-pools.ts';

const databases = indexedDatabases();
beforeAll(() => databases.start());
afterAll(() => databases.close());
afterEach(() => vi.restoreAllMocks());

const NOW = () => '2030-01-02T03:04:05.678Z';

/**
 * Generated services, with records that fail validation among them: in the first batch of 16 (checked in
 * the import's thread while the workers start), and two in a later batch, in both workers' shares.
 */
const input = () => linesWithRejections(60, 7, [5, 34, 45]);

describe('an import validating in worker threads', () => {
  it('reports and stores what the same import validating in its own thread does', async () => {
    const lines = input();
    const inThread = await databases.fresh();
    const inWorkers = await databases.fresh();
    const options = { batchSize: 16, now: NOW };
    const expected = await importLines(inThread, lines, { ...options, workers: 0 });
    const pools = poolsOfImports();
    const report = await importLines(inWorkers, lines, { ...options, workers: 2 });
    expect(pools.map((pool) => pool.threaded)).toEqual([true]);

    expect(expected.rejected).toBe(3);
    expect(expected.inserted).toBe(59);
    const { durationMs: _took, ...rest } = report;
    const { durationMs: _tookToo, ...expectedRest } = expected;
    expect(rest).toEqual(expectedRest);
    expect(await storedDirectory(inWorkers)).toEqual(await storedDirectory(inThread));

    // Given again, the records are recognised unchanged without being validated; the rejected ones are
    // validated again, and rejected again.
    const again = await importLines(inWorkers, lines, { ...options, workers: 2 });
    expect([again.inserted, again.updated, again.unchanged, again.rejected]).toEqual([0, 0, 59, 3]);
  });

  it('starts no workers for an input smaller than a batch', async () => {
    const pools = poolsOfImports();
    const lines = input().slice(0, 15);
    await importLines(await databases.fresh(), lines, { batchSize: 16, workers: 2 });
    expect(pools.map((pool) => pool.size)).toEqual([0]);
  });
});
