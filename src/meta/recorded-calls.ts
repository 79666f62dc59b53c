import type { Config } from '../config.ts';
import { endpoints } from '../directory/endpoints.ts';

const READ_METHODS = new Set(['GET', 'HEAD']);
const CORE_RESOURCES = endpoints.map((endpoint) => endpoint.path);

/** `/meta` and everything below it, but not `/metadata`. */
const isUnder = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

/** Whether the path is behind access control: the management and meta protocols, bulk loading. */
export function isProtectedPath(rawPath: string, config: Config): boolean {
  const path = rawPath.toLowerCase();
  return (
    isUnder(path, config.managementPrefix.toLowerCase()) || isUnder(path, '/meta') || isUnder(path, '/import')
  );
}

/**
 * Which calls get a meta entry: every call to the management protocol, every write to the meta protocol
 * (recording its reads would record itself endlessly), every bulk load, and, when `metaLogReads` is on,
 * reads of the core protocol (its POST list variants are reads too). CORS preflights are not calls.
 * Paths are compared case-insensitively because the router matches them so: `/META/` must not escape.
 */
export function isRecordedCall(method: string, rawPath: string, config: Config): boolean {
  if (method === 'OPTIONS') return false;
  const path = rawPath.toLowerCase();
  if (isUnder(path, config.managementPrefix.toLowerCase())) return true;
  if (isUnder(path, '/meta') || isUnder(path, '/import')) return !READ_METHODS.has(method);
  if (!config.metaLogReads) return false;
  return path === '/' || CORE_RESOURCES.some((resource) => isUnder(path, resource));
}
