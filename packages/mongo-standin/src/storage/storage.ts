import type { Document } from 'bson';
import { open, TransactionFlags, type Database as Table, type Key, type RootDatabase } from 'lmdb';
import { statfsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { decodeDocument, encodeDocument } from '../bson-values.ts';
import { CommandError, internalError, outOfDiskSpace } from '../errors.ts';
import type { IndexSpec } from '../engine/index-spec.ts';
import { IndexEntries } from './index-entries.ts';

/** A collection as the catalog keeps it: where its documents and index entries are, and its totals. */
export interface CollectionEntry {
  database: string;
  name: string;
  options: Document;
  /** The LMDB table of its documents, by record id (of their heads, when large fields are kept apart). */
  table: string;
  /**
   * Whether some of its documents' large fields were kept apart (record-parts.ts), in the table named
   * `apartTableOf(table)`: named after the documents' table, so that a collection read through a catalog
   * entry older than the write that made it (a cursor's, across a failed write's reload) finds it too.
   */
  apart?: boolean;
  indexes: IndexEntry[];
  /** Sum of its documents' BSON sizes (collStats `size`). */
  dataSize: number;
}

export interface IndexEntry {
  spec: IndexSpec;
  /** The LMDB table of its keys; null for the kinds that keep no entries (2dsphere, text). */
  table: string | null;
  /** Some document has an array on an indexed path: key order is no longer document order. */
  multikey: boolean;
}

/** Documents by record id (ordered-binary numbers), as BSON bytes. */
export type DocumentTable = Table<Buffer, number>;

/** Commit before returning, abort on a throw, and leave the flush to overlap what follows. */
const WRITE_FLAGS =
  TransactionFlags.ABORTABLE | TransactionFlags.SYNCHRONOUS_COMMIT | TransactionFlags.NO_SYNC_FLUSH;
/** Named tables an environment may hold: each collection and each of its indexes is one. */
const MAX_TABLES = 10_000;
/** Below this much free space a failed commit is put down to a full disk (ENOSPC shows as EIO). */
const LOW_SPACE_BYTES = 64 * 1024 * 1024;
/** Below this much free space no write is started. */
const FULL_DISK_BYTES = 1024 * 1024;

const noSpaceMessage = (dataDir: string, free: number) =>
  `No space left on device for ${dataDir} (${free} bytes free): the write was not applied; free some space and retry`;
const CATALOG = 'catalog';
/** The catalog's own record: the format and the counter naming new tables. */
const META_KEY = '\u0000meta';
/**
 * 6: documents compressed without a dictionary (`COMPRESSION`); formats 3 to 5, which compressed them with
 * lmdb-js's default one, have them copied into tables of this format when opened (`rewriteDocuments`);
 * 5: an index keeps each key once, its records as LMDB duplicates (index-entries.ts); formats 3 and 4, which
 * kept an entry per key and record (the key's bytes, then the record id's 8), have their indexes copied
 * into that layout when opened (`rewriteIndexes`);
 * 4: a document's large fields may be kept apart from it (record-parts.ts); format 3's documents are all
 * whole;
 * 3: single-field 2dsphere indexes keep cells in a table of their own (format 2 kept none, and scanned);
 * 2: documents above `COMPRESSION` bytes stored LZ4-compressed (format 1 stored them as they came).
 */
const FORMAT = 6;
/** The earlier formats opened: their documents rewritten, and the first two's indexes too. */
const DICTIONARY_FORMATS = [3, 4, 5];
const ENTRY_PER_RECORD_FORMATS = [3, 4];
/**
 * Documents are LZ4-compressed by LMDB above this size, as MongoDB's storage engine compresses its
 * blocks: served JSON text and the words it repeats shrink to about half, which the data directory and
 * the page cache both feel. Below this, LZ4 has too little to work with. Without a dictionary: lmdb-js
 * loads its dictionary into the compressor before every value, ~15 µs each, ~7% of the stand-in's CPU in
 * an import, for ~1% less disk.
 */
const COMPRESSION = { threshold: 200, dictionary: Buffer.alloc(0) };
/** How formats 3 to 5 compressed documents: lmdb-js's default dictionary. */
const DICTIONARY_COMPRESSION = { threshold: 200 };
// Each table opened with these options gets a compression of its own, and with it its own buffer for what
// getBinaryFast gives: a document's head and its fields kept apart are read, one after the other, into two
// buffers (engine/collection.ts relies on it; a compression shared by the tables would break it).

/** Files of the stand-in's earlier storage (a snapshot and journal per database), which this one does not read. */
const EARLIER_FORMAT = /\.(journal|snapshot)$/;

/** An upgrade of a data directory's format, about to run: the formats, and the bytes of the tables it copies. */
export interface StorageUpgrade {
  from: number;
  to: number;
  bytes: number;
}

/** A data directory written in a format this version does not read. */
export class UnreadableDataDir extends Error {
  override name = 'UnreadableDataDir';
  /** Tells the process that started the stand-in what failed, as DataDirInUse's code does. */
  readonly code = 'ERR_DATA_DIR_UNREADABLE';
}

/**
 * The data directory's one LMDB environment (`data.mdb`): a catalog of collections and indexes, and a
 * table for each collection's documents and each index's keys. Every write runs in one LMDB transaction
 * and is acknowledged once it is flushed to disk; a failed commit (a full disk, an I/O error) leaves
 * nothing behind, on disk or in the tables.
 */
export class Storage {
  private readonly catalog: Table<Buffer, string>;
  private readonly tables = new Map<string, Table<unknown, Key>>();
  private readonly indexes = new Map<string, IndexEntries>();
  private writes = 0;

  private constructor(
    readonly dataDir: string,
    readonly env: RootDatabase,
  ) {
    this.catalog = env.openDB({ name: CATALOG, encoding: 'binary' });
  }

  /** `onUpgrade` is told of an upgrade of the format before it starts (it copies tables: it takes a while). */
  static async open(dataDir: string, onUpgrade?: (upgrade: StorageUpgrade) => void): Promise<Storage> {
    const earlier = (await readdir(dataDir)).filter((file) => EARLIER_FORMAT.test(file));
    if (earlier.length > 0)
      throw new UnreadableDataDir(
        `${dataDir} holds data in the stand-in's earlier format (${earlier.join(', ')}), which this version does not read: move the directory away (or delete it) and import your data again`,
      );
    // overlappingSync: a commit is visible at once and flushed after; writes are acknowledged once flushed.
    const env = open({ path: dataDir, maxDbs: MAX_TABLES, overlappingSync: true, noMemInit: true });
    const storage = new Storage(dataDir, env);
    const stored = storage.catalog.get(META_KEY);
    const meta = stored === undefined ? { format: FORMAT, nextTable: 1 } : decodeDocument(stored);
    const format = meta.format as number;
    if (stored === undefined || DICTIONARY_FORMATS.includes(format)) {
      try {
        // Checked whoever is told: `onUpgrade?.(…)` alone would skip its argument, and the check, without one.
        if (stored !== undefined) {
          const bytes = storage.checkRoomToRewrite(format);
          onUpgrade?.({ from: format, to: FORMAT, bytes });
        }
        storage.write(() => {
          if (ENTRY_PER_RECORD_FORMATS.includes(format)) storage.rewriteIndexes();
          if (stored !== undefined) storage.rewriteDocuments();
          // Read again: the rewrite named new tables, which moved the counter on.
          const named = stored === undefined ? meta : decodeDocument(storage.catalog.get(META_KEY)!);
          storage.catalog.putSync(META_KEY, Buffer.from(encodeDocument({ ...named, format: FORMAT })));
        });
      } catch (error) {
        await env.close();
        throw error;
      }
    } else if (format !== FORMAT) {
      await env.close();
      throw new UnreadableDataDir(
        format < FORMAT
          ? `${dataDir} holds data in the stand-in's earlier format ${format}, which this version does not read: move the directory away (or delete it) and import your data again`
          : `${dataDir} holds data in a format this version of the stand-in does not read`,
      );
    }
    return storage;
  }

  /**
   * Within a write: copies every index kept as formats 3 and 4 kept them (an entry per key and record, the
   * key's bytes then the record id's 8, no value) into a table of the current layout, and drops the old.
   */
  private rewriteIndexes(): void {
    for (const entry of this.collections()) {
      for (const index of entry.indexes) {
        if (index.table === null) continue;
        const rewritten = this.newTableName('i');
        const entries = this.index(rewritten);
        const old = this.env.openDB<Buffer, Buffer>({ name: index.table, keyEncoding: 'binary' });
        for (const key of old.getKeys())
          entries.add(key.subarray(0, key.length - 8), Number(key.readBigUInt64BE(key.length - 8)));
        old.dropSync();
        index.table = rewritten;
      }
      this.putCollection(entry);
    }
  }

  /**
   * Refuses an upgrade the data directory's disk has no room for, before it starts: its copies are written
   * beside the tables they replace until it commits, and LMDB writing a large transaction's pages out onto
   * a full disk can abort the process, which would then fail the same way at every start. Gives the bytes
   * of the tables it copies.
   */
  private checkRoomToRewrite(format: number): number {
    const entries = this.collections();
    const documentTables = entries.flatMap((entry) => [
      entry.table,
      ...(entry.apart ? [apartTableOf(entry.table)] : []),
    ]);
    const indexTables = ENTRY_PER_RECORD_FORMATS.includes(format)
      ? entries.flatMap((entry) => entry.indexes.flatMap(({ table }) => table ?? []))
      : [];
    // An index table opened with binary keys, as `rewriteIndexes` opens it: lmdb-js's default key type
    // would give it its own key comparison for good, which misorders binary keys starting with a zero byte.
    const indexBytes = (name: string) =>
      tableBytes(this.env.openDB({ name, keyEncoding: 'binary' }).getStats() as TableStats);
    const copied =
      documentTables.reduce((sum, name) => sum + tableBytes(this.tableStats(name)), 0) +
      indexTables.reduce((sum, name) => sum + indexBytes(name), 0);
    // The copies compress as the originals did, within a few percent; and a margin for the rest.
    const needed = Math.ceil(copied * 1.1) + FULL_DISK_BYTES;
    const free = this.freeBytes();
    if (free >= needed) return copied;
    const mib = (bytes: number) => Math.ceil(bytes / 2 ** 20);
    throw new UnreadableDataDir(
      `${this.dataDir} holds data in the stand-in's earlier format ${format}, which this version upgrades once by copying its tables (${mib(copied)} MiB): that needs ${mib(needed)} MiB free on its disk, which has ${mib(free)} MiB; free some space and start again (nothing was changed)`,
    );
  }

  /**
   * Within a write: copies every collection's documents (and the fields kept apart from them), stored as
   * formats 3 to 5 compressed them, into new tables compressed as now, under the same record ids (which
   * its indexes name), and drops the old.
   */
  private rewriteDocuments(): void {
    for (const entry of this.collections()) {
      const rewritten = this.newTableName('c');
      const copies: [string, string][] = [[entry.table, rewritten]];
      if (entry.apart) copies.push([apartTableOf(entry.table), apartTableOf(rewritten)]);
      for (const [from, to] of copies) {
        const old = this.env.openDB<Buffer, number>({
          name: from,
          encoding: 'binary',
          compression: DICTIONARY_COMPRESSION,
        });
        const table = this.documents(to);
        for (const { key, value } of old.getRange()) table.putSync(key, value);
        old.dropSync();
      }
      entry.table = rewritten;
      this.putCollection(entry);
    }
  }

  /** Every collection in the catalog. */
  collections(): CollectionEntry[] {
    const entries: CollectionEntry[] = [];
    for (const { key, value } of this.catalog.getRange({ start: '\u0001' }))
      if (key !== META_KEY) entries.push(decodeDocument(value) as CollectionEntry);
    return entries;
  }

  /** Within a write: records the collection's entry. */
  putCollection(entry: CollectionEntry): void {
    this.catalog.putSync(catalogKey(entry.database, entry.name), Buffer.from(encodeDocument(entry)));
  }

  /** Within a write: removes the collection's entry and its tables. */
  removeCollection(entry: CollectionEntry): void {
    this.catalog.removeSync(catalogKey(entry.database, entry.name));
    this.dropTable(entry.table);
    if (entry.apart) this.dropTable(apartTableOf(entry.table));
    for (const index of entry.indexes) if (index.table) this.dropIndex(index.table);
  }

  /** Within a write: a name for a new table, never given before. */
  newTableName(prefix: 'c' | 'i'): string {
    const meta = decodeDocument(this.catalog.get(META_KEY)!);
    const number = meta.nextTable as number;
    this.catalog.putSync(META_KEY, Buffer.from(encodeDocument({ ...meta, nextTable: number + 1 })));
    return `${prefix}${number}`;
  }

  documents(name: string): DocumentTable {
    return this.table(name, () =>
      this.env.openDB({ name, encoding: 'binary', compression: COMPRESSION }),
    ) as DocumentTable;
  }

  index(name: string): IndexEntries {
    let entries = this.indexes.get(name);
    if (!entries) this.indexes.set(name, (entries = IndexEntries.open(this.env, name)));
    return entries;
  }

  private table(name: string, openTable: () => Table<unknown, Key>): Table<unknown, Key> {
    let table = this.tables.get(name);
    if (!table) this.tables.set(name, (table = openTable()));
    return table;
  }

  /** Within a write: empties and deletes a table of documents. */
  dropTable(name: string): void {
    const table = this.tables.get(name) ?? this.env.openDB({ name });
    table.dropSync();
    this.tables.delete(name);
  }

  /**
   * Within a write: empties and deletes an index's table, through its own handle (a table of duplicates
   * opened again without saying so, as `tableStats` would, misleads lmdb-js's later reads of it).
   */
  dropIndex(name: string): void {
    this.index(name).drop();
    this.indexes.delete(name);
  }

  /**
   * Runs `work` in a write transaction and commits it before returning: its changes are visible, and
   * `flushed()` tells when they are durable (the disk's flush overlaps the next transactions). If `work`
   * throws, or the commit fails, nothing it wrote remains; a commit refused for lack of space is MongoDB's
   * OutOfDiskSpace. Synchronous: LMDB's asynchronous commits leave a rejected promise of their own
   * unobserved when a commit fails.
   */
  write<T>(work: () => T): T {
    // Not started on a full disk: LMDB spilling a transaction's pages there can abort the whole process
    // (seen: "mdb_page_spill error 28", then heap corruption), where a refusal loses nothing.
    const free = this.freeBytes();
    if (free < FULL_DISK_BYTES) throw outOfDiskSpace(noSpaceMessage(this.dataDir, free));
    this.writes++;
    try {
      return this.env.transactionSync(work, WRITE_FLAGS);
    } catch (error) {
      // A table opened by the aborted transaction is gone with it: handles are opened again when needed.
      this.tables.clear();
      this.indexes.clear();
      throw this.commitFailure(error);
    } finally {
      this.writes++;
    }
  }

  /**
   * Counts the writes begun and ended, so odd while one runs: what was read at an even count is what is
   * stored until the count changes (committed or aborted, a write moves it).
   */
  get generation(): number {
    return this.writes;
  }

  /** Resolves once every write committed so far is on disk. */
  async flushed(): Promise<void> {
    try {
      await this.env.flushed;
    } catch (error) {
      throw this.commitFailure(error);
    }
  }

  /**
   * The error to answer a failed write with: the work's own (a command error), else the commit's. LMDB
   * reports a full disk as EIO: free space tells the two apart.
   */
  private commitFailure(error: unknown): unknown {
    if (!isCommitFailure(error)) return error;
    const free = this.freeBytes();
    if (free < LOW_SPACE_BYTES) return outOfDiskSpace(noSpaceMessage(this.dataDir, free));
    return internalError(`the write could not be made durable and was not applied: ${error.message}`);
  }

  /** Free space on the data directory's file system (Infinity when it cannot be told). */
  private freeBytes(): number {
    try {
      const space = statfsSync(this.dataDir);
      return space.bavail * space.bsize;
    } catch {
      return Infinity;
    }
  }

  /** Sizes of the environment and of one table of documents (pages of `pageSize` bytes). */
  tableStats(name: string): TableStats {
    return (this.tables.get(name) ?? this.env.openDB({ name })).getStats() as TableStats;
  }

  /**
   * Bytes an index's table occupies, estimated: LMDB counts the pages of a table's own tree (its keys, and
   * the records of keys held by few) but not those of the trees it keeps for keys held by many, whose
   * records are counted as 8 bytes each in pages half full (records come in order, and LMDB splits a
   * full page in two), those kept in the table's own pages twice. On the bench's indexes: 38.4 MiB for
   * 32.4 MiB on disk. After many deletions pages may hold less (LMDB merges a page below a quarter full).
   */
  indexBytes(name: string): number {
    const stats = this.index(name).stats() as TableStats;
    const duplicatePages = Math.ceil((stats.entryCount * RECORD_ID_BYTES * 2) / stats.pageSize);
    return tableBytes(stats) + duplicatePages * stats.pageSize;
  }

  environmentStats(): TableStats & { mapSize: number; lastPageNumber: number } {
    return this.env.getStats() as TableStats & { mapSize: number; lastPageNumber: number };
  }

  async close(): Promise<void> {
    await this.env.flushed;
    await this.env.close();
  }
}

export interface TableStats {
  pageSize: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
  entryCount: number;
}

/** The table of the fields a collection keeps apart (no table `newTableName` gives ends with a letter). */
export const apartTableOf = (documentsTable: string): string => `${documentsTable}a`;

/** Bytes a table occupies in the file. */
export const tableBytes = (stats: TableStats): number =>
  stats.pageSize * (stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages);

/** A record id's bytes in an index's table (index-entries.ts). */
const RECORD_ID_BYTES = 8;

const catalogKey = (database: string, collection: string) => `${database}\u0000${collection}`;

/** LMDB's failures carry the errno of the call that failed. */
function isCommitFailure(error: unknown): error is Error {
  return (
    error instanceof Error &&
    !(error instanceof CommandError) &&
    typeof (error as { code?: unknown }).code === 'number'
  );
}
