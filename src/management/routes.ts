import Router from '@koa/router';
import type { ProtocolDependencies } from '../protocols.ts';

/** The management protocol (spec 4.5) under `config.managementPrefix`. */
export function managementRoutes(_dependencies: ProtocolDependencies): Router {
  return new Router();
}
