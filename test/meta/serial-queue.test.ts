import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../src/ingest/serial-queue.ts';

describe('SerialQueue', () => {
  it('runs tasks one at a time in order, counting those not yet finished', async () => {
    const queue = new SerialQueue();
    const order: string[] = [];
    let release!: () => void;
    const first = queue.run(() =>
      new Promise<void>((resolve) => (release = resolve)).then(() => order.push('a')),
    );
    const second = queue.run(async () => order.push('b'));
    const failing = queue.run(async () => Promise.reject(new Error('boom')));
    expect(queue.size).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 0)); // the first task has started
    release();
    await first;
    await second;
    await expect(failing).rejects.toThrow('boom');
    expect(order).toEqual(['a', 'b']);
    expect(queue.size).toBe(0);
  });
});
