import { randomUUID } from 'node:crypto';
import type { Collection, Db, Filter } from 'mongodb';
import { invalidBody } from '../auth/protocol-errors.ts';
import { notFound } from '../http/problem.ts';
import { ACCESS_ENTRIES, type StoredAccessEntry } from '../db/protocol-records.ts';
import type { AccessEntryInput } from './access-entry-input.ts';
import { rethrowAsConflict } from './duplicate-key.ts';
import type { ListFields, ListRequest } from './list-parameters.ts';
import { pagedList, type Page } from './paged-list.ts';
import type { UserStore } from './users.ts';

export const accessEntryListFields: ListFields = {
  searched: ['name', 'path', 'verb'],
  filterable: ['id', 'user_id', 'name', 'path', 'verb'],
  sortable: ['path', 'verb', 'name', 'user_id', 'id'],
};

/** Stored and shown alike: an access entry holds no secret. */
const viewOf = ({ id, user_id, name, path, verb }: StoredAccessEntry): StoredAccessEntry => ({
  id,
  user_id,
  ...(name === undefined ? {} : { name }),
  path,
  verb,
});

const withoutId = { projection: { _id: 0 } } as const;
const conflict = rethrowAsConflict('access entry');

/** Access entries (the management protocol's "services"): grants of a path and verb to a user. */
export class AccessEntryStore {
  private readonly entries: Collection<StoredAccessEntry>;

  constructor(
    db: Db,
    private readonly users: UserStore,
  ) {
    this.entries = db.collection<StoredAccessEntry>(ACCESS_ENTRIES);
  }

  /** A page of the entries within `scope` (e.g. one user's) that match the request. */
  list(request: ListRequest, scope: Filter<StoredAccessEntry> = {}): Promise<Page<StoredAccessEntry>> {
    return pagedList(this.entries, scope, request, viewOf);
  }

  /** Every entry of one user, for the administration tools. */
  ofUser(userId: string): Promise<StoredAccessEntry[]> {
    return this.entries.find({ user_id: userId }, withoutId).sort({ path: 1, verb: 1 }).toArray();
  }

  async get(id: string): Promise<StoredAccessEntry> {
    const entry = await this.entries.findOne({ id }, withoutId);
    if (!entry) throw entryNotFound(id);
    return viewOf(entry);
  }

  async create({ id = randomUUID(), ...fields }: AccessEntryInput): Promise<StoredAccessEntry> {
    await this.requireUser(fields.user_id);
    const entry = viewOf({ id, ...fields });
    await this.entries.insertOne({ ...entry }).catch(conflict); // a copy: insertOne adds an _id
    return entry;
  }

  /** Replaces the entry's fields (a `name` left out is removed). */
  async update(id: string, { user_id, name, path, verb }: AccessEntryInput): Promise<StoredAccessEntry> {
    await this.requireUser(user_id);
    const updated = await this.entries.findOneAndReplace({ id }, viewOf({ id, user_id, name, path, verb }), {
      ...withoutId,
      returnDocument: 'after',
    });
    if (!updated) throw entryNotFound(id);
    return viewOf(updated);
  }

  async delete(id: string): Promise<StoredAccessEntry> {
    const deleted = await this.entries.findOneAndDelete({ id }, withoutId);
    if (!deleted) throw entryNotFound(id);
    return viewOf(deleted);
  }

  /** The user's entry granting this path and verb: the existing one, or else a new one. */
  async ensureGrant(grant: Omit<AccessEntryInput, 'id'>): Promise<StoredAccessEntry> {
    await this.requireUser(grant.user_id);
    const { name, ...granted } = grant;
    const entry = await this.entries.findOneAndUpdate(
      granted,
      { $setOnInsert: { id: randomUUID(), ...(name === undefined ? {} : { name }) } },
      { ...withoutId, upsert: true, returnDocument: 'after' },
    );
    return viewOf(entry!);
  }

  /** Deletes the user's entries granting exactly this path and verb; how many there were. */
  async revoke(userId: string, path: string, verb: string): Promise<number> {
    const { deletedCount } = await this.entries.deleteMany({ user_id: userId, path, verb });
    return deletedCount;
  }

  private async requireUser(userId: string): Promise<void> {
    if (!(await this.users.exists(userId))) {
      throw invalidBody([{ field: 'user_id', message: 'names no user' }]);
    }
  }
}

const entryNotFound = (id: string) => notFound(`No access entry with id '${id}'.`);
