import type { Context } from 'koa';

/**
 * The absolute base URL clients reach us at: HSDS_PUBLIC_URL when set (behind a proxy that rewrites paths),
 * else the request's own scheme and host (X-Forwarded-* honoured only when HSDS_TRUST_PROXY is on). A
 * response built from forwarded headers varies with them, so that a shared cache never serves one
 * client's forged X-Forwarded-Host links to others.
 */
export function publicBaseUrl(ctx: Context, configured: string | undefined): string {
  if (configured !== undefined) return configured;
  if (ctx.app.proxy) ctx.vary(['X-Forwarded-Host', 'X-Forwarded-Proto']);
  return `${ctx.protocol}://${ctx.host}`;
}
