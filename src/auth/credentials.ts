import type { ParsedUrlQuery } from 'node:querystring';
import type { Context } from 'koa';

export interface Credentials {
  login: string;
  code: string;
}

/**
 * The caller's login and code: `x-appid` and `x-appkey` headers (as the original HSDA management API
 * defined them), or HTTP Basic authentication with the login as user name and the code as password.
 */
export function credentialsOf(ctx: Context): Credentials | undefined {
  const login = ctx.get('x-appid');
  const code = ctx.get('x-appkey');
  if (login && code) return { login, code };
  const [scheme, encoded] = ctx.get('authorization').split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { login: decoded.slice(0, colon), code: decoded.slice(colon + 1) };
}

/** The `login` and `code` query parameters, as the management protocol's auth endpoint takes them. */
export function credentialsInQuery(query: ParsedUrlQuery): Credentials | undefined {
  const { login, code } = query;
  return typeof login === 'string' && login && typeof code === 'string' && code ? { login, code } : undefined;
}
