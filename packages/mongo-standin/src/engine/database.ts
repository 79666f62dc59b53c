import type { Document } from 'bson';
import type { Options } from 'mingo/types';
import { invalidNamespace, namespaceExists } from '../errors.ts';
import { compileFilter, type DocumentPredicate } from '../query/filter.ts';
import { mingoOptions } from '../query/mingo-context.ts';
import type { CollectionEntry, Storage } from '../storage/storage.ts';
import { Collection, type CollectionHost } from './collection.ts';
import { KeptReads } from './kept-reads.ts';
import { ID_INDEX_SPEC } from './index-spec.ts';

/**
 * A database: its collections. A writing command runs in one storage transaction, committed before the
 * next command begins (transactions are synchronous); readers see what the last commit made visible.
 */
export class Database implements CollectionHost {
  private collections = new Map<string, Collection>();
  /** Collections whose catalog entry the running write changed. */
  private readonly changedCollections = new Set<Collection>();
  readonly mingoOptions: Partial<Options>;
  readonly keptReads: KeptReads;

  constructor(
    readonly name: string,
    readonly storage: Storage,
    entries: CollectionEntry[],
  ) {
    this.keptReads = new KeptReads(() => storage.generation);
    this.load(entries);
    // $lookup and friends read the collection afresh: every read decodes new documents.
    this.mingoOptions = mingoOptions((name) => [...(this.collections.get(name)?.all() ?? [])]);
  }

  private load(entries: CollectionEntry[]): void {
    this.collections = new Map(entries.map((entry) => [entry.name, new Collection(entry, this)]));
  }

  get databaseName(): string {
    return this.name;
  }

  compileFilter = (filter: Document): DocumentPredicate => compileFilter(filter, this.mingoOptions);

  changed(collection: Collection): void {
    this.changedCollections.add(collection);
  }

  /**
   * Runs a writing command's work in one transaction, committed on return (`storage.flushed()` tells when
   * it is durable). If it fails, the collections are read again from the catalog, as the work found them.
   */
  write<T>(work: () => T): T {
    try {
      return this.storage.write(() => {
        const result = work();
        for (const collection of this.changedCollections) this.storage.putCollection(collection.entry);
        return result;
      });
    } catch (error) {
      this.load(this.storage.collections().filter((entry) => entry.database === this.name));
      throw error;
    } finally {
      this.changedCollections.clear();
      this.keptReads.release();
    }
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
    const entry: CollectionEntry = {
      database: this.name,
      name,
      options,
      table: this.storage.newTableName('c'),
      indexes: [{ spec: ID_INDEX_SPEC, table: this.storage.newTableName('i'), multikey: false }],
      dataSize: 0,
    };
    const collection = new Collection(entry, this);
    this.collections.set(name, collection);
    this.changed(collection);
    return collection;
  }

  dropCollection(name: string): boolean {
    const collection = this.collections.get(name);
    if (!collection) return false;
    this.collections.delete(name);
    this.changedCollections.delete(collection);
    this.storage.removeCollection(collection.entry);
    return true;
  }

  /** Drops every collection (dropDatabase). */
  dropAll(): void {
    for (const name of this.collectionNames()) this.dropCollection(name);
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
