import type { Middleware } from 'koa';
import { HttpProblem } from './problem.ts';

const RETRY_AFTER_SECONDS = '5';

/**
 * Writes wait (503) until the indexes are made: on a new database the server listens before its unique
 * indexes exist, and until they do two concurrent creations of one login would both be stored. Mounted
 * by the management and meta protocols and bulk loading, under their error format; reads go on.
 */
export function writesAfterIndexes(indexed: () => boolean): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !indexed()) {
      throw new HttpProblem(503, 'The database is still being prepared; retry shortly.', {
        headers: { 'Retry-After': RETRY_AFTER_SECONDS },
      });
    }
    await next();
  };
}
