import { randomUUID } from 'node:crypto';
import type { Db, Document, Filter } from 'mongodb';
import { META_ENTRIES } from '../db/protocol-records.ts';
import { servedEntry, type MetaEntry } from './entry.ts';

/** The fields a meta entry is created or updated with (its `id` is always ours). */
export type MetaFields = Omit<MetaEntry, 'id'>;

/** Meta entries in the database; newest first by `recorded_at`. */
export class MetaEntries {
  constructor(private readonly db: Db) {}

  private get collection() {
    return this.db.collection(META_ENTRIES);
  }

  /** Stores a new entry with a fresh id; `hidden` fields (named `_…`) are kept but never served. */
  async create(fields: MetaFields, hidden: Document = {}): Promise<MetaEntry> {
    const stored = { id: randomUUID(), ...fields, ...hidden };
    await this.collection.insertOne(stored);
    return servedEntry(stored);
  }

  /** Stores entries made elsewhere (the recorder's batches); ids are given here. */
  async createMany(entries: MetaFields[]): Promise<void> {
    await this.collection.insertMany(
      entries.map((fields) => ({ id: randomUUID(), ...fields })),
      { ordered: false },
    );
  }

  async find(id: string): Promise<MetaEntry | undefined> {
    const stored = await this.collection.findOne({ id }, { projection: { _id: 0 } });
    return stored ? servedEntry(stored) : undefined;
  }

  async page(pageNumber: number, perPage: number): Promise<{ total: number; items: MetaEntry[] }> {
    const [total, stored] = await Promise.all([
      this.collection.countDocuments({}),
      this.collection
        .find({}, { projection: { _id: 0 } })
        .sort({ recorded_at: -1, id: -1 })
        .skip((pageNumber - 1) * perPage)
        .limit(perPage)
        .toArray(),
    ]);
    return { total, items: stored.map(servedEntry) };
  }

  /** Sets the given fields (and removes `unset` ones); the updated entry, or undefined if there is none. */
  async update(id: string, set: Document, unset: string[] = []): Promise<MetaEntry | undefined> {
    const updated = await this.collection.findOneAndUpdate({ id }, changes(set, unset), {
      returnDocument: 'after',
      projection: { _id: 0 },
    });
    return updated ? servedEntry(updated) : undefined;
  }

  /**
   * Removes the entries recorded before `instant`, except those still `Waiting` (an import in progress
   * updates its entry when it ends); how many were removed. `recorded_at` is always our own ISO 8601 UTC
   * text, so comparing the text compares the instants.
   */
  async removeRecordedBefore(instant: Date): Promise<number> {
    const { deletedCount } = await this.collection.deleteMany({
      recorded_at: { $lt: instant.toISOString() },
      status: { $ne: 'Waiting' },
    });
    return deletedCount;
  }

  /** The same change to every entry matching `filter`; how many were changed. */
  async updateWhere(filter: Filter<Document>, set: Document, unset: string[] = []): Promise<number> {
    const { modifiedCount } = await this.collection.updateMany(filter, changes(set, unset));
    return modifiedCount;
  }
}

const changes = (set: Document, unset: string[]) => ({
  $set: set,
  ...(unset.length > 0 ? { $unset: Object.fromEntries(unset.map((field) => [field, ''])) } : {}),
});
