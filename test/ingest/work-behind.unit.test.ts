import { describe, expect, it } from 'vitest';
import { WorkBehind } from '../../src/ingest/work-behind.ts';

/** A piece of work that finishes when told to, recording when it starts and ends. */
function piece(name: string, log: string[]) {
  let finish!: (failure?: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = (failure) => (failure ? reject(failure) : resolve());
  });
  return {
    work: async () => {
      log.push(`${name} starts`);
      await done;
      log.push(`${name} ends`);
    },
    finish,
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('WorkBehind', () => {
  it('runs one piece at a time, in order, and lets the caller go on once the piece before has finished', async () => {
    const log: string[] = [];
    const queue = new WorkBehind();
    const first = piece('first', log);
    const second = piece('second', log);
    await queue.add(first.work);
    log.push('caller goes on');
    let secondAdded = false;
    const adding = queue.add(second.work).then(() => (secondAdded = true));
    await turn();
    // The second waits for the first, and so does the caller that queued it.
    expect(log).toEqual(['first starts', 'caller goes on']);
    expect(secondAdded).toBe(false);
    first.finish();
    await adding;
    await turn();
    expect(log).toEqual(['first starts', 'caller goes on', 'first ends', 'second starts']);
    second.finish();
    await queue.drain();
    expect(log.at(-1)).toBe('second ends');
  });

  it('gives a failure to the next add, which does not run its piece, and to drain', async () => {
    const log: string[] = [];
    const queue = new WorkBehind();
    const failing = piece('failing', log);
    await queue.add(failing.work);
    const adding = queue.add(async () => void log.push('after the failure'));
    failing.finish(new Error('write failed'));
    await expect(adding).rejects.toThrow('write failed');
    await expect(queue.drain()).rejects.toThrow('write failed');
    expect(log).toEqual(['failing starts']);
  });

  it('settles once nothing runs, whatever failed', async () => {
    const log: string[] = [];
    const queue = new WorkBehind();
    const running = piece('running', log);
    await queue.add(running.work);
    const settled = queue.settle().then(() => log.push('settled'));
    await turn();
    expect(log).toEqual(['running starts']);
    running.finish(new Error('lost'));
    await settled;
    expect(log).toEqual(['running starts', 'settled']);
  });

  it('keeps a failure with nothing waiting on it for the next add or drain, not as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const queue = new WorkBehind();
      await queue.add(async () => {
        throw new Error('write failed');
      });
      // The failure happens while the caller does something else.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      await expect(queue.drain()).rejects.toThrow('write failed');
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
