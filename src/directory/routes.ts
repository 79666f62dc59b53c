import Router from '@koa/router';
import { etag } from '../http/etag.ts';
import { jsonBody } from '../http/json-body.ts';
import { endpoints, type QueryContext } from './endpoints.ts';
import { listHandler } from './list-handler.ts';
import { recordHandler } from './record-handler.ts';
import { rootRoutes } from './root.ts';

/** The core read protocol: the root info, and each resource's list (GET and POST) and single records. */
export function directoryRoutes(
  context: QueryContext,
  options: { cacheControl: string; publicUrl: string | undefined; bodyLimitBytes: number },
): Router {
  const router = new Router();
  router.use(etag(options.cacheControl));
  router.use(rootRoutes(options.publicUrl).routes());
  for (const endpoint of endpoints) {
    const list = listHandler(endpoint, context);
    router.get(endpoint.path, list);
    router.post(endpoint.path, jsonBody(options.bodyLimitBytes), list);
    router.get(`${endpoint.path}/:id`, recordHandler(endpoint, context));
  }
  return router;
}
