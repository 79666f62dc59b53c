import type { Db } from 'mongodb';
import { USERS, type StoredUser } from '../db/protocol-records.ts';
import type { Credentials } from './credentials.ts';
import { secretMatches, unmatchableHash } from './secret.ts';

/**
 * The user these credentials belong to, or undefined. An unknown login costs the same hash check as a
 * wrong code, so the two cannot be told apart by their answer or their timing; only credentials that
 * matched before are answered faster (secret.ts).
 */
export async function authenticate(db: Db, credentials: Credentials): Promise<StoredUser | undefined> {
  const user = await db
    .collection<StoredUser>(USERS)
    .findOne({ login: credentials.login }, { projection: { _id: 0 } });
  const matches = await secretMatches(credentials.code, user?.code_hash ?? (await unmatchableHash));
  return user && matches ? user : undefined;
}
