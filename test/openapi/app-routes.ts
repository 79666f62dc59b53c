import type Router from '@koa/router';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { Database } from '../../src/db/database.ts';
import { createLogger } from '../../src/log.ts';

/** One route the app serves, its path written as an OpenAPI path template (`/services/{id}`). */
export interface AppRoute {
  path: string;
  /** Lower-case, as OpenAPI names operations; HEAD (answered for every GET) left out. */
  methods: string[];
}

/**
 * Every route of the real app, read from its top-level router (which holds every route, so that 405 is
 * decided over all of them). The database client connects lazily, so nothing is started.
 */
export async function appRoutes(): Promise<AppRoute[]> {
  const logger = createLogger('silent');
  const database = new Database({ uri: 'mongodb://127.0.0.1:9', dbName: 'routes', timeoutMs: 100, logger });
  try {
    const app = buildApp({ config: loadConfig({}), database, logger });
    const routers = app.middleware.flatMap((middleware) => {
      const router = (middleware as { router?: Router }).router;
      return router ? [router] : [];
    });
    return routers.flatMap((router) =>
      router.stack
        .filter((layer) => layer.methods.length > 0)
        .map((layer) => ({
          path: String(layer.path).replace(/:(\w+)/g, '{$1}'),
          methods: layer.methods.filter((method) => method !== 'HEAD').map((method) => method.toLowerCase()),
        })),
    );
  } finally {
    await database.close();
  }
}
