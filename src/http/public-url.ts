import type { Context } from 'koa';
import { HttpProblem } from './problem.ts';

/**
 * A host as links may carry it: a DNS name or IPv4 address (letters, digits, hyphens and dots), or an IPv6
 * address in brackets, then an optional port. Anything else in Host (or a trusted X-Forwarded-Host) would
 * be copied into the links of cacheable answers.
 */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The absolute base URL clients reach us at: HSDS_PUBLIC_URL when set (behind a proxy that rewrites paths),
 * else the request's own scheme and host (X-Forwarded-* honoured only when HSDS_TRUST_PROXY is on), which
 * must then be a valid host[:port] and http or https (400 otherwise). A response built from forwarded
 * headers varies with them, so that a shared cache never serves one client's forged X-Forwarded-Host links
 * to others.
 */
export function publicBaseUrl(ctx: Context, configured: string | undefined): string {
  if (configured !== undefined) return configured;
  const trusted = ctx.app.proxy;
  if (trusted) ctx.vary(['X-Forwarded-Host', 'X-Forwarded-Proto']);
  const header = trusted && ctx.get('X-Forwarded-Host') ? 'X-Forwarded-Host' : 'Host';
  // The header as sent (its first value, as Koa reads it), not Koa's host, which drops a userinfo part
  // (`user@evil.example`) that no valid Host has.
  const host = (ctx.get(header).split(',')[0] ?? '').trim();
  const { protocol } = ctx;
  const port = Number(/:(\d+)$/.exec(host)?.[1] ?? 0);
  if (!HOST.test(host) || port > 65_535) {
    throw new HttpProblem(400, `The ${header} header is not a valid host[:port]; links are built from it.`);
  }
  if (protocol !== 'http' && protocol !== 'https') {
    throw new HttpProblem(400, 'The X-Forwarded-Proto header is not http or https; links are built from it.');
  }
  return `${protocol}://${host}`;
}
