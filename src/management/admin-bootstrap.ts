import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import { verifySecret } from '../auth/secret.ts';
import { AccessEntryStore } from './access-entries.ts';
import { UserStore } from './users.ts';

/**
 * Makes sure the configured administrator (HSDS_ADMIN_LOGIN, HSDS_ADMIN_CODE) exists, with that code and a
 * grant of every path and verb, so that a fresh deployment can be managed at all. Idempotent: run at every
 * start-up, it rehashes the code only when it has changed.
 */
export async function ensureAdministrator(
  db: Db,
  admin: { login: string; code: string },
  logger: Logger,
): Promise<void> {
  const users = new UserStore(db);
  const existing = await users.findByLogin(admin.login);
  let userId: string;
  if (!existing) {
    ({ id: userId } = await users.create({ ...admin, name: 'Administrator', email: '' }));
    logger.info({ login: admin.login }, 'administrator created');
  } else {
    userId = existing.id;
    if (!(await verifySecret(admin.code, existing.code_hash))) {
      await users.setCode(userId, admin.code);
      logger.info({ login: admin.login }, "administrator's code changed");
    }
  }
  await new AccessEntryStore(db, users).ensureGrant({
    user_id: userId,
    name: 'administrator',
    path: '*',
    verb: '*',
  });
}
