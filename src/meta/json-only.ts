import type { Middleware } from 'koa';
import { HttpProblem } from '../http/problem.ts';

/**
 * Refuses a request body that is not JSON with 415: `jsonBody` alone skips such bodies, and a form post
 * would become an empty meta entry. Requests without a body pass.
 */
export function jsonOnly(): Middleware {
  return async (ctx, next) => {
    if (ctx.is('json') === false) throw new HttpProblem(415, 'The request body must be application/json.');
    await next();
  };
}
