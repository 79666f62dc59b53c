import type { Middleware } from 'koa';

/**
 * One log line per request once it is answered. Only the path is logged, never the query string or
 * headers: query strings can carry secrets (e.g. `code` on the management auth endpoint).
 */
export function accessLog(): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      ctx.state.logger.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          latencyMs: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    }
  };
}
