import cors from '@koa/cors';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import { FailedAttempts } from './auth/failed-attempts.ts';
import { protocolStatusErrors } from './auth/protocol-errors.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { directoryRoutes } from './directory/routes.ts';
import { Gazetteer } from './geo/gazetteer.ts';
import { accessLog } from './http/access-log.ts';
import { compression } from './http/compression.ts';
import { errorHandler } from './http/error-handler.ts';
import { healthRoutes } from './http/health.ts';
import { HttpMetrics } from './http/metrics.ts';
import { requestId } from './http/request-id.ts';
import { importRoutes } from './ingest/http-import.ts';
import { managementRoutes } from './management/routes.ts';
import { MetaEntries } from './meta/entries.ts';
import { MetaEntryQueue } from './meta/entry-queue.ts';
import { metaRecorder } from './meta/recorder.ts';
import { isProtectedPath } from './meta/recorded-calls.ts';
import { metaRoutes } from './meta/routes.ts';
import { openApiRoutes } from './openapi/routes.ts';
import type { ProtocolDependencies } from './protocols.ts';

export interface AppDependencies {
  config: Config;
  database: Database;
  logger: Logger;
  metrics?: HttpMetrics;
  /** Postcode centroids; US ZIP codes built in, more loaded by `main.ts` from HSDS_POSTCODES_FILE. */
  gazetteer?: Gazetteer;
  /**
   * Whether the database is prepared (indexes, and the sample data when seeding): `main.ts` prepares it
   * in the background after listening; until then the server is not ready. Prepared unless given.
   */
  prepared?: () => boolean;
  /**
   * Whether the indexes were made (or cannot be, for a reason an operator must fix through the API, such
   * as logins already duplicated): until then writes to the protected protocols wait (503). Made unless
   * given.
   */
  indexed?: () => boolean;
  /** Aborted by `main.ts` as it shuts down: live streams (the change feed's) end then. */
  stopping?: AbortSignal;
}

/** Builds the Koa application without listening: `main.ts` serves it, tests drive it directly. */
export function buildApp({
  config,
  database,
  logger,
  metrics = new HttpMetrics(),
  gazetteer = new Gazetteer(),
  prepared = () => true,
  indexed = () => true,
  stopping,
}: AppDependencies): Koa & { backgroundImportsDone(): Promise<void>; metaEntriesWritten(): Promise<void> } {
  // Behind `proxyHops` proxies, the client is the address the outermost one saw: X-Forwarded-For entries
  // before it were written by the client (Koa would take the first one, which anyone can forge).
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: config.proxyHops });
  app.silent = true; // errors are logged by errorHandler, with the request id

  app.use(requestId(logger));
  app.use(accessLog(logger));
  app.use(metrics.middleware());
  const protocols: ProtocolDependencies = {
    db: database.db,
    config,
    logger,
    attempts: new FailedAttempts(),
    indexed,
  };
  // Compression outside the meta recorder, so the recorder sees bodies before they become gzip streams.
  app.use(compression());
  // Outside the error handler, so it records what the caller finally received.
  const metaEntries = new MetaEntryQueue(new MetaEntries(database.db), logger);
  app.use(metaRecorder(protocols, metaEntries));
  app.use(errorHandler(logger, database));
  // The protocols' errors carry {code, message}, the 405s and 404s the router answers by itself too.
  app.use(protocolStatusErrors((path) => isProtectedPath(path, config)));
  app.use(
    cors({
      origin: config.corsOrigin,
      exposeHeaders: ['X-Request-Id', 'ETag', 'Retry-After', 'Last-Modified', 'Location'],
      // Every request header the API reads or the profile tells clients to send (a browser's own fetch
      // of the change feed sends Last-Event-ID; revalidating sends Cache-Control: no-cache).
      allowHeaders: [
        'Content-Type',
        'Content-Encoding',
        'If-None-Match',
        'Cache-Control',
        'Last-Event-ID',
        'Authorization',
        'x-appid',
        'x-appkey',
        'X-Request-Id',
      ],
    }),
  );

  // One top-level router, so that 405 (with Allow) is decided over every route at once.
  const router = new Router();
  const imports = importRoutes(protocols);
  for (const area of [
    directoryRoutes(
      {
        db: database.db,
        gazetteer,
        tombstoneDays: config.tombstoneDays,
        unknownParameters: config.unknownParameters,
        defaultOffset: config.defaultOffset,
        stopping,
      },
      config,
      metrics.registry,
    ),
    openApiRoutes(config),
    healthRoutes(database, metrics.registry, prepared),
    managementRoutes(protocols),
    metaRoutes(protocols),
    imports,
  ]) {
    router.use(area.routes());
  }
  app.use(router.routes());
  app.use(router.allowedMethods());
  // For a clean shutdown: imports accepted (202) run to their end, and the entries of the last calls are
  // written, before the database is closed.
  return Object.assign(app, {
    backgroundImportsDone: imports.backgroundImportsDone,
    metaEntriesWritten: () => metaEntries.idle(),
  });
}
