/**
 * What is wrong with a feed's base URL, if anything: credentials go in headers (they would be logged and
 * recorded with the URL), and paths are appended to it, which a query or fragment would swallow.
 */
export function feedUrlProblem(url: URL): string | undefined {
  if (!/^https?:$/.test(url.protocol)) return 'must be http or https';
  if (url.username || url.password) return 'must not hold credentials: give them in a header';
  if (url.search || url.hash) return 'must not have a query or fragment: paths are appended to it';
  return undefined;
}

/** What is wrong with a header to send, if anything; never quoting the value (a credential). */
export function headerProblem(name: string, value: string): string | undefined {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return 'its name is not a header name';
  if (/[\r\n\0]/.test(value)) return 'its value holds a line break or NUL';
  return undefined;
}
