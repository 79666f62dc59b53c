import type { Middleware } from 'koa';
import type { Config } from '../config.ts';
import { isProtectedPath } from '../meta/recorded-calls.ts';
import { HttpProblem } from './problem.ts';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const RETRY_AFTER_SECONDS = '5';

/**
 * Writes to the management and meta protocols and bulk loads wait (503) until the indexes are made: on a
 * new database the server listens before its unique indexes exist, and until they do two concurrent
 * creations of one login would both be stored. Reads, the core protocol included, are served meanwhile.
 */
export function writesAfterIndexes(indexed: () => boolean, config: Config): Middleware {
  return async (ctx, next) => {
    if (!READ_METHODS.has(ctx.method) && isProtectedPath(ctx.path, config) && !indexed()) {
      const message = 'The database is still being prepared; retry shortly.';
      // With the protocols' `code` and `message` members, as their other errors have.
      throw new HttpProblem(503, message, {
        headers: { 'Retry-After': RETRY_AFTER_SECONDS },
        extensions: { code: 503, message },
      });
    }
    await next();
  };
}
