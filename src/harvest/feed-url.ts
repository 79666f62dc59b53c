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

/** Whether a header value can be sent: no line breaks or NULs. */
export const sendableHeaderValue = (value: string) => !/[\r\n\0]/.test(value);
