import type { Context } from 'koa';

/**
 * The absolute base URL clients reach us at: HSDS_PUBLIC_URL when set (behind a proxy that rewrites paths),
 * else the request's own scheme and host (X-Forwarded-* honoured only when HSDS_TRUST_PROXY is on).
 */
export function publicBaseUrl(ctx: Context, configured: string | undefined): string {
  return configured ?? `${ctx.protocol}://${ctx.host}`;
}
