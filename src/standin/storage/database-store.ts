import { BSON } from 'bson';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeDocument } from '../bson-values.ts';
import type { JournalRecord } from './journal-record.ts';
import { frameRecord, readRecords } from './record-file.ts';

/** Write whole buffers of about this size while streaming a snapshot out. */
const SNAPSHOT_CHUNK_BYTES = 4 * 1024 * 1024;

const encodeRecord = (record: JournalRecord): Buffer => frameRecord(BSON.serialize(record));
const decodeRecord = (payload: Buffer): JournalRecord => decodeDocument(payload) as JournalRecord;

/**
 * Durable state of one database: `<db>.snapshot` (the state at the last compaction) and
 * `<db>.journal` (records appended since, fsynced before a write is acknowledged).
 */
export class DatabaseStore {
  private journal: FileHandle | null = null;

  private constructor(
    private readonly dataDir: string,
    readonly name: string,
    private journalBytes: number,
    private snapshotBytes: number,
    private readonly compactMinBytes: number,
  ) {}

  private get journalPath() {
    return join(this.dataDir, `${this.name}.journal`);
  }

  private get snapshotPath() {
    return join(this.dataDir, `${this.name}.snapshot`);
  }

  static create(dataDir: string, name: string, compactMinBytes: number): DatabaseStore {
    return new DatabaseStore(dataDir, name, 0, 0, compactMinBytes);
  }

  /** Opens a database's files and returns its records in replay order: snapshot, then journal. */
  static async load(
    dataDir: string,
    name: string,
    compactMinBytes: number,
  ): Promise<{ store: DatabaseStore; records: JournalRecord[] }> {
    const snapshot = await readRecords(join(dataDir, `${name}.snapshot`));
    const journal = await readRecords(join(dataDir, `${name}.journal`));
    const store = new DatabaseStore(dataDir, name, journal.validBytes, snapshot.validBytes, compactMinBytes);
    if (journal.validBytes < journal.totalBytes) {
      // Drop the torn tail so that later appends follow the last intact record.
      const file = await open(store.journalPath, 'r+');
      await file.truncate(journal.validBytes);
      await file.sync();
      await file.close();
    }
    const records = [...snapshot.payloads, ...journal.payloads].map(decodeRecord);
    return { store, records };
  }

  /** Appends records and fsyncs them: once this resolves they survive a crash. */
  async append(records: JournalRecord[]): Promise<void> {
    if (records.length === 0) return;
    if (!this.journal) {
      await mkdir(this.dataDir, { recursive: true });
      this.journal = await open(this.journalPath, 'a');
    }
    const bytes = Buffer.concat(records.map(encodeRecord));
    await this.journal.write(bytes);
    await this.journal.datasync();
    this.journalBytes += bytes.length;
  }

  /** The journal has outgrown the snapshot: rewriting it would shorten the next start-up's replay. */
  get shouldCompact(): boolean {
    return this.journalBytes > Math.max(this.compactMinBytes, this.snapshotBytes);
  }

  /** Writes the database's current state as the new snapshot, then empties the journal. */
  async compact(state: Iterable<JournalRecord>): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    const temporary = `${this.snapshotPath}.tmp`;
    const file = await open(temporary, 'w');
    let written = 0;
    try {
      let chunk: Buffer[] = [];
      let chunkBytes = 0;
      for (const record of state) {
        const bytes = encodeRecord(record);
        chunk.push(bytes);
        chunkBytes += bytes.length;
        if (chunkBytes >= SNAPSHOT_CHUNK_BYTES) {
          await file.write(Buffer.concat(chunk));
          written += chunkBytes;
          chunk = [];
          chunkBytes = 0;
        }
      }
      await file.write(Buffer.concat(chunk));
      written += chunkBytes;
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, this.snapshotPath);
    await this.syncDirectory();
    // A crash before the truncation replays the journal over the new snapshot, which is harmless.
    if (!this.journal) this.journal = await open(this.journalPath, 'a');
    await this.journal.truncate(0);
    await this.journal.sync();
    this.journalBytes = 0;
    this.snapshotBytes = written;
  }

  private async syncDirectory(): Promise<void> {
    const dir = await open(this.dataDir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  async close(): Promise<void> {
    await this.journal?.close();
    this.journal = null;
  }

  /** Removes the database's files (dropDatabase). */
  async destroy(): Promise<void> {
    await this.close();
    await rm(this.journalPath, { force: true });
    await rm(this.snapshotPath, { force: true });
    await this.syncDirectory().catch(() => undefined);
  }
}
