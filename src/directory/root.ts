import Router from '@koa/router';
import { publicBaseUrl } from '../http/public-url.ts';

/** The HSDS specification version this API follows (spec part 9). */
export const HSDS_VERSION = '3.0';

/** `GET /`: the root info object of spec part 2.1. */
export function rootRoutes(publicUrl: string | undefined): Router {
  const router = new Router();
  router.get('/', (ctx) => {
    const base = publicBaseUrl(ctx, publicUrl);
    ctx.body = {
      version: HSDS_VERSION,
      profile: `${base}/profile`,
      openapi_url: `${base}/openapi.json`,
    };
  });
  return router;
}
