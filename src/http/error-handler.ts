import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { isDatabaseUnavailable, isOutOfDiskSpace, OUT_OF_DISK_SPACE } from '../db/unavailable.ts';
import { HttpProblem, problemDocument } from './problem.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Seconds a client should wait before retrying while the database is unreachable. */
const RETRY_AFTER_SECONDS = '5';
/** Seconds before retrying a write refused for lack of disk space: freeing space takes an operator. */
const RETRY_AFTER_NO_SPACE_SECONDS = '60';

/**
 * Turns every failure into an RFC 9457 problem details body. Client errors say what was wrong; anything
 * unexpected is logged in full and answered with a bare 500, never a stack trace. A write refused for lack
 * of disk space is told to `database`, for readiness.
 */
export function errorHandler(logger: Logger, database?: Database): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // A status with no body (no route matched, or @koa/router's 405/501) still gets a problem body.
      if (ctx.status >= 400 && ctx.body == null) throw statusProblem(ctx);
    } catch (error) {
      const problem = toProblem(error);
      const log = ctx.state.logger ?? logger;
      if (isOutOfDiskSpace(error)) {
        // Each refused write is one line without a stack: a full disk refuses every write, and the stack
        // says nothing the message does not.
        log.warn(
          { errorCode: OUT_OF_DISK_SPACE, reason: (error as Error).message },
          'write refused: the database is out of disk space',
        );
        database?.refusedForSpace(error as Error);
      } else if (problem.status >= 500) {
        log.error({ err: error }, problem.status === 503 ? 'database unavailable' : 'unexpected error');
      }
      ctx.status = problem.status;
      ctx.set(problem.headers);
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = problemDocument(problem, ctx.path);
    }
  };
}

/**
 * The problem for a status set without a body. @koa/router answers 501 to a method no route has (TRACE,
 * PROPFIND, PURGE, …): that is the client's request for something this API never does, so a 405 with the
 * path's Allow (which the router set), not a server error to log and count.
 */
export function statusProblem(ctx: Context): HttpProblem {
  if (ctx.status === 404) return new HttpProblem(404, `No resource at ${ctx.path}`);
  if (ctx.status === 501) return new HttpProblem(405, `${ctx.method} is not a method this API answers.`);
  return new HttpProblem(ctx.status, ctx.message);
}

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (isOutOfDiskSpace(error)) {
    return new HttpProblem(503, 'The database is out of disk space and refuses writes; retry later.', {
      headers: { 'Retry-After': RETRY_AFTER_NO_SPACE_SECONDS },
    });
  }
  if (isDatabaseUnavailable(error)) {
    return new HttpProblem(503, 'The database is unreachable or did not answer in time; retry shortly.', {
      headers: { 'Retry-After': RETRY_AFTER_SECONDS },
    });
  }
  // Errors from Koa and its middleware (http-errors) carry a status and say whether their message is safe.
  const { status, expose, message, headers } = error as {
    status?: unknown;
    expose?: unknown;
    message?: unknown;
    headers?: Record<string, string>;
  };
  if (typeof status === 'number' && status >= 400 && status < 500 && expose === true) {
    return new HttpProblem(status, String(message), { headers: headers ?? {} });
  }
  return new HttpProblem(500, 'An unexpected error occurred.');
}
