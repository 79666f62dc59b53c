import Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { Database } from '../db/database.ts';

const READINESS_PING_TIMEOUT_MS = 2000;

/** Liveness, readiness and metrics endpoints for orchestrators and monitoring. */
export function healthRoutes(database: Database, registry: Registry): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const up = await database.ping(READINESS_PING_TIMEOUT_MS);
    ctx.status = up ? 200 : 503;
    if (!up) ctx.set('Retry-After', '5');
    ctx.body = { status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down' };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}
