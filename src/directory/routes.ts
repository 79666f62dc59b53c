import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { etag } from '../http/etag.ts';
import { noStore } from '../http/no-store.ts';
import { changesHandler } from './changes-handler.ts';
import { jsonBody } from '../http/json-body.ts';
import { endpoints, type QueryContext } from './endpoints.ts';
import { listHandler } from './list-handler.ts';
import { recordHandler } from './record-handler.ts';
import { ResponseCache } from './response-cache.ts';
import { rootInfo } from './root.ts';

/**
 * The core read protocol: the root info, and each resource's list (GET and POST) and single records; and
 * the change feed.
 */
export function directoryRoutes(
  context: QueryContext,
  options: Pick<Config, 'cacheControl' | 'publicUrl' | 'bodyLimitBytes' | 'responseCacheBytes'>,
  registry: Registry,
): Router {
  const router = new Router();
  // Per route, not router.use(): a router-level middleware would reach every route of the app once
  // nested, and management answers must never be publicly cacheable.
  const cached = etag(options.cacheControl);
  // Inside the ETag middleware, which answers conditional requests from what it sends.
  const cache =
    options.responseCacheBytes > 0
      ? new ResponseCache(context.db, options.responseCacheBytes, registry)
      : undefined;
  const kept = cache?.middleware() ?? passThrough;
  router.get('/', cached, rootInfo(options.publicUrl));
  for (const endpoint of endpoints) {
    const list = listHandler(endpoint, context);
    router.get(endpoint.path, cached, kept, list);
    router.post(endpoint.path, cached, jsonBody(options.bodyLimitBytes), list);
    router.get(`${endpoint.path}/:id`, cached, kept, recordHandler(endpoint, context));
  }
  // Our extension: each answer is of its moment, never cached.
  router.get('/changes', noStore, changesHandler(context, cache));
  return router;
}

const passThrough: Middleware = (_ctx, next) => next();
