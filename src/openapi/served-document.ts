import { openApiDocument } from './document.ts';

/**
 * How many base URLs' documents are kept. In practice there are one or a few (the public URL, or the hosts
 * the server is reached by); the bound stops arbitrary Host headers from growing the cache.
 */
const MAX_BASE_URLS = 16;

const served = new Map<string, string>();

/** The OpenAPI document as served to clients reaching the server at `baseUrl`, serialized once. */
export function openApiJson(baseUrl: string): string {
  let json = served.get(baseUrl);
  if (json === undefined) {
    json = JSON.stringify(openApiDocument(baseUrl));
    if (served.size >= MAX_BASE_URLS) served.delete(served.keys().next().value!);
    served.set(baseUrl, json);
  }
  return json;
}
