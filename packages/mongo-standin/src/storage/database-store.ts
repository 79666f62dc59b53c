import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeDocument } from '../bson-values.ts';
import type { JournalRecord } from './journal-record.ts';
import { frameRecord, readRecords } from './record-file.ts';
import { encodeRecord } from './record-encoding.ts';

/** Write whole buffers of about this size while streaming a snapshot out. */
const SNAPSHOT_CHUNK_BYTES = 4 * 1024 * 1024;

const framedRecord = (record: JournalRecord): Uint8Array[] => frameRecord(encodeRecord(record));
const decodeRecord = (payload: Buffer): JournalRecord => decodeDocument(payload) as JournalRecord;

/** Writes parts as one gathered write, so that documents' bytes are not copied together first. */
async function writeAll(file: FileHandle, parts: Uint8Array[]): Promise<number> {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const { bytesWritten } = await file.writev(parts);
  if (bytesWritten !== length) throw new Error(`write cut short: ${bytesWritten} of ${length} bytes`);
  return length;
}

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
    this.journalBytes += await writeAll(this.journal, records.flatMap(framedRecord));
    await this.journal.datasync();
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
      let chunk: Uint8Array[] = [];
      let chunkBytes = 0;
      for (const record of state) {
        for (const part of framedRecord(record)) {
          chunk.push(part);
          chunkBytes += part.length;
        }
        if (chunkBytes >= SNAPSHOT_CHUNK_BYTES) {
          written += await writeAll(file, chunk);
          chunk = [];
          chunkBytes = 0;
        }
      }
      written += await writeAll(file, chunk);
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
