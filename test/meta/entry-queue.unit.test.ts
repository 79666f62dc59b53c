import { describe, expect, it } from 'vitest';
import type { MetaEntries, MetaFields } from '../../src/meta/entries.ts';
import { MetaEntryQueue } from '../../src/meta/entry-queue.ts';
import { createLogger } from '../../src/log.ts';

/** A stand-in store whose writes wait until released, or fail. */
function store(behaviour: 'hold' | 'fail') {
  const written: MetaFields[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const entries = {
    async createMany(batch: MetaFields[]) {
      if (behaviour === 'fail')
        throw Object.assign(new Error('refused: {"request_body":"secret"}'), { code: 121 });
      await gate;
      written.push(...batch);
    },
  } as unknown as MetaEntries;
  return { entries, written, release };
}

describe('MetaEntryQueue', () => {
  it('writes in the background, and drops and counts entries once full', async () => {
    const { entries, written, release } = store('hold');
    const queue = new MetaEntryQueue(entries, createLogger('silent'), 3);
    for (let i = 0; i < 6; i += 1) queue.add({ path: `/${i}`, recorded_at: '' });
    // The first entry went to the (held) write; three more fit in the queue; the rest are dropped.
    expect(queue.dropped).toBe(2);
    release();
    await queue.idle();
    expect(written.map((entry) => entry.path)).toEqual(['/0', '/1', '/2', '/3']);
  });

  it('counts and logs failed writes without the error message', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const queue = new MetaEntryQueue(store('fail').entries, logger);
    queue.add({ path: '/a', recorded_at: '' });
    await queue.idle();
    expect(queue.failed).toBe(1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ errorName: 'Error', errorCode: 121, lost: 1 });
    expect(lines[0]).not.toContain('secret');
  });
});
