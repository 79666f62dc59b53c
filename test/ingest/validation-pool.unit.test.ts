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

describe('ValidationPool', () => {
  it('checks entries in worker threads, answering in order as the calling thread would', async () => {
    const pool = new ValidationPool(2);
    try {
      const answers = await pool.check(entries, 'service');
      expect(answers).toEqual(entries.map((one) => checkEntry(one, 'service')));
      expect(answers.filter((answer) => 'rejected' in answer)).toHaveLength(2);
    } finally {
      await pool.close();
    }
    // Closed, it answers nothing.
    await expect(pool.check(entries, 'service')).rejects.toThrow('the validation pool is closed');
  });

  it('fails the requests of a worker that failed, then and afterwards', async () => {
    const pool = new ValidationPool(1);
    try {
      const unreadable = { input: { text: '{}' } as InputRecord }; // no source: describing it throws
      await expect(pool.check([unreadable], 'service')).rejects.toThrow(TypeError);
      await expect(pool.check(entries, 'service')).rejects.toThrow(TypeError);
    } finally {
      await pool.close();
    }
  });

  it('without workers, checks in the calling thread', async () => {
    const pool = new ValidationPool(0);
    expect(await pool.check(entries, 'service')).toEqual(entries.map((one) => checkEntry(one, 'service')));
    await pool.close();
  });
});
