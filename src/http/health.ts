import Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { Database } from '../db/database.ts';

/** How long readiness waits for the database's answer, whatever HSDS_DB_TIMEOUT_MS: probes want one soon. */
const READINESS_CHECK_TIMEOUT_MS = 2000;

/**
 * Liveness, readiness and metrics endpoints for orchestrators and monitoring. Ready means the database
 * answers, takes writes (checked once one was refused for lack of disk space: see Database.state), and is
 * prepared (`prepared`: its indexes, and the sample data when seeding, are in place).
 */
export function healthRoutes(database: Database, registry: Registry, prepared: () => boolean): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const state = await database.state(READINESS_CHECK_TIMEOUT_MS);
    const isPrepared = prepared();
    const ready = state === 'up' && isPrepared;
    ctx.status = ready ? 200 : 503;
    if (!ready) ctx.set('Retry-After', '5');
    ctx.body = { status: ready ? 'ok' : 'unavailable', database: state, prepared: isPrepared };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}
