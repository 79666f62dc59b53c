import { describe, expect, it } from 'vitest';
import { ValidationPool } from '../../src/ingest/validation-pool.ts';
import { checkEntry, type BatchEntry } from '../../src/ingest/batch-item.ts';
import type { InputRecord } from '../../src/ingest/input-record.ts';

const uuid = (at: number) => `00000000-0000-4000-8000-${String(at).padStart(12, '0')}`;
const entry = (line: number, value: object): BatchEntry => ({
  input: { source: { file: 'in.ndjson', line }, text: JSON.stringify(value) },
});
const entries = Array.from({ length: 9 }, (_, at) =>
  at % 4 === 3
    ? entry(at + 1, { id: uuid(at), name: 7 })
    : entry(at + 1, { id: uuid(at), name: `Service ${at}`, status: 'active' }),
);
const inThisThread = (some: BatchEntry[]) => some.map((one) => checkEntry(one, 'service'));

/** A pool whose workers have been started (by a first check, answered in the calling thread meanwhile). */
async function startedPool(size: number, onFallback?: (reason: string) => void): Promise<ValidationPool> {
  const pool = new ValidationPool(size, onFallback);
  await pool.check(entries.slice(0, 1), 'service');
  expect(pool.threaded).toBe(true);
  return pool;
}

describe('ValidationPool', () => {
  it('checks entries in worker threads, answering in order as the calling thread would', async () => {
    const fellBack: string[] = [];
    const pool = await startedPool(2, (reason) => fellBack.push(reason));
    try {
      const answers = await pool.check(entries, 'service');
      expect(answers).toEqual(inThisThread(entries));
      expect(answers.filter((answer) => 'rejected' in answer)).toHaveLength(2);
      // Checks asked for at once are answered one after the other, each with its own answers.
      const [first, second] = await Promise.all([
        pool.check(entries.slice(0, 3), 'service'),
        pool.check(entries.slice(3), 'service'),
      ]);
      expect([...first, ...second]).toEqual(answers);
      expect(pool.threaded).toBe(true);
      expect(fellBack).toEqual([]);
    } finally {
      await pool.close();
    }
    await expect(pool.check(entries, 'service')).rejects.toThrow('the validation pool is closed');
  });

  it('checks in the calling thread a record it cannot copy to a worker, rejecting it as there', async () => {
    const pool = await startedPool(1);
    try {
      const depth = 5000; // beyond what a structured clone can copy
      const value: unknown = JSON.parse(
        `{"id":"${uuid(1)}","name":"Deep","status":"active","x":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      );
      const deep: BatchEntry = { input: { source: { file: 'in.json', index: 0 }, value } };
      const [answer] = await pool.check([deep], 'service');
      expect(answer).toEqual(checkEntry(deep, 'service'));
      expect(answer).toMatchObject({
        rejected: { rejections: [{ message: expect.stringMatching(/nested/) }] },
      });
      expect(pool.threaded).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('after a worker fails, says why and checks in the calling thread, which fails alike on the same record', async () => {
    const fellBack: string[] = [];
    const pool = await startedPool(1, (reason) => fellBack.push(reason));
    try {
      const unreadable = { input: { text: '{}' } as InputRecord }; // no source: describing it throws
      await expect(pool.check([unreadable], 'service')).rejects.toThrow(TypeError);
      expect(fellBack).toEqual([
        expect.stringMatching(/^validation workers stopped \(.+\); records are validated/),
      ]);
      expect(pool.threaded).toBe(false);
      expect(await pool.check(entries, 'service')).toEqual(inThisThread(entries));
    } finally {
      await pool.close();
    }
  });

  it('without workers, checks in the calling thread; refuses a size that is not a count', async () => {
    const pool = new ValidationPool(0);
    expect(await pool.check(entries, 'service')).toEqual(inThisThread(entries));
    expect(pool.threaded).toBe(false);
    await pool.close();
    expect(() => new ValidationPool(-1)).toThrow(RangeError);
    expect(() => new ValidationPool(Number.NaN)).toThrow(RangeError);
  });
});
