import { describe, expect, it } from 'vitest';
import { retryUntilDone } from '../src/retry.ts';

describe('retryUntilDone', () => {
  it('tries until the task succeeds, waiting twice as long after each failure, up to the maximum', async () => {
    let calls = 0;
    const waits: number[] = [];
    await retryUntilDone(
      async () => {
        calls += 1;
        if (calls < 4) throw new Error(`failure ${calls}`);
      },
      { firstDelayMs: 1, maxDelayMs: 3, onFailure: (_error, retryInMs) => waits.push(retryInMs) },
    );
    expect(calls).toBe(4);
    expect(waits).toEqual([1, 2, 3]);
  });

  it('makes no attempt once stopped, and none after a failure that found it stopped', async () => {
    let stopped = false;
    let calls = 0;
    const failures: unknown[] = [];
    await retryUntilDone(
      async () => {
        calls += 1;
        stopped = true;
        throw new Error('gone');
      },
      { firstDelayMs: 1, maxDelayMs: 1, stopped: () => stopped, onFailure: (error) => failures.push(error) },
    );
    expect(calls).toBe(1);
    expect(failures).toEqual([]);
  });
});
