import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { hashSecret } from '../auth/secret.ts';
import { notFound } from '../http/problem.ts';
import { ACCESS_ENTRIES, USERS, type StoredAccessEntry, type StoredUser } from '../db/protocol-records.ts';
import { rethrowAsConflict } from './duplicate-key.ts';
import type { ListFields, ListRequest } from './list-parameters.ts';
import { pagedList, type Page } from './paged-list.ts';
import { REDACTED_CODE, type NewUser, type UserChanges } from './user-input.ts';

/** A user as the management protocol shows it: every field of the spec, the code redacted. */
export interface UserView {
  id: string;
  login: string;
  name: string;
  email: string;
  code: typeof REDACTED_CODE;
}

export const userListFields: ListFields = {
  searched: ['login', 'name', 'email'],
  filterable: ['id', 'login', 'name', 'email'],
  sortable: ['login', 'name', 'email', 'id'],
};

const viewOf = ({ id, login, name, email }: StoredUser): UserView => ({
  id,
  login,
  name,
  email,
  code: REDACTED_CODE,
});

const withoutId = { projection: { _id: 0 } } as const;
const conflict = rethrowAsConflict('user');

/** The users of the management protocol. Codes go in through `hashSecret` and never come out. */
export class UserStore {
  private readonly users: Collection<StoredUser>;
  private readonly accessEntries: Collection<StoredAccessEntry>;

  constructor(db: Db) {
    this.users = db.collection<StoredUser>(USERS);
    this.accessEntries = db.collection<StoredAccessEntry>(ACCESS_ENTRIES);
  }

  list(request: ListRequest): Promise<Page<UserView>> {
    return pagedList(this.users, {}, request, viewOf);
  }

  /** Every user, by login, for the administration tools. */
  async *all(): AsyncGenerator<UserView> {
    for await (const user of this.users.find({}, withoutId).sort({ login: 1 })) yield viewOf(user);
  }

  async get(id: string): Promise<UserView> {
    const user = await this.users.findOne({ id }, withoutId);
    if (!user) throw userNotFound(id);
    return viewOf(user);
  }

  async exists(id: string): Promise<boolean> {
    return (await this.users.countDocuments({ id }, { limit: 1 })) > 0;
  }

  /** The stored user (with the code's hash) with this login, for the administration tools. */
  async findByLogin(login: string): Promise<StoredUser | undefined> {
    return (await this.users.findOne({ login }, withoutId)) ?? undefined;
  }

  async create({ id = randomUUID(), login, name, email, code }: NewUser): Promise<UserView> {
    const user: StoredUser = { id, login, name, email, code_hash: await hashSecret(code) };
    await this.users.insertOne(user).catch(conflict);
    // Grants left behind for this id (a deletion cut short) must not pass to a new user who reuses it.
    await this.accessEntries.deleteMany({ user_id: id });
    return viewOf(user);
  }

  /** Replaces the user's fields; the code changes only when a new one is given. */
  async update(id: string, { login, name, email, code }: UserChanges): Promise<UserView> {
    const changes = {
      login,
      name,
      email,
      ...(code === undefined ? {} : { code_hash: await hashSecret(code) }),
    };
    const updated = await this.users
      .findOneAndUpdate({ id }, { $set: changes }, { ...withoutId, returnDocument: 'after' })
      .catch(conflict);
    if (!updated) throw userNotFound(id);
    return viewOf(updated);
  }

  async setCode(id: string, code: string): Promise<void> {
    const { matchedCount } = await this.users.updateOne(
      { id },
      { $set: { code_hash: await hashSecret(code) } },
    );
    if (matchedCount === 0) throw userNotFound(id);
  }

  /** Deletes the user and, with them, their access entries. */
  async delete(id: string): Promise<UserView> {
    const deleted = await this.users.findOneAndDelete({ id }, withoutId);
    if (!deleted) throw userNotFound(id);
    await this.accessEntries.deleteMany({ user_id: id });
    return viewOf(deleted);
  }
}

const userNotFound = (id: string) => notFound(`No user with id '${id}'.`);
