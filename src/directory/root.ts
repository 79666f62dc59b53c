import type { Middleware } from 'koa';
import { publicBaseUrl } from '../http/public-url.ts';

/** The HSDS specification version this API follows (spec part 9). */
export const HSDS_VERSION = '3.0';

/** `GET /`: the root info object of spec part 2.1. */
export function rootInfo(publicUrl: string | undefined): Middleware {
  return (ctx) => {
    const base = publicBaseUrl(ctx, publicUrl);
    ctx.body = {
      version: HSDS_VERSION,
      profile: `${base}/profile`,
      openapi_url: `${base}/openapi.json`,
    };
  };
}
