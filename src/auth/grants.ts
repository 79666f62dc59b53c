/** An access entry's grant: a path (exact, or a prefix ending in `*`) and an HTTP verb (or `*`). */
export interface Grant {
  path: string;
  verb: string;
}

/** `/a/b/` and `/a/b` are the same resource: every route answers both forms. */
const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * Whether a grant lets a request with this method reach this path. HEAD is a GET without its body: a grant
 * of GET allows it too.
 */
export function grantAllows(grant: Grant, method: string, path: string): boolean {
  const verb = grant.verb.toUpperCase();
  const asked = method.toUpperCase();
  const verbMatches = verb === '*' || verb === asked || (asked === 'HEAD' && verb === 'GET');
  if (!verbMatches) return false;
  if (grant.path.endsWith('*')) {
    // `/meta/*` also covers `/meta`: every route answers with or without its trailing slash.
    const prefix = grant.path.slice(0, -1);
    return path.startsWith(prefix) || withoutTrailingSlash(path) === withoutTrailingSlash(prefix);
  }
  return withoutTrailingSlash(grant.path) === withoutTrailingSlash(path);
}

export const anyGrantAllows = (grants: Grant[], method: string, path: string) =>
  grants.some((grant) => grantAllows(grant, method, path));
