import { openApiDocument } from './document.ts';

/**
 * How many base URLs' documents are kept. In practice there are one or a few (the public URL, or the hosts
 * the server is reached by); the bound stops arbitrary Host headers from growing the cache.
 */
const MAX_BASE_URLS = 16;

/**
 * The OpenAPI document as an app serves it, with its management prefix: for each base URL clients reach
 * it at, serialized once.
 */
export function servedDocument(managementPrefix: string): (baseUrl: string) => string {
  const served = new Map<string, string>();
  return (baseUrl) => {
    let json = served.get(baseUrl);
    if (json === undefined) {
      json = JSON.stringify(openApiDocument(baseUrl, managementPrefix));
      if (served.size >= MAX_BASE_URLS) served.delete(served.keys().next().value!);
      served.set(baseUrl, json);
    }
    return json;
  };
}
