import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { HttpProblem, problemDocument } from './problem.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Seconds a client should wait before retrying while the database is unreachable. */
const RETRY_AFTER_SECONDS = '5';

/**
 * Turns every failure into an RFC 9457 problem details body. Client errors say what was wrong; anything
 * unexpected is logged in full and answered with a bare 500, never a stack trace.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // A status with no body (no route matched, or @koa/router's 405/501) still gets a problem body.
      if (ctx.status >= 400 && ctx.body == null) {
        throw new HttpProblem(ctx.status, ctx.status === 404 ? `No resource at ${ctx.path}` : ctx.message);
      }
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500) {
        const log = ctx.state.logger ?? logger;
        log.error({ err: error }, problem.status === 503 ? 'database unavailable' : 'unexpected error');
      }
      ctx.status = problem.status;
      ctx.set(problem.headers);
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = problemDocument(problem, ctx.path);
    }
  };
}

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (isDatabaseUnavailable(error)) {
    return new HttpProblem(503, 'The database is unreachable; retry shortly.', {
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
