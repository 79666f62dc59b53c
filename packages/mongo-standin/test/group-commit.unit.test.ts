import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../src/storage/group-commit.ts';

/** A writer whose writes finish only when told, recording what each write held. */
function controlledWriter() {
  const writes: number[][] = [];
  const finishers: ((error?: Error) => void)[] = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      writes.push(items);
      finishers.push((error) => (error ? reject(error) : resolve()));
    });
  const finish = async (error?: Error) => {
    finishers.shift()!(error);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { writes, write, finish };
}

describe('group commit', () => {
  it('writes what arrives during a write together in the next one, in order, each caller told when its own is written', async () => {
    const writer = controlledWriter();
    const journal = new GroupCommit<number>(writer.write);
    const done: number[] = [];
    const first = journal.add([1]).then(() => done.push(1));
    await new Promise((resolve) => setImmediate(resolve));
    const second = journal.add([2, 3]).then(() => done.push(2));
    const third = journal.add([4]).then(() => done.push(4));
    expect(writer.writes).toEqual([[1]]);
    await writer.finish();
    expect(done).toEqual([1]);
    expect(writer.writes).toEqual([[1], [2, 3, 4]]);
    await writer.finish();
    await Promise.all([first, second, third]);
    expect(done).toEqual([1, 2, 4]);
  });

  it('fails the callers of a failed write only, goes on with the next, and is flushed when all have ended', async () => {
    const writer = controlledWriter();
    const journal = new GroupCommit<number>(writer.write);
    const failed = journal.add([1]);
    await new Promise((resolve) => setImmediate(resolve));
    const next = journal.add([2]);
    let flushed = false;
    void journal.flushed().then(() => (flushed = true));
    await writer.finish(new Error('disk full'));
    await expect(failed).rejects.toThrow('disk full');
    expect(flushed).toBe(false);
    await writer.finish();
    await expect(next).resolves.toBeUndefined();
    await journal.flushed();
    expect(flushed).toBe(true);
    expect(writer.writes).toEqual([[1], [2]]);
    await expect(journal.add([])).resolves.toBeUndefined();
    expect(writer.writes).toHaveLength(2);
  });
});
