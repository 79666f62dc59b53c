import type { Middleware } from 'koa';
import type { Db } from 'mongodb';
import { ACCESS_ENTRIES, type StoredAccessEntry, type StoredUser } from '../db/protocol-records.ts';
import { HttpProblem } from '../http/problem.ts';
import { authenticate } from './authenticate.ts';
import { credentialsOf, type Credentials } from './credentials.ts';
import type { FailedAttempts } from './failed-attempts.ts';
import { anyGrantAllows } from './grants.ts';

/** Who made a request that passed access control. */
export interface Caller {
  userId: string;
  login: string;
}

declare module 'koa' {
  interface DefaultState {
    caller?: Caller;
  }
}

/** One answer for every refusal, so a caller learns nothing about which part was wrong. */
export const NO_ACCESS = 'No access: valid credentials with a grant for this path and method are required.';

/**
 * The user these credentials (undefined: none given) belong to. Failed authentication counts against the
 * client's address and the login tried; too many failures answer 429 with Retry-After, any other refusal
 * 403 with NO_ACCESS. A call without credentials is no attempt: it is refused, and counts for nothing.
 */
export async function authenticateCaller(
  db: Db,
  attempts: FailedAttempts,
  client: string,
  credentials: Credentials | undefined,
): Promise<StoredUser> {
  if (!credentials) throw new HttpProblem(403, NO_ACCESS);
  const { login } = credentials;
  for (;;) {
    const wait = attempts.retryAfterSeconds(client, login);
    if (wait === 0) break;
    // At the limit only by checks still under way (a client's concurrent calls), it may not be: wait for
    // them and look again. Guesses in parallel still get no further than the limit.
    const underWay = attempts.checksUnderWay(client);
    if (!underWay) {
      throw new HttpProblem(429, 'Too many failed authentication attempts; retry later.', {
        headers: { 'Retry-After': String(wait) },
      });
    }
    await underWay;
  }
  // Counted as failed before the (slow) check, so that parallel guesses see each other; a success then
  // takes back its own count, and only its own.
  attempts.recordFailure(client, login);
  const checked = attempts.startCheck(client);
  try {
    const user = await authenticate(db, credentials).catch((error: unknown) => {
      // Not a failed authentication (the database is unreachable, say): it must not lock the client out.
      attempts.withdrawFailure(client, login);
      throw error;
    });
    if (!user) throw new HttpProblem(403, NO_ACCESS);
    attempts.withdrawFailure(client, login);
    return user;
  } finally {
    checked();
  }
}

/**
 * Access control for the management and meta protocols (and bulk loading): the caller authenticates
 * (`x-appid`/`x-appkey`, or HTTP Basic) and needs an access entry granting this path and method.
 */
export function requireAccess(db: Db, attempts: FailedAttempts): Middleware {
  return async (ctx, next) => {
    const user = await authenticateCaller(db, attempts, ctx.ip, credentialsOf(ctx));
    const grants = await db
      .collection<StoredAccessEntry>(ACCESS_ENTRIES)
      .find({ user_id: user.id }, { projection: { _id: 0, path: 1, verb: 1 } })
      .toArray();
    if (!anyGrantAllows(grants, ctx.method, ctx.path)) throw new HttpProblem(403, NO_ACCESS);
    ctx.state.caller = { userId: user.id, login: user.login };
    await next();
  };
}
