import type { Middleware } from 'koa';

/** Users, grants, codes, the audit trail and import reports are nobody's to cache. */
export const noStore: Middleware = async (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  await next();
};
