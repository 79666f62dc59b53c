import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

const HEADER = 'X-Request-Id';
/** Accept a caller's id only if it is short and plain, so it is safe to echo and to log. */
const ACCEPTABLE_ID = /^[\w.-]{1,128}$/;

declare module 'koa' {
  interface DefaultState {
    requestId: string;
    logger: Logger;
  }
}

/** Gives every request an id (the caller's, or a new one), echoes it, and a logger that carries it. */
export function requestId(logger: Logger): Middleware {
  return async (ctx, next) => {
    const given = ctx.get(HEADER);
    const id = ACCEPTABLE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    // Made when first used: most requests log nothing but their access line, which has its own.
    let child: Logger | undefined;
    Object.defineProperty(ctx.state, 'logger', {
      get: () => (child ??= logger.child({ reqId: id })),
      set: (value: Logger) => (child = value),
      enumerable: true,
      configurable: true,
    });
    ctx.set(HEADER, id);
    await next();
  };
}
