import type { Document } from 'bson';
import { cloneDocument } from '../bson-values.ts';
import { invalidNamespace, namespaceExists } from '../errors.ts';
import { compileFilter, type DocumentPredicate } from '../query/filter.ts';
import { mingoOptions } from '../query/mingo-context.ts';
import type { DatabaseStore } from '../storage/database-store.ts';
import type { JournalRecord } from '../storage/journal-record.ts';
import { Collection, type CollectionHost } from './collection.ts';
import { SerialQueue } from '../serial-queue.ts';
import { GroupCommit } from '../storage/group-commit.ts';
import type { Options } from 'mingo/types';

/**
 * A database: its collections, the queue its commands run through one at a time, and the journal
 * records of the command being run, which `commit()` hands to the journal: the reply waits until they are
 * durable, the next command does not.
 */
export class Database implements CollectionHost {
  private readonly collections = new Map<string, Collection>();
  private readonly queue = new SerialQueue();
  private pending: JournalRecord[] = [];
  private readonly journal: GroupCommit<JournalRecord>;
  private replaying = false;
  readonly mingoOptions: Partial<Options>;

  constructor(
    readonly name: string,
    private readonly store: DatabaseStore,
  ) {
    this.journal = new GroupCommit((records) => store.append(records));
    // $lookup and friends get copies: mingo stages may modify the documents they are given.
    this.mingoOptions = mingoOptions((name) =>
      [...(this.collections.get(name)?.all() ?? [])].map(cloneDocument),
    );
  }

  get databaseName(): string {
    return this.name;
  }

  compileFilter = (filter: Document): DocumentPredicate => compileFilter(filter, this.mingoOptions);

  record(record: JournalRecord): void {
    if (!this.replaying) this.pending.push(record);
  }

  /** Runs a command's work after the previous commands on this database have finished. */
  exclusive<T>(task: () => Promise<T> | T): Promise<T> {
    return this.queue.run(task);
  }

  /**
   * Hands the changes recorded so far to the journal; resolves once they are durable. Call it before the
   * next command runs (inside `exclusive`), and await it outside, so that the next command need not wait.
   */
  commit(): Promise<void> {
    const records = this.pending;
    this.pending = [];
    return this.journal.add(records);
  }

  replay(records: JournalRecord[]): void {
    this.replaying = true;
    try {
      for (const record of records) {
        if (record.op === 'createCollection') {
          if (!this.collections.has(record.collection))
            this.collections.set(record.collection, new Collection(record.collection, record.options, this));
        } else if (record.op === 'dropCollection') {
          this.collections.delete(record.collection);
        } else {
          this.collectionForReplay(record.collection).restore(record);
        }
      }
    } finally {
      this.replaying = false;
    }
  }

  private collectionForReplay(name: string): Collection {
    let collection = this.collections.get(name);
    if (!collection) this.collections.set(name, (collection = new Collection(name, {}, this)));
    return collection;
  }

  /**
   * Rewrites the files as a snapshot of the current state once the journal has outgrown it. Runs between
   * commands, once every record handed to the journal is written: the snapshot then holds exactly what
   * the journal held.
   */
  compact(): Promise<void> {
    return this.exclusive(async () => {
      await this.journal.flushed();
      if (this.store.shouldCompact) await this.store.compact(this.stateRecords());
    });
  }

  get shouldCompact(): boolean {
    return this.store.shouldCompact;
  }

  private *stateRecords(): Generator<JournalRecord> {
    for (const collection of this.collections.values()) yield* collection.records();
  }

  collection(name: string): Collection | undefined {
    return this.collections.get(name);
  }

  collectionNames(): string[] {
    return [...this.collections.keys()];
  }

  get isEmpty(): boolean {
    return this.collections.size === 0;
  }

  /** The collection, created implicitly as MongoDB does on first write. */
  ensureCollection(name: string): Collection {
    return this.collections.get(name) ?? this.createCollection(name, {});
  }

  createCollection(name: string, options: Document): Collection {
    validateCollectionName(name);
    if (this.collections.has(name)) throw namespaceExists(`Collection ${this.name}.${name} already exists.`);
    const collection = new Collection(name, options, this);
    this.collections.set(name, collection);
    this.record({ op: 'createCollection', collection: name, options });
    return collection;
  }

  dropCollection(name: string): boolean {
    if (!this.collections.delete(name)) return false;
    this.record({ op: 'dropCollection', collection: name });
    return true;
  }

  async close(): Promise<void> {
    await this.journal.flushed();
    await this.store.close();
  }

  /** Removes the files, after the journal writes under way (which would recreate them). */
  async destroy(): Promise<void> {
    await this.journal.flushed();
    await this.store.destroy();
  }
}

function validateCollectionName(name: string): void {
  if (
    name === '' ||
    name.includes('$') ||
    name.includes('\0') ||
    name.startsWith('.') ||
    name.startsWith('system.')
  )
    throw invalidNamespace(`Invalid collection name: ${name}`);
}
