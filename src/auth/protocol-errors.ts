import type { Middleware } from 'koa';
import { statusProblem } from '../http/error-handler.ts';
import { HttpProblem, invalidRequest, type Fault } from '../http/problem.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/**
 * The management and meta protocols answer errors with a `{code, message}` body (as the original HSDA
 * APIs did): we send the problem details document with those two members added, so clients of either
 * convention find what they expect. Unexpected errors keep their 500 and lose their internals.
 */
export function protocolErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const problem =
        error instanceof HttpProblem
          ? error
          : isDatabaseUnavailable(error)
            ? undefined
            : (ctx.state.logger.error({ err: error }, 'unexpected error'),
              new HttpProblem(500, 'An unexpected error occurred.'));
      if (!problem) throw error;
      throw withCodeAndMessage(problem);
    }
  };
}

/**
 * `{code, message}` on what the app's router answers by itself on the protocols' paths, once every route
 * has been tried: 405 (keeping its Allow) for a method the path lacks, 404 for a path none has. Mounted
 * around that router (inside the error handler), for the paths `isProtocolPath` says.
 */
export function protocolStatusErrors(isProtocolPath: (path: string) => boolean): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status >= 400 && ctx.body == null && isProtocolPath(ctx.path)) {
      throw withCodeAndMessage(statusProblem(ctx));
    }
  };
}

const withCodeAndMessage = (problem: HttpProblem) =>
  new HttpProblem(problem.status, problem.message, {
    errors: problem.errors,
    headers: problem.headers,
    extensions: { code: problem.status, message: problem.message },
  });

/** The 400 for query parameters at fault, worded alike on every protocol mount. */
export const invalidParameters = (errors: Fault<'parameter'>[]) =>
  invalidRequest('Invalid parameters', 'parameter', errors);

/** The 400 for body fields at fault, worded alike on every protocol mount. */
export const invalidBody = (errors: Fault<'field'>[]) =>
  invalidRequest('Invalid request body', 'field', errors);
