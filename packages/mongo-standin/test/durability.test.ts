import { readdir, readFile, stat, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDataDir, startHarness, type Harness } from './support/harness.ts';

let running: Harness | undefined;
afterEach(async () => {
  await running?.dispose();
  running = undefined;
});

describe('durability', () => {
  it('replays the journal on start, indexes included', async () => {
    const dataDir = await makeDataDir();
    const first = await startHarness(dataDir);
    const coll = first.client.db('dur').collection('c');
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.insertMany([{ email: 'a' }, { email: 'b' }]);
    await coll.updateOne({ email: 'a' }, { $set: { seen: true } });
    await coll.deleteOne({ email: 'b' });
    await first.stop();

    running = await startHarness(dataDir);
    const again = running.client.db('dur').collection('c');
    expect(await again.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ email: 'a', seen: true }]);
    await expect(again.insertOne({ email: 'a' })).rejects.toMatchObject({ code: 11000 });
  });

  it('ignores a torn last journal record and keeps everything before it', async () => {
    const dataDir = await makeDataDir();
    const first = await startHarness(dataDir);
    await first.client
      .db('torn')
      .collection('c')
      .insertMany([{ n: 1 }, { n: 2 }]);
    await first.stop();
    // A crash mid-append leaves a length prefix promising more bytes than were written.
    const header = Buffer.alloc(8);
    header.writeUInt32LE(1000, 0);
    await appendFile(join(dataDir, 'torn.journal'), Buffer.concat([header, Buffer.from('partial')]));

    running = await startHarness(dataDir);
    const coll = running.client.db('torn').collection('c');
    expect(await coll.countDocuments()).toBe(2);
    await coll.insertOne({ n: 3 });
    await running.stop();
    running = await startHarness(dataDir);
    expect(await running.client.db('torn').collection('c').countDocuments()).toBe(3);
  });

  it('compacts the journal into a snapshot and still replays correctly', async () => {
    const dataDir = await makeDataDir();
    const first = await startHarness(dataDir, 1);
    const coll = first.client.db('cmp').collection('c');
    await coll.createIndex({ k: 1 });
    for (let i = 0; i < 5; i++) await coll.insertOne({ k: i });
    await coll.deleteOne({ k: 0 });
    await first.stop();
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['cmp.snapshot', 'cmp.journal']));
    // Compaction ran: the snapshot holds the data, the journal only what followed the last compaction.
    const snapshotBytes = (await readFile(join(dataDir, 'cmp.snapshot'))).length;
    expect(snapshotBytes).toBeGreaterThan(0);
    expect((await stat(join(dataDir, 'cmp.journal'))).size).toBeLessThanOrEqual(snapshotBytes);

    running = await startHarness(dataDir);
    const again = running.client.db('cmp').collection('c');
    expect((await again.find().sort({ k: 1 }).toArray()).map((d) => d.k)).toEqual([1, 2, 3, 4]);
    expect((await again.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'k_1']);
  });
});
