import Router from '@koa/router';
import type { ProtocolDependencies } from '../protocols.ts';

/** `POST /import`: bulk loading over HTTP. */
export function importRoutes(_dependencies: ProtocolDependencies): Router {
  return new Router();
}
