import type { Database as Table, RootDatabase } from 'lmdb';

/**
 * An index's entries in one LMDB table of duplicates: each key's bytes (in MongoDB's order) once, the
 * record ids of the documents holding it as its sorted 8-byte values (MDB_DUPSORT with MDB_DUPFIXED),
 * so that equal keys sort by record. A key held by many documents costs 8 bytes per document, not its
 * bytes again with a node's header each: a directory's indexes (search words and opening slots, held
 * by thousands of documents each) take half the pages they took as one entry per key and record.
 *
 * LMDB walks duplicates only under one read snapshot, which a cursor read over minutes would hold (and
 * with it every page written meanwhile): walks in key order read a batch at a time and take up again
 * after the last entry they gave (its key and record), seeing what was written since.
 */
export class IndexEntries {
  private constructor(
    /** Entries with their keys read (walks that take up again where they were need the key). */
    private readonly entries: Table<number, Buffer>,
    /** The same table, its keys never read: lookups and ranges want the record ids only. */
    private readonly ids: Table<number, Buffer>,
  ) {}

  static open(env: RootDatabase, name: string): IndexEntries {
    // lmdb-js's types leave out a table's `dupFixed`, `encoder` and `keyEncoder`, which it takes.
    const options = { dupSort: true, dupFixed: true, encoder: RECORD_IDS };
    return new IndexEntries(
      env.openDB(name, { ...options, keyEncoding: 'binary' } as { dupSort: boolean }),
      env.openDB(name, { ...options, keyEncoder: UNREAD_KEYS } as { dupSort: boolean }),
    );
  }

  /** Within a write: empties and deletes the table. */
  drop(): void {
    this.entries.dropSync();
  }

  /** LMDB's figures for the table (its own tree: not the trees it keeps for keys held by many). */
  stats(): object {
    return this.entries.getStats();
  }

  /** Within a write: enters `id` under `key` (nothing when it is there already). */
  add(key: Buffer, id: number): void {
    this.entries.putSync(key, id);
  }

  /** Within a write: removes `id` from under `key`. */
  remove(key: Buffer, id: number): void {
    this.entries.removeSync(key, id);
  }

  /** Record ids under exactly `key`, in order. */
  idsUnder(key: Buffer): number[] {
    // A key held by none, as most are that an import looks up or checks for uniqueness, is told by its first
    // record's absence at a quarter of the cost of a walk of its records finding none.
    if (this.ids.get(key) === undefined) return [];
    return [...this.ids.getValues(key)];
  }

  /** Every record id, in key order, read at once. */
  allIds(): number[] {
    const ids: number[] = [];
    // From the lowest key: lmdb-js's default start is one for its own key encodings, not for these bytes.
    for (const { value } of this.ids.getRange({ start: LOWEST_KEY })) ids.push(value);
    return ids;
  }

  /** How many records the index holds, keys held by many counted once per record. */
  size(): number {
    return (this.stats() as { entryCount: number }).entryCount;
  }

  /** Record ids under the keys from `start` (included) to `end` (excluded), in key then record order. */
  idsBetween(start: Buffer, end: Buffer): number[] {
    const ids: number[] = [];
    for (const { value } of this.ids.getRange({ start, end })) ids.push(value);
    return ids;
  }

  /** Every record id in key order (equal keys by record id; both reversed for -1), from the `skip`-th on. */
  *idsInOrder(direction: 1 | -1, skip = 0): Generator<number> {
    const reverse = direction === -1;
    let size = FIRST_BATCH;
    let batch = this.read({ reverse, offset: skip }, size);
    while (batch.length > 0) {
      for (const entry of batch) yield entry.value;
      size = Math.min(size * 4, LAST_BATCH);
      batch = this.after(batch[batch.length - 1]!, reverse, size);
    }
  }

  /**
   * Up to `size` entries after `last` in the walk's direction, as they are now: the rest of its key's
   * records (LMDB finds a record's place under its key directly, wherever writes moved it), then the keys
   * after it.
   */
  private after(last: Entry, reverse: boolean, size: number): Entry[] {
    const entries: Entry[] = [];
    const rest = { start: last.value, exclusiveStart: true, reverse, limit: size };
    for (const value of this.entries.getValues(last.key, rest)) entries.push({ key: last.key, value });
    if (entries.length === size) return entries;
    return entries.concat(
      this.read({ reverse, start: last.key, exclusiveStart: true }, size - entries.length),
    );
  }

  /**
   * Up to `size` entries, read at once under one snapshot. A reverse walk ends at the lowest key, included
   * (lmdb-js's default end would leave out a key of one 0 byte).
   */
  private read(
    range: { reverse: boolean; start?: Buffer; exclusiveStart?: boolean; offset?: number },
    size: number,
  ): Entry[] {
    const end = range.reverse ? { end: LOWEST_KEY, inclusiveEnd: true } : {};
    return [...this.entries.getRange({ ...range, ...end, limit: size })] as Entry[];
  }
}

/** At or below every key's bytes. */
const LOWEST_KEY = Buffer.alloc(1);

interface Entry {
  key: Buffer;
  value: number;
}

/**
 * Entries a walk in key order reads at a time: few at first (a page near the start reads no more than it
 * needs, and a cursor then sees what is written ahead of it, as on MongoDB), more as it goes on.
 */
const FIRST_BATCH = 16;
const LAST_BATCH = 1024;

/**
 * Record ids as LMDB values: 8 bytes, big-endian, so that LMDB's byte order is their order. Decoded
 * from LMDB's shared buffer without a copy (lmdb-js gives it as it is to an encoder that copies).
 */
const RECORD_IDS = {
  encode(id: number): Buffer {
    const bytes = Buffer.allocUnsafe(8);
    RECORD_IDS.writeKey(id, bytes, 0);
    return bytes;
  },
  decode(bytes: Buffer): number {
    return bytes.readUInt32BE(0) * 2 ** 32 + bytes.readUInt32BE(4);
  },
  /**
   * The same bytes written in place: how lmdb-js writes the record a walk of a key's records starts at.
   * (lmdb-js's `doesExist(key, id)` hands this the id already encoded, and so answers wrongly here: not used.)
   */
  writeKey(id: number, target: Buffer, start: number): number {
    target.writeUInt32BE(Math.floor(id / 2 ** 32), start);
    target.writeUInt32BE(id >>> 0, start + 4);
    return start + 8;
  },
};

/** Keys written as the bytes they are, and never read back (lmdb-js would copy each into a Buffer). */
const UNREAD_KEYS = {
  writeKey(key: Buffer, target: Buffer, start: number): number {
    target.set(key, start);
    return start + key.length;
  },
  readKey(): null {
    return null;
  },
};
