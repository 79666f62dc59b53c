import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../src/serial-queue.ts';

describe('SerialQueue', () => {
  it('runs tasks one at a time in order, a failure not stopping those after it', async () => {
    const queue = new SerialQueue();
    const order: string[] = [];
    let release!: () => void;
    const first = queue.run(() =>
      new Promise<void>((resolve) => (release = resolve)).then(() => order.push('a')),
    );
    const second = queue.run(async () => order.push('b'));
    const failing = queue.run(async () => Promise.reject(new Error('boom')));
    const after = queue.run(async () => order.push('c'));
    await new Promise((resolve) => setTimeout(resolve, 0)); // the first task has started
    release();
    await first;
    await second;
    await expect(failing).rejects.toThrow('boom');
    await after;
    expect(order).toEqual(['a', 'b', 'c']);
  });
});
