import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.ts';
import { MetaEntries } from '../../src/meta/entries.ts';
import { dayOf } from '../../src/meta/entry.ts';
import { keepMetaEntriesFor, removeExpiredMetaEntries } from '../../src/meta/retention.ts';
import { META_ENTRIES } from '../../src/db/protocol-records.ts';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';
import { waitFor } from '../support/process.ts';

let database: TestDatabase;
let entries: MetaEntries;
beforeAll(async () => {
  database = await startTestDatabase();
  entries = new MetaEntries(database.db);
});
afterAll(async () => database?.close());
beforeEach(async () => {
  await database.db.collection(META_ENTRIES).deleteMany({});
});

const NOW = new Date('2026-06-30T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

/** An entry recorded `days` before NOW, with the given status (or none). */
async function recorded(days: number, status?: 'Complete' | 'Waiting'): Promise<string> {
  const instant = new Date(NOW.getTime() - days * DAY_MS);
  const entry = await entries.create({
    recorded_at: instant.toISOString(),
    timestamp: dayOf(instant),
    path: '/import',
    ...(status ? { status } : {}),
  });
  return entry.id;
}

const storedIds = async () => (await entries.page(1, 100)).items.map((entry) => entry.id).sort();

describe('meta retention (HSDS_META_RETENTION_DAYS)', () => {
  it('removes entries recorded more than the given days ago, keeping those still Waiting', async () => {
    const expired = await recorded(31);
    const expiredComplete = await recorded(45, 'Complete');
    const waiting = await recorded(400, 'Waiting');
    const atTheLimit = await recorded(30);
    const recent = await recorded(1);

    expect(await removeExpiredMetaEntries(database.db, 30, NOW)).toBe(2);
    expect(await storedIds()).toEqual([waiting, atTheLimit, recent].sort());
    expect(await entries.find(expired)).toBeUndefined();
    expect(await entries.find(expiredComplete)).toBeUndefined();
  });

  it('keeps every entry with 0, the default', async () => {
    const old = await recorded(10_000);
    const stop = keepMetaEntriesFor(database.db, 0, createLogger('silent'), 10);
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop();
    expect(await storedIds()).toEqual([old]);
  });

  it('sweeps at start and then every interval, logging what it removed, until stopped', async () => {
    const lines: string[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    // Recorded relative to the real clock, which the sweeps use.
    const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
    const old = () => entries.create({ recorded_at: daysAgo(8), path: '/meta/' });
    await old();
    const kept = await entries.create({ recorded_at: daysAgo(6), path: '/meta/' });

    const stop = keepMetaEntriesFor(database.db, 7, logger, 50);
    try {
      await waitFor(async () => (await storedIds()).length === 1, 5_000, 'the first sweep');
      await old();
      await waitFor(async () => (await storedIds()).length === 1, 5_000, 'a later sweep');
    } finally {
      stop();
    }
    expect(await storedIds()).toEqual([kept.id]);
    expect(lines.join('')).toMatch(/"removed":1,"retentionDays":7,"msg":"expired meta entries removed"/);

    await old();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await storedIds()).toHaveLength(2);
  });
});
