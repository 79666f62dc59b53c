import type { Middleware } from 'koa';
import { HttpProblem } from '../http/problem.ts';
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
      throw new HttpProblem(problem.status, problem.message, {
        errors: problem.errors,
        headers: problem.headers,
        extensions: { code: problem.status, message: problem.message },
      });
    }
  };
}
