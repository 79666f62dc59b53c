import type { Middleware } from 'koa';
import type { ProtocolDependencies } from '../protocols.ts';

/** Records meta entries for the calls the meta protocol logs. */
export function metaRecorder(_dependencies: ProtocolDependencies): Middleware {
  return async (_ctx, next) => next();
}
