/**
 * The storage through a full disk and an unreadable data directory: a write the disk has no room for is
 * refused with OutOfDiskSpace (14031) and leaves nothing behind, writes made once space is back are kept,
 * and a restart finds exactly what was acknowledged.
 *
 * The full disk is a small tmpfs mounted for the test (CI runs as root); where mounting is refused the
 * test says so and is skipped.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BSON, MongoServerError, type Document } from 'mongodb';
import { open, type RootDatabase } from 'lmdb';
import { afterAll, describe, expect, it } from 'vitest';
import { startStandin, type StorageUpgrade } from '../src/index.ts';
import { Storage } from '../src/storage/storage.ts';
import { makeDataDir, startHarness } from './support/harness.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A tmpfs of `size` mounted on a fresh directory, or the reason it could not be. */
async function mountTmpfs(size: string): Promise<{ dir: string } | { refused: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'standin-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    return { refused: String((error as { stderr?: Buffer }).stderr ?? error).trim() };
  }
  cleanups.push(async () => {
    execFileSync('umount', ['-l', dir]);
    await rm(dir, { recursive: true, force: true });
  });
  return { dir };
}

const tmpfs = await mountTmpfs('16m');
const refused = 'refused' in tmpfs ? tmpfs.refused : undefined;
if (refused) console.warn(`skipping the full-disk test: cannot mount a tmpfs here (${refused})`);

describe('a full disk', () => {
  it.skipIf(refused !== undefined)(
    'refuses the write that does not fit with OutOfDiskSpace, keeps nothing of it, and keeps the writes made once space is freed',
    async () => {
      const mount = (tmpfs as { dir: string }).dir;
      const dataDir = join(mount, 'data');
      // Room to free later: the disk fills up with the data, then this goes.
      const filler = join(mount, 'filler');
      await writeFile(filler, Buffer.alloc(3 * 1024 * 1024));
      let harness = await startHarness(dataDir);
      let docs = harness.client.db('full').collection<{ _id: number; text: string }>('docs');
      // Random, so that compression cannot make it small.
      const text = randomBytes(150_000).toString('base64');
      const acknowledged: number[] = [];
      let refusal: unknown;
      for (let i = 0; i < 200 && refusal === undefined; i++) {
        try {
          await docs.insertOne({ _id: i, text });
          acknowledged.push(i);
        } catch (error) {
          refusal = error;
        }
      }
      expect(refusal).toBeInstanceOf(MongoServerError);
      expect(refusal).toMatchObject({ code: 14031, codeName: 'OutOfDiskSpace' });
      expect((refusal as Error).message).toMatch(/No space left on device/);
      const refusedId = acknowledged.length;
      // Not applied: not visible before a restart, and the count is what was acknowledged.
      expect(await docs.findOne({ _id: refusedId })).toBeNull();
      expect(await docs.countDocuments()).toBe(acknowledged.length);

      await rm(filler);
      await docs.insertOne({ _id: 1000, text: 'after' });
      await docs.updateOne({ _id: 0 }, { $set: { text: 'updated after' } });
      await harness.stop();

      harness = await startHarness(dataDir);
      docs = harness.client.db('full').collection('docs');
      try {
        const ids = (
          await docs
            .find({}, { projection: { _id: 1 } })
            .sort({ _id: 1 })
            .toArray()
        ).map((d) => d._id);
        expect(ids).toEqual([...acknowledged, 1000]);
        expect((await docs.findOne({ _id: 0 }))?.text).toBe('updated after');
      } finally {
        await harness.stop();
      }
    },
    60_000,
  );
});

const upgradeTmpfs = await mountTmpfs('32m');
if ('refused' in upgradeTmpfs)
  console.warn(`skipping the upgrade's full-disk test: cannot mount a tmpfs here (${upgradeTmpfs.refused})`);

describe('an upgrade of the storage format', () => {
  it.skipIf('refused' in upgradeTmpfs)(
    'that the disk has no room for is refused before it starts, saying how much to free, and runs once space is freed',
    async () => {
      const mount = (upgradeTmpfs as { dir: string }).dir;
      const dataDir = join(mount, 'data');
      // Random, so that compression cannot make it small: ~6 MB stored.
      const docs = Array.from({ length: 40 }, (_, i) => ({
        _id: i,
        text: randomBytes(110_000).toString('base64'),
      }));
      let harness = await startHarness(dataDir);
      const collection = () => harness.client.db('old').collection<(typeof docs)[number]>('docs');
      await collection().insertMany(docs);
      await harness.stop();
      let env = open({ path: dataDir, maxDbs: 10_000 });
      let catalog = env.openDB({ name: 'catalog', encoding: 'binary' });
      const entry = BSON.deserialize(catalog.getBinary('old\u0000docs')!);
      compressWithDictionary(env, entry);
      const meta = BSON.deserialize(catalog.getBinary('\u0000meta')!);
      catalog.putSync('\u0000meta', Buffer.from(BSON.serialize({ ...meta, format: 5 })));
      await env.close();
      // The disk left with ~3 MiB free, less than a copy of the documents.
      const filler = join(mount, 'filler');
      const { bavail, bsize } = await statfs(mount);
      await writeFile(filler, Buffer.alloc(bavail * bsize - 3 * 1024 * 1024));

      // Opened by the storage alone too (no one to tell of an upgrade), and by a stand-in.
      await expect(Storage.open(dataDir)).rejects.toThrow(/free some space and start again/);
      await expect(startStandin({ port: 0, dataDir })).rejects.toThrow(
        /earlier format 5, which this version upgrades once by copying its tables \(\d+ MiB\): that needs \d+ MiB free on its disk, which has [23] MiB; free some space and start again \(nothing was changed\)/,
      );
      env = open({ path: dataDir, maxDbs: 10_000 });
      catalog = env.openDB({ name: 'catalog', encoding: 'binary' });
      expect(BSON.deserialize(catalog.getBinary('\u0000meta')!).format).toBe(5);
      expect(BSON.deserialize(catalog.getBinary('old\u0000docs')!)).toEqual(entry);
      await env.close();

      await rm(filler);
      harness = await startHarness(dataDir);
      try {
        expect(
          await collection()
            .find({}, { sort: { _id: 1 } })
            .toArray(),
        ).toEqual(docs);
      } finally {
        await harness.stop();
      }
    },
    60_000,
  );
});

describe('documents', () => {
  it('are stored compressed and read back whole, before and after a restart', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const words = ['food', 'pantry', 'shelter', 'open', 'weekdays', 'Seattle', 'services'];
    const docs = Array.from({ length: 200 }, (_, i) => ({
      _id: i,
      text: Array.from({ length: 400 }, (_, j) => words[(i + j * 7) % words.length]).join(' '),
      small: { i },
    }));
    let harness = await startHarness(dataDir);
    await harness.client.db('packed').collection<(typeof docs)[number]>('docs').insertMany(docs);
    const stats = await harness.client.db('packed').command({ collStats: 'docs' });
    // Text of a few repeated words packs to a fraction of its BSON size.
    expect(stats.storageSize).toBeLessThan(stats.size / 3);
    await harness.stop();
    harness = await startHarness(dataDir);
    try {
      const read = await harness.client.db('packed').collection('docs').find().sort({ _id: 1 }).toArray();
      expect(read).toEqual(docs);
    } finally {
      await harness.stop();
    }
  });
});

/**
 * Rewrites the collection's index tables as formats 3 and 4 kept them: an entry per key and record, the
 * key's bytes then the record id's 8 big-endian, no value.
 */
function writeEntryPerRecord(env: RootDatabase, entry: Document): void {
  env.transactionSync(() => {
    for (const { table } of entry.indexes as { table: string | null }[]) {
      if (table === null) continue;
      const current = env.openDB<number, Buffer>(table, {
        dupSort: true,
        keyEncoding: 'binary',
        encoding: 'binary',
      });
      const entries = [...current.getRange()].map(({ key, value }) =>
        Buffer.concat([key, value as unknown as Buffer]),
      );
      current.dropSync();
      const earlier = env.openDB<Buffer, Buffer>(table, { keyEncoding: 'binary', encoding: 'binary' });
      for (const key of entries) earlier.putSync(key, Buffer.alloc(0));
    }
  });
}

/**
 * Compresses the collection's documents (and the fields kept apart from them) again as formats 3 to 5 did:
 * with lmdb-js's default dictionary.
 */
function compressWithDictionary(env: RootDatabase, entry: Document): void {
  const tables = [entry.table as string, ...(entry.apart ? [`${entry.table}a`] : [])];
  env.transactionSync(() => {
    for (const name of tables) {
      const now = env.openDB<Buffer, number>({
        name,
        encoding: 'binary',
        compression: { threshold: 200, dictionary: Buffer.alloc(0) },
      });
      const stored = [...now.getRange()].map(({ key, value }) => [key, Buffer.from(value)] as const);
      now.dropSync();
      const earlier = env.openDB<Buffer, number>({
        name,
        encoding: 'binary',
        compression: { threshold: 200 },
      });
      for (const [key, value] of stored) earlier.putSync(key, value);
    }
  });
}

/** Rewrites a stopped stand-in's data directory as format 4 wrote it; the collection's catalog entry. */
async function asFormat4(dataDir: string, collectionKey: string): Promise<Document> {
  const env = open({ path: dataDir, maxDbs: 10_000 });
  const catalog = env.openDB({ name: 'catalog', encoding: 'binary' });
  const entry = BSON.deserialize(catalog.getBinary(collectionKey)!);
  writeEntryPerRecord(env, entry);
  compressWithDictionary(env, entry);
  const meta = BSON.deserialize(catalog.getBinary('\u0000meta')!);
  catalog.putSync('\u0000meta', Buffer.from(BSON.serialize({ ...meta, format: 4 })));
  await env.close();
  return entry;
}

describe('a data directory', () => {
  it('in the earlier journal format is refused with a message saying what to do', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await writeFile(join(dataDir, 'hsds.journal'), Buffer.alloc(16));
    await expect(startStandin({ port: 0, dataDir })).rejects.toThrow(
      /earlier format \(hsds\.journal\).*move the directory away.*import your data again/,
    );
  });

  it('written by the earlier LMDB format (documents uncompressed) is refused, saying to import again', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startStandin({ port: 0, dataDir });
    await server.close();
    const env = open({ path: dataDir, maxDbs: 16 });
    env
      .openDB({ name: 'catalog', encoding: 'binary' })
      .putSync('\u0000meta', Buffer.from(BSON.serialize({ format: 1, nextTable: 1 })));
    await env.close();
    await expect(startStandin({ port: 0, dataDir })).rejects.toThrow(
      /earlier format 1.*move the directory away.*import your data again/,
    );
  });

  it('written by format 3 (documents always whole) is read as it is, its indexes rewritten, and marked 6 so that earlier stand-ins refuse it', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let harness = await startHarness(dataDir);
    const doc = { _id: 1, text: 'word '.repeat(2000), small: 2 };
    await harness.client.db('old').collection<typeof doc>('docs').insertOne(doc);
    await harness.stop();
    // As format 3 stored it: the whole document under its record id, no table of fields kept apart.
    const env = open({ path: dataDir, maxDbs: 10_000 });
    const catalog = env.openDB({ name: 'catalog', encoding: 'binary' });
    const entryKey = 'old\u0000docs';
    const { apart, ...entry } = BSON.deserialize(catalog.getBinary(entryKey)!);
    expect(apart).toBe(true);
    env
      .openDB({ name: entry.table, encoding: 'binary', compression: { threshold: 200 } })
      .putSync(1, Buffer.from(BSON.serialize(doc)));
    env.openDB({ name: `${entry.table}a` }).dropSync();
    catalog.putSync(entryKey, Buffer.from(BSON.serialize(entry)));
    writeEntryPerRecord(env, entry);
    const meta = BSON.deserialize(catalog.getBinary('\u0000meta')!);
    catalog.putSync('\u0000meta', Buffer.from(BSON.serialize({ ...meta, format: 3 })));
    await env.close();

    harness = await startHarness(dataDir);
    try {
      const docs = harness.client.db('old').collection<typeof doc>('docs');
      expect(await docs.find().toArray()).toEqual([doc]);
      expect(await docs.find({}, { projection: { small: 1 } }).toArray()).toEqual([{ _id: 1, small: 2 }]);
      // Written again, it is split, and reads the same.
      await docs.updateOne({ _id: 1 }, { $set: { small: 3 } });
      expect(await docs.findOne({ _id: 1 })).toEqual({ ...doc, small: 3 });
    } finally {
      await harness.stop();
    }
    const reopened = open({ path: dataDir, maxDbs: 10_000 });
    const marked = BSON.deserialize(
      reopened.openDB({ name: 'catalog', encoding: 'binary' }).getBinary('\u0000meta')!,
    );
    expect(marked.format).toBe(6);
    await reopened.close();
  });

  it('written by format 4 (an index entry per key and record) has its indexes rewritten, which answer as before', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const docs = Array.from({ length: 3_000 }, (_, i) => ({
      _id: i,
      code: `c${i}`,
      tags: ['all', `t${i % 7}`],
      at: i % 10,
    }));
    let harness = await startHarness(dataDir);
    const collection = () => harness.client.db('old').collection<(typeof docs)[number]>('docs');
    await collection().createIndex({ code: 1 }, { unique: true });
    await collection().createIndex({ tags: 1 });
    await collection().createIndex({ at: 1 });
    await collection().insertMany(docs);
    await harness.stop();
    const entry = await asFormat4(dataDir, 'old\u0000docs');

    harness = await startHarness(dataDir);
    try {
      expect(await collection().findOne({ code: 'c2999' })).toEqual(docs[2999]);
      expect(await collection().countDocuments({ tags: 't3' })).toBe(
        docs.filter((d) => d.tags[1] === 't3').length,
      );
      expect(await collection().countDocuments({ tags: 'all' })).toBe(3_000);
      const byAt = await collection()
        .find({ at: { $gte: 8 } }, { projection: { _id: 1 } })
        .toArray();
      // In the index's order: by value, then as the documents were stored.
      expect(byAt.map((d) => d._id)).toEqual([
        ...docs.filter((d) => d.at === 8).map((d) => d._id),
        ...docs.filter((d) => d.at === 9).map((d) => d._id),
      ]);
      const sorted = await collection()
        .find({}, { sort: { code: -1 }, skip: 10, limit: 5 })
        .toArray();
      expect(sorted.map((d) => d.code)).toEqual(
        docs
          .map((d) => d.code)
          .sort()
          .reverse()
          .slice(10, 15),
      );
      await expect(collection().insertOne({ _id: -1, code: 'c5', tags: [], at: 0 })).rejects.toMatchObject({
        code: 11000,
      });
      await collection().deleteOne({ _id: 5 });
      await collection().insertOne({ _id: -1, code: 'c5', tags: ['new'], at: 0 });
      expect(await collection().find({ tags: 'new' }).toArray()).toEqual([
        { _id: -1, code: 'c5', tags: ['new'], at: 0 },
      ]);
      // A table made after the rewrite is one of its own: building, using and dropping its index leaves
      // the others whole (the rewrite's tables once took the counter's next names).
      await collection().createIndex({ code: 1, at: 1 });
      expect(await collection().countDocuments({ code: 'c7', at: 7 })).toBe(1);
      await collection().dropIndex('code_1_at_1');
      expect(await collection().findOne({ _id: 2999 })).toEqual(docs[2999]);
      expect(await collection().countDocuments({ tags: 'all' })).toBe(2_999);
    } finally {
      await harness.stop();
    }
    const reopened = open({ path: dataDir, maxDbs: 10_000 });
    const again = reopened.openDB({ name: 'catalog', encoding: 'binary' });
    expect(BSON.deserialize(again.getBinary('\u0000meta')!).format).toBe(6);
    // Each index in a table of its own again, the earlier tables gone, and the counter past every name.
    const rewritten = BSON.deserialize(again.getBinary('old\u0000docs')!);
    const tables = new Set([...reopened.getKeys()].map(String));
    const number = (table: string) => Number(table.slice(1));
    for (const [i, index] of (entry.indexes as { table: string }[]).entries()) {
      const table = rewritten.indexes[i].table as string;
      expect(table).not.toBe(index.table);
      expect(tables.has(table)).toBe(true);
      expect(tables.has(index.table)).toBe(false);
      expect(number(table)).toBeLessThan(BSON.deserialize(again.getBinary('\u0000meta')!).nextTable);
    }
    await reopened.close();
  });

  it('written by format 4, whose index rewrite fails, is left as it was, and upgraded by the next start', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let harness = await startHarness(dataDir);
    const collection = () => harness.client.db('old').collection<{ _id: number; v: number }>('docs');
    await collection().createIndex({ v: 1 });
    await collection().insertMany([
      { _id: 1, v: 10 },
      { _id: 2, v: 20 },
    ]);
    await harness.stop();
    const entry = await asFormat4(dataDir, 'old\u0000docs');
    // An entry too short to end with a record id: the rewrite fails on it, as on a disk full part-way.
    const vTable = (entry.indexes as { table: string }[])[1]!.table;
    let env = open({ path: dataDir, maxDbs: 10_000 });
    env
      .openDB<Buffer, Buffer>(vTable, { keyEncoding: 'binary', encoding: 'binary' })
      .putSync(Buffer.from([1, 2]), Buffer.alloc(0));
    await env.close();

    await expect(startStandin({ port: 0, dataDir })).rejects.toThrow();
    env = open({ path: dataDir, maxDbs: 10_000 });
    const catalog = env.openDB({ name: 'catalog', encoding: 'binary' });
    expect(BSON.deserialize(catalog.getBinary('\u0000meta')!).format).toBe(4);
    expect(BSON.deserialize(catalog.getBinary('old\u0000docs')!)).toEqual(entry);
    env
      .openDB<Buffer, Buffer>(vTable, { keyEncoding: 'binary', encoding: 'binary' })
      .removeSync(Buffer.from([1, 2]));
    await env.close();

    harness = await startHarness(dataDir);
    try {
      expect(
        await collection()
          .find({ v: { $gte: 15 } })
          .toArray(),
      ).toEqual([{ _id: 2, v: 20 }]);
    } finally {
      await harness.stop();
    }
  });

  it('written by format 5 (documents compressed with a dictionary) has its documents rewritten, which read and write as before', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    // Small (stored as they are), compressed, and with a large field kept apart; in two collections.
    const served = (i: number) =>
      JSON.stringify({ id: i, words: Array.from({ length: 900 }, (_, j) => `w${j % 31}`) });
    const docs = Array.from({ length: 300 }, (_, i) => ({
      _id: i,
      code: `c${i}`,
      text: 'food shelter '.repeat(i % 3 === 0 ? 1 : 40),
      ...(i % 10 === 0 ? { _json: served(i) } : {}),
    }));
    let harness = await startHarness(dataDir);
    const collection = (name: string) => harness.client.db('old').collection<(typeof docs)[number]>(name);
    await collection('docs').createIndex({ code: 1 }, { unique: true });
    await collection('docs').insertMany(docs);
    await collection('more').insertMany(docs.slice(0, 20));
    await harness.stop();
    let env = open({ path: dataDir, maxDbs: 10_000 });
    let catalog = env.openDB({ name: 'catalog', encoding: 'binary' });
    const entries = ['old\u0000docs', 'old\u0000more'].map((key) =>
      BSON.deserialize(catalog.getBinary(key)!),
    );
    expect(entries[0]!.apart).toBe(true);
    for (const entry of entries) compressWithDictionary(env, entry);
    const meta = BSON.deserialize(catalog.getBinary('\u0000meta')!);
    catalog.putSync('\u0000meta', Buffer.from(BSON.serialize({ ...meta, format: 5 })));
    await env.close();

    // Told before it copies, once: a start of the upgraded directory copies nothing.
    const upgrades: StorageUpgrade[] = [];
    for (let start = 0; start < 2; start++) {
      const server = await startStandin({ port: 0, dataDir, onUpgrade: (upgrade) => upgrades.push(upgrade) });
      await server.close();
    }
    expect(upgrades).toEqual([{ from: 5, to: 6, bytes: expect.any(Number) }]);
    // Two collections, one with its large fields apart: pages of each table.
    expect(upgrades[0]!.bytes).toBeGreaterThan(5 * 4096);
    harness = await startHarness(dataDir);
    try {
      const sorted = { sort: { _id: 1 as const } };
      expect(await collection('docs').find({}, sorted).toArray()).toEqual(docs);
      expect(await collection('more').find({}, sorted).toArray()).toEqual(docs.slice(0, 20));
      expect(
        await collection('docs').findOne({ code: 'c290' }, { projection: { _id: 0, _json: 1 } }),
      ).toEqual({
        _json: served(290),
      });
      await expect(collection('docs').insertOne({ _id: -1, code: 'c5', text: '' })).rejects.toMatchObject({
        code: 11000,
      });
      await collection('docs').updateOne({ _id: 10 }, { $set: { text: 'changed' } });
      await collection('docs').insertOne({ _id: 1000, code: 'new', text: 'word '.repeat(100) });
      expect(await collection('docs').findOne({ _id: 10 })).toEqual({ ...docs[10], text: 'changed' });
      expect(await collection('docs').countDocuments()).toBe(301);
    } finally {
      await harness.stop();
    }
    env = open({ path: dataDir, maxDbs: 10_000 });
    catalog = env.openDB({ name: 'catalog', encoding: 'binary' });
    expect(BSON.deserialize(catalog.getBinary('\u0000meta')!).format).toBe(6);
    // Each collection's documents in new tables, the old ones gone.
    const tables = new Set([...env.getKeys()].map(String));
    for (const [i, key] of ['old\u0000docs', 'old\u0000more'].entries()) {
      const { table } = BSON.deserialize(catalog.getBinary(key)!);
      expect(table).not.toBe(entries[i]!.table);
      expect(tables.has(table)).toBe(true);
      expect(tables.has(entries[i]!.table)).toBe(false);
    }
    expect(tables.has(`${entries[0]!.table}a`)).toBe(false);
    await env.close();
  });

  it('written by a later format of the storage is refused, and left as it was', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startStandin({ port: 0, dataDir });
    await server.close();
    const later = BSON.serialize({ format: 99, nextTable: 1 });
    const env = open({ path: dataDir, maxDbs: 16 });
    env.openDB({ name: 'catalog', encoding: 'binary' }).putSync('\u0000meta', Buffer.from(later));
    await env.close();
    await expect(startStandin({ port: 0, dataDir })).rejects.toThrow(
      /a format this version of the stand-in does not read/,
    );
    const again = open({ path: dataDir, maxDbs: 16 });
    expect(again.openDB({ name: 'catalog', encoding: 'binary' }).getBinary('\u0000meta')).toEqual(
      Buffer.from(later),
    );
    await again.close();
  });
});

describe('large fields', () => {
  it('are kept apart from the rest of their document, which reads back the same by any projection, after updates, deletes and a restart', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    // A served form of ~12 KB between small fields, as the app's documents hold them.
    const served = (i: number) =>
      JSON.stringify({ id: i, words: Array.from({ length: 1500 }, (_, j) => `w${j % 97}`) });
    const docs = Array.from({ length: 50 }, (_, i) => ({
      _id: i,
      id: `s${i}`,
      _json: served(i),
      _item: `item ${i}`,
      tail: { i },
    }));
    let harness = await startHarness(dataDir);
    const collection = () => harness.client.db('apart').collection<(typeof docs)[number]>('docs');
    await collection().insertMany(docs);
    const sorted = { sort: { _id: 1 as const } };
    expect(await collection().find({}, sorted).toArray()).toEqual(docs);
    expect(
      await collection()
        .find({}, { ...sorted, projection: { _id: 0, _item: 1 } })
        .toArray(),
    ).toEqual(docs.map(({ _item }) => ({ _item })));
    expect(
      await collection()
        .find({ id: 's3' }, { projection: { _id: 0, tail: 1, _json: 1 } })
        .toArray(),
    ).toEqual([{ _json: docs[3]!._json, tail: { i: 3 } }]);
    // Filters and expressions on a field kept apart read it.
    expect(await collection().countDocuments({ _json: served(7) })).toBe(1);
    expect(
      await collection()
        .aggregate([{ $match: { _id: { $lt: 2 } } }, { $project: { _id: 1, size: { $strLenCP: '$_json' } } }])
        .toArray(),
    ).toEqual([0, 1].map((i) => ({ _id: i, size: served(i).length })));

    // Large to small, small to large, and a delete.
    await collection().updateOne({ _id: 1 }, { $set: { _json: 'small now' } });
    await collection().updateOne({ _id: 2 }, { $set: { _item: served(2) } });
    await collection().deleteOne({ _id: 3 });
    const expected = docs
      .filter(({ _id }) => _id !== 3)
      .map((doc) =>
        doc._id === 1 ? { ...doc, _json: 'small now' } : doc._id === 2 ? { ...doc, _item: served(2) } : doc,
      );
    expect(await collection().find({}, sorted).toArray()).toEqual(expected);
    const stats = await harness.client.db('apart').command({ collStats: 'docs' });
    expect(stats.count).toBe(49);
    // The tables of the documents and of their large fields, compressed (the served forms repeat words).
    expect(stats.storageSize).toBeGreaterThan(0);
    expect(stats.storageSize).toBeLessThan(stats.size / 2);

    await harness.stop();
    harness = await startHarness(dataDir);
    try {
      expect(await collection().find({}, sorted).toArray()).toEqual(expected);
      expect(
        await collection()
          .find({}, { ...sorted, projection: { _item: 1 } })
          .toArray(),
      ).toEqual(expected.map(({ _id, _item }) => ({ _id, _item })));
      await collection().drop();
      await collection().insertOne(docs[0]!);
      expect(await collection().find().toArray()).toEqual([docs[0]]);
    } finally {
      await harness.stop();
    }
  });

  it('missing from their table (a damaged directory) fail the read that needs them with an InternalError naming the record, and no other', async () => {
    const dataDir = await makeDataDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const large = 'word '.repeat(2_000);
    let harness = await startHarness(dataDir);
    const collection = () =>
      harness.client.db('damaged').collection<{ _id: number; large: string; small: number }>('docs');
    await collection().insertMany([1, 2].map((_id) => ({ _id, large, small: _id })));
    await harness.stop();
    const env = open({ path: dataDir, maxDbs: 10_000 });
    const { table } = BSON.deserialize(
      env.openDB({ name: 'catalog', encoding: 'binary' }).getBinary('damaged\u0000docs')!,
    );
    env.openDB({ name: `${table}a`, encoding: 'binary', compression: { threshold: 200 } }).removeSync(1);
    await env.close();

    harness = await startHarness(dataDir);
    try {
      await expect(collection().findOne({ _id: 1 })).rejects.toMatchObject({
        code: 1,
        message: expect.stringMatching(/fields kept apart from record 1 of damaged\.docs are missing/),
      });
      // The head alone still reads, and so does every other document.
      expect(await collection().findOne({ _id: 1 }, { projection: { small: 1 } })).toEqual({
        _id: 1,
        small: 1,
      });
      expect(await collection().findOne({ _id: 2 })).toEqual({ _id: 2, large, small: 2 });
    } finally {
      await harness.stop();
    }
  });
});
