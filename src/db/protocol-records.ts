/** Where the management and meta protocols keep their records. */
export const USERS = 'management.users';
export const ACCESS_ENTRIES = 'management.access_entries';
export const META_ENTRIES = 'meta.entries';

/** A user as stored: the code only as a salted hash (`src/auth/secret.ts`), never in clear. */
export interface StoredUser {
  id: string;
  login: string;
  name: string;
  email: string;
  code_hash: string;
}

/** An access entry: the management protocol's "service", a grant of a path and verb to a user. */
export interface StoredAccessEntry {
  id: string;
  user_id: string;
  name?: string;
  path: string;
  verb: string;
}
