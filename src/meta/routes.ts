import Router from '@koa/router';
import type { ProtocolDependencies } from '../protocols.ts';

/** The meta protocol (spec 4.6) at `/meta/`. */
export function metaRoutes(_dependencies: ProtocolDependencies): Router {
  return new Router();
}
