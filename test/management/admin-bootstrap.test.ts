import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.ts';
import { createLogger } from '../../src/log.ts';
import { ensureAdministrator } from '../../src/management/admin-bootstrap.ts';
import { ACCESS_ENTRIES, USERS, type StoredUser } from '../../src/db/protocol-records.ts';
import { startTestDatabase, type TestDatabase } from '../support/database.ts';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await startTestDatabase();
});
afterAll(async () => testDatabase?.close());

const logger = createLogger('silent');

describe('the administrator bootstrap', () => {
  it('creates the administrator with a grant of everything, and is idempotent', async () => {
    const { db } = testDatabase;
    const admin = { login: 'root', code: 'root-code-0123456789' };
    await ensureAdministrator(db, admin, logger);
    const created = await db.collection<StoredUser>(USERS).findOne({ login: 'root' });
    await ensureAdministrator(db, admin, logger);

    const users = await db.collection<StoredUser>(USERS).find({ login: 'root' }).toArray();
    expect(users).toHaveLength(1);
    expect(users[0]?.code_hash).toBe(created?.code_hash); // not rehashed: the code had not changed
    const grants = await db.collection(ACCESS_ENTRIES).find({ user_id: created?.id }).toArray();
    expect(grants).toMatchObject([{ path: '*', verb: '*' }]);
    expect(await authenticate(db, admin)).toMatchObject({ id: created?.id });
  });

  it('takes a changed code, and restores a revoked grant', async () => {
    const { db } = testDatabase;
    const { id } = (await authenticate(db, { login: 'root', code: 'root-code-0123456789' }))!;
    await db.collection(ACCESS_ENTRIES).deleteMany({ user_id: id });

    await ensureAdministrator(db, { login: 'root', code: 'new-root-code-0123456789' }, logger);
    expect(await authenticate(db, { login: 'root', code: 'new-root-code-0123456789' })).toMatchObject({ id });
    expect(await authenticate(db, { login: 'root', code: 'root-code-0123456789' })).toBeUndefined();
    expect(await db.collection(ACCESS_ENTRIES).countDocuments({ user_id: id, path: '*', verb: '*' })).toBe(1);
  });
});
