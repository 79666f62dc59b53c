import { spawnSync } from 'node:child_process';
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

  it.each([
    [true, 0, 'done'],
    // Nothing else on the event loop: Node ends a process whose top-level await cannot settle (13).
    [false, 13, ''],
  ])(
    'with holdProcess %s, a process with nothing else to do meanwhile exits %i',
    (holdProcess, status, out) => {
      const script = `
      import { retryUntilDone } from ${JSON.stringify(new URL('../src/retry.ts', import.meta.url).href)};
      let calls = 0;
      await retryUntilDone(async () => { if (++calls < 3) throw new Error('out of reach'); }, {
        firstDelayMs: 50, maxDelayMs: 50, onFailure: () => {}, holdProcess: ${holdProcess},
      });
      console.log('done');`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
      });
      expect(child.status, child.stderr).toBe(status);
      expect(child.stdout.trim()).toBe(out);
    },
  );
});
