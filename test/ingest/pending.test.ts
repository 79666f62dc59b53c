/**
 * Which pending records an import takes as left by imports that did not finish: never those of an import
 * still running, in this process or another; always those whose import is gone.
 */
import { spawnSync } from 'node:child_process';
import type { Collection, Db, Document } from 'mongodb';
import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, STALE_AFTER_MS } from '../../src/ingest/import-entries.ts';
import { ImportPending, leftPending, recordPending } from '../../src/ingest/pending.ts';
import type { RowChanges } from '../../src/ingest/row-writer.ts';
import { randomDatabaseName, startTestDatabase, type TestDatabase } from '../support/database.ts';

let testDatabase: TestDatabase;
let db: Db;
let pending: Collection<Document>;

beforeAll(async () => {
  testDatabase = await startTestDatabase();
});
afterAll(async () => {
  await testDatabase?.close();
});
beforeEach(() => {
  db = testDatabase.client.db(randomDatabaseName());
  pending = db.collection('import.pending');
});

const changes = (): RowChanges => ({
  touchedIds: new Set(['a']),
  changedRows: new Set(['service:a']),
  newRows: new Set(),
  changedRoots: new Map([['service', new Set(['a'])]]),
  givenLastModified: new Set(),
});

const leftIds = async () => {
  const ids: string[] = [];
  for await (const { id } of leftPending(db)) ids.push(id.toHexString());
  return ids;
};

/** A pending record as another process would have written it. */
async function recordedBy(
  owner: { host: string; pidSpace: string; pid: number; token: string },
  beatMsAgo = 0,
) {
  const _id = new ObjectId();
  await pending.insertOne({
    _id,
    owner,
    heartbeatAt: new Date(Date.now() - beatMsAgo),
    touchedIds: ['a'],
    changedRows: ['service:a'],
    newRows: [],
    changedRoots: { service: ['a'] },
    givenLastModified: [],
  });
  return _id.toHexString();
}

/** The pid of a process that has ended. */
const endedPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

describe('pending changes left by imports', () => {
  it('never takes those of an import of this process still running, and takes them once it stopped', async () => {
    const running = new ImportPending(db);
    const id = (await running.record(changes())).toHexString();
    expect(await leftIds()).toEqual([]);
    running.release();
    expect(await leftIds()).toEqual([id]);
  });

  it('takes those recorded outside any import of this process (an import that failed)', async () => {
    const id = (await recordPending(db, changes())).toHexString();
    expect(await leftIds()).toEqual([id]);
  });

  it('tells live imports of other processes from gone ones', async () => {
    // This process's own owner, as recorded: its pid space is where pids can be checked.
    await recordPending(db, changes());
    const { owner: ours } = (await pending.findOne({}))!;
    await pending.deleteMany({});
    const here = { host: ours.host as string, pidSpace: ours.pidSpace as string };
    const live = await recordedBy({ ...here, pid: process.ppid, token: 'parent' });
    const ended = await recordedBy({ ...here, pid: endedPid(), token: 'ended' });
    // An earlier process that had this process's pid.
    const earlier = await recordedBy({ ...here, pid: process.pid, token: 'earlier' });
    // Same host name, other pids (another container): its pids mean nothing here; its heartbeat does.
    const otherPids = { host: here.host, pidSpace: 'another pid space' };
    const sameNameLive = await recordedBy({ ...otherPids, pid: process.pid, token: 'container' });
    const sameNameEnded = await recordedBy({ ...otherPids, pid: endedPid(), token: 'container 2' });
    const silentThere = await recordedBy({ ...otherPids, pid: 1, token: 'silent' }, STALE_AFTER_MS + 1);
    const silentHere = await recordedBy(
      { ...here, pid: process.ppid, token: 'silent here' },
      STALE_AFTER_MS + 1,
    );
    expect((await leftIds()).sort()).toEqual([ended, earlier, silentThere, silentHere].sort());
    for (const running of [live, sameNameLive, sameNameEnded]) expect(await leftIds()).not.toContain(running);
  });

  it('keeps the heartbeat of a running import fresh for other processes, every HEARTBEAT_MS', async () => {
    // Only the interval is faked: the clock and the database's I/O run as usual.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const running = new ImportPending(db);
    try {
      const id = await running.record(changes());
      const old = new Date(Date.now() - STALE_AFTER_MS);
      await pending.updateOne({ _id: id }, { $set: { heartbeatAt: old } });
      const beatAge = async () =>
        Date.now() - ((await pending.findOne({ _id: id }))!.heartbeatAt as Date).getTime();
      vi.advanceTimersByTime(HEARTBEAT_MS - 1);
      expect(await beatAge()).toBeGreaterThanOrEqual(STALE_AFTER_MS);
      vi.advanceTimersByTime(1);
      await vi.waitFor(async () => expect(await beatAge()).toBeLessThan(STALE_AFTER_MS / 2));
      await running.clear(id);
      expect(await pending.countDocuments()).toBe(0);
    } finally {
      running.release();
      vi.useRealTimers();
    }
  });
});
