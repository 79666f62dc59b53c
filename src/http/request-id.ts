import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

const HEADER = 'X-Request-Id';
/** Accept a caller's id only if it is short and plain, so it is safe to echo and to log. */
const ACCEPTABLE_ID = /^[\w.-]{1,128}$/;

declare module 'koa' {
  interface DefaultState {
    readonly requestId: string;
    readonly logger: Logger;
  }
}

/**
 * A request's state, its logger made when first used: most requests log nothing but their access line,
 * which has its own. A class, not an accessor defined on Koa's plain state object per request: that gave
 * every request's state a shape of its own and cost ~9 µs of CPU per request served from memory.
 */
class RequestState {
  readonly requestId: string;
  readonly #base: Logger;
  #child: Logger | undefined;
  constructor(requestId: string, base: Logger) {
    this.requestId = requestId;
    this.#base = base;
  }
  get logger(): Logger {
    return (this.#child ??= this.#base.child({ reqId: this.requestId }));
  }
}

/** Gives every request an id (the caller's, or a new one), echoes it, and a logger that carries it. */
export function requestId(logger: Logger): Middleware {
  return async (ctx, next) => {
    const given = ctx.get(HEADER);
    const id = ACCEPTABLE_ID.test(given) ? given : randomUUID();
    ctx.state = Object.assign(new RequestState(id, logger), ctx.state);
    ctx.set(HEADER, id);
    await next();
  };
}
